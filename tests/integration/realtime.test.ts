/**
 * The `/ws` gateway, protocol v2, over real sockets on the wall clock.
 *
 * Replay market at speed 1: frames are one message or an array of messages; a snapshot then
 * deltas whose seq rises by exactly one per stream; depth deltas applied on the client reproduce
 * `market/depth`'s book; the trades tape (snapshot + deltas) equals `market/trades` with no
 * duplicate and no gap; candles; unsubscribe, bad frames, unknown symbols, heartbeats; a price
 * change on the first page within 5 seconds at any hour.
 *
 * Stress market: a client that stops reading (its TCP socket paused) does not make the server's
 * send buffer grow beyond the cap plus one frame while the feed keeps streaming; on resume it
 * gets fresh snapshots of what it missed (never a seq gap) and ends consistent with the REST
 * snapshots once the feed stops. Waits are for conditions, never fixed sleeps to pass.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { applyDepthDelta } from '../../contract/depth-delta';
import { applyQuoteDelta } from '../../contract/quote-delta';
import type { Candle, Depth, Quote, Trade } from '../../contract/market';
import { serverFrameSchema, type ServerMessage } from '../../contract/realtime';
import { MAX_BUFFERED_BYTES } from '../../server/realtime/gateway';
import { startHarness, TEST_SYMBOLS, type Harness } from './harness';

const urlOf = async (h: Harness) => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address();
  return `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/ws`;
};

/**
 * A test client: records every message (frames flattened) with its arrival time, and keeps the
 * per-stream state a real client would (depth books from deltas, the tape, candle bars), failing
 * on any seq gap.
 */
class Client {
  ws: WebSocket;
  msgs: Array<{ at: number; m: ServerMessage }> = [];
  frames = 0;
  arrays = 0;
  seq = new Map<string, number>();
  gaps: string[] = [];
  books = new Map<string, Depth>();
  /** Every book the client has held per symbol, in order (snapshot, then after each delta). */
  bookHistory = new Map<string, Depth[]>();
  quotes = new Map<string, Quote>();
  tapes = new Map<string, Trade[]>();
  bars = new Map<string, Map<number, Candle>>();
  snapshotsAfter = (t: number) =>
    this.msgs.filter((x) => x.at >= t && 'kind' in x.m && x.m.kind === 'snapshot');

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (raw) => {
      const frame = serverFrameSchema.parse(JSON.parse(raw.toString()));
      this.frames++;
      if (Array.isArray(frame)) this.arrays++;
      for (const m of Array.isArray(frame) ? frame : [frame]) this.apply(m);
    });
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
  }

  send(msg: object): void {
    this.ws.send(JSON.stringify(msg));
  }

  of<T extends ServerMessage['type']>(type: T): Array<Extract<ServerMessage, { type: T }>> {
    return this.msgs.filter((x) => x.m.type === type).map((x) => x.m as Extract<ServerMessage, { type: T }>);
  }

  private apply(m: ServerMessage): void {
    this.msgs.push({ at: Date.now(), m });
    if (m.type === 'hb' || m.type === 'error') return;
    const key = m.type === 'candles' ? `${m.type}:${m.symbol}:${m.period}` : `${m.type}:${m.symbol}`;
    const last = this.seq.get(key);
    if (m.kind === 'delta' && (last === undefined || m.seq !== last + 1))
      this.gaps.push(`${key} ${last}→${m.seq}`);
    this.seq.set(key, m.seq);
    if (m.type === 'quote') {
      const held = this.quotes.get(m.symbol);
      if (m.kind === 'snapshot') this.quotes.set(m.symbol, m.data);
      else if (held) this.quotes.set(m.symbol, applyQuoteDelta(held, m.data));
    } else if (m.type === 'depth') {
      const held = this.books.get(m.symbol);
      if (m.kind === 'snapshot') this.books.set(m.symbol, m.data);
      else if (held) this.books.set(m.symbol, applyDepthDelta(held, m.data));
      const book = this.books.get(m.symbol);
      if (book) this.bookHistory.set(m.symbol, [...(this.bookHistory.get(m.symbol) ?? []).slice(-200), book]);
    } else if (m.type === 'trades') {
      this.tapes.set(
        m.symbol,
        m.kind === 'snapshot' ? [...m.data] : [...(this.tapes.get(m.symbol) ?? []), ...m.data],
      );
    } else if (m.type === 'candles') {
      const held = m.kind === 'snapshot' ? new Map<number, Candle>() : (this.bars.get(m.symbol) ?? new Map());
      for (const c of m.data) held.set(c.ts, c);
      this.bars.set(m.symbol, held);
    }
  }
}

