/**
 * The market worker's service (workers/market-service.ts) against a mocked socket, protocol v2,
 * on fake timers: conflation, frames of one message or an array, sequence gaps, refcounted
 * unsubscribe with proxy release, reconnect backoff with jitter, polling fallback and back to
 * live, heartbeat timeout, `stale` after silence. Runs in Node (no DOM).
 * Depth/trades/candles: client-worker-streams.test.ts; visibility: client-worker-background.test.ts;
 * real Comlink: client-worker-comlink.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../contract/market';
import { WS_CLOSE_TOO_FREQUENT, WS_CLOSE_TOO_SLOW } from '../../contract/realtime';
import type { QuoteBatch, StatusSnapshot, WireBatch } from '../../workers/protocol';
import { createBatchDecoder } from '../../workers/transfer';
import {
  barSeries,
  cmsg,
  createHarness,
  goLive,
  last,
  qmsg,
  quote,
  quotesOf,
  trade,
  useHarnessTimers,
  type Harness,
} from './client-worker-harness';

let h: Harness;

useHarnessTimers();

describe('market worker service: streams', () => {
  it('subscribes, then conflates a burst to the latest value per symbol; only subscribed symbols travel', async () => {
    h = createHarness();
    await goLive(h);
    const { batches } = h.collect('quotes', { symbols: ['2330', '2317'] });
    await h.advance(4); // mock-socket delivers client messages after 4 ms
    expect(h.subs('sub', 'quotes', '2330')).toEqual([
      { op: 'sub', channel: 'quotes', symbols: ['2330', '2317'] },
    ]);

    // One frame may carry an array of messages (v2), or one message.
    h.frame([qmsg('snapshot', 1, quote('2330', 100_000)), qmsg('snapshot', 1, quote('2317', 20_000))]);
    h.frame(qmsg('snapshot', 1, quote('1101', 4_000))); // not subscribed: never delivered
    for (let i = 2; i <= 200; i += 2)
      h.frame([
        qmsg('delta', i, quote('2330', 100_000 + i * 50)),
        qmsg('delta', i + 1, quote('2330', 100_000 + (i + 1) * 50)),
      ]);
    await h.advance(20);

    const q2330 = quotesOf(batches).filter((q) => q.symbol === '2330');
    expect(last(q2330)?.lastMinor).toBe(100_000 + 201 * 50);
    // Everything arrived within one flush: one batch, one value per symbol.
    expect(batches).toHaveLength(1);
    expect(batches[0]!.items.map((q) => q.symbol).sort()).toEqual(['2317', '2330']);
    expect(batches[0]!.receivedAt).toEqual([Date.now() - 20, Date.now() - 20]);
    expect(quotesOf(batches).some((q) => q.symbol === '1101')).toBe(false);

    // Then at most one batch per flush interval.
    for (let i = 202; i < 262; i++) {
      h.frame(qmsg('delta', i, quote('2330', 100_000 + i * 50)));
      await h.advance(2);
    }
    await h.advance(20);
    expect(batches.length).toBeLessThanOrEqual(1 + Math.ceil(140 / 16) + 1);
    expect(last(quotesOf(batches))?.lastMinor).toBe(100_000 + 261 * 50);
  });

  it('re-subscribes for a fresh snapshot on a sequence gap and drops deltas until it arrives', async () => {
    h = createHarness();
    await goLive(h);
    const { batches } = h.collect('quotes', { symbols: ['2330'] });
    await h.advance(1);
    const seen = () => quotesOf(batches).map((q) => q.lastMinor);
    h.frame(qmsg('snapshot', 10, quote('2330', 100_000)));
    h.frame(qmsg('delta', 11, quote('2330', 100_500)));
    await h.advance(20);
    expect(seen()).toEqual([100_500]);
    h.frame(qmsg('delta', 13, quote('2330', 999_900))); // 12 was lost
    await h.advance(4);
    expect(h.subs('sub', 'quotes', '2330')).toHaveLength(2);
    expect(h.svc.stats().gaps).toBe(1);
    h.frame(qmsg('delta', 14, quote('2330', 888_800))); // not applicable either
    h.frame(qmsg('delta', 11, quote('2330', 777_700))); // stale duplicate
    h.frame(qmsg('snapshot', 15, quote('2330', 101_000)));
    h.frame(qmsg('delta', 16, quote('2330', 101_500)));
    await h.advance(20);
    expect(seen()).toEqual([100_500, 101_500]);
    expect(h.subs('sub', 'quotes', '2330')).toHaveLength(2); // one re-sub for the one gap
  });

  it('applies a quote delta of changed fields to the held quote; an unreadable delta asks for a snapshot', async () => {
    h = createHarness();
    await goLive(h);
    const { batches } = h.collect('quotes', { symbols: ['2330'] });
    await h.advance(1);
    const base = quote('2330', 100_000, 1);
    h.frame(qmsg('snapshot', 1, base));
    h.frame({ type: 'quote', kind: 'delta', symbol: '2330', seq: 2, data: { lastMinor: 100_500, ts: 2 } });
    await h.advance(20);
    expect(last(quotesOf(batches))).toEqual({ ...base, lastMinor: 100_500, ts: 2 });

    h.frame({ type: 'quote', kind: 'delta', symbol: '2330', seq: 3, data: { priceMinor: 1 } });
    await h.advance(4);
    expect(h.subs('sub', 'quotes', '2330')).toHaveLength(2); // asked again
    expect(quotesOf(batches)).toHaveLength(1); // nothing guessed
  });

  it('unsubscribe sends unsub only when the last subscriber leaves, and releases the callbacks', async () => {
    h = createHarness();
    await goLive(h);
    const a: Quote[] = [];
    const b: Quote[] = [];
    const decodeA = createBatchDecoder();
    const decodeB = createBatchDecoder();
    const cbA = { next: (w: WireBatch) => void a.push(...(decodeA(w) as QuoteBatch).items) };
    const cbB = { next: (w: WireBatch) => void b.push(...(decodeB(w) as QuoteBatch).items) };
    const ha = h.svc.subscribe('quotes', { symbols: ['2330'] }, cbA);
    h.frame(qmsg('snapshot', 1, quote('2330', 100_000)));
    await h.advance(20);
    expect(a).toHaveLength(1);

    // A second subscriber to a live stream gets the latest value at once, without a new `sub`.
    const hb = h.svc.subscribe('quotes', { symbols: ['2330'] }, cbB);
    await h.advance(1);
    expect(b.map((q) => q.lastMinor)).toEqual([100_000]);
    expect(h.subs('sub', 'quotes', '2330')).toHaveLength(1);
    expect(h.svc.stats()).toMatchObject({ subscribers: 2, wanted: 1 });

    ha.unsubscribe();
    ha.unsubscribe(); // idempotent
    expect(h.release).toHaveBeenCalledTimes(0); // released after complete() settles
    await h.advance(1);
    expect(h.release).toHaveBeenCalledTimes(1);
    expect(h.release).toHaveBeenCalledWith(cbA);
    expect(h.subs('unsub', 'quotes', '2330')).toHaveLength(0);

    h.frame(qmsg('delta', 2, quote('2330', 100_500)));
    await h.advance(20);
    expect(b).toHaveLength(2);
    expect(a).toHaveLength(1); // A no longer receives

    hb.unsubscribe();
    await h.advance(4);
    expect(h.subs('unsub', 'quotes', '2330')).toEqual([
      { op: 'unsub', channel: 'quotes', symbols: ['2330'] },
    ]);
    expect(h.release).toHaveBeenCalledWith(cbB);
    expect(h.svc.stats()).toMatchObject({ subscribers: 0, wanted: 0 });
    // Messages of a stream nobody wants are dropped.
    h.frame(qmsg('delta', 3, quote('2330', 101_000)));
    await h.advance(20);
    expect(b).toHaveLength(2);
  });

  it('passes the heartbeat clock to status watchers', async () => {
    h = createHarness();
    await goLive(h);
    h.frame([
      { type: 'hb', ts: 1, clock: { source: 'replay', mode: 'replay', phase: 'open', speed: 1, now: 5 } },
    ]);
    expect(last(h.statuses)?.clock?.mode).toBe('replay');
    h.frame({ type: 'error', msg: 'badRequest' });
    expect(last(h.statuses)?.lastError).toBe('badRequest');
  });
});

describe('market worker service: connection', () => {
  /** Delays of the reconnects the worker scheduled, measured at the moment it announced them. */
  function scheduledDelays(h: Harness): number[] {
    const out: number[] = [];
    h.svc.watchStatus({
      next: (s: StatusSnapshot) => {
        if (s.nextRetryAt !== null) out.push(s.nextRetryAt - Date.now());
      },
    });
    out.length = 0; // the snapshot delivered at once
    return out;
  }

  it('reconnects with exponential backoff; jitter stays within [cap/2, cap]', async () => {
    for (const [random, expected] of [
      [() => 0, [50, 100, 200, 400, 800, 800, 800]],
      [() => 0.999, [100, 200, 400, 800, 1599, 1599, 1599]],
    ] as const) {
      h = createHarness({ random });
      await goLive(h);
      const delays = scheduledDelays(h);
      h.down();
      for (let i = 0; i < 7; i++) {
        const connects = h.svc.stats().connects;
        const due = last(h.statuses)!.nextRetryAt!;
        await h.advance(due - Date.now() - 1);
        expect(h.svc.stats().connects).toBe(connects); // not a millisecond early
        await h.advance(1);
        expect(h.svc.stats().connects).toBe(connects + 1);
        await h.advance(10); // the refused attempt fails and the next one is scheduled
      }
      expect(delays.slice(0, 7)).toEqual(expected);
      expect(last(h.statuses)?.attempt).toBe(8);
      h.stop();
    }

    h = createHarness({ random: Math.random });
    await goLive(h);
    const delays = scheduledDelays(h);
    h.down();
    for (let i = 0; i < 8; i++) await h.advance(1_700);
    expect(delays.length).toBeGreaterThanOrEqual(6);
    delays.forEach((d, n) => {
      const cap = Math.min(1_600, 100 * 2 ** n);
      expect(d).toBeGreaterThanOrEqual(cap / 2);
      expect(d).toBeLessThanOrEqual(cap);
    });
  });

  it('polls REST snapshots while down (quotes, depth, trades, candles since the last bar), then goes live and re-subscribes', async () => {
    h = createHarness();
    await goLive(h);
    const bars = barSeries(10);
    const quotes = h.collect('quotes', { symbols: ['2454'] });
    const depth = h.collect('depth', { symbols: ['2454'] });
    const tape = h.collect('trades', { symbols: ['2454'] });
    const candles = h.collect('candles', { symbols: ['2454'], period: '1m' });
    await h.advance(1);
    h.frame([
      cmsg('snapshot', 1, bars.slice(0, 8), '2454'),
      { type: 'trades', kind: 'snapshot', symbol: '2454', seq: 1, data: [trade(1, 55_000)] },
    ]);
    await h.advance(20);

    h.rest['market/quotes'] = (b: { symbols: string[] }) => ({
      items: b.symbols.map((s) => quote(s, 55_500)),
    });
    h.rest['market/depth'] = (b: { symbol: string }) => ({
      symbol: b.symbol,
      ts: 5,
      bids: [{ priceMinor: 55_400, volumeLots: 3 }],
      asks: [{ priceMinor: 55_500, volumeLots: 4 }],
    });
    h.rest['market/trades'] = () => ({ symbol: '2454', items: [trade(1, 55_000), trade(2, 55_500, 'sell')] });
    h.rest['market/candles'] = (b: { since?: number }) => ({
      symbol: '2454',
      period: '1m',
      items: bars.filter((c) => c.ts >= (b.since ?? 0)),
    });

    h.down();
    expect(last(h.statuses)?.state).toBe('reconnecting');
    await h.advance(1);
    expect(h.svc.stats().state).toBe('polling');
    const calls = h.fetchMock.mock.calls.map(([url, init]) => [
      url.replace(/.*vue\//, ''),
      JSON.parse(init.body),
    ]);
    expect(calls).toEqual(
      expect.arrayContaining([
        ['market/quotes', { symbols: ['2454'] }],
        ['market/depth', { symbol: '2454' }],
        ['market/trades', { symbol: '2454', limit: 50 }],
        ['market/candles', { symbol: '2454', period: '1m', since: bars[7]!.ts, limit: 2000 }],
      ]),
    );
    await h.advance(20);
    expect(last(quotesOf(quotes.batches))?.lastMinor).toBe(55_500);
    expect(last(depth.batches)?.items[0]?.bids).toEqual([{ priceMinor: 55_400, volumeLots: 3 }]);
    expect(last(tape.batches)?.items[0]).toEqual({
      symbol: '2454',
      snapshot: true,
      items: [trade(1, 55_000), trade(2, 55_500, 'sell')],
    });
    // Candles keep updating while polling: the bars since the last one held, as a delta.
    expect(last(candles.batches)?.items[0]).toMatchObject({ snapshot: false, items: bars.slice(7) });

    // Back up: the reconnect loop finds it, goes live, re-subscribes every stream, stops polling.
    h.up();
    const before = h.received.length;
    for (let i = 0; i < 20 && h.svc.stats().state !== 'live'; i++) await h.advance(50);
    expect(h.svc.stats().state).toBe('live');
    expect(h.received.slice(before)).toEqual(
      expect.arrayContaining([
        { op: 'sub', channel: 'quotes', symbols: ['2454'] },
        { op: 'sub', channel: 'depth', symbols: ['2454'] },
        { op: 'sub', channel: 'trades', symbols: ['2454'] },
        { op: 'sub', channel: 'candles', symbols: ['2454'], period: '1m' },
      ]),
    );
    const polls = h.fetchMock.mock.calls.length;
    await h.advance(5_000);
    expect(h.fetchMock.mock.calls.length).toBe(polls);
    expect(last(h.statuses)).toMatchObject({ state: 'live', attempt: 0, nextRetryAt: null });
  });

  it('treats a silent socket as dead after the heartbeat timeout; heartbeats keep it alive', async () => {
    h = createHarness({ config: { heartbeatTimeoutMs: 80 } });
    await goLive(h);
    for (let i = 0; i < 10; i++) {
      await h.advance(50);
      h.frame({
        type: 'hb',
        ts: Date.now(),
        clock: { source: 'replay', mode: 'replay', phase: 'open', speed: 1, now: 1 },
      });
    }
    expect(h.svc.stats()).toMatchObject({ state: 'live', connects: 1 });
    await h.advance(80);
    expect(h.statuses.some((s) => s.state === 'reconnecting')).toBe(true);
    // And it reconnects (the mock server is still up).
    await h.advance(100);
    expect(h.svc.stats()).toMatchObject({ state: 'live', connects: 2 });
  });

  it('goes stale after silence from socket and polling, with lastDataAt, and recovers on data', async () => {
    h = createHarness({ config: { staleAfterMs: 3_000, pollMs: 1_000 } });
    await goLive(h);
    h.collect('quotes', { symbols: ['2330'] });
    await h.advance(1);
    h.frame(qmsg('snapshot', 1, quote('2330', 100_000)));
    const dataAt = Date.now();
    await h.advance(500);
    h.restDown = true;
    h.down(); // server unreachable: no socket, polls fail
    await h.advance(2_490);
    expect(h.svc.stats().state).toBe('reconnecting');
    await h.advance(20);
    expect(last(h.statuses)).toMatchObject({ state: 'stale', lastDataAt: dataAt });
    expect(h.svc.stats().pollFailures).toBeGreaterThanOrEqual(2);

    // REST answers again: the next poll leaves stale for polling.
    h.rest['market/quotes'] = (b: { symbols: string[] }) => ({
      items: b.symbols.map((s) => quote(s, 100_500)),
    });
    h.restDown = false;
    await h.advance(1_000);
    expect(last(h.statuses)?.state).toBe('polling');
    expect(last(h.statuses)!.lastDataAt!).toBeGreaterThan(dataAt);
  });

  it('a live socket that goes quiet beyond staleAfterMs is stale until the next message', async () => {
    h = createHarness({ config: { staleAfterMs: 1_000 } });
    await goLive(h);
    h.frame({
      type: 'hb',
      ts: 1,
      clock: { source: 'replay', mode: 'replay', phase: 'open', speed: 1, now: 1 },
    });
    const at = Date.now();
    await h.advance(999);
    expect(h.svc.stats().state).toBe('live');
    await h.advance(1);
    expect(last(h.statuses)).toMatchObject({ state: 'stale', lastDataAt: at });
    h.frame({
      type: 'hb',
      ts: 2,
      clock: { source: 'replay', mode: 'replay', phase: 'open', speed: 1, now: 2 },
    });
    expect(last(h.statuses)).toMatchObject({ state: 'live', lastDataAt: Date.now() });
  });

  it.each([
    [WS_CLOSE_TOO_SLOW, 'tooSlow'],
    [WS_CLOSE_TOO_FREQUENT, 'tooFrequent'],
  ])(
    'a server close with code %i (%s) is reconnected with backoff, and every stream re-subscribed',
    async (code, reason) => {
      h = createHarness();
      await goLive(h);
      h.collect('quotes', { symbols: ['2330'] });
      await h.advance(5);
      const delays = scheduledDelays(h);
      const subsBefore = h.subs('sub', 'quotes', '2330').length;
      h.sock().close({ code, reason, wasClean: true });
      await h.advance(10);
      expect(h.svc.stats().state).not.toBe('live');
      expect(delays).toEqual([50]); // the first backoff step (random 0: cap/2)
      for (let i = 0; i < 20 && h.svc.stats().state !== 'live'; i++) await h.advance(25);
      expect(h.svc.stats()).toMatchObject({ state: 'live', connects: 2 });
      await h.advance(5);
      expect(h.subs('sub', 'quotes', '2330')).toHaveLength(subsBefore + 1);
    },
  );

  it('stop closes everything; start again reconnects', async () => {
    h = createHarness();
    await goLive(h);
    h.svc.stop();
    expect(last(h.statuses)?.state).toBe('stopped');
    await h.advance(60_000);
    expect(h.svc.stats().connects).toBe(1);
    expect(h.fetchMock).not.toHaveBeenCalled();
  });
});
