/**
 * Figures that agree (server/modules/wallet/overview.ts, pnl.ts; docs/glossary.md "Realised
 * P&L"), through the HTTP API on the harness's replayed market (PGlite by default, PostgreSQL
 * with TEST_DB=postgres):
 *
 * - a NT$10,000 credit loan outstanding is debt: the overview shows debt 10,000 (then principal
 *   plus the interest accrued), assets with the borrowed cash in them, and net assets = assets −
 *   debt, which the member centre shows as its total;
 * - over a sequence with fees, taxes and cash dividends (a 2317 round trip on 2025-04-15; a 2330
 *   long and a 2330 short held across the 2025-06-12 ex-date, NT$4.50002 a share, then closed; a
 *   2317 long left open), the member centre's realised P&L, the overview's total and months, the
 *   fund records' trade tab and the positions' terminated tab give one figure, equal to the one
 *   computed by hand from the closed orders and their dividends; the open position's opening fee
 *   is not in it (the member centre used to count it).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { dividendCredits, orders } from '../../server/db/schema';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { HARNESS_SESSION, idem, startHarness, type Harness } from './harness';
import { advanceMarket, replayTo } from './trading-support';
import { rowsOf } from './support/fingerprint';

const FUNDS = 300_000_000; // NT$3,000,000
const LOAN = 1_000_000; // NT$10,000
let h: Harness;
let op: string;
let base: number;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token, idem());
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** Moves the wall clock to 10:00 market time of clock session `k` (forward only). */
async function goTo(k: number): Promise<void> {
  const target = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS;
  if (target - 89 * 60_000 > h.wall.now) h.wall.now = target - 89 * 60_000;
  await advanceMarket(h, target - h.wall.now);
}

const open = async (token: string, symbol: string, side: 'long' | 'short', leverage: number) => {
  const o = await ok('trade/placeOrder', { symbol, side, orderType: 'market', lots: 1, leverage }, token);
  expect(o.status).toBe('holding');
  return o.id as number;
};

beforeAll(async () => {
  h = await startHarness();
  base = h.wall.now;
  op = await h.operatorToken();
});
afterAll(async () => h?.close());

