/**
 * The account model with the numbers of the report that found it losing members' money
 * (docs/adr/0001-account-risk-model.md), on PGlite and PostgreSQL, against a stub quote source so
 * the prices are the report's own (support/stub-market.ts):
 *
 * 1. Fully paid holdings: an IPO allotment, 2 auction lots, a 2-lot placement, 1 lot of 2317 and
 *    a 50-lot 1× market buy of 2409 at NT$12.45 (NT$622,500) are cash holdings: no margin call
 *    and no sale however far they fall, no liquidation price; only a margined position beside them
 *    is ever sold.
 * 2. The 2330 sequence: NT$1,000,000; 1 lot 2× filled at 1,025; a resting 5× buy at 1,000 (frozen
 *    funds count as the member's money: ≈ 195 %); a 5× buy at 1,040 that would fill at 1,025 is
 *    refused (with the resting order filled the account would be at 108.51 %); without the resting
 *    order it is accepted (138.96 %) and a fall to 1,015 calls nothing and sells nothing.
 * 3. A margin call gives MARGIN_CALL_GRACE_DAYS trading sessions; an unmet call is met by sales
 *    back to the call line on the next one, after a notice naming the order of sales; a gap
 *    straight below maintenance sells at once, and the notice still comes first.
 * Amounts in minor units (1 NT$ = 100).
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCosts } from '../../contract/market-rules';
import { ratioBps, requiredEquityMinor } from '../../contract/risk';
import { memberNotices, orders, riskEvents } from '../../server/db/schema';
import type { AuthUser } from '../../server/modules/common/context';
import { AppError } from '../../server/modules/common/errors';
import { isClean, memberBalances, move, post, reconcile } from '../../server/modules/ledger/ledger';
import { loadAccountRisk } from '../../server/modules/risk/account-risk';
import { exposureDrift } from '../../server/modules/risk/exposures';
import { openPaidHolding } from '../../server/modules/trading/fills';
import { startStubMarket, type StubMarket } from './support/stub-market';

const T = { marginCallBps: 13_000, maintenanceBps: 11_000 };
let m: StubMarket;

beforeAll(async () => {
  m = await startStubMarket({ symbols: ['2330', '2317', '2409', '0050'], kinds: { '0050': 'etf' } });
  await m.quote('2330', 102_500);
  await m.quote('2317', 15_000);
  await m.quote('2409', 1_245);
  await m.quote('0050', 15_000);
}, 180_000);
afterAll(async () => {
  await m?.close();
});

const place = (user: AuthUser, o: Record<string, unknown>) =>
  m.engine.placeOrder(user, {
    symbol: '2330',
    side: 'long',
    orderType: 'market',
    lots: 1,
    leverage: 1,
    ...o,
  } as never);
const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { key: err.key, data: err.data as { fix?: Record<string, unknown> } };
    throw err;
  }
  throw new Error('expected a refusal');
};
const kinds = async (userId: number) =>
  (await m.db.select().from(riskEvents).where(eq(riskEvents.userId, userId)).orderBy(asc(riskEvents.id))).map(
    (e) => e.kind,
  );
const status = async (id: number) => (await m.db.select().from(orders).where(eq(orders.id, id)))[0]!.status;
const risk = (userId: number) => loadAccountRisk(m.db, m.feed, userId, T);
const sound = async () => {
  expect(isClean(await reconcile(m.db))).toBe(true);
  expect(await exposureDrift(m.db)).toEqual([]);
};

/** A holding delivered paid in full, as the IPO, auction and placement modules deliver theirs. */
async function delivered(user: AuthUser, symbol: string, lots: number, priceMinor: number) {
  return m.db.transaction(async (tx) => {
    const paid = priceMinor * lots * 1_000;
    await post(tx, {
      type: 'orderFreeze',
      postings: move({ userId: user.id, purpose: 'available' }, { userId: user.id, purpose: 'frozen' }, paid),
    });
    return openPaidHolding(
      tx,
      { now: () => new Date() },
      {
        orderNo: `D${user.id}${symbol}${lots}`,
        userId: user.id,
        symbol,
        lots,
        shares: lots * 1_000,
        tradeDate: '2026-07-31',
      },
      priceMinor,
    );
  });
}

