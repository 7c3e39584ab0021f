/**
 * Protocol v2 stream contents in the worker (workers/market-service.ts), on fake timers against
 * mock-socket: depth deltas applied to the held book equal the server's book (seeded fuzz, after
 * tldraw's store fuzzing), a delta that does not fit asks for a snapshot, the trades tape, and
 * candles after an outage: the page gets a `snapshot: true` update and, when the outage outlasted
 * the snapshot window, the bars in between from `market/candles?since`, so rebuilding the page's
 * bars from what it was sent gives the generated full series with no missing bar.
 */
import { describe, expect, it } from 'vitest';
import { diffDepth } from '../../contract/depth-delta';
import type { Candle, Depth, DepthLevel, Trade } from '../../contract/market';
import { applyCandleUpdate, applyTradeUpdate } from '../../workers/conflate';
import { TAPE_MAX, type CandleUpdate, type MarketConfig, type StreamBatch } from '../../workers/protocol';
import {
  barSeries,
  cmsg,
  createHarness,
  depthsOf,
  goLive,
  last,
  trade,
  useHarnessTimers,
  type Harness,
} from './client-worker-harness';

let h: Harness;

useHarnessTimers();

/** mulberry32: a small seeded PRNG, so a failing seed can be pinned. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomBook(symbol: string, r: () => number, ts: number, mid: number): Depth {
  const side = (dir: 1 | -1): DepthLevel[] => {
    const n = Math.floor(r() * 6); // 0..5 levels
    return Array.from({ length: n }, (_, i) => ({
      priceMinor: mid + dir * (i + 1) * 50,
      volumeLots: 1 + Math.floor(r() * 40),
    }));
  };
  return { symbol, ts, bids: side(-1), asks: side(1) };
}

/** Next book: a few levels change, sometimes the mid moves or a side shrinks/grows. */
function nextBook(prev: Depth, r: () => number): Depth {
  if (r() < 0.15) return randomBook(prev.symbol, r, prev.ts + 1, 100_000 + Math.floor(r() * 20) * 50);
  const tweak = (levels: DepthLevel[]) =>
    levels.map((l) => (r() < 0.3 ? { ...l, volumeLots: 1 + Math.floor(r() * 40) } : l));
  return { ...prev, ts: prev.ts + 1, bids: tweak(prev.bids), asks: tweak(prev.asks) };
}

describe('depth deltas', () => {
  it.each([1, 2, 3, 42, 20240516])('applied deltas equal the server book (seed %i)', async (seed) => {
    h = createHarness();
    await goLive(h);
    const r = rng(seed);
    const symbols = ['2330', '2317'];
    const { batches } = h.collect('depth', { symbols });
    await h.advance(4);
    const books = new Map(symbols.map((s) => [s, [randomBook(s, r, 1, 100_000)]]));
    const seqs = new Map(symbols.map((s) => [s, 1]));
    h.frame(
      symbols.map((s) => ({ type: 'depth', kind: 'snapshot', symbol: s, seq: 1, data: books.get(s)![0] })),
    );
    for (let step = 0; step < 300; step++) {
      // One array per flush, one message per changed stream (as the gateway does).
      const frame = [];
      for (const s of symbols) {
        if (r() < 0.3) continue;
        const hist = books.get(s)!;
        const next = nextBook(last(hist)!, r);
        hist.push(next);
        const seq = seqs.get(s)! + 1;
        seqs.set(s, seq);
        frame.push({
          type: 'depth',
          kind: 'delta',
          symbol: s,
          seq,
          data: diffDepth(hist[hist.length - 2]!, next),
        });
      }
      if (frame.length) h.frame(frame.length === 1 && r() < 0.5 ? frame[0] : frame);
      await h.advance(Math.floor(r() * 25));
    }
    await h.advance(20);
    for (const s of symbols) {
      const delivered = depthsOf(batches).filter((d) => d.symbol === s);
      expect(last(delivered)).toEqual(last(books.get(s)!));
      // Conflation skips books, never invents or reorders one.
      let at = 0;
      for (const d of delivered) {
        const i = books.get(s)!.findIndex((b, k) => k >= at && b.ts === d.ts);
        expect(books.get(s)![i]).toEqual(d);
        at = i;
      }
    }
    expect(h.svc.stats()).toMatchObject({ gaps: 0, depthMisfits: 0, resyncs: 0 });
  });

  it('a delta that does not fit the held book asks for a fresh snapshot and is not applied', async () => {
    h = createHarness();
    await goLive(h);
    const { batches } = h.collect('depth', { symbols: ['2330'] });
    await h.advance(4);
    const book: Depth = {
      symbol: '2330',
      ts: 1,
      bids: [{ priceMinor: 99_950, volumeLots: 3 }],
      asks: [{ priceMinor: 100_000, volumeLots: 2 }],
    };
    h.frame({ type: 'depth', kind: 'snapshot', symbol: '2330', seq: 7, data: book });
    // Level 3 of a one-level book: a hole.
    h.frame({
      type: 'depth',
      kind: 'delta',
      symbol: '2330',
      seq: 8,
      data: { ts: 2, bids: [[3, 99_800, 1]], asks: [], bidsLen: 4, asksLen: 1 },
    });
    await h.advance(20);
    expect(h.svc.stats().depthMisfits).toBe(1);
    expect(h.subs('sub', 'depth', '2330')).toHaveLength(2);
    expect(depthsOf(batches)).toEqual([book]);
    const fresh = { ...book, ts: 3, bids: [{ priceMinor: 99_900, volumeLots: 9 }] };
    h.frame({ type: 'depth', kind: 'snapshot', symbol: '2330', seq: 9, data: fresh });
    await h.advance(20);
    expect(last(depthsOf(batches))).toEqual(fresh);
  });

  it('a depth delta before any snapshot is not applied', async () => {
    h = createHarness();
    await goLive(h);
    const { batches } = h.collect('depth', { symbols: ['2330'] });
    await h.advance(4);
    h.frame({
      type: 'depth',
      kind: 'delta',
      symbol: '2330',
      seq: 2,
      data: { ts: 2, bids: [], asks: [], bidsLen: 0, asksLen: 0 },
    });
    await h.advance(20);
    expect(batches).toEqual([]);
  });
});