describe('the overview with a credit loan outstanding', () => {
  it('shows the loan as debt and net assets = assets − debt, as the member centre', async () => {
    const m = await h.withdrawer('0955000001', FUNDS);
    const loan = await ok('credit/apply', { amountMinor: LOAN }, m.token);
    await ok('admin/approveCreditLoan', { id: loan.id }, op);
    const ov = await ok('wallet/overview', {}, m.token);
    const twd = ov.currencies.find((c: { currency: string }) => c.currency === 'TWD');
    expect(twd).toMatchObject({ availableMinor: FUNDS + LOAN, debtMinor: -LOAN, totalMinor: FUNDS });
    expect(ov).toMatchObject({ assetsTwdMinor: FUNDS + LOAN, debtTwdMinor: LOAN, totalTwdMinor: FUNDS });
    expect(ov.totalTwdMinor).toBe(ov.assetsTwdMinor - ov.debtTwdMinor);
    expect((await ok('user/info', {}, m.token)).totalAssetsMinor).toBe(FUNDS);

    // A replayed trading day later the interest accrued is owed too.
    await advanceMarket(h, REPLAY_DAY_MS, 10 * 60_000);
    await h.services.credit.run();
    const owed = (await ok('credit/loans', {}, m.token)).items[0].owedMinor as number;
    expect(owed).toBeGreaterThan(LOAN);
    const later = await ok('wallet/overview', {}, m.token);
    expect(later).toMatchObject({
      debtTwdMinor: owed,
      assetsTwdMinor: FUNDS + LOAN,
      totalTwdMinor: FUNDS + LOAN - owed,
    });
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});

describe('realised P&L on every screen', () => {
  it('is one figure over fees, taxes and dividends, and equals the closed orders by hand', async () => {
    const token = await h.fundedMember('0955000002', FUNDS);
    const userId = await h.userId('0955000002');
    // 2025-04-15 (a day after the harness's start): a round trip with fees and tax.
    const trip = await open(token, '2317', 'long', 1);
    await replayTo(h, 12, 0);
    await ok('trade/closePosition', { orderId: trip }, token);

    // 2025-06-11: a long and a short of 2330 held at the close before the 06-12 ex-date.
    const cal = h.dividends.calendar;
    const day0611 = Array.from({ length: 80 }, (_, k) => k + HARNESS_SESSION).find(
      (k) => cal.dateOf(k) === '2025-06-11',
    )!;
    await goTo(day0611);
    const long = await open(token, '2330', 'long', 1);
    const short = await open(token, '2330', 'short', 5);
    await goTo(day0611 + 1);
    expect(await h.dividends.run()).toBeGreaterThan(0);
    await ok('trade/closePosition', { orderId: long }, token);
    await ok('trade/closePosition', { orderId: short }, token);
    const stillOpen = await open(token, '2317', 'long', 1);

    // By hand: every closed order's gross less its fees and taxes, plus its dividends.
    const closed = (await h.database.db.select().from(orders)).filter(
      (o) => o.userId === userId && o.status === 'closed',
    );
    expect(closed.map((o) => o.id).sort()).toEqual([trip, long, short].sort());
    const credits = (await h.database.db.select().from(dividendCredits)).filter((c) => c.userId === userId);
    expect(credits.map((c) => [c.orderId, c.amountMinor]).sort()).toEqual(
      [
        [long, 450_002],
        [short, -450_002],
      ].sort(),
    );
    const byHand = closed.reduce(
      (s, o) =>
        s +
        o.pnlMinor! -
        o.openFeeMinor -
        o.closeFeeMinor -
        o.openTaxMinor -
        o.closeTaxMinor +
        credits.filter((c) => c.orderId === o.id).reduce((a, c) => a + c.amountMinor, 0),
      0,
    );

    const centre = (await ok('user/info', {}, token)).realisedProfitMinor;
    const history = await ok('wallet/history', {}, token);
    const records = await ok('user/fundRecords', { tab: 'trade', page: 1, pageSize: 10 }, token);
    const terminated = await ok('trade/orders', { tab: 'terminated', page: 1, pageSize: 50 }, token);
    const rows = (
      terminated.items as Array<{ id: number; realisedMinor: number | null; status: string }>
    ).filter((o) => o.status === 'closed');
    expect(rows.map((o) => o.id).sort()).toEqual([trip, long, short].sort());
    const detail = await ok('trade/orderDetail', { orderId: long }, token);

    expect(centre).toBe(byHand);
    expect(history.realisedTotalMinor).toBe(byHand);
    expect(history.months.reduce((s: number, m: { netMinor: number }) => s + m.netMinor, 0)).toBe(byHand);
    expect(records.realisedMinor).toBe(byHand);
    expect(rows.reduce((s, o) => s + o.realisedMinor!, 0)).toBe(byHand);
    expect(detail.realisedMinor).toBe(rows.find((o) => o.id === long)!.realisedMinor);
    expect((await ok('trade/orderDetail', { orderId: stillOpen }, token)).realisedMinor).toBeNull();

    // The member centre's former sum (every realisedPnl, fee and tax posting) counted the open
    // position's opening fee and left the dividends out.
    const [former] = rowsOf<{ n: string }>(
      await h.database.db.execute(sql`
        select coalesce(sum(p.amount_minor), 0)::text as n from ledger_postings p
        join ledger_transactions t on t.id = p.transaction_id
        join ledger_accounts a on a.id = p.account_id
        where a.user_id = ${userId} and t.type in ('realisedPnl', 'tradeFee', 'transactionTax')`),
    );
    const openFee = (await h.database.db.select().from(orders)).find((o) => o.id === stillOpen)!.openFeeMinor;
    expect(openFee).toBeGreaterThan(0);
    expect(Number(former!.n)).toBe(byHand - openFee); // the dividends cancel out: +long −short
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
