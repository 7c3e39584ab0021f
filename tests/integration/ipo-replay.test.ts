/**
 * Public-subscription offers placed on the replayed market (docs/adr/0004-ipo-offers-on-the-replay.md),
 * through the HTTP API on the harness's manual clock, on PGlite and PostgreSQL:
 * - on several replayed days, every open offering whose stock trades in the replay is priced at the
 *   lowest tick at or above (replayed close before its first apply day) × ratio, the ratio being
 *   the real announcement's (its price ÷ the real close before its 2026 subscription, where the
 *   2026 daily file has it) or else the rule's 70/100, checked against an independent reading of
 *   daily_candles and of the raw 2026 file (exact BigInt arithmetic), and says which;
 * - 3037 欣興 (real 116 against a 220.00 close on 2025-12-31: 47.27 % off) is offered below its
 *   replayed price at that discount, and its whole journey works: apply (price × 1,000 + NT$70
 *   held), deduction (NT$20 kept), the verifiable draw (not oversubscribed: it wins; a re-run of the
 *   published draw agrees), refund day (NT$50), listing (a 1× long of 1,000 at the offer price);
 * - a code the replay never trades (a first listing) keeps the announced price, is not quoted
 *   while it takes applications, and lists on its listing day opening at the offer price along its
 *   comparable's real path scaled to it; the winner holds it at the offer price.
 */
import { readFileSync } from 'node:fs';
import { and, asc, between, eq, gte, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawCommitment, drawWinners, ipoDiscountBps, type IpoOffering } from '../../contract/ipo';
import { ceilToTick, floorToTick, isOnTick } from '../../contract/market-rules';
import { mulDivCeil, mulDivRound, toMinor } from '../../contract/money';
import { readIpoAnnouncements, type IpoAnnouncement } from '../../server/market/import';
import { dailyCandles, ipoApplications, ipoOfferings, orders } from '../../server/db/schema';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { seedDataPath } from '../../server/market/csv';
import {
  loadWindowDates,
  replayWindow,
  WINDOW_FIRST_DATE,
  WINDOW_LAST_DATE,
  type ReplayWindow,
} from '../../server/market/window';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { HARNESS_SESSION, idem, startHarness, type Harness } from './harness';
import { ipoTestSymbols } from './support/ipo';

let h: Harness;
let win: ReplayWindow;
let anns: IpoAnnouncement[];
/** daily_candles closes of the window: symbol → date → close minor. */
const closes = new Map<string, Map<string, number>>();

const today = () => h.ipo.calendar.today();
/** The valid price nearest to `p` (ties down): how the comparable's prices are scaled. */
const nearestTick = (p: number) => (p - floorToTick(p) <= ceilToTick(p) - p ? floorToTick(p) : ceilToTick(p));
const clean = async () => expect(isClean(await reconcile(h.database.db))).toBe(true);
async function advance(days: number): Promise<void> {
  h.wall.now += days * REPLAY_DAY_MS;
  h.feed.tick();
  await h.ipo.run();
}
async function goTo(day: number): Promise<void> {
  if (day > today()) await advance(day - today());
}
async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token, idem());
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** The replayed close before `session`, read from daily_candles (walking back one pass at most). */
function oracleCloseBefore(symbol: string, session: number): { closeMinor: number; session: number } | null {
  const m = closes.get(symbol);
  for (let k = session - 1; m && k >= session - win.replayDayIndexes.length; k--) {
    const c = m.get(win.dateOf(k));
    if (c !== undefined) return { closeMinor: c, session: k };
  }
  return null;
}

/** The raw 2026 daily file's close before the announcement's subscription (≤ 7 days), else null. */
const rawRecent = readFileSync(seedDataPath('daily', 'recent_ohlcv_2024_2026.csv'), 'utf8')
  .trim()
  .split('\n');
