/**
 * Day trading end to end on the seeded replay feed (harness manual clock), through the HTTP API
 * (TW-MARKET-RULES "Day trading", "Securities transaction tax"):
 * - eligibility: an account exactly DAY_TRADE_MIN_ACCOUNT_DAYS old with DAY_TRADE_MIN_TRADES
 *   trades is approved when it applies; one millisecond younger, or one trade short, waits for an
 *   operator, who approves or rejects with a reason (each with an audit entry); a rejected member
 *   may apply again; a second open application is refused;
 * - authorization: members cannot use the operator endpoints, see only their own applications,
 *   and cannot enter day-trade orders before approval;
 * - tax: an approved member's position opened and offset the same trading day is taxed at the
 *   day-trade rate (0.15 %: a long's closing sale; a short's opening sale refunded down to it),
 *   a member without approval pays 0.3 %; the ledger stays balanced and every tax posting of an
 *   order adds up to the order's taxes;
 * - lists: transactions and details carry the market time (the replayed day's), not the wall's;
 * - positions: the ETF tab lists ETF holdings only;
 * - closing call: a day trade still holding at the 13:30 closing match is closed at the match's
 *   price with close reason dayTradeClose and the day-trade tax; an ordinary position is not; with
 *   DAY_TRADE_AUTO_CLOSE off nothing is closed.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FEES, sellTaxMinor, type InstrumentKind } from '../../contract/market-rules';
import { notionalMinor, ppmFloorToMajor } from '../../contract/money';
import { dayTimes, quoteDate } from '../../server/modules/trading/market-session';
import { taipeiIsoDate } from '../../contract/trading-session';
import { auditLog, ledgerPostings, ledgerTransactions, orders, users } from '../../server/db/schema';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import type { MatchEvent } from '../../server/modules/trading/engine';
import { startHarness, type Harness } from './harness';

const DAY_MS = 86_400_000;
const FUNDS = 300_000_000; // NT$3,000,000
const SYMBOL = '2317';

let h: Harness;
let op: string;
const matches: MatchEvent[] = [];

/** Calls an endpoint and returns `data`, failing with the envelope when refused. */
async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string) {
  const r = await h.call(name, body, token);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** Registers and funds a member whose account is `ageMs` old by the harness's wall clock. */
async function member(account: string, ageMs: number): Promise<{ token: string; id: number }> {
  const token = await h.fundedMember(account, FUNDS);
  const id = await h.userId(account);
  await h.database.db
    .update(users)
    .set({ createdAt: new Date(h.wall.now - ageMs) })
    .where(eq(users.id, id));
  return { token, id };
}

/** One round trip (an opening and a closing fill: two trades) through trade/*. */
async function roundTrip(token: string, side: 'long' | 'short' = 'long') {
  const o = await ok(
    'trade/placeOrder',
    { symbol: SYMBOL, side, orderType: 'market', lots: 1, leverage: 10 },
    token,
  );
  return ok('trade/closePosition', { orderId: o.id }, token);
}

/** Sum of the order's tax postings into tax_payable (positive: charged). */
async function taxPosted(orderId: number): Promise<number> {
  const rows = await h.database.db.execute<{ s: string | null }>(sql`
    select sum(p.amount_minor) as s from ${ledgerPostings} p
    join ${ledgerTransactions} t on t.id = p.transaction_id
    join ledger_accounts a on a.id = p.account_id
    where t.ref_type = 'order' and t.ref_id = ${String(orderId)} and t.type = 'transactionTax'
      and a.user_id is null and a.purpose = 'tax_payable'`);
  const r =
    (rows as unknown as { rows?: Array<{ s: string | null }> }).rows ??
    (rows as unknown as Array<{ s: string | null }>);
  return Number(r[0]?.s ?? 0);
}

const kindOf = (symbol: string): InstrumentKind => h.feed.kind(symbol) ?? 'stock';

beforeAll(async () => {
  h = await startHarness({ dayTradeMinAccountDays: 90, dayTradeMinTrades: 2, dayTradeAutoClose: true });
  op = await h.operatorToken();
  h.trading.onMatch((e) => {
    matches.push(e);
  });
});
afterAll(async () => h?.close());

describe('applying for day trading', () => {
  it('approves an applicant exactly at both thresholds at once, and refuses a second application', async () => {
    const a = await member('0910000001', 90 * DAY_MS);
    await roundTrip(a.token);
    const before = await ok('dayTrade/status', {}, a.token);
    expect(before).toMatchObject({ state: 'none', application: null, autoClose: true, taxPpm: 1_500 });
    expect(before.eligibility).toEqual({
      accountDays: 90,
      minAccountDays: 90,
      tradesLastYear: 2,
      minTrades: 2,
      eligible: true,
    });
    const app = await ok('dayTrade/apply', {}, a.token);
    expect(app).toMatchObject({ status: 'approved', grantedBy: 'auto', reason: null });
    expect((await ok('dayTrade/status', {}, a.token)).state).toBe('approved');
    const again = await h.call('dayTrade/apply', {}, a.token);
    expect([again.http, again.body.msg]).toEqual([409, 'dayTradeAlreadyApplied']);
    // Nothing for the operator to review.
    const queue = await ok('admin/dayTradeApplications', { status: 'pending' }, op);
    expect(queue.items.map((r: { id: number }) => r.id)).not.toContain(app.id);
  });

  it('one millisecond short of 90 days waits for an operator, who grants it (with an audit entry)', async () => {
    const b = await member('0910000002', 90 * DAY_MS - 1);
    await roundTrip(b.token);
    const app = await ok('dayTrade/apply', {}, b.token);
    expect(app).toMatchObject({ status: 'pending', grantedBy: null });
    const queue = await ok('admin/dayTradeApplications', { status: 'pending' }, op);
    expect(queue.items.find((r: { id: number }) => r.id === app.id)).toMatchObject({
      account: '0910000002',
      accountDays: 89,
      tradesLastYear: 2,
      eligible: false,
      status: 'pending',
    });
    const granted = await ok('admin/approveDayTrade', { id: app.id }, op);
    expect(granted).toMatchObject({ id: app.id, status: 'approved', grantedBy: 'operator' });
    const twice = await h.call('admin/approveDayTrade', { id: app.id }, op);
    expect([twice.http, twice.body.msg]).toEqual([409, 'dayTradeNotPending']);
    const [entry] = await h.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'dayTrade.approve'), eq(auditLog.targetId, String(app.id))));
    expect(entry).toMatchObject({ targetType: 'dayTradeApplication' });
    expect(JSON.parse(entry!.before!)).toMatchObject({ status: 'pending' });
    expect(JSON.parse(entry!.after!)).toMatchObject({ status: 'approved', grantedBy: 'operator' });
    const mine = await ok('dayTrade/applications', {}, b.token);
    expect(mine.items).toEqual([
      expect.objectContaining({ id: app.id, status: 'approved', grantedBy: 'operator' }),
    ]);
  });

  it('one trade short waits; a rejection carries its reason and the member may apply again', async () => {
    const c = await member('0910000003', 400 * DAY_MS);
    await ok(
      'trade/placeOrder',
      { symbol: SYMBOL, side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      c.token,
    );
    const status = await ok('dayTrade/status', {}, c.token);
    expect(status.eligibility).toMatchObject({ accountDays: 400, tradesLastYear: 1, eligible: false });
    const app = await ok('dayTrade/apply', {}, c.token);
    expect(app.status).toBe('pending');
    const noReason = await h.call('admin/rejectDayTrade', { id: app.id, reason: '  ' }, op);
    expect(noReason.http).toBe(400);
    const rejected = await ok('admin/rejectDayTrade', { id: app.id, reason: 'Too few trades' }, op);
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'Too few trades', grantedBy: null });
    expect(await ok('dayTrade/status', {}, c.token)).toMatchObject({
      state: 'rejected',
      application: { reason: 'Too few trades' },
    });
    const [entry] = await h.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'dayTrade.reject'), eq(auditLog.targetId, String(app.id))));
    expect(entry?.reason).toBe('Too few trades');
    const again = await ok('dayTrade/apply', {}, c.token);
    expect(again).toMatchObject({ status: 'pending' });
    expect(
      (await ok('dayTrade/applications', {}, c.token)).items.map((r: { status: string }) => r.status),
    ).toEqual(['pending', 'rejected']);
  });

  it('two applications at once: one is recorded, the other refused', async () => {
    const f = await member('0910000006', DAY_MS);
    const both = await Promise.all([
      h.call('dayTrade/apply', {}, f.token),
      h.call('dayTrade/apply', {}, f.token),
    ]);
    expect(both.map((r) => r.http).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.http === 409)!.body.msg).toBe('dayTradeAlreadyApplied');
    expect((await ok('dayTrade/applications', {}, f.token)).total).toBe(1);
  });
});

