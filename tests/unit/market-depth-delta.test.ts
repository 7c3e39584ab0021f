/**
 * Depth deltas (contract/depth-delta.ts) and the v2 gateway core that sends them
 * (server/realtime/gateway.ts), driven without sockets or timers: a fake feed, fake sockets
 * whose send buffer the test fills and drains, and explicit flush() calls.
 *
 * - Seeded fuzz (after tldraw's recordStoreFuzzing): random sequences of books, diffed and
 *   applied incrementally, end equal to the last book; through the gateway, random books with
 *   random flushes, a socket that randomly stops draining and a second socket joining and
 *   leaving, every client ends with the feed's final book and never sees a seq gap.
 * - Gateway behaviour: one frame per socket per flush, conflated quotes with seq + 1, trades
 *   snapshots that end at the last flush (no duplicate, no lost print), truncation, candle
 *   snapshots re-fetched when a flush interleaves, streams deleted when sockets go.
 */
import { describe, expect, it } from 'vitest';
import { applyDepthDelta, diffDepth, type DepthDelta } from '../../contract/depth-delta';
import { applyQuoteDelta, diffQuote } from '../../contract/quote-delta';
import type { Candle, ClockState, Depth, DepthLevel, Quote, Trade } from '../../contract/market';
import { stepTicks } from '../../contract/market-rules';
import { MAX_TRADES_PER_FLUSH, serverFrameSchema, type ServerMessage } from '../../contract/realtime';
import { createFeedListeners } from '../../server/market/feed-listeners';
import { createRng, type Rng } from '../../server/market/prng';
import {
  createGatewayCore,
  MAX_BUFFERED_BYTES,
  TRADE_SNAPSHOT_PRINTS,
  type GatewayCore,
  type GatewayFeed,
} from '../../server/realtime/gateway';

// ---------- random books ----------

function randomBook(rng: Rng, symbol: string, ts: number): Depth {
  const mid = stepTicks(10_000 + rng.int(50_000), 0);
  const side = (dir: 1 | -1): DepthLevel[] => {
    const n = rng.int(6); // 0…5 levels (fewer at a price limit)
    const out: DepthLevel[] = [];
    let p = stepTicks(mid, dir);
    for (let k = 0; k < n; k++) {
      out.push({ priceMinor: p, volumeLots: 1 + rng.int(500) });
      p = stepTicks(p, dir);
    }
    return out;
  };
  return { symbol, ts, bids: side(-1), asks: side(1) };
}

/** A book near `prev`: one of a few realistic changes, or a fresh random book. */
function nextBook(rng: Rng, prev: Depth): Depth {
  const ts = prev.ts + rng.int(1_000);
  const r = rng.next();
  const clone = (levels: DepthLevel[]) => levels.map((l) => ({ ...l }));
  const bids = clone(prev.bids);
  const asks = clone(prev.asks);
  if (r < 0.3) {
    const side = rng.next() < 0.5 ? bids : asks;
    if (side.length > 0) side[rng.int(side.length)]!.volumeLots = 1 + rng.int(500);
  } else if (r < 0.45) {
    // the book shifts by a tick
    const dir = rng.next() < 0.5 ? 1 : -1;
    for (const l of [...bids, ...asks]) l.priceMinor = stepTicks(l.priceMinor, dir);
  } else if (r < 0.55) {
    (rng.next() < 0.5 ? bids : asks).pop(); // a level disappears
  } else if (r < 0.6) {
    return { ...prev, ts }; // nothing but time changed
  } else if (r < 0.8) {
    return randomBook(rng, prev.symbol, ts);
  } else {
    const side = rng.next() < 0.5 ? bids : asks;
    if (side.length < 5) side.push({ priceMinor: 1 + rng.int(100_000), volumeLots: 1 + rng.int(9) });
  }
  return { symbol: prev.symbol, ts, bids, asks };
}