function oracleRealClose(a: IpoAnnouncement): { closeMinor: number; date: string } | null {
  let best: { closeMinor: number; date: string } | null = null;
  for (const line of rawRecent) {
    const [date, code, , , , close] = line.split(',');
    if (code !== a.code || !(date! < a.applyStart) || !/^\d+(\.\d{1,2})?$/.test(close!)) continue;
    if (!best || date! > best.date) best = { closeMinor: toMinor(close!), date: date! };
  }
  if (!best) return null;
  const age = (Date.parse(a.applyStart) - Date.parse(best.date)) / 86_400_000;
  return age <= 7 ? best : null;
}

async function openOfferings(token: string): Promise<IpoOffering[]> {
  const r = await ok('ipo/list', { tab: 'open', pageSize: 100 }, token);
  expect(r.total).toBe(r.items.length);
  return r.items as IpoOffering[];
}
const rowOf = async (id: number) =>
  (await h.database.db.select().from(ipoOfferings).where(eq(ipoOfferings.id, id)))[0]!;
const annOf = (o: { symbol: string; source: { applyStart: string } | null }) =>
  anns.find((a) => a.code === o.symbol && a.applyStart === o.source!.applyStart)!;

beforeAll(async () => {
  const symbols = await ipoTestSymbols();
  h = await startHarness({ importSymbols: symbols });
  anns = await readIpoAnnouncements();
  win = replayWindow(await loadWindowDates(h.database.db));
  const rows = await h.database.db
    .select({ symbol: dailyCandles.symbol, date: dailyCandles.date, close: dailyCandles.closeMinor })
    .from(dailyCandles)
    .where(
      and(
        inArray(dailyCandles.symbol, symbols),
        between(dailyCandles.date, WINDOW_FIRST_DATE, WINDOW_LAST_DATE),
      ),
    );
  for (const r of rows) {
    const m = closes.get(r.symbol) ?? new Map<string, number>();
    m.set(r.date, r.close);
    closes.set(r.symbol, m);
  }
  await h.ipo.run();
});
afterAll(async () => {
  await h?.close();
});

