/**
 * MARKET_CLOCK=manual and POST /api/test/clock (server/http/test-clock.ts): the configuration
 * refuses a manual clock outside NODE_ENV=test, a server on the production configuration has no
 * control route, and on a manual clock market time stands still until the route moves it, the
 * feed printing the skipped interval (trades, quotes, a resting limit order filled on the way),
 * crossing replayed days one at a time with the calendar jobs run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { TEST_CLOCK_PATH } from '../../server/http/test-clock';
import { MANUAL_START_SESSION } from '../../server/market/manual-time';
import { startHarness, type Harness } from './harness';
import { orderBody } from './trading-support';

const clockOf = (h: Harness) => h.feed.clock();
const taipeiTime = (ms: number) =>
  new Date(ms + 8 * 3_600_000).toISOString().slice(11, 19); /* HH:MM:SS, UTC+8 without DST */

describe('configuration', () => {
  it('allows MARKET_CLOCK=manual only with NODE_ENV=test', () => {
    expect(() => loadConfig({ MARKET_CLOCK: 'manual' } as NodeJS.ProcessEnv)).toThrow(/NODE_ENV=test/);
    expect(() => loadConfig({ MARKET_CLOCK: 'manual', NODE_ENV: 'production' } as NodeJS.ProcessEnv)).toThrow(
      /NODE_ENV=test/,
    );
    expect(loadConfig({ MARKET_CLOCK: 'manual', NODE_ENV: 'test' } as NodeJS.ProcessEnv).marketClock).toBe(
      'manual',
    );
    expect(loadConfig({} as NodeJS.ProcessEnv).marketClock).toBe('replay');
  });
});

describe('a server on the production configuration', () => {
  let h: Harness;
  beforeAll(async () => {
    // The harness's configuration is loadConfig's without NODE_ENV: the replay clock.
    h = await startHarness();
    expect(h.config.marketClock).toBe('replay');
  });
  afterAll(async () => h?.close());

  it('has no control route', async () => {
    const before = clockOf(h).now;
    const res = await h.app.inject({ method: 'POST', url: TEST_CLOCK_PATH, payload: { advanceMs: 60_000 } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 0, msg: 'notFound' });
    h.feed.tick();
    expect(clockOf(h).now).toBe(before);
  });
});

describe('a manual clock', () => {
  let h: Harness;
  const move = async (body: unknown) => {
    const res = await h.app.inject({ method: 'POST', url: TEST_CLOCK_PATH, payload: body as object });
    return { http: res.statusCode, body: res.json() };
  };
  beforeAll(async () => {
    h = await startHarness({ marketClock: 'manual' });
  });
  afterAll(async () => h?.close());

  it('starts at 10:00 of replayed session 5 and stands still', async () => {
    const c = clockOf(h);
    expect(c.mode).toBe('replay');
    expect(c.replayDate).toBe('2025-04-14');
    expect(taipeiTime(c.now)).toBe('10:00:00');
    expect(h.ipo.calendar.today()).toBe(MANUAL_START_SESSION);
    await new Promise((r) => setTimeout(r, 30));
    h.feed.tick();
    expect(clockOf(h).now).toBe(c.now);
  });

  it('advances by market ms, printing every trade of the interval', async () => {
    const before = h.feed.quote('2330')!;
    const prints: number[] = [];
    const off = h.feed.onTrade((symbol, t) => symbol === '2330' && prints.push(t.ts));
    const r = await move({ advanceMs: 5 * 60_000 });
    off();
    expect(r.http).toBe(200);
    expect(r.body.status).toBe(1);
    expect(taipeiTime(r.body.data.clock.now)).toBe('10:05:00');
    expect(r.body.data.session).toBe(MANUAL_START_SESSION);
    expect(prints.length).toBeGreaterThan(0);
    expect(Math.min(...prints)).toBeGreaterThan(before.ts);
    expect(Math.max(...prints)).toBeLessThan(r.body.data.clock.now);
    expect(h.feed.quote('2330')!.ts).toBe(Math.max(...prints));
  });

  it('fills a resting limit order on a price the skipped interval reaches', async () => {
    const token = await h.fundedMember('0911000001', 100_000_000);
    // A limit above the market fills at once; one tick under the day's low never fills: take
    // a price under the last one that the next hour trades at or under (the day's path, prints
    // read through the feed's tape after the move).
    const last = h.feed.quote('2330')!.lastMinor;
    const placed = await h.call('trade/placeOrder', orderBody({ priceMinor: last - 500 }), token);
    expect(placed.body.status, JSON.stringify(placed.body)).toBe(1);
    const id = placed.body.data.id as number;
    let low = Number.POSITIVE_INFINITY;
    const off = h.feed.onTrade((symbol, t) => {
      if (symbol === '2330') low = Math.min(low, t.priceMinor);
    });
    const r = await move({ to: '13:20' });
    off();
    expect(taipeiTime(r.body.data.clock.now)).toBe('13:20:00');
    const detail = (await h.call('trade/orderDetail', { orderId: id }, token)).body.data;
    // 2025-04-14: 2330 trades 895 → 865 (the harness's ordinary day), well under 890.
    expect(low).toBeLessThanOrEqual(last - 500);
    expect(detail.status).toBe('holding');
  });

  it('moves to a time of day, the next replayed day when it has passed, with the calendar jobs', async () => {
    const r = await move({ to: '09:30' });
    expect(r.body.status).toBe(1);
    expect(r.body.data.session).toBe(MANUAL_START_SESSION + 1);
    expect(taipeiTime(r.body.data.clock.now)).toBe('09:30:00');
    expect(r.body.data.clock.replayDate).not.toBe('2025-04-14');
    expect(r.body.data.clock.tradingPhase).toBe('continuous');
    expect(h.feed.quote('2330')!.replayDate).toBe(r.body.data.clock.replayDate);
    const later = await move({ to: '13:26', days: 2 });
    expect(later.body.data.session).toBe(MANUAL_START_SESSION + 3);
    expect(later.body.data.clock.tradingPhase).toBe('closingCall');
    expect(h.ipo.calendar.today()).toBe(MANUAL_START_SESSION + 3);
    const days = await move({ days: 1 });
    expect(days.body.data.session).toBe(MANUAL_START_SESSION + 4);
    expect(taipeiTime(days.body.data.clock.now)).toBe('13:26:00');
  });

  it('runs at a speed when told, and stops again', async () => {
    const start = (await move({ speed: 1_000 })).body.data.clock.now as number;
    await new Promise((r) => setTimeout(r, 50));
    const stopped = (await move({ speed: 0 })).body.data.clock.now as number;
    expect(stopped).toBeGreaterThan(start);
    await new Promise((r) => setTimeout(r, 30));
    h.feed.tick();
    expect(clockOf(h).now).toBe(stopped);
  });

  it('refuses a body it does not understand, and times outside a replayed day', async () => {
    for (const body of [{ advanceMs: -1 }, { to: '8:30' }, { speed: -1 }, { back: 1 }])
      expect((await move(body)).http, JSON.stringify(body)).toBe(400);
    const outside = await move({ to: '15:00' });
    expect(outside.http).toBe(400);
    expect(outside.body.status).toBe(0);
  });
});