describe('diffDepth / applyDepthDelta (seeded fuzz)', () => {
  const run = (seed: number) => {
    const rng = createRng('depth-fuzz', seed);
    let book = randomBook(rng, '2330', 1_000);
    let held = book; // what a client holds, built only from deltas
    for (let step = 0; step < 200; step++) {
      const next = nextBook(rng, book);
      const delta: DepthDelta = JSON.parse(JSON.stringify(diffDepth(book, next))); // over the wire
      held = applyDepthDelta(held, delta);
      expect(held, `seed ${seed} step ${step}`).toEqual(next);
      book = next;
    }
  };
  it.each([1, 2, 3])('pinned seed %i', run);
  it('300 random seeds', () => {
    const base = createRng('depth-fuzz-run', 1).int(1_000_000);
    for (let k = 0; k < 300; k++) run(base + k);
  });
  it('a delta of an unchanged book carries no level', () => {
    const b = randomBook(createRng('same', 1), '2330', 5);
    expect(diffDepth(b, b)).toEqual({
      ts: 5,
      bids: [],
      asks: [],
      bidsLen: b.bids.length,
      asksLen: b.asks.length,
    });
  });
});

// ---------- a fake feed and fake sockets ----------

const CLOCK: ClockState = {
  source: 'stress',
  mode: 'replay',
  phase: 'open',
  tradingPhase: 'continuous',
  speed: 1,
  now: 0,
  replayDate: null,
};

function quoteOf(symbol: string, lastMinor: number, ts: number): Quote {
  return {
    symbol,
    name: symbol,
    kind: 'stock',
    lastMinor,
    openMinor: lastMinor,
    highMinor: lastMinor,
    lowMinor: lastMinor,
    prevCloseMinor: lastMinor,
    limitUpMinor: lastMinor * 2,
    limitDownMinor: 1,
    bidMinor: lastMinor,
    askMinor: lastMinor + 1,
    volumeShares: 0,
    turnoverMinor: 0,
    ts,
    replayDate: null,
    phase: 'open',
    traded: true,
  };
}

/** A controllable feed: emit*() updates its state and calls the listeners, like a real feed. */
function fakeFeed() {
  // The real feeds' registry; emitting below calls the listeners directly (errors propagate).
  const listeners = createFeedListeners('fake feed');
  const { quoteFns, depthFns, candleFns, tradeFns } = listeners;
  const quotes = new Map<string, Quote>();
  const books = new Map<string, Depth>();
  const tapes = new Map<string, Trade[]>();
  const bars = new Map<string, Candle[]>();
  /** When set, candles() waits for this promise (to interleave flushes with a fetch). */
  let candleGate: Promise<void> | null = null;
  let candleCalls = 0;
  const feed: GatewayFeed = {
    onQuote: listeners.onQuote,
    onDepth: listeners.onDepth,
    onCandle: listeners.onCandle,
    onTrade: listeners.onTrade,
    quote: (s) => quotes.get(s),
    depth: (s) => books.get(s),
    trades: (s, limit) => (tapes.get(s) ?? []).slice(-Math.min(limit, 200)),
    async candles(s, p, limit) {
      candleCalls++;
      const gate = candleGate;
      if (gate) await gate;
      return (bars.get(`${s}|${p}`) ?? []).slice(-limit).map((c) => ({ ...c }));
    },
    isTradable: (s) => /^\d{4}$/.test(s),
    clock: () => CLOCK,
  };
  return {
    feed,
    quote(q: Quote) {
      quotes.set(q.symbol, q);
      for (const fn of quoteFns) fn(q);
    },
    book(d: Depth) {
      books.set(d.symbol, d);
      for (const fn of depthFns) fn(d);
    },
    trade(symbol: string, t: Trade) {
      const tape = tapes.get(symbol) ?? [];
      tape.push(t);
      if (tape.length > 200) tape.shift();
      tapes.set(symbol, tape);
      for (const fn of tradeFns) fn(symbol, t);
    },
    /** Adds a print to the 1m bar of its minute and emits the bar. */
    bar(symbol: string, ts: number, price: number) {
      const key = `${symbol}|1m`;
      const list = bars.get(key) ?? [];
      const minute = ts - (ts % 60_000);
      let c = list.at(-1);
      if (!c || c.ts !== minute) {
        c = {
          ts: minute,
          openMinor: price,
          highMinor: price,
          lowMinor: price,
          closeMinor: price,
          volumeShares: 0,
          turnoverMinor: 0,
        };
        list.push(c);
      }
      c.highMinor = Math.max(c.highMinor, price);
      c.lowMinor = Math.min(c.lowMinor, price);
      c.closeMinor = price;
      c.volumeShares += 1_000;
      bars.set(key, list);
      const copy = { ...c };
      for (const fn of candleFns) fn(symbol, '1m', copy);
    },
    bars: (symbol: string) => bars.get(`${symbol}|1m`) ?? [],
    tape: (symbol: string) => tapes.get(symbol) ?? [],
    setCandleGate(p: Promise<void> | null) {
      candleGate = p;
    },
    candleCalls: () => candleCalls,
  };
}