describe('offers on the replayed market', () => {
  it('every open offering on several replayed days: on the tick table, at the documented discount', async () => {
    const token = await h.fundedMember('0930000001', 1_000_000);
    const seen = { announcement: 0, rule: 0, listing: 0 };
    expect(today()).toBe(HARNESS_SESSION);
    // A few days, one of them the first apply day of the next listing without a market.
    const listings = await h.database.db
      .select()
      .from(ipoOfferings)
      .where(eq(ipoOfferings.pricing, 'listing'));
    const firstListing = Math.min(...listings.map((r) => r.applyStartDay).filter((d) => d > HARNESS_SESSION));
    const days = [...new Set([HARNESS_SESSION, 12, firstListing, 31, 47])].sort((x, y) => x - y);
    for (const day of days) {
      await goTo(day);
      const open = await openOfferings(token);
      expect(open.length).toBeGreaterThan(0);
      for (const o of open) {
        const row = await rowOf(o.id);
        const a = annOf(o);
        expect(o.source).toMatchObject({ applyStart: a.applyStart, priceMinor: a.priceMinor });
        expect(o.payableMinor).toBe(o.priceMinor! * 1_000 + 7_000);
        if (o.pricing === 'listing') {
          // The window never trades it: the announced price, not quoted while taking applications.
          expect(closes.has(o.symbol)).toBe(false);
          expect(o.priceMinor).toBe(a.priceMinor);
          expect(h.feed.quote(o.symbol)).toBeUndefined();
          expect(o.marketPriceMinor).toBeNull();
          seen.listing++;
          continue;
        }
        const ref = oracleCloseBefore(o.symbol, row.applyStartDay)!;
        expect(ref).not.toBeNull();
        expect(o.referenceMinor).toBe(ref.closeMinor);
        expect(o.referenceDate).toBe(win.dateOf(ref.session));
        const real = oracleRealClose(a);
        expect(o.pricing).toBe(real ? 'announcement' : 'rule');
        const [num, den] = real ? [a.priceMinor, real.closeMinor] : [70, 100];
        expect(o.source!.closeMinor).toBe(real?.closeMinor ?? null);
        expect(o.discountBps).toBe(10_000 - mulDivRound(num, 10_000, den));
        const p = o.priceMinor!;
        expect(isOnTick(p)).toBe(true);
        expect(p).toBe(ceilToTick(mulDivCeil(ref.closeMinor, num, den)));
        // At least the ratio, less than one tick above it, and below the reference.
        expect(BigInt(p) * BigInt(den) >= BigInt(ref.closeMinor) * BigInt(num)).toBe(true);
        expect(BigInt(floorToTick(p - 1)) * BigInt(den) < BigInt(ref.closeMinor) * BigInt(num)).toBe(true);
        expect(p).toBeLessThan(ref.closeMinor);
        seen[o.pricing as 'announcement' | 'rule']++;
      }
    }
    expect(seen.rule).toBeGreaterThan(0);
    expect(seen.listing).toBeGreaterThan(0);
  });

  describe('3037 欣興 through its whole journey', () => {
    let token: string;
    let userId: number;
    let o: IpoOffering;
    let appId: number;
    const FUNDS = 30_000_000;

    it('is offered below its replayed price at the real announcement discount (116 ÷ 220.00)', async () => {
      // Its next round that has not opened yet (the rounds repeat every pass of the schedule).
      const [first] = await h.database.db
        .select()
        .from(ipoOfferings)
        .where(and(eq(ipoOfferings.symbol, '3037'), gte(ipoOfferings.applyStartDay, today())))
        .orderBy(asc(ipoOfferings.applyStartDay))
        .limit(1);
      expect(first).toBeDefined();
      await goTo(first!.applyStartDay);
      token = await h.fundedMember('0930000002', FUNDS);
      userId = await h.userId('0930000002');
      o = (await ok('ipo/detail', { id: first!.id }, token)).offering;
      expect(o).toMatchObject({
        phase: 'inProgress',
        pricing: 'announcement',
        discountBps: 4_727,
        source: { applyStart: '2026-01-02', priceMinor: 11_600, closeMinor: 22_000, closeDate: '2025-12-31' },
      });
      expect(ipoDiscountBps(11_600, 22_000)).toBe(4_727);
      const ref = oracleCloseBefore('3037', first!.applyStartDay)!;
      expect(o.referenceMinor).toBe(ref.closeMinor);
      expect(o.priceMinor).toBe(ceilToTick(mulDivCeil(ref.closeMinor, 11_600, 22_000)));
      expect(o.priceMinor!).toBeLessThan(o.referenceMinor!);
      expect(o.marketPriceMinor).not.toBeNull();
      expect(o.priceMinor!).toBeLessThan(o.marketPriceMinor!);
    });

    it('apply holds price × 1,000 + NT$70; deduction keeps NT$20', async () => {
      const a = await ok('ipo/apply', { offeringId: o.id }, token);
      appId = a.id;
      const payable = o.priceMinor! * 1_000 + 7_000;
      expect(a).toMatchObject({ status: 'waitingDraw', priceMinor: o.priceMinor, payableMinor: payable });
      expect(await memberBalances(h.database.db, userId)).toMatchObject({
        available: FUNDS - payable,
        frozen: payable,
      });
      await clean();
      await goTo((await rowOf(o.id)).applyStartDay + 3);
      expect(await memberBalances(h.database.db, userId)).toMatchObject({ frozen: payable - 2_000 });
      await clean();
    });

    it('the draw: everyone qualified wins (not oversubscribed), and a re-run agrees', async () => {
      await advance(1);
      const draw = await ok('ipo/draw', { id: o.id }, token);
      expect(draw.oversubscribed).toBe(false);
      expect(await drawCommitment(draw.seed)).toBe(draw.commitment);
      expect(await drawWinners(draw.seed, draw.qualified, draw.units)).toEqual(draw.winners);
      const [a] = await h.database.db.select().from(ipoApplications).where(eq(ipoApplications.id, appId));
      expect(draw.winners).toContain(a!.applicationNo);
      expect(a!.status).toBe('won');
    });

    it('refund day takes NT$50; the listing delivers a 1× long of 1,000 at the offer price', async () => {
      await advance(1);
      expect(await memberBalances(h.database.db, userId)).toMatchObject({ frozen: o.priceMinor! * 1_000 });
      await goTo((await rowOf(o.id)).listingDay);
      const [a] = await h.database.db.select().from(ipoApplications).where(eq(ipoApplications.id, appId));
      expect(a!.status).toBe('subscribed');
      const [held] = await h.database.db.select().from(orders).where(eq(orders.id, a!.orderId!));
      expect(held).toMatchObject({
        symbol: '3037',
        side: 'long',
        leverage: 1,
        shares: 1_000,
        openPriceMinor: o.priceMinor,
        status: 'holding',
      });
      expect(await memberBalances(h.database.db, userId)).toMatchObject({ frozen: 0 });
      await clean();
    });
  });

  it('a code the replay never trades lists at its offer price along its comparable', async () => {
    const rows = await h.database.db.select().from(ipoOfferings).where(eq(ipoOfferings.pricing, 'listing'));
    const next = rows
      .filter((r) => r.applyStartDay > today())
      .sort((x, y) => x.applyStartDay - y.applyStartDay)[0]!;
    expect(next).toBeDefined();
    const proxy = h.feed.listingProxy!(next.symbol)!;
    expect(proxy).toMatchObject({ symbol: next.symbol, offerMinor: next.priceMinor });
    expect(next.listingDay - next.applyStartDay).toBe(9);
    expect(win.dayIndexOf(next.listingDay)).toBe(proxy.firstIndex);
    await goTo(next.applyStartDay);
    expect(h.feed.quote(next.symbol)).toBeUndefined();
    const token = await h.fundedMember('0930000003', 100_000_000);
    const a = await ok('ipo/apply', { offeringId: next.id }, token);
    expect(a.priceMinor).toBe(next.priceMinor);
    await goTo(next.listingDay);
    const q = h.feed.quote(next.symbol)!;
    expect(q).toBeDefined();
    // The first reference is the offer (on the tick table), the path the comparable's scaled.
    const comp = closes.get(proxy.comparable)!;
    const anchor = (
      await h.database.db
        .select({ open: dailyCandles.openMinor })
        .from(dailyCandles)
        .where(
          and(eq(dailyCandles.symbol, proxy.comparable), eq(dailyCandles.date, win.dates[proxy.firstIndex]!)),
        )
    )[0]!.open;
    expect(anchor).toBe(proxy.anchorMinor);
    const scaled = (c: number) => nearestTick(mulDivRound(c, next.priceMinor, anchor));
    expect(scaled(anchor)).toBe(nearestTick(next.priceMinor));
    expect(q.prevCloseMinor).toBe(nearestTick(next.priceMinor));
    for (let k = 1; k <= 3; k++) {
      const c = comp.get(win.dateOf(next.listingDay + k - 1));
      const got = h.feed.closeBefore!(next.symbol, next.listingDay + k);
      if (c !== undefined) expect(got?.closeMinor).toBe(scaled(c));
    }
    const [app] = await h.database.db.select().from(ipoApplications).where(eq(ipoApplications.id, a.id));
    expect(app!.status).toBe('subscribed');
    const [held] = await h.database.db.select().from(orders).where(eq(orders.id, app!.orderId!));
    expect(held).toMatchObject({ symbol: next.symbol, leverage: 1, openPriceMinor: next.priceMinor });
    // Listed, but never ranked (another stock's figures).
    await advance(0);
    const snap = h.services.rankings.snapshot();
    expect(snap.orders.all).toContain(next.symbol);
    for (const sort of ['gainers', 'losers', 'volume', 'turnover'] as const)
      expect(snap.orders[sort]).not.toContain(next.symbol);
    await clean();
  });
});