describe('authorization', () => {
  it("keeps members off the operator endpoints and off each other's applications", async () => {
    const d = await member('0910000004', DAY_MS);
    const e = await member('0910000005', DAY_MS);
    const app = await ok('dayTrade/apply', {}, d.token);
    for (const [name, body] of [
      ['admin/dayTradeApplications', { status: 'all' }],
      ['admin/approveDayTrade', { id: app.id }],
      ['admin/rejectDayTrade', { id: app.id, reason: 'mine now' }],
    ] as const) {
      const r = await h.call(name, body, e.token, { 'is-admin': 'true' });
      expect([name, r.http, r.body.msg]).toEqual([name, 403, 'forbidden']);
    }
    const [row] = await h.database.db.select().from(orders).where(eq(orders.userId, e.id));
    expect(row).toBeUndefined();
    expect((await ok('dayTrade/applications', {}, e.token)).items).toEqual([]);
    expect((await ok('dayTrade/status', {}, e.token)).state).toBe('none');
    expect((await ok('dayTrade/applications', {}, d.token)).items).toEqual([
      expect.objectContaining({ id: app.id, status: 'pending' }),
    ]);
    const unknown = await h.call('admin/approveDayTrade', { id: 999_999 }, op);
    expect([unknown.http, unknown.body.msg]).toEqual([404, 'notFound']);
    // Neither the pending applicant nor a member who never applied may enter day-trade orders.
    for (const token of [d.token, e.token]) {
      const r = await h.call(
        'dayTrade/placeOrder',
        { symbol: SYMBOL, side: 'long', orderType: 'market', lots: 1, leverage: 10 },
        token,
      );
      expect([r.http, r.body.msg]).toEqual([403, 'dayTradeNotApproved']);
    }
    expect(await h.database.db.select().from(orders).where(eq(orders.userId, d.id))).toEqual([]);
  });
});