/** A socket whose send buffer the test controls, with a client that applies what it gets. */
class FakeClient {
  readyState = 1;
  bufferedAmount = 0;
  frames: ServerMessage[][] = [];
  /** Per stream: last seq and the state built from snapshot + deltas. */
  seq = new Map<string, number>();
  books = new Map<string, Depth>();
  quotes = new Map<string, Quote>();
  tapes = new Map<string, Trade[]>();
  bars = new Map<string, Map<number, Candle>>();
  snapshots = 0;
  closed: { code: number; reason: string } | null = null;

  send(text: string): void {
    const parsed = serverFrameSchema.parse(JSON.parse(text));
    const msgs = Array.isArray(parsed) ? parsed : [parsed];
    this.frames.push(msgs);
    for (const m of msgs) this.apply(m);
  }

  close(code: number, reason: string): void {
    this.closed = { code, reason };
    this.readyState = 2;
  }

  private apply(m: ServerMessage): void {
    if (m.type === 'hb' || m.type === 'error') return;
    const key = m.type === 'candles' ? `${m.type}:${m.symbol}:${m.period}` : `${m.type}:${m.symbol}`;
    if (m.kind === 'snapshot') {
      this.snapshots++;
      this.seq.set(key, m.seq);
    } else {
      // The gateway resyncs slow sockets itself: a delta always follows its predecessor.
      expect(this.seq.get(key), `delta of ${key} with no snapshot`).toBeDefined();
      expect(m.seq, `seq gap on ${key}`).toBe(this.seq.get(key)! + 1);
      this.seq.set(key, m.seq);
    }
    if (m.type === 'depth') {
      this.books.set(
        m.symbol,
        m.kind === 'snapshot' ? m.data : applyDepthDelta(this.books.get(m.symbol)!, m.data),
      );
    } else if (m.type === 'quote') {
      this.quotes.set(
        m.symbol,
        m.kind === 'snapshot' ? m.data : applyQuoteDelta(this.quotes.get(m.symbol)!, m.data),
      );
    } else if (m.type === 'trades') {
      this.tapes.set(
        m.symbol,
        m.kind === 'snapshot' ? [...m.data] : [...(this.tapes.get(m.symbol) ?? []), ...m.data],
      );
    } else if (m.type === 'candles') {
      const held = m.kind === 'snapshot' ? new Map<number, Candle>() : this.bars.get(m.symbol)!;
      for (const c of m.data) held.set(c.ts, c);
      this.bars.set(m.symbol, held);
    }
  }

  messages(): ServerMessage[] {
    return this.frames.flat();
  }
}

async function connect(core: GatewayCore) {
  const client = new FakeClient();
  const conn = core.open(client);
  const send = (msg: object) => core.message(conn, JSON.stringify(msg));
  return { client, conn, send };
}

// ---------- the gateway path, fuzzed ----------