describe('trades tape', () => {
  it('keeps a bounded tape; the page rebuilds it from snapshot + deltas; a late subscriber gets the tape', async () => {
    h = createHarness();
    await goLive(h);
    const { batches } = h.collect('trades', { symbols: ['2330'] });
    await h.advance(4);
    const all: Trade[] = Array.from({ length: 50 }, (_, i) =>
      trade(i, 100_000 + i * 50, i % 3 ? 'buy' : null),
    );
    h.frame({ type: 'trades', kind: 'snapshot', symbol: '2330', seq: 1, data: all.slice() });
    let ts = 50;
    for (let seq = 2; seq < 40; seq++) {
      const prints = Array.from({ length: 1 + (seq % 5) }, () => trade(ts++, 100_000 + ts * 5, 'sell'));
      all.push(...prints);
      h.frame([{ type: 'trades', kind: 'delta', symbol: '2330', seq, data: prints }]);
      await h.advance(seq % 3 === 0 ? 20 : 3); // several deltas often merge into one batch
    }
    await h.advance(20);
    expect(batches.length).toBeLessThan(38);
    let tape: Trade[] = [];
    for (const b of batches as Extract<StreamBatch, { channel: 'trades' }>[])
      for (const u of b.items) tape = applyTradeUpdate(tape, u, TAPE_MAX);
    expect(tape).toEqual(all.slice(-TAPE_MAX));
    expect(batches[0]!.items[0]!.snapshot).toBe(true);

    const late = h.collect('trades', { symbols: ['2330'] });
    await h.advance(1);
    expect(late.batches).toHaveLength(1);
    expect(late.batches[0]!.items[0]).toEqual({
      symbol: '2330',
      snapshot: true,
      items: all.slice(-TAPE_MAX),
    });
  });

  it('a gap re-subscribes; the fresh snapshot joins the prints held before it', async () => {
    h = createHarness();
    await goLive(h);
    const { batches } = h.collect('trades', { symbols: ['2330'] });
    await h.advance(4);
    const early = [trade(1, 100_000), trade(2, 100_050)];
    h.frame({ type: 'trades', kind: 'snapshot', symbol: '2330', seq: 1, data: early });
    h.frame({ type: 'trades', kind: 'delta', symbol: '2330', seq: 3, data: [trade(4, 1)] }); // 2 lost
    await h.advance(20);
    expect(h.subs('sub', 'trades', '2330')).toHaveLength(2);
    h.frame({
      type: 'trades',
      kind: 'snapshot',
      symbol: '2330',
      seq: 3,
      data: [trade(2, 100_050), trade(3, 100_100), trade(4, 100_150)],
    });
    await h.advance(20);
    expect(last(batches)!.items[0]).toEqual({
      symbol: '2330',
      snapshot: true,
      items: [trade(1, 100_000), trade(2, 100_050), trade(3, 100_100), trade(4, 100_150)],
    });
  });
});