describe('1. fully paid holdings are the member’s: never called, never sold', () => {
  it('2409 at 1× beside an allotment, auction lots, a placement and 2317: no call, no sale, no liquidation price', async () => {
    const u = await m.member('', 200_000_000);
    const ipo = await delivered(u, '0050', 1, 14_000); // IPO allotment, 1 lot
    const auction = await delivered(u, '2317', 2, 14_200); // 2 auction lots
    const placement = await delivered(u, '2409', 2, 1_200); // a 2-lot placement
    const own2317 = await place(u, { symbol: '2317' });
    // The report's order: 50 lots of 2409 at 1×, NT$622,500 at 12.45: accepted by the account.
    const big = await place(u, { symbol: '2409', lots: 50 });
    expect(big).toMatchObject({ status: 'holding', openPriceMinor: 1_245, marginMinor: 62_250_000 });
    const held = [ipo.id, auction.id, placement.id, own2317.id, big.id];

    const r = await risk(u.id);
    expect(r.risk).toMatchObject({ usedMarginMinor: 0, ratioBps: null, level: 'none' });
    for (const p of r.risk.positions) expect(p).toMatchObject({ cash: true, liquidationPriceMinor: null });

    // The fall that sold 50 lots at 11.05 under the old rules, and much further: nothing happens.
    for (const price of [1_105, 800, 300, 1])
      for (const s of ['2409', '2317', '0050']) await m.quote(s, s === '2409' ? price : price * 10);
    for (const id of held) expect(await status(id)).toBe('holding');
    expect(await kinds(u.id)).toEqual([]);
    await sound();
    for (const s of ['2409', '2317', '0050']) await m.quote(s, s === '2409' ? 1_245 : 15_000);
  });

  it('beside them only a margined position is sold, and only it is in the ratio', async () => {
    const u = await m.member('', 0);
    const cash = openCosts({ priceMinor: 1_245, lots: 50, leverage: 1, side: 'long', kind: 'stock' });
    const lev = openCosts({ priceMinor: 102_500, lots: 1, leverage: 2, side: 'long', kind: 'stock' });
    // Exactly what both need, the 2× at its 130 % line.
    await m.deposit(u.id, cash.requiredMinor + lev.feeMinor + requiredEquityMinor(lev.marginMinor, 13_000));
    const h2409 = await place(u, { symbol: '2409', lots: 50 });
    const h2330 = await place(u, { symbol: '2330', leverage: 2 });
    expect((await risk(u.id)).risk.ratioBps).toBe(13_000);
    // 2409 to NT$0.01 moves nothing; 2330 −16 % puts the 2× below maintenance: it alone is sold.
    await m.quote('2409', 1);
    expect(await kinds(u.id)).toEqual([]);
    await m.quote('2330', 86_000);
    expect(await status(h2330.id)).toBe('closed');
    expect(await status(h2409.id)).toBe('holding');
    expect(await kinds(u.id)).toEqual(['marginCall', 'liquidation', 'marginCallCleared']);
    await sound();
    await m.quote('2409', 1_245);
    await m.quote('2330', 102_500);
  });
});