describe('gateway depth path (seeded fuzz)', () => {
  const SYMS = ['2330', '2317', '0050'];
  const run = async (seed: number) => {
    const rng = createRng('gateway-depth-fuzz', seed);
    const f = fakeFeed();
    const books = new Map(SYMS.map((s) => [s, randomBook(rng, s, 0)]));
    for (const b of books.values()) f.book(b);
    const core = createGatewayCore(f.feed, { timers: false });
    const a = await connect(core);
    await a.send({ op: 'sub', channel: 'depth', symbols: SYMS });
    let b: Awaited<ReturnType<typeof connect>> | null = null;
    const bSubs = new Set<string>();
    for (let step = 0; step < 400; step++) {
      const r = rng.next();
      if (r < 0.5) {
        const s = SYMS[rng.int(SYMS.length)]!;
        const next = nextBook(rng, books.get(s)!);
        books.set(s, next);
        f.book(next);
      } else if (r < 0.8) core.flush();
      else if (r < 0.9) a.client.bufferedAmount = rng.next() < 0.5 ? MAX_BUFFERED_BYTES + 1 : 0;
      else if (r < 0.95 && !b) {
        b = await connect(core);
        const symbols = SYMS.slice(0, 1 + rng.int(3));
        await b.send({ op: 'sub', channel: 'depth', symbols });
        for (const s of symbols) bSubs.add(s);
      } else if (b) {
        const s = SYMS[rng.int(3)]!;
        const op = rng.next() < 0.5 ? 'unsub' : 'sub'; // a sub of a held stream: a fresh snapshot
        await b.send({ op, channel: 'depth', symbols: [s] });
        if (op === 'sub') bSubs.add(s);
        else bSubs.delete(s);
      }
    }
    a.client.bufferedAmount = 0;
    core.flush(); // the pending deltas, and fresh snapshots for what `a` missed
    core.flush();
    for (const s of SYMS) expect(a.client.books.get(s), `seed ${seed} ${s}`).toEqual(books.get(s));
    for (const s of bSubs)
      expect(b!.client.books.get(s), `seed ${seed} ${s} (second socket)`).toEqual(books.get(s));
    core.stop();
  };
  it.each([1, 7])('pinned seed %i', run);
  it('60 random seeds', async () => {
    const base = createRng('gateway-depth-fuzz-run', 1).int(1_000_000);
    for (let k = 0; k < 60; k++) await run(base + k);
  });
});

// ---------- gateway behaviour ----------