/** Polls `cond` (sync or async) every 25 ms until it holds or `ms` pass; returns the last result. */
const waitFor = async (cond: () => boolean | Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await cond()) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return cond();
};

describe('replay market at speed 1', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness({ marketSpeed: 1 }, { realClock: true });
    url = await urlOf(h);
  });
  afterAll(async () => h?.close());

  const connect = async () => {
    const c = new Client(url);
    await c.opened();
    return c;
  };

  it('streams snapshots then gap-free deltas in array frames, and a visible price change within 5 s', async () => {
    const c = await connect();
    expect(await waitFor(() => c.msgs.length > 0, 2_000)).toBe(true);
    expect(c.msgs[0]!.m).toMatchObject({ type: 'hb', clock: { source: 'replay', mode: 'replay', speed: 1 } });
    const t0 = Date.now();
    c.send({ op: 'sub', channel: 'quotes', symbols: TEST_SYMBOLS });
    const quotes = () => c.of('quote');
    expect(
      await waitFor(
        () => quotes().filter((q) => q.kind === 'snapshot').length === TEST_SYMBOLS.length,
        2_000,
      ),
    ).toBe(true);
    const first = new Map(
      quotes()
        .filter((q) => q.kind === 'snapshot')
        .map((q) => [q.symbol, q.data.lastMinor]),
    );
    const moved = () => quotes().some((q) => q.kind === 'delta' && q.data.lastMinor !== first.get(q.symbol));
    expect(await waitFor(moved, 5_000)).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(c.gaps).toEqual([]); // per stream: the first delta follows the snapshot's seq, then +1
    expect(c.arrays).toBeGreaterThan(0); // snapshots and flushes come as arrays
    c.ws.close();
  });

  it('depth deltas applied on the client reproduce market/depth', async () => {
    const c = await connect();
    c.send({ op: 'sub', channel: 'depth', symbols: ['2330', '2317'] });
    const deltas = () => c.of('depth').filter((d) => d.kind === 'delta').length;
    expect(await waitFor(() => deltas() >= 2, 10_000)).toBe(true);
    const snap = c.of('depth')[0]!;
    expect(snap.kind).toBe('snapshot');
    if (snap.kind === 'snapshot') {
      expect(snap.data.bids).toHaveLength(5);
      expect(snap.data.bids[0]!.priceMinor).toBeLessThan(snap.data.asks[0]!.priceMinor);
    }
    // The book changes every few hundred ms and the stream trails the REST answer by a flush (more
    // under load): a book market/depth gives between two flushes is one the client then reaches
    // by its deltas (a sample taken mid-flush may be skipped by a coalesced delta: sample again).
    for (const symbol of ['2330', '2317']) {
      const reached = async () => {
        const server = (await h.call('market/depth', { symbol })).body.data;
        const held = () =>
          (c.bookHistory.get(symbol) ?? []).slice(1).some((b) => isDeepStrictEqual(b, server));
        return waitFor(held, 2_000);
      };
      expect(await waitFor(reached, 20_000), symbol).toBe(true);
    }
    expect(c.gaps).toEqual([]);
    c.ws.close();
  });

  it('trades: snapshot then deltas equal market/trades, with no duplicate and no gap', async () => {
    const c = await connect();
    c.send({ op: 'sub', channel: 'trades', symbols: ['2330'] });
    expect(await waitFor(() => c.of('trades').some((t) => t.kind === 'delta'), 10_000)).toBe(true);
    const snap = c.of('trades')[0]!;
    expect(snap.kind).toBe('snapshot');
    expect(snap.data.length).toBeLessThanOrEqual(50);
    const same = async () => {
      const rest: Trade[] = (await h.call('market/trades', { symbol: '2330', limit: 200 })).body.data.items;
      const mine = c.tapes.get('2330') ?? [];
      return mine.length > snap.data.length && isDeepStrictEqual(rest.slice(-mine.length), mine);
    };
    expect(await waitFor(same, 5_000)).toBe(true);
    for (const t of c.tapes.get('2330')!)
      expect(t.side === 'buy' || t.side === 'sell' || t.side === null).toBe(true);
    expect(c.gaps).toEqual([]);
    c.ws.close();
  });

  it('stops a stream on unsub, answers bad frames with an error, refuses unknown symbols', async () => {
    const c = await connect();
    c.send({ op: 'sub', channel: 'depth', symbols: ['2330'] });
    expect(await waitFor(() => c.of('depth').length > 0, 2_000)).toBe(true);
    c.send({ op: 'unsub', channel: 'depth', symbols: ['2330'] });
    c.send({ op: 'ping' }); // handled after the unsub: its hb marks the point after which nothing comes
    expect(await waitFor(() => c.of('hb').length >= 2, 2_000)).toBe(true);
    const after = c.msgs.length;
    c.send({ op: 'dance' });
    c.ws.send('{not json');
    c.send({ op: 'sub', channel: 'quotes', symbols: ['9999'] });
    expect(await waitFor(() => c.of('error').length === 3, 2_000)).toBe(true);
    expect(c.of('error').map((e) => e.msg)).toEqual(['parameterError', 'parameterError', 'productNotFound']);
    // a depth change would have come within a few flushes; the gateway dropped the stream
    c.send({ op: 'sub', channel: 'quotes', symbols: ['2330'] });
    expect(await waitFor(() => c.of('quote').filter((q) => q.kind === 'delta').length >= 2, 10_000)).toBe(
      true,
    );
    expect(c.msgs.slice(after).filter((x) => x.m.type === 'depth')).toEqual([]);
    c.ws.close();
  });

  it('sends the session so far as a candle snapshot, then updates to the current candle', async () => {
    const c = await connect();
    c.send({ op: 'sub', channel: 'candles', symbols: ['2330'], period: '1m' });
    expect(await waitFor(() => c.of('candles').some((x) => x.kind === 'delta'), 5_000)).toBe(true);
    const snap = c.of('candles')[0]!;
    expect(snap.kind).toBe('snapshot');
    expect(snap.period).toBe('1m');
    const delta = c.of('candles').find((x) => x.kind === 'delta')!;
    expect(delta.data[0]!.ts).toBeGreaterThanOrEqual(snap.data.at(-1)?.ts ?? 0);
    const same = async () => {
      const rest: Candle[] = (await h.call('market/candles', { symbol: '2330', period: '1m', limit: 300 }))
        .body.data.items;
      const mine = [...c.bars.get('2330')!.values()].sort((a, b) => a.ts - b.ts);
      return isDeepStrictEqual(rest, mine.slice(-rest.length));
    };
    expect(await waitFor(same, 5_000)).toBe(true);
    expect(c.gaps).toEqual([]);
    c.ws.close();
  });
});

