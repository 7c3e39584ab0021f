/**
 * The real announcements on the market clock (server/modules/ipo/schedule.ts,
 * docs/adr/0004-ipo-offers-on-the-replay.md), on PGlite and PostgreSQL:
 * - the 94 announcements are read as they are; a code without an instrument (a first listing)
 *   becomes one with no price history; the import is idempotent;
 * - the distinct real first apply dates open on consecutive business days in their real order, so
 *   around any day of the endless replay there are open, upcoming and ended offerings;
 *   scheduling twice creates nothing more (prices on the replay: ipo-replay.test.ts);
 * - ipo/list labels an offering's days with the replayed dates the app shows.
 */
import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importIpoAnnouncements, readIpoAnnouncements } from '../../server/market/import';
import { dailyCandles, instruments, ipoOfferings } from '../../server/db/schema';
import { loadWindowDates, replayWindow } from '../../server/market/window';
import { replayPlacement } from '../../server/modules/ipo/runner';
import { scheduleSeeded, seedSchedule, type ReplayPlacement } from '../../server/modules/ipo/schedule';
import { startHarness, type Harness } from './harness';
import { ipoTestSymbols } from './support/ipo';

let h: Harness;
let place: ReplayPlacement;
beforeAll(async () => {
  h = await startHarness({ importSymbols: await ipoTestSymbols() });
  const dates = await loadWindowDates(h.database.db);
  place = (await replayPlacement(h.feed, replayWindow(dates), await readIpoAnnouncements()))!;
});
afterAll(async () => {
  await h?.close();
});

const offeringsWhere = async (w: ReturnType<typeof and>) =>
  Number((await h.database.db.select({ n: count() }).from(ipoOfferings).where(w))[0]!.n);

describe('seeded public subscriptions', () => {
  it('imports the 94 announcements; first listings become instruments without price history', async () => {
    const all = await readIpoAnnouncements();
    expect(all).toHaveLength(94);
    expect(all.find((a) => a.code === '6722')).toMatchObject({
      name: '輝創',
      marketType: '初上市',
      applyStart: '2026-01-06',
      drawDate: '2026-01-12',
      priceMinor: 4_000,
      sharesOffered: 2_068_000,
      sharesPerApplication: null,
    });
    await importIpoAnnouncements(h.database.db);
    await importIpoAnnouncements(h.database.db);
    const [inst] = await h.database.db.select().from(instruments).where(eq(instruments.symbol, '6722'));
    expect(inst).toMatchObject({ name: '輝創', market: 'TWSE', kind: 'stock' });
    const candles = await h.database.db
      .select({ n: count() })
      .from(dailyCandles)
      .where(eq(dailyCandles.symbol, '6722'));
    expect(Number(candles[0]!.n)).toBe(0);
  });

  it('around any business day there are open, upcoming and ended offerings; idempotent', async () => {
    const s = seedSchedule(await readIpoAnnouncements());
    expect(s.items).toHaveLength(94);
    expect(s.period).toBe(new Set(s.items.map((i) => i.a.applyStart)).size);
    // The real order is kept.
    const byReal = [...s.items].sort((x, y) => (x.a.applyStart < y.a.applyStart ? -1 : 1));
    for (let i = 1; i < byReal.length; i++)
      expect(byReal[i]!.startDay).toBeGreaterThanOrEqual(byReal[i - 1]!.startDay);
    for (const today of [h.ipo.calendar.today(), 333, 10_007]) {
      await scheduleSeeded(h.database.db, s, today, place);
      const rows = await offeringsWhere(sql`true`);
      await scheduleSeeded(h.database.db, s, today, place);
      expect(await offeringsWhere(sql`true`)).toBe(rows);
      const start = ipoOfferings.applyStartDay;
      expect(await offeringsWhere(and(sql`${start} between ${today - 2} and ${today}`))).toBeGreaterThan(0);
      expect(await offeringsWhere(and(gt(start, today)))).toBeGreaterThan(0);
      expect(await offeringsWhere(and(lt(start, today - 2)))).toBeGreaterThan(0);
    }
  });

  it("day after day with the runner's memory: only the rounds entering the horizon are written, the same offerings result", async () => {
    const s = seedSchedule(await readIpoAnnouncements());
    const created = new Set<string>();
    const day = 20_003;
    await scheduleSeeded(h.database.db, s, day, place, created);
    const first = created.size;
    expect(first).toBeGreaterThan(0);
    const written: number[] = [];
    const spy = vi.spyOn(h.database.db, 'transaction');
    for (let d = day + 1; d <= day + 5; d++) {
      const before = spy.mock.calls.length;
      await scheduleSeeded(h.database.db, s, d, place, created);
      written.push(spy.mock.calls.length - before);
    }
    spy.mockRestore();
    // A new day adds a few rounds (those whose first apply day entered the horizon), not all again.
    expect(created.size).toBeGreaterThan(first);
    expect(written.reduce((a, b) => a + b, 0)).toBe(created.size - first);
    expect(Math.max(...written)).toBeLessThan(first / 4);
    // The same rows as scheduling each day without the memory.
    const rows = await offeringsWhere(sql`true`);
    for (let d = day + 1; d <= day + 5; d++) await scheduleSeeded(h.database.db, s, d, place);
    expect(await offeringsWhere(sql`true`)).toBe(rows);
  });

  it('ipo/list labels the days with the replayed calendar', async () => {
    const token = await h.fundedMember('0950000001', 1_000_000);
    const res = await h.call('ipo/list', { tab: 'open' }, token);
    expect(res.body.status).toBe(1);
    const items = res.body.data.items as Array<{ applyStart: string; applyEnd: string; phase: string }>;
    expect(items.length).toBeGreaterThan(0);
    const today = h.ipo.calendar.today();
    const labels = new Set([0, 1, 2].map((k) => h.ipo.calendar.label(today - k)));
    for (const o of items) {
      expect(o.phase).toBe('inProgress');
      expect(labels).toContain(o.applyStart);
    }
    expect(h.ipo.calendar.label(today)).toBe(h.feed.clock().replayDate);
    for (const tab of ['upcoming', 'ended'] as const) {
      const r = await h.call('ipo/list', { tab }, token);
      expect(r.body.data.total).toBeGreaterThan(0);
    }
  });
});
