/**
 * Stock lending end to end through the HTTP API on the harness's manual market clock (PGlite by
 * default, PostgreSQL with TEST_DB=postgres), rules as contract/lending.ts states them:
 * - a member lends 1,000 of the 2,000 shares of a fully paid 2330 long at 12 %/yr for 3 business
 *   days; the position cannot be closed while in loan (lendingSharesInLoan);
 * - a short opened by another member on 2330 is allocated borrowed shares from the loan;
 * - each business day that is over pays the lender ⌊1,000 × reference × 1,200 ÷ (10,000 × 365)⌋
 *   from the platform's fee revenue (lendingRebate) and charges the short seller the same rate on
 *   the borrowed shares (stockLending), computed here by hand from that day's own reference price
 *   (read while the day runs);
 * - recall finishes the loan (in loan → finished), returns the quota and the borrow; the position
 *   can be closed again; a loan left alone expires after its term;
 * - refusals: quota full, channel closed, rate above the cap, a leveraged long, more than held,
 *   someone else's loan; idempotent lend; the ledger reconciles after every step;
 * - 30 concurrent lends on one instrument never exceed the quota nor the member's holding.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { isClean, memberBalances, platformBalance, reconcile } from '../../server/modules/ledger/ledger';
import { idem, startHarness, type Harness } from './harness';

const FUNDS = 500_000_000; // NT$5,000,000
const RATE_BPS = 1_200;
let h: Harness;
let op: string;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, key?: string) {
  const r = await h.call(name, body, token, idem(key));
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const clean = async () => expect(isClean(await reconcile(h.database.db))).toBe(true);
/** Moves the market clock `days` replayed days on (same time of day) and lets the engine catch up. */
async function advance(days: number): Promise<void> {
  h.wall.now += days * REPLAY_DAY_MS;
  h.feed.tick();
  await h.trading.idle();
}
const reference = (symbol: string) => h.feed.quote(symbol)!.prevCloseMinor;
/** One day's fee computed by hand: shares × price × rate ÷ (10,000 bps × 365 days), rounded down. */
const dayFee = (shares: number, priceMinor: number, rateBps: number) =>
  Number((BigInt(shares) * BigInt(priceMinor) * BigInt(rateBps)) / 3_650_000n);

/** Net of fee_revenue's postings in ledger transactions of `type` for lending order `loanId`. */
async function lendingNet(type: string, loanId: number): Promise<number> {
  const r = (await h.database.db.execute(sql`
    select coalesce(sum(p.amount_minor), 0)::bigint as n from ledger_postings p
    join ledger_transactions t on t.id = p.transaction_id
    join ledger_accounts a on a.id = p.account_id
    where t.type = ${type} and a.user_id is null and a.purpose = 'fee_revenue'
      and ((t.ref_type = 'lendingOrder' and t.ref_id = ${String(loanId)})
        or (t.ref_type = 'lendingAllocation' and t.ref_id in (
          select id::text from lending_allocations where lending_order_id = ${loanId})))`)) as unknown as {
    rows?: Array<{ n: string }>;
  } & Array<{ n: string }>;
  return Number((r.rows ?? r)[0]!.n);
}

async function openLong(token: string, symbol: string, lots: number, leverage = 1): Promise<number> {
  const o = await ok(
    'trade/placeOrder',
    { symbol, side: 'long', orderType: 'market', lots, leverage },
    token,
  );
  expect(o.status).toBe('holding');
  return o.id;
}
const lendBody = (orderId: number, shares: number, o: Record<string, unknown> = {}) => ({
  orderId,
  shares,
  rateBps: RATE_BPS,
  days: 3,
  ...o,
});

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
});
afterAll(async () => {
  await h?.close();
});

describe('concurrency', () => {
  it('30 concurrent lends on one instrument never exceed the quota nor the holding', async () => {
    await ok('admin/saveLendingQuota', { symbol: '2317', quotaShares: 2500 }, op);
    const members = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const token = await h.fundedMember(`09300000${i}0`, FUNDS);
        return { token, position: await openLong(token, '2317', 1) };
      }),
    );
    // 10 requests of 300 shares per member: at most 3 fit one 1,000-share holding, 8 the quota.
    const results = await Promise.all(
      members.flatMap((m) =>
        Array.from({ length: 10 }, () => h.call('lending/lend', lendBody(m.position, 300), m.token, idem())),
      ),
    );
    const okCount = results.filter((r) => r.body.status === 1).length;
    for (const r of results)
      if (r.body.status !== 1) expect(['lendingUnavailable', 'lendingExceedsHolding']).toContain(r.body.msg);
    const rows = (await h.database.db
      .execute(
        sql`select order_id, sum(shares)::int as s from lending_orders where symbol = '2317' and status = 'inLoan' group by order_id`,
      )
      .then((r) => (r as unknown as { rows?: unknown[] }).rows ?? r)) as Array<{
      order_id: number;
      s: number;
    }>;
    const total = rows.reduce((a, r) => a + Number(r.s), 0);
    expect(total).toBe(okCount * 300);
    expect(total).toBeLessThanOrEqual(2500);
    for (const r of rows) expect(Number(r.s)).toBeLessThanOrEqual(1000);
    // Every member could lend 3 × 300 alone; together the quota caps them at 8 lends.
    expect(okCount).toBe(8);
    const admin = await ok('admin/lending', {}, op);
    expect(admin.quotas.find((q: { symbol: string }) => q.symbol === '2317').lentShares).toBe(total);
    await clean();
  });
});

