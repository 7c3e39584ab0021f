/**
 * The `backgrounded` state of the market worker (workers/market-service.ts), on fake timers
 * against mock-socket: a hidden page gets no batches, the socket is kept for the grace period
 * then closed (and polling stopped), and becoming visible resyncs at once: re-`sub` on an open
 * socket, otherwise reconnect without backoff and poll right away. Candles come back as a
 * snapshot with the bars missed while away.
 */
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../contract/market';
import { applyCandleUpdate } from '../../workers/conflate';
import {
  barSeries,
  cmsg,
  createHarness,
  goLive,
  last,
  qmsg,
  quote,
  quotesOf,
  useHarnessTimers,
  type Harness,
} from './client-worker-harness';

let h: Harness;

useHarnessTimers();

describe('backgrounded', () => {
  it('stops delivery while hidden; on visible delivers the latest and re-subscribes for fresh snapshots', async () => {
    h = createHarness({ config: { staleAfterMs: 1_000 } });
    await goLive(h);
    const { batches } = h.collect('quotes', { symbols: ['2330'] });
    await h.advance(4);
    h.frame(qmsg('snapshot', 1, quote('2330', 100_000)));
    await h.advance(20);
    expect(batches).toHaveLength(1);

    h.svc.setVisibility(false);
    expect(last(h.statuses)).toMatchObject({ state: 'backgrounded', visible: false });
    for (let seq = 2; seq < 50; seq++) {
      h.frame(qmsg('delta', seq, quote('2330', 100_000 + seq * 50)));
      await h.advance(100);
    }
    // Nothing reaches the page, and silence while hidden is not `stale`.
    expect(batches).toHaveLength(1);
    await h.advance(5_000);
    expect(h.svc.stats().state).toBe('backgrounded');
    expect(h.statuses.some((s) => s.state === 'stale')).toBe(false);

    h.svc.setVisibility(true);
    expect(last(h.statuses)).toMatchObject({ state: 'live', visible: true });
    // The newest value the worker held comes at once, as one batch ...
    expect(batches).toHaveLength(2);
    expect(batches[1]!.items.map((q) => q.lastMinor)).toEqual([100_000 + 49 * 50]);
    // ... and every stream is re-subscribed for a fresh snapshot.
    await h.advance(4);
    expect(h.subs('sub', 'quotes', '2330')).toHaveLength(2);
    h.frame(qmsg('snapshot', 60, quote('2330', 103_000)));
    await h.advance(20);
    expect(last(quotesOf(batches))?.lastMinor).toBe(103_000);
  });

  it('after the grace period closes the socket and stops polling; visible reconnects at once and polls right away', async () => {
    h = createHarness({ config: { backgroundGraceMs: 30_000, pollMs: 2_000 } });
    h.rest['market/quotes'] = (b: { symbols: string[] }) => ({
      items: b.symbols.map((s) => quote(s, 55_500, 2)),
    });
    await goLive(h);
    const { batches } = h.collect('quotes', { symbols: ['2330'] });
    await h.advance(4);
    h.frame(qmsg('snapshot', 1, quote('2330', 100_000)));
    await h.advance(20);

    h.svc.setVisibility(false);
    await h.advance(29_000);
    expect(h.sock().readyState).toBe(1); // kept during the grace period
    let closed = false;
    h.sock().on('close', () => (closed = true));
    await h.advance(1_000 + 4); // + mock-socket's delivery delay
    expect(closed).toBe(true);
    expect(h.svc.stats()).toMatchObject({ state: 'backgrounded', connects: 1 });

    // Hours pass: no reconnects, no polling.
    await h.advance(3 * 3600_000);
    expect(h.svc.stats().connects).toBe(1);
    expect(h.fetchMock).not.toHaveBeenCalled();

    const subsBefore = h.subs('sub', 'quotes', '2330').length;
    h.svc.setVisibility(true);
    expect(h.svc.stats().connects).toBe(2); // no backoff wait
    expect(last(h.statuses)).toMatchObject({ state: 'reconnecting', attempt: 0 });
    expect(h.fetchMock).toHaveBeenCalledTimes(1); // one poll right away
    await h.advance(5);
    expect(h.svc.stats().state).toBe('live');
    await h.advance(4);
    expect(h.subs('sub', 'quotes', '2330')).toHaveLength(subsBefore + 1);
    // The poll answered before the socket opened; its quote reached the page.
    expect(quotesOf(batches).map((q) => q.lastMinor)).toContain(55_500);
  });

  it('a socket that drops during the grace period is reconnected in the background', async () => {
    h = createHarness();
    await goLive(h);
    h.collect('quotes', { symbols: ['2330'] });
    h.svc.setVisibility(false);
    h.down();
    h.up();
    await h.advance(200);
    expect(h.svc.stats()).toMatchObject({ state: 'backgrounded', connects: 2 });
    await h.advance(4);
    expect(h.subs('sub', 'quotes', '2330')).toHaveLength(2);
    h.svc.setVisibility(true);
    expect(h.svc.stats().state).toBe('live');
  });

  it('a forced resync (bfcache restore) re-subscribes even if the worker thought the page visible', async () => {
    h = createHarness();
    await goLive(h);
    h.collect('depth', { symbols: ['2330'] });
    await h.advance(4);
    h.svc.setVisibility(true); // already visible: nothing to do
    await h.advance(4);
    expect(h.subs('sub', 'depth', '2330')).toHaveLength(1);
    h.svc.setVisibility(true, true);
    await h.advance(4);
    expect(h.subs('sub', 'depth', '2330')).toHaveLength(2);
  });

  it('started while hidden: connects, stays backgrounded, delivers nothing until visible', async () => {
    h = createHarness({ start: false });
    h.svc.setVisibility(false);
    h.svc.start({
      wsUrl: h.url,
      restBase: 'http://localhost/api/vue/',
      flushMs: 16,
      staleAfterMs: 1_000,
    });
    const { batches } = h.collect('quotes', { symbols: ['2330'] });
    await h.advance(10);
    expect(h.svc.stats().state).toBe('backgrounded');
    h.frame(qmsg('snapshot', 1, quote('2330', 100_000)));
    await h.advance(5_000);
    expect(batches).toHaveLength(0);
    h.svc.setVisibility(true);
    expect(batches).toHaveLength(1);
    expect(h.svc.stats().state).toBe('live');
  });

  it('candles: back from a long background, the chart gets one snapshot with every bar missed', async () => {
    h = createHarness({ config: { backgroundGraceMs: 1_000 } });
    await goLive(h);
    const full = barSeries(300);
    const forming = (i: number): Candle => ({ ...full[i]!, closeMinor: full[i]!.openMinor, volumeShares: 1 });
    const upTo = (now: number) => [...full.slice(0, now), forming(now)];
    const { batches } = h.collect('candles', { symbols: ['2330'], period: '1m' });
    await h.advance(4);
    h.frame(cmsg('snapshot', 1, upTo(50).slice(-20)));
    await h.advance(20);

    h.svc.setVisibility(false);
    await h.advance(2_000); // socket closed
    const now = 250; // 200 minutes later: far beyond a 20-bar snapshot
    h.rest['market/candles'] = (b: { since: number }) => ({
      items: upTo(now).filter((c) => c.ts >= b.since),
    });
    h.rest['market/quotes'] = () => ({ items: [] });
    h.svc.setVisibility(true);
    await h.advance(10);
    expect(h.svc.stats().state).toBe('live');
    const sent = batches.length;
    h.frame(cmsg('snapshot', 1, upTo(now).slice(-20)));
    await h.advance(20);
    const after = batches.slice(sent).flatMap((b) => b.items);
    expect(after.map((u) => u.snapshot)).toEqual([true]);
    let bars: Candle[] = [];
    for (const b of batches) for (const u of b.items) bars = applyCandleUpdate(bars, u);
    expect(bars.slice(0, -1)).toEqual(full.slice(31, now));
    expect(last(bars)).toEqual(forming(now));
  });
});