/**
 * A server whose 1-minute bars follow `full`: at minute `now` bars before it are final, bar
 * `now` is still forming; snapshots carry the last `window` bars.
 */
function candleServer(full: readonly Candle[], window: number) {
  const forming = (i: number): Candle => {
    const b = full[i]!;
    return {
      ...b,
      closeMinor: b.openMinor,
      highMinor: b.openMinor,
      lowMinor: b.openMinor,
      volumeShares: 1,
      turnoverMinor: null,
    };
  };
  const upTo = (now: number) => [...full.slice(0, now), forming(now)];
  return {
    snapshot: (now: number) => upTo(now).slice(-window),
    /** Delta when the minute rolls from now-1 to now. */
    roll: (now: number) => [full[now - 1]!, forming(now)],
    /** market/candles {since}: every bar from `since` on. */
    since: (now: number, since: number) => upTo(now).filter((b) => b.ts >= since),
  };
}

/** The page's bars after applying every candle update it was sent. */
function pageBars(batches: readonly StreamBatch[]): Candle[] {
  let bars: Candle[] = [];
  for (const b of batches)
    if (b.channel === 'candles') for (const u of b.items) bars = applyCandleUpdate(bars, u);
  return bars;
}

const updatesOf = (batches: readonly StreamBatch[]): CandleUpdate[] =>
  batches.flatMap((b) => (b.channel === 'candles' ? b.items : []));

describe('candles after an outage', () => {
  const full = barSeries(200);
  const W = 20;
  const srv = candleServer(full, W);

  /**
   * A live harness (`config`) whose page holds 2330's 1m bars up to minute 40: a snapshot at
   * minute 30, then one delta a minute. `sent`: the candle updates delivered so far.
   */
  async function liveTo40(
    config?: Partial<MarketConfig>,
  ): Promise<{ batches: StreamBatch[]; seq: number; sent: number }> {
    h = createHarness({ config });
    await goLive(h);
    const { batches } = h.collect('candles', { symbols: ['2330'], period: '1m' });
    await h.advance(4);
    expect(h.subs('sub', 'candles', '2330')).toEqual([
      { op: 'sub', channel: 'candles', symbols: ['2330'], period: '1m' },
    ]);
    let seq = 1;
    h.frame(cmsg('snapshot', seq, srv.snapshot(30)));
    for (let now = 31; now <= 40; now++) {
      h.frame([cmsg('delta', ++seq, srv.roll(now))]);
      await h.advance(10);
    }
    await h.advance(20);
    expect(pageBars(batches).map((b) => b.ts)).toEqual(full.slice(11, 41).map((b) => b.ts));
    return { batches, seq, sent: updatesOf(batches).length };
  }

  /** The server and its REST API go away; `ms` later they are still away. */
  async function serverDown(ms: number): Promise<void> {
    h.restDown = true;
    h.down();
    await h.advance(ms);
  }

  /** The server and its REST API come back; returns once the worker is live (or 2 s later). */
  async function serverUp(): Promise<void> {
    h.restDown = false;
    h.up();
    for (let i = 0; i < 20 && h.svc.stats().state !== 'live'; i++) await h.advance(100);
  }

  it('an outage longer than the snapshot window: backfill since the last bar, delivered as one snapshot', async () => {
    const { batches, sent } = await liveTo40({ pollMs: 60_000 });

    // The server and its REST API go away; the market moves on 60 minutes meanwhile.
    await serverDown(1_000);
    expect(h.svc.stats().state).toBe('reconnecting');
    const callsBefore = h.fetchMock.mock.calls.length; // the failed poll at the outage's start
    const now = 100;
    h.rest['market/candles'] = (b: { since: number }) => ({
      symbol: '2330',
      period: '1m',
      items: srv.since(now, b.since),
    });
    await serverUp();
    expect(h.svc.stats().state).toBe('live');
    await h.advance(4);
    expect(h.subs('sub', 'candles', '2330')).toHaveLength(2);

    // The fresh snapshot only reaches back 20 bars (to 81), and a delta arrives in the same frame.
    h.frame([cmsg('snapshot', 500, srv.snapshot(now)), cmsg('delta', 501, srv.roll(now + 1))]);
    await h.advance(20);
    const candleCalls = h.fetchMock.mock.calls
      .slice(callsBefore)
      .filter(([u]) => u.endsWith('market/candles'));
    expect(candleCalls.map(([, init]) => JSON.parse(init.body))).toEqual([
      { symbol: '2330', period: '1m', since: full[40]!.ts, limit: 2000 },
    ]);
    expect(h.svc.stats()).toMatchObject({ backfills: 1, backfillFailures: 0 });
    const after = updatesOf(batches).slice(sent);
    expect(after).toHaveLength(1);
    expect(after[0]!.snapshot).toBe(true);

    // Rebuilt from what the page got: the full series, no bar missing, bar 40 final (not the
    // forming one held when the outage began), 101 still forming.
    const bars = pageBars(batches);
    expect(bars.slice(0, -1)).toEqual(full.slice(11, 101));
    expect(last(bars)?.ts).toBe(full[101]!.ts);

    // And it goes on live.
    h.frame(cmsg('delta', 502, srv.roll(now + 2)));
    await h.advance(20);
    expect(pageBars(batches).slice(0, -1)).toEqual(full.slice(11, 102));
  });

  it('a short outage: the fresh snapshot covers it, delivered as snapshot: true, no REST call', async () => {
    const { batches, sent } = await liveTo40({ pollMs: 60_000 });
    await serverDown(200);
    const callsBefore = h.fetchMock.mock.calls.length; // the failed poll at the outage's start
    await serverUp();
    await h.advance(4);
    h.frame(cmsg('snapshot', 9, srv.snapshot(45)));
    await h.advance(20);
    expect(h.fetchMock.mock.calls.slice(callsBefore).filter(([u]) => u.endsWith('market/candles'))).toEqual(
      [],
    );
    const after = updatesOf(batches).slice(sent);
    expect(after.map((u) => u.snapshot)).toEqual([true]);
    const bars = pageBars(batches);
    expect(bars.slice(0, -1)).toEqual(full.slice(11, 45));
    expect(bars.map((b) => b.ts)).toEqual(full.slice(11, 46).map((b) => b.ts));
  });

  it('a gap in the candle stream re-subscribes and delivers the fresh snapshot as snapshot: true', async () => {
    const { batches, seq, sent } = await liveTo40();
    h.frame(cmsg('delta', seq + 2, srv.roll(42)));
    await h.advance(4);
    expect(h.subs('sub', 'candles', '2330')).toHaveLength(2);
    h.frame(cmsg('snapshot', seq + 3, srv.snapshot(42)));
    await h.advance(20);
    expect(
      updatesOf(batches)
        .slice(sent)
        .map((u) => u.snapshot),
    ).toEqual([true]);
    expect(pageBars(batches).slice(0, -1)).toEqual(full.slice(11, 42));
  });
});