describe('lend, refuse the close, accrue, recall', () => {
  let lender: { token: string; id: number };
  let shorter: { token: string; id: number };
  let position: number;
  let loanId: number;
  let shortId: number;
  const paid: number[] = [];

  it('refuses while the instrument has no quota; lends within it; refuses the close', async () => {
    lender = { token: await h.fundedMember('0920000001', FUNDS), id: await h.userId('0920000001') };
    position = await openLong(lender.token, '2330', 2);
    const none = await h.call('lending/lend', lendBody(position, 1000), lender.token, idem());
    expect([none.http, none.body.msg]).toEqual([422, 'lendingUnavailable']);

    await ok('admin/saveLendingQuota', { symbol: '2330', quotaShares: 1500 }, op);
    const overview = await ok('lending/overview', {}, lender.token);
    expect(overview.channelOpen).toBe(true);
    expect(overview.rateCapBps).toBe(1600);
    const mine = overview.holdings.find((x: { orderId: number }) => x.orderId === position);
    expect(mine).toMatchObject({
      symbol: '2330',
      nameEn: 'TSMC',
      shares: 2000,
      lendableShares: 2000,
      quotaShares: 1500,
      lentShares: 0,
    });

    const key = 'lend-once';
    const loan = await ok('lending/lend', lendBody(position, 1000), lender.token, key);
    expect(loan).toMatchObject({
      nameEn: 'TSMC',
      status: 'inLoan',
      shares: 1000,
      rateBps: RATE_BPS,
      days: 3,
      rebateMinor: 0,
    });
    loanId = loan.id;
    // A retry with the same key answers the same loan and lends nothing more.
    const retry = await ok('lending/lend', lendBody(position, 1000), lender.token, key);
    expect(retry.id).toBe(loanId);
    const rows = (await h.database.db
      .execute(sql`select count(*)::int as n from lending_orders where order_id = ${position}`)
      .then((r) => (r as unknown as { rows?: unknown[] }).rows ?? r)) as Array<{ n: number }>;
    expect(Number(rows[0]!.n)).toBe(1);

    const closed = await h.call('trade/closePosition', { orderId: position }, lender.token);
    expect([closed.http, closed.body.msg]).toEqual([409, 'lendingSharesInLoan']);
    await clean();
  });

  it('refuses quota full, more than held, above the rate cap, a leveraged long, channel closed', async () => {
    // 1,000 of 1,500 in loan: another 1,000 would pass the quota.
    const full = await h.call('lending/lend', lendBody(position, 1000), lender.token, idem());
    expect([full.http, full.body.msg]).toEqual([422, 'lendingUnavailable']);
    await ok('admin/saveLendingQuota', { symbol: '2330', quotaShares: 10_000 }, op);
    const more = await h.call('lending/lend', lendBody(position, 1001), lender.token, idem());
    expect([more.http, more.body.msg]).toEqual([422, 'lendingExceedsHolding']);
    const dear = await h.call(
      'lending/lend',
      lendBody(position, 10, { rateBps: 1601 }),
      lender.token,
      idem(),
    );
    expect([dear.http, dear.body.msg]).toEqual([422, 'lendingTermsExceeded']);
    const leveraged = await openLong(lender.token, '2330', 1, 5);
    const lev = await h.call('lending/lend', lendBody(leveraged, 100), lender.token, idem());
    expect([lev.http, lev.body.msg]).toEqual([422, 'lendingNotEligible']);
    await ok('admin/saveLendingChannel', { channelOpen: false, rateCapBps: 1600, maxDays: 120 }, op);
    const shut = await h.call('lending/lend', lendBody(position, 10), lender.token, idem());
    expect([shut.http, shut.body.msg]).toEqual([422, 'lendingUnavailable']);
    await ok('admin/saveLendingChannel', { channelOpen: true, rateCapBps: 1600, maxDays: 120 }, op);
    await ok('admin/saveLendingQuota', { symbol: '2330', quotaShares: 1500 }, op);
    // Someone else's loan is not found.
    const other = await h.fundedMember('0920000009', FUNDS);
    const notMine = await h.call('lending/recall', { id: loanId }, other, idem());
    expect([notMine.http, notMine.body.msg]).toEqual([404, 'notFound']);
    await clean();
  });

  it('allocates the loan to a new short on the instrument', async () => {
    shorter = { token: await h.fundedMember('0920000002', FUNDS), id: await h.userId('0920000002') };
    const s = await ok(
      'trade/placeOrder',
      { symbol: '2330', side: 'short', orderType: 'market', lots: 1, leverage: 5 },
      shorter.token,
    );
    shortId = s.id;
    await h.lending.run();
    const view = await ok('lending/margin', {}, shorter.token);
    expect(view.shortSales.map((x: { orderId: number }) => x.orderId)).toEqual([shortId]);
    expect(view.shortSales[0]).toMatchObject({ borrowedShares: 1000, nameEn: 'TSMC' });
    const orders = await ok('lending/orders', {}, lender.token);
    expect(orders.items[0]).toMatchObject({ id: loanId, borrowedShares: 1000, nameEn: 'TSMC' });
  });

  it('pays each business day that is over, checked by hand, from fee revenue and the borrower', async () => {
    const lenderBefore = (await memberBalances(h.database.db, lender.id)).available;
    const shortBefore = await memberBalances(h.database.db, shorter.id);
    // The same day: nothing is over yet.
    await h.lending.run();
    expect((await ok('lending/orders', {}, lender.token)).items[0].rebateMinor).toBe(0);
    for (let day = 1; day <= 2; day++) {
      // The fee of the day that is about to be over, at that day's own reference.
      const price = reference('2330');
      expect(price).toBeGreaterThan(0);
      await advance(1);
      await h.lending.run();
      paid.push(dayFee(1000, price, RATE_BPS));
      const loan = (await ok('lending/orders', {}, lender.token)).items[0];
      expect(loan.accruedDays).toBe(day);
      expect(loan.rebateMinor).toBe(paid.reduce((a, b) => a + b, 0));
      // A second run on the same day pays nothing again.
      await h.lending.run();
      expect((await ok('lending/orders', {}, lender.token)).items[0].rebateMinor).toBe(loan.rebateMinor);
      await clean();
    }
    const total = paid.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(0);
    expect((await memberBalances(h.database.db, lender.id)).available).toBe(lenderBefore + total);
    const s = await memberBalances(h.database.db, shorter.id);
    // The borrower paid the same rate on the same 1,000 shares (from cash: it has plenty).
    expect(s.available).toBe(shortBefore.available - total);
    // Fee revenue paid the rebates and received as much in borrow fees (other trading moves it too).
    expect(await lendingNet('lendingRebate', loanId)).toBe(-total);
    expect(await lendingNet('stockLending', loanId)).toBe(total);
    expect(await platformBalance(h.database.db, 'fee_revenue')).toBeGreaterThan(0);
    const view = await ok('lending/margin', {}, shorter.token);
    const short = view.shortSales[0];
    expect(short.feesMinor).toBeGreaterThanOrEqual(total);
    const flows = await h.call('user/fundRecords', { tab: 'trade', page: 1, pageSize: 50 }, lender.token);
    expect(JSON.stringify(flows.body)).toContain('lendingRebate');
  });

  it('recall finishes the loan, returns quota and borrow; the position closes again', async () => {
    const r = await ok('lending/recall', { id: loanId }, lender.token);
    expect(r).toMatchObject({
      status: 'finished',
      finishReason: 'recall',
      accruedDays: 2,
      borrowedShares: 0,
    });
    const again = await h.call('lending/recall', { id: loanId }, lender.token, idem());
    expect([again.http, again.body.msg]).toEqual([409, 'lendingNotInLoan']);
    const admin = await ok('admin/lending', {}, op);
    expect(admin.quotas.find((q: { symbol: string }) => q.symbol === '2330')).toMatchObject({
      lentShares: 0,
    });
    // The replay has no 2330 prints after 09:00 on day 7 (2025-04-16): close on the next day.
    await advance(1);
    const closed = await h.call('trade/closePosition', { orderId: position }, lender.token);
    expect(closed.body.status).toBe(1);
    expect(closed.body.data.status).toBe('closed');
    await clean();
  });

  it('a loan left alone expires after its term with every day paid', async () => {
    const pos = await openLong(lender.token, '2330', 1);
    const loan = await ok('lending/lend', lendBody(pos, 500, { days: 2 }), lender.token);
    const prices: number[] = [];
    for (let d = 0; d < 3; d++) {
      prices.push(reference('2330')); // day d's own reference, paid once day d is over
      await advance(1);
      await h.lending.run();
    }
    const row = (await ok('lending/orders', { status: 'finished' }, lender.token)).items.find(
      (x: { id: number }) => x.id === loan.id,
    );
    expect(row).toMatchObject({ status: 'finished', finishReason: 'expired', accruedDays: 2 });
    expect(row.rebateMinor).toBe(dayFee(500, prices[0]!, RATE_BPS) + dayFee(500, prices[1]!, RATE_BPS));
    await clean();
  });
});
