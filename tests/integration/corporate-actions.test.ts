/**
 * Corporate actions on open positions, end to end through the HTTP API on the harness's manual
 * market clock (PGlite by default, PostgreSQL with TEST_DB=postgres), on the replay's real days
 * (full-market daily file, splits.csv, ex_rights file). Every expected figure is computed here
 * from the data:
 *
 * - 00663L, 1 unit → 7 (last trade 2025-06-03, back 2025-06-11), 0050, 1 → 4 (2025-06-10 →
 *   2025-06-18) and 4763, NT$10 → NT$1 face value, 1 → 10 (2025-06-18 → 2025-06-30): a 1× long,
 *   a 2× short and a 2× long, each a member of its own, opened before the halt by limit orders
 *   whose fills are fixed by the day's real prices (the opening print; the day's low). On the day
 *   back: shares × ratio, open value and margin unchanged to the minor unit, unrealised P&L at the
 *   new reference = the old one at the last close within the reference's rounding (½ minor a new
 *   share), the 2× long's liquidation price ÷ ratio within a tick; closed in the closing call at
 *   the day's real close, P&L = close × new shares − open value exactly (0050 long at 183.15:
 *   4,000 × 47.57 − 183,150 = +NT$7,130; the issue's close at 47.41 gives its +NT$6,490);
 * - a 0050 loan of 600 shares and the short borrowing them: ×4 with the quota;
 * - 3311 2025-06-19 (權, 38.00 → 35.28): the ex-rights value 2.72 × 1,000 paid to a long, charged
 *   to a short;
 * - the window starting over (2025-07-18 → 2025-04-07): positions bought after the splits undone
 *   (0050 ÷ 4, 00663L ÷ 7 with the fraction paid at the reference, 4763 ÷ 10);
 * - each member notified; a second run and a restarted server change nothing; the ledger
 *   reconciles after every step.
 * Resting orders (a ROD order never outlives its day on the replay) are in corporate-actions-orders.test.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustPosition } from '../../contract/corporate-actions';
import { closeResult, tickSizeMinor } from '../../contract/market-rules';
import { mulDivRound } from '../../contract/money';
import { buildApp } from '../../server/app';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import {
  corporateActionAdjustments,
  dailyCandles,
  ledgerTransactions,
  lendingAllocations,
  lendingOrders,
  lendingQuotas,
  memberNotices,
  orders,
} from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { HARNESS_SESSION, idem, startHarness, type Harness } from './harness';
import { advanceMarket } from './trading-support';

const FUNDS = 500_000_000; // NT$5,000,000
let h: Harness;
let base: number;
const sessionOf = new Map<string, number>();

/** Moves to `minutes` after 09:00 (negative: the pre-open) of replayed `date`, forward only, then applies the corporate actions. */
async function at(date: string, minutes: number): Promise<void> {
  const k = sessionOf.get(date)!;
  const target = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS + (minutes - 60) * 60_000;
  const dayStart = target - (minutes + 29) * 60_000; // 08:31 of the session
  if (dayStart > h.wall.now) h.wall.now = dayStart;
  await advanceMarket(h, target - h.wall.now);
  await h.corporateActions.run();
  await h.trading.idle();
}

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token, idem());
  if (r.body.status !== 1) throw new Error(`${name} refused: ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const row = async (id: number) => (await h.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const clean = async () => expect(isClean(await reconcile(h.database.db))).toBe(true);
const close = async (date: string, symbol: string) =>
  (
    await h.database.db
      .select({ c: dailyCandles.closeMinor })
      .from(dailyCandles)
      .where(and(eq(dailyCandles.symbol, symbol), eq(dailyCandles.date, date)))
  )[0]!.c;
const notices = async (userId: number, kind: string) =>
  (await h.database.db.select().from(memberNotices).where(eq(memberNotices.userId, userId))).filter(
    (n) => n.kind === kind,
  );

interface Member {
  token: string;
  id: number;
  order: number;
}
const members: Record<string, Member> = {};
let seq = 0;
async function member(name: string, funds = FUNDS): Promise<Member> {
  const account = `09350${String(++seq).padStart(5, '0')}`;
  const token = await h.fundedMember(account, funds);
  return (members[name] = { token, id: await h.userId(account), order: 0 });
}
async function place(name: string, body: Record<string, unknown>): Promise<void> {
  members[name]!.order = (await ok('trade/placeOrder', { lots: 1, ...body }, members[name]!.token)).id;
}

beforeAll(async () => {
  h = await startHarness({ importSymbols: ['0050', '00663L', '4763', '3311', '2330'] });
  base = h.wall.now;
  // The first session at or after the harness's that replays each date.
  for (let k = HARNESS_SESSION + 72; k >= HARNESS_SESSION; k--)
    sessionOf.set(h.dividends.calendar.dateOf(k)!, k);
});
afterAll(async () => {
  await h?.close();
});

/** The three members of one unit change: 1× long, 2× short, 2× long, limit orders in the pre-open. */
async function openTrio(prefix: string, symbol: string, longLimit: number, shortLimit: number) {
  await member(`${prefix}long`);
  await member(`${prefix}short`);
  // The 2× long holds 1.1 × its notional: its equity is 220 % of its margin, so the day's prices
  // met with the old units would be a loss beyond maintenance (a margin call) if nothing held them.
  await member(`${prefix}long2`, Math.ceil(longLimit * 1_000 * 1.1));
  await place(`${prefix}long`, {
    symbol,
    side: 'long',
    orderType: 'limit',
    priceMinor: longLimit,
    leverage: 1,
  });
  await place(`${prefix}short`, {
    symbol,
    side: 'short',
    orderType: 'limit',
    priceMinor: shortLimit,
    leverage: 2,
  });
  await place(`${prefix}long2`, {
    symbol,
    side: 'long',
    orderType: 'limit',
    priceMinor: longLimit,
    leverage: 2,
  });
}

/** Liquidation price risk/summary shows for a member's only position. */
const liquidation = async (name: string) =>
  (await ok('risk/summary', {}, members[name]!.token)).positions[0].liquidationPriceMinor as number;

/**
 * The checks of one unit change on the day back (pre-open, marked at the new reference): units,
 * value, P&L at the reference against the last close, the 2× long's liquidation price.
 */
async function checkUnits(
  prefix: string,
  ratio: number,
  before: Record<string, { shares: number; openValueMinor: number; marginMinor: number }>,
  lastCloseMinor: number,
  liqBefore: number,
) {
  for (const n of ['long', 'short', 'long2']) {
    const m = members[`${prefix}${n}`]!;
    const o = await row(m.order);
    const b = before[n]!;
    expect(o).toMatchObject({
      status: 'holding',
      shares: b.shares * ratio,
      lots: ratio,
      openValueMinor: b.openValueMinor,
      marginMinor: b.marginMinor,
      openPriceMinor: mulDivRound(b.openValueMinor, 1, b.shares * ratio),
    });
    const pos = (await ok('risk/summary', {}, m.token)).positions[0];
    const reference = h.feed.quote(o.symbol)!.prevCloseMinor;
    expect(pos.markMinor).toBe(reference);
    const sign = n === 'short' ? -1 : 1;
    expect(pos.unrealisedPnlMinor).toBe(sign * (reference * o.shares - b.openValueMinor));
    const old = sign * (lastCloseMinor * b.shares - b.openValueMinor);
    expect(Math.abs(pos.unrealisedPnlMinor - old)).toBeLessThanOrEqual(o.shares / 2);
    expect(await notices(m.id, 'positionAdjusted')).toHaveLength(1);
    // The day's prices never met the old units (the gate): no margin call, nothing liquidated.
    await h.risk.idle();
    expect(await notices(m.id, 'marginCall')).toHaveLength(0);
  }
  const liq = await liquidation(`${prefix}long2`);
  const tick = tickSizeMinor(liq, 'etf');
  expect(Math.abs(liq * ratio - liqBefore)).toBeLessThanOrEqual(
    ratio * tick + tickSizeMinor(liqBefore, 'etf'),
  );
  await clean();
}

const snapshot = async (prefix: string) =>
  Object.fromEntries(
    await Promise.all(
      ['long', 'short', 'long2'].map(async (n) => [n, await row(members[`${prefix}${n}`]!.order)] as const),
    ),
  ) as Record<string, { shares: number; openValueMinor: number; marginMinor: number }>;

/** Closes the trio in the closing call of `date` (at the day's real close) and checks the P&L. */
async function closeTrio(prefix: string, date: string, symbol: string) {
  await at(date, 267); // 13:27, the closing call
  for (const n of ['long', 'short', 'long2'])
    await ok(
      'trade/closePosition',
      { orderId: members[`${prefix}${n}`]!.order },
      members[`${prefix}${n}`]!.token,
    );
  await at(date, 272);
  const px = await close(date, symbol);
  for (const n of ['long', 'short', 'long2']) {
    const o = await row(members[`${prefix}${n}`]!.order);
    expect(o.status).toBe('closed');
    expect(o.closePriceMinor).toBe(px);
    const v = px * o.shares - o.openValueMinor!;
    expect(o.pnlMinor).toBe(n === 'short' ? 0 - v : v);
  }
  await clean();
}

describe('corporate actions across their replayed days, in date order', () => {
  const before: Record<string, Awaited<ReturnType<typeof snapshot>>> = {};
  const liqBefore: Record<string, number> = {};
  let loan = 0;

  it('2025-06-03: opens the 00663L trio at the opening print 171.80', async () => {
    await at('2025-06-03', -20);
    await openTrio('L', '00663L', 17_180, 17_180);
    await at('2025-06-03', 5);
    for (const n of ['long', 'short', 'long2'])
      expect(await row(members[`L${n}`]!.order)).toMatchObject({ status: 'holding', openPriceMinor: 17_180 });
    await at('2025-06-03', 272);
    before.L = await snapshot('L');
    liqBefore.L = await liquidation('Llong2');
  });

  it('2025-06-09: buys 0050 at 183.15 (the day low is 183.05), shorts at the open 183.40, lends 600', async () => {
    await at('2025-06-09', -20);
    await openTrio('E', '0050', 18_315, 18_315);
    await at('2025-06-09', 60);
    await member('lender');
    await place('lender', { symbol: '0050', side: 'long', orderType: 'market', leverage: 1 });
    await ok('admin/saveLendingQuota', { symbol: '0050', quotaShares: 1_500 }, await h.operatorToken());
    const lend = { orderId: members.lender!.order, shares: 600, rateBps: 1_000, days: 60 };
    loan = (await ok('lending/lend', lend, members.lender!.token)).id;
    await at('2025-06-09', 272);
    expect((await row(members.Elong!.order)).openPriceMinor).toBe(18_315);
    expect((await row(members.Eshort!.order)).openPriceMinor).toBe(18_340);
    await h.lending.run();
    const [borrow] = await h.database.db
      .select()
      .from(lendingAllocations)
      .where(eq(lendingAllocations.shortOrderId, members.Eshort!.order));
    expect(borrow).toMatchObject({ shares: 600, status: 'open' });
    await at('2025-06-10', 272);
    before.E = await snapshot('E');
    liqBefore.E = await liquidation('Elong2');
  });

  it('2025-06-11: 00663L × 7: value and margin kept, P&L at the reference 24.31 as at 170.15', async () => {
    await at('2025-06-11', -15);
    expect(h.feed.quote('00663L')!.prevCloseMinor).toBe(mulDivRound(17_015, 1, 7)); // 24.31
    await checkUnits('L', 7, before.L!, await close('2025-06-03', '00663L'), liqBefore.L!);
  });

  it('2025-06-11: closes 00663L at the close 27.57: the long +NT$21,190, the short −NT$21,190', async () => {
    await closeTrio('L', '2025-06-11', '00663L');
    expect((await row(members.Llong!.order)).pnlMinor).toBe(7_000 * 2_757 - 17_180_000);
  });

  it('2025-06-17: opens the 4763 trio at the opening print 905', async () => {
    await at('2025-06-17', -20);
    await openTrio('F', '4763', 90_500, 90_500);
    await at('2025-06-17', 5);
    for (const n of ['long', 'short', 'long2'])
      expect(await row(members[`F${n}`]!.order)).toMatchObject({ status: 'holding', openPriceMinor: 90_500 });
  });

  it('2025-06-18: 0050 × 4 at the reference 47.16; the loan, the borrow and the quota × 4', async () => {
    await at('2025-06-18', -15);
    expect(h.feed.quote('0050')!.prevCloseMinor).toBe(4_716); // 188.65 ÷ 4
    await checkUnits('E', 4, before.E!, await close('2025-06-10', '0050'), liqBefore.E!);
    expect((await row(members.lender!.order)).shares).toBe(4_000);
    const [l] = await h.database.db.select().from(lendingOrders).where(eq(lendingOrders.id, loan));
    expect(l).toMatchObject({ shares: 2_400, status: 'inLoan' });
    const [q] = await h.database.db.select().from(lendingQuotas).where(eq(lendingQuotas.symbol, '0050'));
    expect(q).toMatchObject({ quotaShares: 6_000, lentShares: 2_400 });
    const [borrow] = await h.database.db
      .select()
      .from(lendingAllocations)
      .where(eq(lendingAllocations.shortOrderId, members.Eshort!.order));
    expect(borrow!.shares).toBe(2_400);
  });

  it('2025-06-18: closes 0050 at the close 47.57: +NT$7,130 on the 183.15 long (at 47.41: the issue’s +NT$6,490)', async () => {
    await at('2025-06-18', 90);
    await member('exLong');
    await member('exShort');
    await place('exLong', { symbol: '3311', side: 'long', orderType: 'market', leverage: 2 });
    await place('exShort', { symbol: '3311', side: 'short', orderType: 'market', leverage: 2 });
    await closeTrio('E', '2025-06-18', '0050');
    expect((await row(members.Elong!.order)).pnlMinor).toBe(4_000 * 4_757 - 18_315_000);
    expect((await row(members.Elong!.order)).pnlMinor).toBe(713_000);
    expect((await row(members.Eshort!.order)).pnlMinor).toBe(18_340_000 - 4_000 * 4_757);
    const issue = closeResult({
      openValueMinor: 18_315_000,
      closePriceMinor: 4_741,
      shares: 4_000,
      side: 'long',
      kind: 'etf',
    });
    expect(issue.pnlMinor).toBe(649_000);
    before.F = await snapshot('F');
    liqBefore.F = await liquidation('Flong2');
  });

  it('2025-06-19: 3311 (權, 38.00 → 35.28) pays 2.72 × 1,000 to the long, charges the short', async () => {
    const avail = async (n: string) => (await memberBalances(h.database.db, members[n]!.id)).available;
    const b = { l: await avail('exLong'), s: await avail('exShort') };
    await at('2025-06-19', -15);
    expect(h.feed.quote('3311')!.prevCloseMinor).toBe(3_528);
    const value = (3_800 - 3_528) * 1_000;
    expect((await avail('exLong')) - b.l).toBe(value);
    expect((await avail('exShort')) - b.s).toBe(-value);
    expect(await notices(members.exLong!.id, 'exRightsSettled')).toHaveLength(1);
    expect((await row(members.exLong!.order)).shares).toBe(1_000);
    await clean();
  });

  it('2025-06-30: 4763 × 10 at the reference 88.50; closes at 90.50', async () => {
    await at('2025-06-30', -15);
    expect(h.feed.quote('4763')!.prevCloseMinor).toBe(8_850); // 885 ÷ 10
    await checkUnits('F', 10, before.F!, await close('2025-06-18', '4763'), liqBefore.F!);
    await closeTrio('F', '2025-06-30', '4763');
    expect((await row(members.Flong!.order)).pnlMinor).toBe(10_000 * 9_050 - 90_500_000);
  });

  it('changes nothing twice: a second run and a restarted server', async () => {
    const count = async () => h.database.db.$count(corporateActionAdjustments);
    const n = await count();
    // What corporate actions wrote: their ledger transactions and every order's units.
    const state = async () => ({
      ledger: await h.database.db.$count(ledgerTransactions, eq(ledgerTransactions.type, 'corporateAction')),
      orders: await h.database.db
        .select({ id: orders.id, shares: orders.shares, value: orders.openValueMinor, status: orders.status })
        .from(orders)
        .orderBy(orders.id),
    });
    const was = await state();
    expect(await h.corporateActions.run()).toBe(0);
    const again = await buildApp(h.config, {
      database: h.database,
      now: () => h.wall.now,
      feedTimer: false,
      logger: false,
    });
    try {
      expect(await again.corporateActions.run()).toBe(0);
    } finally {
      await again.app.close();
    }
    expect(await count()).toBe(n);
    expect(await state()).toEqual(was);
    await clean();
  });

  it('the window starts over (2025-07-18 → 2025-04-07): the splits are undone on what is still open', async () => {
    await at('2025-07-01', 60);
    await member('W');
    const ids: Record<string, number> = {};
    for (const symbol of ['0050', '00663L', '4763']) {
      await place('W', { symbol, side: 'long', orderType: 'market', leverage: 1 });
      ids[symbol] = members.W!.order;
    }
    const held = Object.fromEntries(
      await Promise.all(Object.entries(ids).map(async ([s, id]) => [s, await row(id)])),
    );
    const lender = await row(members.lender!.order);
    const restart = sessionOf.get('2025-07-18')! + 1;
    expect(h.dividends.calendar.dateOf(restart)).toBe('2025-04-07');
    h.wall.now = base + (restart - HARNESS_SESSION) * REPLAY_DAY_MS - 89 * 60_000; // 08:31
    await advanceMarket(h, 14 * 60_000);
    await h.corporateActions.run();
    await h.trading.idle();
    expect(h.feed.quote('0050')!.replayDate).toBe('2025-04-07');
    for (const [symbol, ratio] of [
      ['0050', 4],
      ['00663L', 7],
      ['4763', 10],
    ] as const) {
      const b = held[symbol]!;
      const after = await row(ids[symbol]!);
      const ref = await close('2025-04-02', symbol);
      const want = adjustPosition(
        { side: 'long', shares: b.shares, openValueMinor: b.openValueMinor!, marginMinor: b.marginMinor },
        { oldShares: ratio, newShares: 1 },
        ref,
      );
      expect(after).toMatchObject({
        shares: want.shares,
        openValueMinor: want.openValueMinor,
        marginMinor: b.marginMinor,
      });
      // Value at the reference: whole shares plus the fraction's cash, within its rounding.
      expect(
        Math.abs(after.shares * ref + want.cashInLieuMinor - (b.shares * ref) / ratio),
      ).toBeLessThanOrEqual(0.5);
      const [adj] = await h.database.db
        .select()
        .from(corporateActionAdjustments)
        .where(
          and(
            eq(corporateActionAdjustments.orderId, ids[symbol]!),
            eq(corporateActionAdjustments.kind, 'windowRestart'),
          ),
        );
      expect(adj).toMatchObject({
        session: restart,
        sharesBefore: b.shares,
        sharesAfter: want.shares,
        cashMinor: want.realisedPnlMinor,
      });
    }
    expect((await row(members.lender!.order)).shares).toBe(lender.shares / 4);
    const [l] = await h.database.db.select().from(lendingOrders).where(eq(lendingOrders.id, loan));
    expect(l!.shares).toBe(600);
    const [q] = await h.database.db
      .select({ n: sql<number>`lent_shares` })
      .from(lendingQuotas)
      .where(eq(lendingQuotas.symbol, '0050'));
    expect(Number(q!.n)).toBe(600);
    await clean();
  });
});
