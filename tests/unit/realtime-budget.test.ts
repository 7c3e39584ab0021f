/**
 * The gateway's per-connection limits (server/realtime/budget.ts, gateway.ts; contract/realtime.ts
 * "Limits") without sockets or timers: fake sockets whose unsent bytes the test sets (or that
 * grow with every frame, like a peer that never reads), a fake feed, a manual clock and explicit
 * flush() calls.
 *
 * - Snapshot replies to `sub`, error replies, pongs and heartbeats obey the outbound budget: over
 *   it, snapshots are deferred (and come once drained, gap-free), the rest is dropped.
 * - A long reply goes out in frames of at most WS_MAX_FRAME_CHARS and stops at the budget; what
 *   did not fit comes as snapshots once drained.
 * - A socket over its budget for WS_SLOW_GRACE_MS is closed with WS_CLOSE_TOO_SLOW; one that
 *   drains in between is not.
 * - The token bucket; messages waiting behind a candle fetch are bounded and answered in order.
 */
import { describe, expect, it } from 'vitest';
import type { Candle, ClockState, Quote } from '../../contract/market';
import {
  serverFrameSchema,
  WS_CLOSE_TOO_SLOW,
  WS_MAX_FRAME_CHARS,
  WS_OUTBOUND_BUDGET_BYTES,
  WS_SLOW_GRACE_MS,
  type ServerMessage,
} from '../../contract/realtime';
import { createFeedListeners } from '../../server/market/feed-listeners';
import { createRateLimiter } from '../../server/realtime/budget';
import { createGatewayCore, MAX_QUEUED_MESSAGES, type GatewayFeed } from '../../server/realtime/gateway';

const CLOCK: ClockState = {
  source: 'stress',
  mode: 'replay',
  phase: 'open',
  tradingPhase: 'continuous',
  speed: 1,
  now: 0,
  replayDate: null,
};

const quoteOf = (symbol: string, lastMinor: number, ts: number, name = symbol): Quote => ({
  symbol,
  name,
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
});

function fakeFeed() {
  const listeners = createFeedListeners('fake feed');
  const quotes = new Map<string, Quote>();
  let gate: Promise<void> | null = null;
  const feed: GatewayFeed = {
    onQuote: listeners.onQuote,
    onDepth: listeners.onDepth,
    onCandle: listeners.onCandle,
    onTrade: listeners.onTrade,
    quote: (s) => quotes.get(s),
    depth: () => undefined,
    trades: () => [],
    async candles(): Promise<Candle[]> {
      if (gate) await gate;
      return [];
    },
    isTradable: (s) => /^\d{4}$/.test(s),
    clock: () => CLOCK,
  };
  return {
    feed,
    quote(q: Quote) {
      quotes.set(q.symbol, q);
      for (const fn of listeners.quoteFns) fn(q);
    },
    setGate(p: Promise<void> | null) {
      gate = p;
    },
  };
}

/** A socket: `bufferedAmount` set by the test, or grown by every frame when `stalled`. */
class FakeSocket {
  readyState = 1;
  bufferedAmount = 0;
  stalled = false;
  maxBuffered = 0;
  frames: ServerMessage[][] = [];
  frameChars: number[] = [];
  closed: { code: number; reason: string } | null = null;
  /** Per quote stream: last seq; a delta must follow it by one. */
  seq = new Map<string, number>();
  gaps: string[] = [];

  send(text: string): void {
    if (this.stalled) this.bufferedAmount += text.length;
    this.maxBuffered = Math.max(this.maxBuffered, this.bufferedAmount);
    this.frameChars.push(text.length);
    const parsed = serverFrameSchema.parse(JSON.parse(text));
    const msgs = Array.isArray(parsed) ? parsed : [parsed];
    this.frames.push(msgs);
    for (const m of msgs) {
      if (m.type !== 'quote') continue;
      const last = this.seq.get(m.symbol);
      if (m.kind === 'delta' && (last === undefined || m.seq !== last + 1))
        this.gaps.push(`${m.symbol} ${last}→${m.seq}`);
      this.seq.set(m.symbol, m.seq);
    }
  }

  close(code: number, reason: string): void {
    this.closed = { code, reason };
    this.readyState = 2;
  }

  messages(): ServerMessage[] {
    return this.frames.flat();
  }
}

const symbolsOf = (n: number) => Array.from({ length: n }, (_, i) => String(1000 + i));

