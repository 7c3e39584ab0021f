/**
 * Cash dividends on replayed real ex-dates, end to end through the HTTP API on the harness's
 * manual market clock (PGlite by default, PostgreSQL with TEST_DB=postgres), against the
 * exchanges' own events (full-market/ex_rights_2025-04-01_2025-07-22.csv):
 *
 * - 2330 台積電 (TWSE), ex-date 2025-06-12: close before 1,065, reference 1,060.49, cash
 *   NT$4.50002 per share. By hand: 1,000 shares × 4.50002 = NT$4,500.02 = 450,002 minor.
 * - 3324 雙鴻 (TPEx), ex-date 2025-06-16: cash NT$9.998651 per share. By hand: 1,000 × 9.998651
 *   = NT$9,998.651 → rounded half away from zero to the cent: NT$9,998.65 = 999,865 minor.
 * - 2105 正新 (TWSE), ex-date 2025-06-12 as 2330's: cash NT$2.4 per share. By hand: 1,000 × 2.4
 *   = NT$2,400 = 240,000 minor (two events on one date are credited in the same pass).
 *
 * A long held at the close before the ex-date receives it, a short pays it, a position opened
 * on the ex-date or closed before it gets nothing; a second run and a restarted server (fresh
 * runner, catching up) pay nothing twice; the replay's reference on the ex-date is the
 * exchange's 1,060.49; the ledger reconciles.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dividendAmountMinor } from '../../contract/dividends';
import { buildApp } from '../../server/app';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { dividendCredits, ledgerTransactions } from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { HARNESS_SESSION, TEST_SYMBOLS, startHarness, type Harness } from './harness';
import { advanceMarket } from './trading-support';

const FUNDS = 300_000_000; // NT$3,000,000
const TSMC_CASH = 450_002; // 1,000 × NT$4.50002, by hand
const AVC_CASH = 999_865; // 1,000 × NT$9.998651 = 9,998.651 → 9,998.65, by hand
const TIRE_CASH = 240_000; // 1,000 × NT$2.4, by hand
let h: Harness;
let base: number;
let day0611: number;

/** Moves the wall clock to 10:00 market time of replayed session `k` and runs the dividend steps. */
async function goTo(k: number, minutesAfter0900 = 60): Promise<number> {
  const target = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS + (minutesAfter0900 - 60) * 60_000;
  // Jump to 08:31 of the session, then walk to the target a minute at a time (the feed builds
  // the day in slices, tick by tick).
  if (target - 29 * 60_000 - minutesAfter0900 * 60_000 > h.wall.now)
    h.wall.now = target - 29 * 60_000 - minutesAfter0900 * 60_000;
  await advanceMarket(h, target - h.wall.now);
  return h.dividends.run();
}

async function open(token: string, symbol: string, side: 'long' | 'short'): Promise<number> {
  const r = await h.call(
    'trade/placeOrder',
    { symbol, side, orderType: 'market', lots: 1, leverage: 10 },
    token,
  );
  if (r.body.status !== 1) throw new Error(`order refused: ${JSON.stringify(r.body)}`);
  expect(r.body.data.status).toBe('holding');
  return r.body.data.id as number;
}

const members: Record<string, { token: string; id: number }> = {};
async function member(name: string, account: string) {
  const token = await h.fundedMember(account, FUNDS);
  members[name] = { token, id: await h.userId(account) };
  return members[name]!;
}
const available = async (name: string) => (await memberBalances(h.database.db, members[name]!.id)).available;

beforeAll(async () => {
  h = await startHarness({ importSymbols: [...TEST_SYMBOLS, '3324', '2105'] });
  base = h.wall.now;
  const cal = h.dividends.calendar;
  day0611 = Array.from({ length: 73 }, (_, k) => k).find((k) => cal.dateOf(k) === '2025-06-11')!;
  expect(cal.dateOf(day0611 + 1)).toBe('2025-06-12');
  expect(cal.dateOf(day0611 + 3)).toBe('2025-06-16');
});
afterAll(async () => {
  await h?.close();
});