describe('a subscriber that asks for slower delivery (StreamParams.flushMs)', () => {
  it('gets its candles conflated over its interval, ending on the same bars as a per-frame subscriber', async () => {
    const full = barSeries(60);
    const srv = candleServer(full, 20);
    h = createHarness();
    await goLive(h);
    const perFrame = h.collect('candles', { symbols: ['2330'], period: '1m' });
    const slow = h.collect('candles', { symbols: ['2330'], period: '1m', flushMs: 250 });
    const capped = h.collect('candles', { symbols: ['2330'], period: '1m', flushMs: 60_000 });
    await h.advance(4);
    let seq = 1;
    h.frame(cmsg('snapshot', seq, srv.snapshot(30)));
    await h.advance(20);
    const before = { perFrame: perFrame.batches.length, slow: slow.batches.length };
    // 50 changes 10 ms apart (500 ms): a per-frame subscriber gets about one batch each.
    for (let now = 31; now <= 40; now++)
      for (let k = 0; k < 5; k++) {
        h.frame([cmsg('delta', ++seq, srv.roll(now))]);
        await h.advance(10);
      }
    await h.advance(300);
    expect(perFrame.batches.length - before.perFrame).toBeGreaterThanOrEqual(30);
    expect(slow.batches.length - before.slow).toBeGreaterThanOrEqual(2);
    expect(slow.batches.length - before.slow).toBeLessThanOrEqual(4); // 800 ms / 250 ms, + the first
    expect(pageBars(slow.batches)).toEqual(pageBars(perFrame.batches));
    // Above MAX_SUBSCRIBER_FLUSH_MS (2 s): capped, so the last change still arrives within 2 s.
    await h.advance(2_000);
    expect(pageBars(capped.batches)).toEqual(pageBars(perFrame.batches));
  });
});