function setup() {
  const f = fakeFeed();
  const clock = { now: 1_000_000 };
  const core = createGatewayCore(f.feed, { timers: false, now: () => clock.now });
  const ws = new FakeSocket();
  const conn = core.open(ws);
  const send = (msg: object) => core.message(conn, JSON.stringify(msg));
  return { f, clock, core, ws, conn, send };
}

describe('outbound budget on every send path', () => {
  it('over budget: sub snapshots are deferred, errors and pongs and heartbeats dropped; once drained the snapshots come, gap-free', async () => {
    const { f, core, ws, send } = setup();
    for (const s of ['2330', '2317']) f.quote(quoteOf(s, 100, 1));
    expect(ws.frames).toHaveLength(1); // the hb on connect
    ws.bufferedAmount = WS_OUTBOUND_BUDGET_BYTES + 1;
    await send({ op: 'sub', channel: 'quotes', symbols: ['2330', '2317', 'XXXXX'] });
    await send({ op: 'ping' });
    await core.message(core.open(ws), '{nope'); // a second socket on the same stalled fake
    core.heartbeat();
    f.quote(quoteOf('2330', 101, 2));
    core.flush();
    expect(ws.frames).toHaveLength(1); // nothing went out
    expect(core.stats()).toMatchObject({ streams: 2, deferredSnapshots: 2, skippedFlushes: 1 });
    expect(core.stats().droppedReplies).toBeGreaterThanOrEqual(4); // error, pong, 2 heartbeats

    ws.bufferedAmount = 0;
    core.flush();
    const resync = ws.messages().slice(1);
    expect(resync.map((m) => m.type === 'quote' && [m.kind, m.symbol, m.data.lastMinor])).toEqual([
      ['snapshot', '2330', 101],
      ['snapshot', '2317', 100],
    ]);
    f.quote(quoteOf('2330', 102, 3));
    core.flush();
    expect(ws.messages().at(-1)).toMatchObject({ type: 'quote', kind: 'delta', symbol: '2330' });
    expect(ws.gaps).toEqual([]);
    await send({ op: 'ping' }); // within budget again: answered
    expect(ws.messages().at(-1)).toMatchObject({ type: 'hb' });
    core.stop();
  });

  it('a long reply goes out in bounded frames and stops at the budget; the rest comes once drained', async () => {
    const { f, core, ws, send } = setup();
    const symbols = symbolsOf(500);
    const longName = 'N'.repeat(1_000); // ≈ 1.3 KB per snapshot: 500 of them ≈ 650 KB
    for (const s of symbols) f.quote(quoteOf(s, 100, 1, longName));
    ws.stalled = true; // the peer reads nothing: every frame stays buffered
    await send({ op: 'sub', channel: 'quotes', symbols });
    const frames = ws.frameChars.slice(1);
    expect(frames.length).toBeGreaterThan(1);
    for (const n of frames) expect(n).toBeLessThanOrEqual(WS_MAX_FRAME_CHARS);
    expect(ws.maxBuffered).toBeLessThanOrEqual(WS_OUTBOUND_BUDGET_BYTES + WS_MAX_FRAME_CHARS);
    const got = new Set(ws.messages().flatMap((m) => (m.type === 'quote' ? [m.symbol] : [])));
    expect(got.size).toBeLessThan(symbols.length);
    expect(core.stats().streams).toBe(symbols.length); // all subscribed, the rest deferred

    ws.stalled = false;
    ws.bufferedAmount = 0;
    core.flush();
    const all = new Set(ws.messages().flatMap((m) => (m.type === 'quote' ? [m.symbol] : [])));
    expect(all.size).toBe(symbols.length);
    expect(ws.gaps).toEqual([]);
    core.stop();
  });

  it(`closes a socket over its budget for WS_SLOW_GRACE_MS with ${WS_CLOSE_TOO_SLOW}; one that drains in between stays`, async () => {
    const { f, clock, core, ws, send } = setup();
    f.quote(quoteOf('2330', 100, 1));
    await send({ op: 'sub', channel: 'quotes', symbols: ['2330'] });
    ws.bufferedAmount = WS_OUTBOUND_BUDGET_BYTES + 1;
    const tick = (ms: number, price: number) => {
      clock.now += ms;
      f.quote(quoteOf('2330', price, clock.now));
      core.flush();
    };
    tick(25, 101); // first seen over budget
    tick(WS_SLOW_GRACE_MS - 100, 102);
    ws.bufferedAmount = 0; // drained once: the grace starts again
    tick(50, 103);
    ws.bufferedAmount = WS_OUTBOUND_BUDGET_BYTES + 1;
    tick(50, 104);
    tick(WS_SLOW_GRACE_MS - 1, 105);
    expect(ws.closed).toBeNull();
    tick(1, 106);
    expect(ws.closed).toEqual({ code: WS_CLOSE_TOO_SLOW, reason: 'tooSlow' });
    expect(core.stats()).toMatchObject({ sockets: 0, streams: 0, closedTooSlow: 1 });
    core.stop();
  });

  it('a socket that reads everything between flushes is never closed, even if each flush fills it past the budget', async () => {
    const { f, clock, core, ws, send } = setup();
    const symbols = symbolsOf(500);
    const longName = 'N'.repeat(1_000);
    for (const s of symbols) f.quote(quoteOf(s, 100, 1, longName));
    await send({ op: 'sub', channel: 'quotes', symbols });
    ws.stalled = true;
    for (let t = 0; t <= WS_SLOW_GRACE_MS + 1_000; t += 250) {
      ws.bufferedAmount = 0; // the peer read everything since the last flush
      clock.now += 250;
      for (const s of symbols) f.quote(quoteOf(s, 100 + (t % 7), clock.now, longName + t)); // a new name: full-size deltas
      core.flush();
      expect(ws.bufferedAmount).toBeGreaterThan(WS_OUTBOUND_BUDGET_BYTES); // filled again
    }
    expect(ws.closed).toBeNull();
    expect(ws.gaps).toEqual([]);
    core.stop();
  });

  it('a socket over budget with no stream changing is still closed after the grace (heartbeats notice it)', () => {
    const { clock, core, ws } = setup();
    ws.bufferedAmount = WS_OUTBOUND_BUDGET_BYTES + 1;
    core.heartbeat();
    clock.now += WS_SLOW_GRACE_MS;
    core.flush();
    expect(ws.closed?.code).toBe(WS_CLOSE_TOO_SLOW);
    core.stop();
  });
});