describe('2. the 2330 sequence: frozen funds are the member’s, the check sees the whole account', () => {
  let u: AuthUser;
  let first: number;
  let resting: number;
  it('1 lot 2× at 1,025 and a resting 5× buy at 1,000: the ratio counts the frozen NT$201,425', async () => {
    u = await m.member('', 100_000_000);
    const a = await place(u, { leverage: 2 });
    expect(a).toMatchObject({ status: 'holding', openPriceMinor: 102_500, marginMinor: 51_250_000 });
    first = a.id;
    const b = await place(u, { orderType: 'limit', priceMinor: 100_000, leverage: 5 });
    expect(b).toMatchObject({ status: 'pending', frozenMinor: 20_142_500 });
    resting = b.id;
    const r = await risk(u.id);
    expect(r.frozenForOrdersMinor).toBe(20_142_500);
    // 1,000,000 − fee 1,460 = 998,540 of equity (NT$201,425 of it frozen) on 512,500 of margin.
    expect(r.risk.equityMinor).toBe(99_854_000);
    expect(r.risk.ratioBps).toBe(ratioBps(99_854_000, 51_250_000));
    expect(r.risk.ratioBps).toBe(19_483);
  });

  it('a 5× buy at 1,040 (filled at 1,025) is refused: with the resting buy filled, 108.51 %', async () => {
    const no = await refusal(place(u, { orderType: 'limit', priceMinor: 104_000, leverage: 5 }));
    expect(no.key).toBe('belowOpeningLine');
    expect(no.data.fix).toMatchObject({ rule: 'openingLine', ratioAfterBps: 10_851, lineBps: 13_000 });
    // The report's fall to 1,015: nothing is called or sold.
    await m.quote('2330', 101_500);
    expect(await kinds(u.id)).toEqual([]);
    expect(await status(first)).toBe('holding');
    await m.quote('2330', 102_500);
  });

  it('without the resting order the same buy is accepted at 138.96 %; at 1,015 nothing is called', async () => {
    await m.engine.cancelOrder(u, resting);
    const c = await place(u, { orderType: 'limit', priceMinor: 104_000, leverage: 5 });
    expect(c).toMatchObject({ status: 'holding', openPriceMinor: 102_500 });
    expect((await risk(u.id)).risk.ratioBps).toBe(13_896);
    await m.quote('2330', 101_500);
    const r = await risk(u.id);
    expect(r.risk.ratioBps).toBe(ratioBps(r.risk.equityMinor, 71_750_000));
    expect(r.risk.level).toBe('ok');
    expect(await kinds(u.id)).toEqual([]);
    expect(await status(first)).toBe('holding');
    await sound();
    await m.quote('2330', 102_500);
  });
});