describe('day-trade tax', () => {
  let approved: { token: string; id: number };

  beforeAll(async () => {
    approved = await member('0910000010', 365 * DAY_MS);
    await roundTrip(approved.token);
    expect((await ok('dayTrade/apply', {}, approved.token)).status).toBe('approved');
  });

  it('taxes a long offset the same day at 0.15 %, with the ledger balanced', async () => {
    const before = await memberBalances(h.database.db, approved.id);
    const open = await ok(
      'dayTrade/placeOrder',
      { symbol: SYMBOL, side: 'long', orderType: 'market', lots: 2, leverage: 5 },
      approved.token,
    );
    expect(open).toMatchObject({ status: 'holding', dayTrade: true, tradeDate: h.trading.tradeDate(SYMBOL) });
    const today = await ok('dayTrade/transactions', {}, approved.token);
    expect(today.items.map((o: { id: number }) => o.id)).toContain(open.id);
    // Listed at the replayed day's market time (the clock's 10:00 on the trade date), not at the
    // server's wall clock (harness wall: 2026-01-01 ~02:00 Taipei).
    const row = today.items.find((o: { id: number }) => o.id === open.id);
    expect(row).toMatchObject({ symbol: SYMBOL, name: '鴻海', nameEn: 'HON HAI' });
    const marketNow = h.feed.clock().now;
    expect(taipeiIsoDate(row.marketAt)).toBe(open.tradeDate);
    expect(row.marketAt).toBe(marketNow);
    expect(row.marketAt).not.toBe(open.openedAt);

    const closed = await ok('trade/closePosition', { orderId: open.id }, approved.token);
    const notional = notionalMinor(closed.closePriceMinor, closed.shares);
    expect(closed.closeTaxMinor).toBe(ppmFloorToMajor(notional, 1_500));
    expect(closed.closeTaxMinor).toBe(sellTaxMinor(notional, kindOf(SYMBOL), DEFAULT_FEES, open.tradeDate));
    expect(closed).toMatchObject({ status: 'closed', dayTrade: true, closeReason: 'user', openTaxMinor: 0 });
    expect(await taxPosted(open.id)).toBe(closed.closeTaxMinor);

    // available after = before + P&L − fees − tax; nothing left in margin.
    const after = await memberBalances(h.database.db, approved.id);
    const costs = closed.openFeeMinor + closed.closeFeeMinor + closed.openTaxMinor + closed.closeTaxMinor;
    expect(after.available).toBe(before.available + closed.pnlMinor - costs);
    expect(after.margin).toBe(before.margin);
    expect(isClean(await reconcile(h.database.db))).toBe(true);

    const details = await ok('dayTrade/details', {}, approved.token);
    expect(details.items[0]).toMatchObject({
      orderId: open.id,
      nameEn: 'HON HAI',
      side: 'long',
      buyPriceMinor: closed.openPriceMinor,
      sellPriceMinor: closed.closePriceMinor,
      taxMinor: closed.closeTaxMinor,
      feeMinor: closed.openFeeMinor + closed.closeFeeMinor,
      netMinor: closed.pnlMinor - costs,
      buyMarketAt: marketNow,
      sellMarketAt: marketNow,
    });
  });

  it('refunds a short offset the same day down to 0.15 % of its opening sale', async () => {
    const before = await memberBalances(h.database.db, approved.id);
    const open = await ok(
      'trade/placeOrder',
      { symbol: SYMBOL, side: 'short', orderType: 'market', lots: 1, leverage: 10 },
      approved.token,
    );
    const openNotional = notionalMinor(open.openPriceMinor, open.shares);
    expect(open.openTaxMinor).toBe(ppmFloorToMajor(openNotional, 3_000)); // charged at the stock rate
    expect(open.dayTrade).toBe(false);
    const closed = await ok('trade/closePosition', { orderId: open.id }, approved.token);
    expect(closed).toMatchObject({ dayTrade: true, closeTaxMinor: 0 });
    expect(closed.openTaxMinor).toBe(ppmFloorToMajor(openNotional, 1_500));
    expect(await taxPosted(open.id)).toBe(closed.openTaxMinor);
    const after = await memberBalances(h.database.db, approved.id);
    expect(after.available).toBe(
      before.available + closed.pnlMinor - closed.openFeeMinor - closed.closeFeeMinor - closed.openTaxMinor,
    );
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('charges 0.3 % to a member without day-trade approval', async () => {
    const plain = await member('0910000011', 365 * DAY_MS);
    const closed = await roundTrip(plain.token);
    const notional = notionalMinor(closed.closePriceMinor, closed.shares);
    expect(closed.closeTaxMinor).toBe(ppmFloorToMajor(notional, 3_000));
    expect(closed.dayTrade).toBe(false);
    expect((await ok('dayTrade/details', {}, plain.token)).items).toEqual([]);
  });
});

describe('positions tabs', () => {
  it('the ETF tab lists ETF holdings only; holdings lists every holding', async () => {
    const m = await member('0910000015', DAY_MS);
    const stock = await ok(
      'trade/placeOrder',
      { symbol: SYMBOL, side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      m.token,
    );
    const etf = await ok(
      'trade/placeOrder',
      { symbol: '0050', side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      m.token,
    );
    expect(h.feed.kind('0050')).toBe('etf');
    const ids = async (tab: string) =>
      (await ok('trade/orders', { tab }, m.token)).items.map((o: { id: number }) => o.id).sort();
    expect(await ids('etf')).toEqual([etf.id]);
    expect(await ids('holdings')).toEqual([stock.id, etf.id].sort());
    const namesEn = (await ok('trade/orders', { tab: 'holdings' }, m.token)).items.map(
      (o: { symbol: string; nameEn: string | null }) => [o.symbol, o.nameEn],
    );
    expect(namesEn.sort()).toEqual([
      ['0050', null],
      [SYMBOL, 'HON HAI'],
    ]);
    await ok('trade/closePosition', { orderId: etf.id }, m.token);
    expect(await ids('etf')).toEqual([]);
    expect(await ids('terminated')).toEqual([etf.id]);
  });
});

describe('closing call', () => {
  it('closes a day trade not offset at the closing match; an ordinary position stays', async () => {
    const m = await member('0910000020', 365 * DAY_MS);
    await roundTrip(m.token);
    await ok('dayTrade/apply', {}, m.token);
    const dayTrade = await ok(
      'dayTrade/placeOrder',
      { symbol: SYMBOL, side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      m.token,
    );
    const ordinary = await ok(
      'trade/placeOrder',
      { symbol: SYMBOL, side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      m.token,
    );
    const shortDayTrade = await ok(
      'dayTrade/placeOrder',
      { symbol: SYMBOL, side: 'short', orderType: 'market', lots: 1, leverage: 10 },
      m.token,
    );
    const tradeDate = dayTrade.tradeDate as string;

    // Run the market past 13:30 of this trading day.
    const q = h.feed.quote(SYMBOL)!;
    expect(quoteDate(q)).toBe(tradeDate);
    h.wall.now += dayTimes(tradeDate).regularCloseMs - q.ts + 1_000;
    let closing: MatchEvent | undefined;
    for (let i = 0; i < 20 && !closing; i++) {
      h.feed.tick();
      await h.trading.idle();
      closing = matches.find((e) => e.kind === 'closing' && e.symbol === SYMBOL && e.tradeDate === tradeDate);
    }
    expect(closing).toBeDefined();

    const [dt] = await h.database.db.select().from(orders).where(eq(orders.id, dayTrade.id));
    expect(dt).toMatchObject({
      status: 'closed',
      closeReason: 'dayTradeClose',
      closePriceMinor: closing!.priceMinor,
      dayTrade: true,
    });
    expect(dt!.closeTaxMinor).toBe(ppmFloorToMajor(notionalMinor(closing!.priceMinor, dt!.shares), 1_500));
    const [st] = await h.database.db.select().from(orders).where(eq(orders.id, shortDayTrade.id));
    expect(st).toMatchObject({
      status: 'closed',
      closeReason: 'dayTradeClose',
      closePriceMinor: closing!.priceMinor,
    });
    expect(st!.openTaxMinor).toBe(ppmFloorToMajor(notionalMinor(st!.openPriceMinor!, st!.shares), 1_500));
    const [plain] = await h.database.db.select().from(orders).where(eq(orders.id, ordinary.id));
    expect(plain).toMatchObject({ status: 'holding', closeReason: null });
    expect(isClean(await reconcile(h.database.db))).toBe(true);

    const detail = await ok('trade/orderDetail', { orderId: dayTrade.id }, m.token);
    expect(detail).toMatchObject({ closeReason: 'dayTradeClose', dayTrade: true });
  });
});

describe('closing call with DAY_TRADE_AUTO_CLOSE off', () => {
  let h2: Harness;
  beforeAll(async () => {
    h2 = await startHarness({ dayTradeMinAccountDays: 0, dayTradeMinTrades: 0, dayTradeAutoClose: false });
  });
  afterAll(async () => h2?.close());

  it('leaves the day trade holding', async () => {
    const token = await h2.fundedMember('0910000030', FUNDS);
    const status = await h2.call('dayTrade/status', {}, token);
    expect(status.body.data).toMatchObject({ autoClose: false, eligibility: { eligible: true } });
    expect((await h2.call('dayTrade/apply', {}, token)).body.data.status).toBe('approved');
    const placed = await h2.call(
      'dayTrade/placeOrder',
      { symbol: SYMBOL, side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      token,
    );
    const o = placed.body.data;
    expect(o).toMatchObject({ status: 'holding', dayTrade: true });
    const seen: MatchEvent[] = [];
    h2.trading.onMatch((e) => {
      seen.push(e);
    });
    const q = h2.feed.quote(SYMBOL)!;
    h2.wall.now += dayTimes(o.tradeDate).regularCloseMs - q.ts + 1_000;
    for (let i = 0; i < 20 && !seen.some((e) => e.kind === 'closing' && e.symbol === SYMBOL); i++) {
      h2.feed.tick();
      await h2.trading.idle();
    }
    expect(seen.some((e) => e.kind === 'closing' && e.symbol === SYMBOL)).toBe(true);
    const [row] = await h2.database.db.select().from(orders).where(eq(orders.id, o.id));
    expect(row).toMatchObject({ status: 'holding', closeReason: null });
  });
});