describe('inbound limits', () => {
  it('token bucket: a burst, then the refill rate; refusals within the window make it abusive', () => {
    const rl = createRateLimiter({ perSecond: 10, burst: 5, abuseRefusals: 3, abuseWindowMs: 1_000 });
    const t = 0;
    expect(Array.from({ length: 6 }, () => rl.take(t))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'refused']);
    expect(rl.take(t + 100)).toBe('ok'); // one token refilled in 100 ms at 10/s
    expect(rl.take(t + 100)).toBe('refused');
    expect(rl.take(t + 100)).toBe('abusive'); // the third refusal within the window
    const calm = createRateLimiter({ perSecond: 10, burst: 1, abuseRefusals: 3, abuseWindowMs: 1_000 });
    expect([calm.take(0), calm.take(0), calm.take(0)]).toEqual(['ok', 'refused', 'refused']);
    expect(calm.take(2_000)).toBe('ok');
    expect(calm.take(2_000)).toBe('refused'); // a new window: counting starts again
    expect(calm.take(2_000)).toBe('refused');
  });

  it('messages behind a candle fetch wait, at most MAX_QUEUED_MESSAGES, and are answered in order', async () => {
    const { f, core, ws, send } = setup();
    f.quote(quoteOf('2330', 100, 1));
    let open!: () => void;
    f.setGate(new Promise<void>((r) => (open = r)));
    const candles = send({ op: 'sub', channel: 'candles', symbols: ['2330'], period: '1m' });
    const waiting = Array.from({ length: MAX_QUEUED_MESSAGES }, () => send({ op: 'ping' }));
    await send({ op: 'sub', channel: 'quotes', symbols: ['2330'] }); // one too many: refused now
    expect(ws.messages().slice(1)).toEqual([{ type: 'error', msg: 'tooFrequent' }]);
    f.setGate(null);
    open();
    await candles;
    await Promise.all(waiting);
    const types = ws
      .messages()
      .slice(2)
      .map((m) => m.type);
    expect(types).toEqual(['candles', ...Array(MAX_QUEUED_MESSAGES).fill('hb')]);
    core.stop();
  });
});