describe('gateway core', () => {
  it('conflates quotes: one message per stream per flush, seq + 1, one frame per socket', async () => {
    const f = fakeFeed();
    f.quote(quoteOf('2330', 100, 1));
    f.quote(quoteOf('2317', 200, 1));
    const core = createGatewayCore(f.feed, { timers: false });
    const { client, send } = await connect(core);
    await send({ op: 'sub', channel: 'quotes', symbols: ['2330', '2317'] });
    expect(client.frames).toHaveLength(2); // hb, then both snapshots in one frame
    expect(client.frames[1]!.map((m) => m.type === 'quote' && [m.kind, m.symbol, m.seq])).toEqual([
      ['snapshot', '2330', 0],
      ['snapshot', '2317', 0],
    ]);
    for (let i = 1; i <= 5; i++) f.quote(quoteOf('2330', 100 + i, 1 + i));
    f.quote(quoteOf('2317', 201, 2));
    core.flush();
    expect(client.frames).toHaveLength(3);
    const frame = client.frames[2]!;
    expect(frame.map((m) => m.type === 'quote' && [m.kind, m.symbol, m.seq, m.data.lastMinor])).toEqual([
      ['delta', '2330', 1, 105],
      ['delta', '2317', 1, 201],
    ]);
    // A delta carries only what changed since the last flush (contract/quote-delta.ts).
    expect(frame.map((m) => m.type === 'quote' && m.kind === 'delta' && m.data)).toEqual([
      diffQuote(quoteOf('2330', 100, 1), quoteOf('2330', 105, 6)),
      diffQuote(quoteOf('2317', 200, 1), quoteOf('2317', 201, 2)),
    ]);
    expect(Object.keys(frame[1]!.type === 'quote' ? frame[1]!.data : {})).not.toContain('name');
    core.flush(); // nothing changed: nothing sent
    expect(client.frames).toHaveLength(3);
    core.stop();
  });

  it('trades: the snapshot ends at the last flush, the next delta carries the rest (no duplicate, none lost)', async () => {
    const f = fakeFeed();
    const print = (i: number): Trade => ({ ts: i, priceMinor: 1_000 + i, volumeShares: 1_000, side: 'buy' });
    for (let i = 0; i < 80; i++) f.trade('2330', print(i));
    const core = createGatewayCore(f.feed, { timers: false });
    const a = await connect(core);
    await a.send({ op: 'sub', channel: 'trades', symbols: ['2330'] });
    expect(a.client.tapes.get('2330')!.map((t) => t.ts)).toEqual(range(30, 80)); // the latest 50
    core.flush();
    for (let i = 80; i < 90; i++) f.trade('2330', print(i)); // after the last flush …
    const b = await connect(core);
    await b.send({ op: 'sub', channel: 'trades', symbols: ['2330'] }); // … so not in b's snapshot
    expect(b.client.tapes.get('2330')!.map((t) => t.ts)).toEqual(range(30, 80));
    core.flush();
    for (const c of [a.client, b.client])
      expect(c.tapes.get('2330')!.map((t) => t.ts)).toEqual(range(30, 90));

    // more prints in one flush than a delta carries: the newest, marked truncated
    for (let i = 90; i < 90 + MAX_TRADES_PER_FLUSH + 150; i++) f.trade('2330', print(i));
    core.flush();
    const last = a.client.messages().at(-1)!;
    expect(last).toMatchObject({ type: 'trades', kind: 'delta', truncated: true });
    const data = (last as Extract<ServerMessage, { type: 'trades' }>).data;
    expect(data).toHaveLength(MAX_TRADES_PER_FLUSH);
    expect(data.at(-1)!.ts).toBe(90 + MAX_TRADES_PER_FLUSH + 149);
    expect(TRADE_SNAPSHOT_PRINTS).toBe(50);
    core.stop();
  });

  it('candles: a flush during the snapshot fetch makes it fetch again, and the client ends consistent', async () => {
    const f = fakeFeed();
    const t0 = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    f.bar('2330', t0, 100);
    f.bar('2330', t0 + 60_000, 101);
    const core = createGatewayCore(f.feed, { timers: false });
    const { client, send } = await connect(core);
    let open!: () => void;
    f.setCandleGate(new Promise<void>((r) => (open = r)));
    const subscribed = send({ op: 'sub', channel: 'candles', symbols: ['2330'], period: '1m' });
    await Promise.resolve();
    f.bar('2330', t0 + 60_500, 105); // changes while the snapshot is being fetched …
    core.flush(); // … and a flush consumes them before the subscriber is registered
    f.setCandleGate(null);
    open();
    await subscribed;
    expect(f.candleCalls()).toBe(2); // fetched again
    f.bar('2330', t0 + 120_000, 99);
    core.flush();
    expect([...client.bars.get('2330')!.values()].sort((x, y) => x.ts - y.ts)).toEqual(f.bars('2330'));
    core.stop();
  });

  it('a socket over the cap skips flushes, then gets fresh snapshots of what it missed (no gap)', async () => {
    const f = fakeFeed();
    f.quote(quoteOf('2330', 100, 1));
    f.book({ symbol: '2330', ts: 1, bids: [{ priceMinor: 99, volumeLots: 1 }], asks: [] });
    f.trade('2330', { ts: 1, priceMinor: 100, volumeShares: 1_000, side: null });
    const t0 = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    f.bar('2330', t0, 100);
    const core = createGatewayCore(f.feed, { timers: false });
    const { client, send } = await connect(core);
    for (const channel of ['quotes', 'depth', 'trades'] as const)
      await send({ op: 'sub', channel, symbols: ['2330'] });
    await send({ op: 'sub', channel: 'candles', symbols: ['2330'], period: '1m' });
    const framesBefore = client.frames.length;

    client.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    for (let i = 2; i < 10; i++) {
      f.quote(quoteOf('2330', 100 + i, i));
      f.book({ symbol: '2330', ts: i, bids: [{ priceMinor: 99 + i, volumeLots: i }], asks: [] });
      f.trade('2330', { ts: i, priceMinor: 100 + i, volumeShares: 1_000, side: 'buy' });
      f.bar('2330', t0 + i * 1_000, 100 + i);
      core.flush();
    }
    expect(client.frames.length).toBe(framesBefore); // nothing while over the cap
    expect(core.stats().skippedFlushes).toBe(8);

    client.bufferedAmount = 0;
    core.flush();
    await new Promise((r) => setImmediate(r)); // the candle snapshot is fetched asynchronously
    const resync = client.frames.slice(framesBefore).flat();
    expect(resync.map((m) => m.type !== 'hb' && m.type !== 'error' && [m.type, m.kind])).toEqual([
      ['quote', 'snapshot'],
      ['depth', 'snapshot'],
      ['trades', 'snapshot'],
      ['candles', 'snapshot'],
    ]);
    expect(client.quotes.get('2330')!.lastMinor).toBe(109);
    expect(client.books.get('2330')).toEqual(f.feed.depth('2330'));
    expect(client.tapes.get('2330')).toEqual(f.tape('2330'));
    // and deltas continue seq + 1 from the snapshots (FakeClient asserts it)
    f.quote(quoteOf('2330', 200, 20));
    f.book({ symbol: '2330', ts: 20, bids: [], asks: [{ priceMinor: 201, volumeLots: 3 }] });
    core.flush();
    expect(client.books.get('2330')).toEqual(f.feed.depth('2330'));
    expect(core.stats().resyncSnapshots).toBe(4);
    core.stop();
  });

  it('a subscriber that joined before the feed had data gets a snapshot at the next flush', async () => {
    const f = fakeFeed();
    const core = createGatewayCore(f.feed, { timers: false });
    const a = await connect(core);
    await a.send({ op: 'sub', channel: 'quotes', symbols: ['2330'] });
    await a.send({ op: 'sub', channel: 'depth', symbols: ['2330'] });
    expect(a.client.messages().filter((m) => m.type !== 'hb')).toEqual([]); // nothing to send yet
    f.quote(quoteOf('2330', 100, 1));
    f.book({ symbol: '2330', ts: 1, bids: [{ priceMinor: 99, volumeLots: 2 }], asks: [] });
    const b = await connect(core); // joins before the flush: snapshots of the current state
    await b.send({ op: 'sub', channel: 'quotes', symbols: ['2330'] });
    await b.send({ op: 'sub', channel: 'depth', symbols: ['2330'] });
    core.flush(); // a holds nothing yet: everyone gets snapshots, not deltas
    for (const c of [a.client, b.client]) {
      const last = c.frames.at(-1)!;
      expect(last.map((m) => m.type !== 'hb' && m.type !== 'error' && [m.type, m.kind, m.seq])).toEqual([
        ['quote', 'snapshot', 1],
        ['depth', 'snapshot', 1],
      ]);
    }
    f.book({ symbol: '2330', ts: 2, bids: [{ priceMinor: 99, volumeLots: 3 }], asks: [] });
    core.flush();
    for (const c of [a.client, b.client]) {
      expect(c.frames.at(-1)!.map((m) => m.type === 'depth' && m.kind)).toEqual(['delta']);
      expect(c.books.get('2330')).toEqual(f.feed.depth('2330'));
    }
    core.stop();
  });

  it('deletes streams when their last subscriber leaves: sockets coming and going leave nothing', async () => {
    const f = fakeFeed();
    const rng = createRng('churn', 1);
    const symbols = Array.from({ length: 40 }, (_, i) => String(1000 + i));
    for (const s of symbols) f.quote(quoteOf(s, 100, 1));
    const core = createGatewayCore(f.feed, { timers: false });
    const open: Array<Awaited<ReturnType<typeof connect>>> = [];
    for (let round = 0; round < 300; round++) {
      if (open.length === 0 || rng.next() < 0.5) {
        const c = await connect(core);
        await c.send({ op: 'sub', channel: 'quotes', symbols: symbols.filter(() => rng.next() < 0.3) });
        await c.send({ op: 'sub', channel: 'depth', symbols: [symbols[rng.int(40)]!] });
        open.push(c);
      } else {
        const [c] = open.splice(rng.int(open.length), 1);
        if (rng.next() < 0.3) await c!.send({ op: 'unsub', channel: 'quotes', symbols });
        core.close(c!.conn);
      }
      f.quote(quoteOf(symbols[rng.int(40)]!, 100 + rng.int(10), round));
      core.flush();
    }
    for (const c of open) core.close(c.conn);
    expect(core.stats()).toMatchObject({ sockets: 0, streams: 0 });
    core.stop();
  });

  it('answers bad input and unknown symbols with errors in the same frame as the snapshots', async () => {
    const f = fakeFeed();
    f.quote(quoteOf('2330', 100, 1));
    const core = createGatewayCore(f.feed, { timers: false });
    const { client, send } = await connect(core);
    await send({ op: 'sub', channel: 'quotes', symbols: ['2330', 'ABCDE'] });
    expect(client.frames.at(-1)!.map((m) => m.type)).toEqual(['error', 'quote']);
    await core.message(core.open(client), '{nope');
    expect(client.frames.at(-1)).toEqual([{ type: 'error', msg: 'parameterError' }]);
    core.stop();
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}