describe('3. a call gives its grace days; a notice always precedes a sale', () => {
  /** A member with one 10× long of 2330 at 1,025 at exactly 130 %, and a second of 2317 at 150. */
  async function called() {
    const u = await m.member('', 0);
    const a = openCosts({ priceMinor: 102_500, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
    const b = openCosts({ priceMinor: 15_000, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
    await m.deposit(
      u.id,
      a.feeMinor + b.feeMinor + requiredEquityMinor(a.marginMinor + b.marginMinor, 13_000),
    );
    const p2330 = await place(u, { leverage: 10 });
    const p2317 = await place(u, { symbol: '2317', leverage: 10 });
    return { u, p2330, p2317 };
  }
  const notices = (userId: number) =>
    m.db.select().from(memberNotices).where(eq(memberNotices.userId, userId)).orderBy(asc(memberNotices.id));
  const events = (userId: number) =>
    m.db.select().from(riskEvents).where(eq(riskEvents.userId, userId)).orderBy(asc(riskEvents.id));

  it('between the lines for the grace days: no sale; unmet on the next session: sold back to 130 %, notice first', async () => {
    m.session.n = 200;
    const { u, p2330, p2317 } = await called();
    // 2330 −1.5 %: ratio ≈ 121 %: a call, deadline session 203, 2330 (the larger loss) first.
    await m.quote('2330', 101_000);
    const [call] = await events(u.id);
    expect(call!.kind).toBe('marginCall');
    expect(JSON.parse(call!.detail!)).toMatchObject({
      calledSession: 200,
      saleSession: 203,
      saleDate: 'session 203',
      saleOrder: [
        { orderId: p2330.id, symbol: '2330' },
        { orderId: p2317.id, symbol: '2317' },
      ],
      immediate: false,
    });
    const [n1] = await notices(u.id);
    expect(n1).toMatchObject({ kind: 'marginCall' });
    expect(JSON.parse(n1!.params)).toMatchObject({
      saleDate: 'session 203',
      saleOrder: '2330, 2317',
      immediate: 0,
    });
    for (const n of [200, 201, 202]) {
      m.session.n = n;
      await m.quote('2330', 101_000);
      expect(await status(p2330.id)).toBe('holding');
    }
    m.session.n = 203;
    await m.quote('2330', 101_000);
    expect(await status(p2330.id)).toBe('closed');
    expect(await status(p2317.id)).toBe('holding');
    const ev = await events(u.id);
    expect(ev.map((e) => e.kind)).toEqual(['marginCall', 'liquidation', 'marginCallCleared']);
    expect(JSON.parse(ev[1]!.detail!)).toMatchObject({ cause: 'deadline', thresholdBps: 13_000 });
    const ns = await notices(u.id);
    expect(ns.map((n) => n.kind)).toEqual(['marginCall', 'forcedSale']);
    expect(JSON.parse(ns[1]!.params)).toMatchObject({ cause: 'deadline', saleOrder: '2330, 2317' });
    expect(ns[1]!.createdAt.getTime()).toBeLessThanOrEqual(ev[1]!.createdAt.getTime());
    expect((await risk(u.id)).risk.ratioBps!).toBeGreaterThanOrEqual(13_000);
    await sound();
    await m.quote('2330', 102_500);
  });

  it('a bounce above the clearing band and back keeps the deadline and sends no second notice', async () => {
    m.session.n = 250;
    const { u, p2330 } = await called();
    await m.quote('2330', 101_000); // called: deadline session 253
    await m.quote('2330', 103_500); // back above 135 %: cleared
    m.session.n = 251;
    await m.quote('2330', 101_000); // called again
    const ev = await events(u.id);
    expect(ev.map((e) => e.kind)).toEqual(['marginCall', 'marginCallCleared', 'marginCall']);
    expect(JSON.parse(ev[2]!.detail!)).toMatchObject({ calledSession: 250, saleSession: 253 });
    expect((await notices(u.id)).filter((n) => n.kind === 'marginCall')).toHaveLength(1);
    m.session.n = 253;
    await m.quote('2330', 101_000);
    expect(await status(p2330.id)).toBe('closed');
    await m.quote('2330', 102_500);
  });

  it('a call met by a deposit within its grace days clears; no sale', async () => {
    m.session.n = 300;
    const { u, p2330 } = await called();
    await m.quote('2330', 101_000);
    expect(await kinds(u.id)).toEqual(['marginCall']);
    await m.deposit(u.id, 5_000_000);
    m.session.n = 305;
    await m.quote('2330', 101_000);
    expect(await kinds(u.id)).toEqual(['marginCall', 'marginCallCleared']);
    expect(await status(p2330.id)).toBe('holding');
    await m.quote('2330', 102_500);
  });

  it('a gap straight below maintenance: the call says it is sold now, and is written before the sale', async () => {
    m.session.n = 400;
    const { u, p2330, p2317 } = await called();
    await m.quote('2330', 95_000); // −7.3 % at 10×: far below 110 %
    expect(await status(p2330.id)).toBe('closed');
    const ev = await events(u.id);
    expect(ev[0]!.kind).toBe('marginCall');
    expect(JSON.parse(ev[0]!.detail!)).toMatchObject({ immediate: true });
    const sale = ev.find((e) => e.kind === 'liquidation')!;
    expect(JSON.parse(sale.detail!)).toMatchObject({ cause: 'maintenance' });
    const ns = await notices(u.id);
    expect(ns[0]).toMatchObject({ kind: 'marginCall' });
    expect(JSON.parse(ns[0]!.params)).toMatchObject({ immediate: 1 });
    expect(ns[0]!.createdAt.getTime()).toBeLessThanOrEqual(sale.createdAt.getTime());
    expect(ev[0]!.id).toBeLessThan(sale.id);
    // One forced-sale notice at most: the call already said it.
    expect(ns.filter((n) => n.kind === 'forcedSale')).toHaveLength(0);
    expect(await status(p2317.id)).toBe('holding');
    const after = await m.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, u.id), eq(orders.status, 'holding')));
    expect(after.map((o) => o.id)).toEqual([p2317.id]);
    expect((await memberBalances(m.db, u.id)).debt).toBe(0);
    await sound();
    await m.quote('2330', 102_500);
  });
});