describe('stress market: a client that stops reading', () => {
  let h: Harness;
  let url: string;
  const SYMBOLS = 200;
  beforeAll(async () => {
    h = await startHarness(
      { marketSource: 'stress', stressSymbols: SYMBOLS, stressRate: 20_000 },
      { realClock: true },
    );
    url = await urlOf(h);
  });
  afterAll(async () => h?.close());

  it('does not grow the server buffer, then resyncs with snapshots and ends consistent', async () => {
    const list = (await h.call('market/list', { page: 1, pageSize: 200 })).body.data;
    expect(list.clock.source).toBe('stress');
    const symbols: string[] = list.items.map((q: Quote) => q.symbol);
    expect(symbols).toHaveLength(SYMBOLS);

    const c = new Client(url);
    await c.opened();
    for (const channel of ['quotes', 'depth', 'trades'] as const) c.send({ op: 'sub', channel, symbols });
    c.send({ op: 'sub', channel: 'candles', symbols: symbols.slice(0, 20), period: '1m' });
    expect(await waitFor(() => c.snapshotsAfter(0).length >= 3 * SYMBOLS + 20, 10_000)).toBe(true);

    // Stop reading: the kernel buffers fill, then the server's send buffer passes the cap.
    const tcp = (c.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    tcp.pause();
    const skippedAtPause = h.gateway!.stats().skippedFlushes;
    let maxBuffered = 0;
    const sample = () => {
      const s = h.gateway!.stats();
      maxBuffered = Math.max(maxBuffered, s.maxBufferedBytes);
      return s;
    };
    expect(await waitFor(() => sample().skippedFlushes >= skippedAtPause + 40, 30_000)).toBe(true);
    // … and keeps skipping (the feed goes on) without the buffer growing
    const skipped = sample().skippedFlushes;
    expect(await waitFor(() => sample().skippedFlushes >= skipped + 40, 10_000)).toBe(true);
    const bound = MAX_BUFFERED_BYTES + h.gateway!.stats().maxFrameBytes;
    expect(maxBuffered).toBeLessThanOrEqual(bound);
    expect(h.gateway!.stats().streams).toBe(3 * SYMBOLS + 20);

    // Resume: the backlog arrives, then fresh snapshots of everything it missed.
    const resumedAt = Date.now();
    const resyncBefore = h.gateway!.stats().resyncSnapshots;
    tcp.resume();
    expect(await waitFor(() => h.gateway!.stats().resyncSnapshots > resyncBefore, 10_000)).toBe(true);
    expect(await waitFor(() => c.snapshotsAfter(resumedAt).length > 0, 10_000)).toBe(true);

    // Stop the market; once the last changes are flushed, the client equals the REST snapshots.
    h.feed.stop();
    const probe = [symbols[0]!, symbols[57]!, symbols[SYMBOLS - 1]!];
    const consistent = async () => {
      for (const symbol of probe) {
        const depth = (await h.call('market/depth', { symbol })).body.data;
        if (!isDeepStrictEqual(c.books.get(symbol), depth)) return false;
        const quote = (await h.call('market/quotes', { symbols: [symbol] })).body.data.items[0];
        if (!isDeepStrictEqual(c.quotes.get(symbol), quote)) return false;
        const tape: Trade[] = (await h.call('market/trades', { symbol, limit: 50 })).body.data.items;
        if (!isDeepStrictEqual(c.tapes.get(symbol)?.slice(-50), tape)) return false;
      }
      const candles: Candle[] = (
        await h.call('market/candles', { symbol: symbols[0], period: '1m', limit: 300 })
      ).body.data.items;
      const mine = [...(c.bars.get(symbols[0]!)?.values() ?? [])].sort((a, b) => a.ts - b.ts);
      return isDeepStrictEqual(mine.slice(-candles.length), candles);
    };
    expect(await waitFor(consistent, 15_000)).toBe(true);
    expect(c.gaps).toEqual([]); // the gateway resynced the socket itself
    c.ws.close();
    expect(await waitFor(() => h.gateway!.stats().streams === 0, 5_000)).toBe(true);
  });
});