describe('cash dividends on replayed ex-dates', () => {
  const ids: Record<string, number> = {};
  const before: Record<string, number> = {};

  it('hand-checked amounts', () => {
    expect(dividendAmountMinor(1000, 4_500_020)).toBe(TSMC_CASH);
    expect(dividendAmountMinor(1000, 9_998_651)).toBe(AVC_CASH);
    expect(dividendAmountMinor(1000, 2_400_000)).toBe(TIRE_CASH);
  });

  it('lists the real ex-dates on the calendar the day before', async () => {
    await goTo(day0611);
    await member('long', '0931000001');
    const cal = await h.call('dividend/calendar', { tab: 'upcoming', pageSize: 200 }, members.long!.token);
    expect(cal.body.status).toBe(1);
    expect(cal.body.data.today).toBe('2025-06-11');
    const tsmc = cal.body.data.items.find((e: { symbol: string }) => e.symbol === '2330');
    expect(tsmc).toMatchObject({
      nameEn: 'TSMC',
      exDate: '2025-06-12',
      daysAway: 1,
      closeBeforeMinor: 106_500,
      referenceMinor: 106_049,
      cashDividend: '4.50002',
      cashDividendMicros: 4_500_020,
    });
    const recent = await h.call('dividend/calendar', { tab: 'recent' }, members.long!.token);
    expect(recent.body.data.items.every((e: { exDate: string }) => e.exDate < '2025-06-11')).toBe(true);
  });

  it('opens longs and shorts at the close before, and one closed the same day', async () => {
    await member('short', '0931000002');
    await member('late', '0931000003');
    await member('closed', '0931000004');
    ids.long2330 = await open(members.long!.token, '2330', 'long');
    ids.long3324 = await open(members.long!.token, '3324', 'long');
    ids.long2105 = await open(members.long!.token, '2105', 'long');
    ids.short2330 = await open(members.short!.token, '2330', 'short');
    ids.short3324 = await open(members.short!.token, '3324', 'short');
    ids.closed = await open(members.closed!.token, '2330', 'long');
    await goTo(day0611, 90);
    const c = await h.call('trade/closePosition', { orderId: ids.closed }, members.closed!.token);
    expect(c.body.status).toBe(1);
    await h.trading.idle();
    for (const n of ['long', 'short', 'late', 'closed']) before[n] = await available(n);
  });

  it('on 2025-06-12 opens at the exchange reference 1,060.49 and pays 2330 and 2105 holders', async () => {
    const credited = await goTo(day0611 + 1);
    expect(h.feed.quote('2330')!.replayDate).toBe('2025-06-12');
    expect(h.feed.quote('2330')!.prevCloseMinor).toBe(106_049);
    expect(credited).toBe(3);
    expect((await available('long')) - before.long!).toBe(TSMC_CASH + TIRE_CASH);
    expect((await available('short')) - before.short!).toBe(-TSMC_CASH);
    expect(await available('closed')).toBe(before.closed);
    // Opened on the ex-date itself: not entitled.
    ids.late = await open(members.late!.token, '2330', 'long');
    before.late = await available('late');
    expect(await h.dividends.run()).toBe(0);
    expect(await available('late')).toBe(before.late);

    const [tx] = await h.database.db
      .select()
      .from(ledgerTransactions)
      .where(
        and(eq(ledgerTransactions.type, 'dividend'), eq(ledgerTransactions.refId, String(ids.long2330))),
      );
    expect(tx).toBeDefined();
    const rows = await h.database.db
      .select()
      .from(dividendCredits)
      .where(eq(dividendCredits.orderId, ids.long2330!));
    expect(rows).toMatchObject([
      { exDate: '2025-06-12', amountMinor: TSMC_CASH, shares: 1000, side: 'long' },
    ]);
    expect(rows[0]!.ledgerTransactionId).toBe(tx!.id);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('pays the TPEx stock 3324 on 2025-06-16, rounded to the cent', async () => {
    await goTo(day0611 + 2);
    const credited = await goTo(day0611 + 3);
    expect(h.feed.quote('3324')!.replayDate).toBe('2025-06-16');
    expect(credited).toBe(2);
    expect((await available('long')) - before.long!).toBe(TSMC_CASH + TIRE_CASH + AVC_CASH);
    expect((await available('short')) - before.short!).toBe(-TSMC_CASH - AVC_CASH);
    const hist = await h.call('dividend/history', { symbol: '3324' }, members.long!.token);
    expect(hist.body.data.credits).toMatchObject([
      { exDate: '2025-06-16', amountMinor: AVC_CASH, side: 'long' },
    ]);
    expect(hist.body.data.events.map((e: { exDate: string }) => e.exDate)).toContain('2025-06-16');
    const histShort = await h.call('dividend/history', { symbol: '2330' }, members.short!.token);
    expect(histShort.body.data.credits).toMatchObject([{ amountMinor: -TSMC_CASH, side: 'short' }]);
    expect(histShort.body.data).toMatchObject({ symbol: '2330', nameEn: 'TSMC' });
    expect(histShort.body.data.events[0]).toMatchObject({ symbol: '2330', nameEn: 'TSMC' });
  });

  it('a restarted server catching up pays nothing twice', async () => {
    const snapshot = { long: await available('long'), short: await available('short') };
    const [{ n }] = (await h.database.db.$count(dividendCredits).then((n) => [{ n }])) as [{ n: number }];
    const again = await buildApp(h.config, {
      database: h.database,
      now: () => h.wall.now,
      feedTimer: false,
      logger: false,
    });
    try {
      expect(await again.dividends.run()).toBe(0);
    } finally {
      await again.app.close();
    }
    expect(await h.database.db.$count(dividendCredits)).toBe(n);
    expect(await available('long')).toBe(snapshot.long);
    expect(await available('short')).toBe(snapshot.short);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('lists dividend stocks by yield at the replayed price', async () => {
    const r = await h.call('dividend/stocks', { pageSize: 200 }, members.long!.token);
    const items = r.body.data.items as Array<{
      symbol: string;
      yieldBps: number;
      priceMinor: number;
      cashDividendMicros: number;
    }>;
    for (let i = 1; i < items.length; i++)
      expect(items[i - 1]!.yieldBps).toBeGreaterThanOrEqual(items[i]!.yieldBps);
    const all = await h.call('dividend/stocks', { pageSize: 200, page: 1 }, members.long!.token);
    expect(all.body.data.total).toBeGreaterThan(1000);
    const tsmcPage = await (async () => {
      for (let p = 1; p <= Math.ceil(all.body.data.total / 200); p++) {
        const page = await h.call('dividend/stocks', { pageSize: 200, page: p }, members.long!.token);
        const hit = page.body.data.items.find((x: { symbol: string }) => x.symbol === '2330');
        if (hit) return hit;
      }
      return null;
    })();
    const q = h.feed.quote('2330')!;
    expect(tsmcPage).toMatchObject({
      nameEn: 'TSMC',
      priceMinor: q.lastMinor,
      cashDividendMicros: 4_500_020,
    });
    expect(tsmcPage.yieldBps).toBe(Math.floor(4_500_020 / q.lastMinor));
  });
});
