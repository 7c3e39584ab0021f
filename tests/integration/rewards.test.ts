/**
 * Rewards end to end through the HTTP API (PGlite by default, PostgreSQL with TEST_DB=postgres),
 * docs/levels.md:
 * - a points code is redeemed once, refused again, refused past the batch's per-member limit and
 *   after its expiry; a failed-attempt counter refuses a guesser with tooFrequent;
 * - a cash code posts "points-code exchange" platform promotions → available, is idempotent under
 *   its key, and the ledger reconciles;
 * - sign-in once per Asia/Taipei day (again the next day);
 * - an account level's fee discount: the ticket's preview (contract orderPreview) and the
 *   execution (open and close fee) charge the same, to the cent, and less than without it;
 * - a fee coupon is applied once and refused again; one bought with points; a pending order
 *   cancelled unfilled gives its coupon back;
 * - under 30 concurrent requests: one code redeemed once, one sign-in, one coupon used once.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeResult, orderPreview } from '../../contract/market-rules';
import { feeCoupons, orders, pointsEntries } from '../../server/db/schema';
import { isClean, memberBalances, platformBalance, reconcile } from '../../server/modules/ledger/ledger';
import { idem, startHarness, type Harness } from './harness';

let h: Harness;
let op: string;
const FUNDS = 200_000_000; // NT$2,000,000
const DAY = 86_400_000;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, headers = {}) {
  const r = await h.call(name, body, token, headers);
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const clean = async () => expect(isClean(await reconcile(h.database.db))).toBe(true);
const redeem = (token: string, code: string, key?: string) =>
  h.call('rewards/redeemCode', { code }, token, idem(key));
async function batch(
  kind: 'points' | 'cash',
  amount: number,
  count: number,
  opts: Partial<{ ttlMs: number; perMemberLimit: number }> = {},
) {
  return (await ok(
    'admin/createPointsCodes',
    {
      kind,
      amount,
      count,
      expiresAt: h.wall.now + (opts.ttlMs ?? DAY),
      perMemberLimit: opts.perMemberLimit ?? 1,
    },
    op,
  )) as { batch: { id: number }; codes: string[] };
}
const market = (symbol = '2330', extra: Record<string, unknown> = {}) => ({
  symbol,
  side: 'long',
  orderType: 'market',
  lots: 1,
  leverage: 1,
  ...extra,
});

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
});
afterAll(async () => {
  await h?.close();
});

describe('points codes', () => {
  it('redeems a points code once; refuses it again, past the per-member limit and after expiry', async () => {
    const token = await h.fundedMember('0920000001', FUNDS);
    const { codes } = await batch('points', 500, 3);
    expect(codes).toHaveLength(3);
    expect(new Set(codes).size).toBe(3);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
    // Typed in lower case with dashes: the same code.
    const typed = codes[0]!.toLowerCase().replace(/(.{4})(?!$)/g, '$1-');
    const first = await redeem(token, typed);
    expect(first.body).toMatchObject({
      status: 1,
      data: { kind: 'points', amount: 500, pointsBalance: 500 },
    });
    const again = await redeem(token, codes[0]!);
    expect([again.http, again.body.msg]).toEqual([422, 'pointsCodeInvalid']);
    const second = await redeem(token, codes[1]!); // per-member limit 1
    expect(second.body.msg).toBe('pointsCodeInvalid');
    // Another member can still redeem the code the limit refused.
    const other = await h.fundedMember('0920000002', FUNDS);
    expect((await redeem(other, codes[1]!)).body.status).toBe(1);

    const short = await batch('points', 100, 1, { ttlMs: 1_000 });
    h.wall.now += 2_000;
    const late = await redeem(other, short.codes[0]!);
    expect(late.body.msg).toBe('pointsCodeInvalid');
    expect((await ok('rewards/summary', {}, token)).pointsBalance).toBe(500);
    const uid = await h.userId('0920000001');
    const journal = await h.database.db.select().from(pointsEntries).where(eq(pointsEntries.userId, uid));
    expect(journal.map((e) => e.delta)).toEqual([500]);
  });

  it('a cash code posts points-code exchange from promotions to available, once per key', async () => {
    const token = await h.fundedMember('0920000003', FUNDS);
    const uid = await h.userId('0920000003');
    const promoBefore = await platformBalance(h.database.db, 'promotions');
    const { codes, batch: b } = await batch('cash', 12_300, 1);
    const key = 'cash-code-key-1';
    const r = await redeem(token, codes[0]!, key);
    expect(r.body.data).toMatchObject({ kind: 'cash', amount: 12_300 });
    const retry = await redeem(token, codes[0]!, key); // the stored answer, nothing moves again
    expect(retry.body).toEqual(r.body);
    expect((await memberBalances(h.database.db, uid)).available).toBe(FUNDS + 12_300);
    expect((await platformBalance(h.database.db, 'promotions')) - promoBefore).toBe(-12_300);
    const records = await ok('user/fundRecords', { tab: 'deposit', page: 1, pageSize: 50 }, token);
    const row = (records.items as Array<{ type: string; amountMinor: number }>).find(
      (x) => x.type === 'pointsCodeExchange',
    );
    expect(row?.amountMinor).toBe(12_300);
    const exported = await ok('admin/exportPointsCodes', { batchId: b.id }, op);
    expect(exported.codes).toEqual([
      { hint: codes[0]!.slice(-4), redeemedBy: '0920000003', redeemedAt: expect.any(Number) },
    ]);
    await clean();
  });

  it('counts failed attempts: past 10 in the window a member is refused tooFrequent', async () => {
    const token = await h.fundedMember('0920000004', FUNDS);
    for (let i = 0; i < 10; i++)
      expect((await redeem(token, `ZZZZZZZZZZZZZZ${String(i).padStart(2, '0')}`)).body.msg).toBe(
        'pointsCodeInvalid',
      );
    const { codes } = await batch('points', 5, 1);
    const blocked = await redeem(token, codes[0]!);
    expect([blocked.http, blocked.body.msg]).toEqual([429, 'tooFrequent']);
    // The refused attempt redeemed nothing: the code is still free for another member.
    expect((await redeem(await h.fundedMember('0920000005', FUNDS), codes[0]!)).body.status).toBe(1);
    expect((await ok('rewards/summary', {}, token)).pointsBalance).toBe(0);
  });
});

describe('account level fee discount', () => {
  it('preview and execution charge the same discounted fee, open and close', async () => {
    await ok(
      'admin/saveLevel',
      { level: 1, name: 'VIP1', minAssetsMinor: 100_000_000, minVolume30dMinor: 0, feeDiscountBps: 3_000 },
      op,
    );
    const token = await h.fundedMember('0920000010', FUNDS);
    const level = await ok('user/accountLevel', {}, token);
    expect(level.current).toMatchObject({ level: 1, feeDiscountBps: 3_000 });
    expect(level.totalAssetsMinor).toBe(FUNDS);
    expect(level.next?.level).toBe(2);

    const q = h.feed.quote('2330')!;
    const args = {
      priceMinor: q.askMinor,
      lots: 1,
      leverage: 1,
      side: 'long' as const,
      kind: 'stock' as const,
    };
    const preview = orderPreview({ ...args, discount: { levelBps: level.current.feeDiscountBps } });
    const plain = orderPreview(args);
    expect(preview.commissionMinor).toBeLessThan(plain.commissionMinor);
    expect(preview.commissionDiscountMinor).toBe(plain.commissionMinor - preview.commissionMinor);

    const order = await ok('trade/placeOrder', market(), token);
    expect(order.status).toBe('holding');
    expect(order.openPriceMinor).toBe(q.askMinor);
    expect(order.openFeeMinor).toBe(preview.commissionMinor + preview.clearingFeeMinor);

    const closed = await ok('trade/closePosition', { orderId: order.id }, token);
    const bid = closed.closePriceMinor as number;
    const expected = closeResult({
      openValueMinor: q.askMinor * 1000,
      closePriceMinor: bid,
      shares: 1000,
      side: 'long',
      kind: 'stock',
      discount: { levelBps: 3_000 },
    });
    expect(closed.closeFeeMinor).toBe(expected.feeMinor);
    expect(level.volume30dMinor).toBe(0);
    expect((await ok('user/accountLevel', {}, token)).volume30dMinor).toBe((q.askMinor + bid) * 1000);
    await clean();
  });
});

describe('fee coupons', () => {
  let token: string;
  let uid: number;
  it('a granted coupon takes NT$50 off one order; the second use is refused', async () => {
    token = await h.fundedMember('0920000020', 50_000_000); // NT$500,000: level 0
    uid = await h.userId('0920000020');
    const c = await ok(
      'admin/grantCoupon',
      { account: '0920000020', kind: 'amount', offMinor: 5_000, validDays: 7 },
      op,
    );
    expect(c.state).toBe('available');
    const q = h.feed.quote('2317')!;
    const preview = orderPreview({
      priceMinor: q.askMinor,
      lots: 1,
      leverage: 1,
      side: 'long',
      kind: 'stock',
      discount: { levelBps: 0, couponOffMinor: 5_000 },
    });
    const order = await ok('trade/placeOrder', market('2317', { couponId: c.id }), token);
    expect(order.openFeeMinor).toBe(preview.commissionMinor + preview.clearingFeeMinor);
    expect(preview.commissionDiscountMinor).toBe(5_000);
    const again = await h.call('trade/placeOrder', market('2317', { couponId: c.id }), token);
    expect([again.http, again.body.msg]).toEqual([409, 'couponUnavailable']);
    const used = await ok('rewards/coupons', { tab: 'used', page: 1, pageSize: 10 }, token);
    expect(used.items).toHaveLength(1);
    expect(used.items[0]).toMatchObject({ id: c.id, state: 'used', orderNo: order.orderNo });
    // Another member cannot use someone else's coupon.
    const c2 = await ok(
      'admin/grantCoupon',
      { account: '0920000020', kind: 'bps', offBps: 5_000, validDays: 1 },
      op,
    );
    const stranger = await h.fundedMember('0920000021', FUNDS);
    expect((await h.call('trade/placeOrder', market('2317', { couponId: c2.id }), stranger)).body.msg).toBe(
      'couponUnavailable',
    );
    await clean();
  });

  it('a pending order cancelled unfilled gives its coupon back; an expired coupon is listed expired', async () => {
    const c = await ok(
      'admin/grantCoupon',
      { account: '0920000020', kind: 'bps', offBps: 2_000, validDays: 1 },
      op,
    );
    const q = h.feed.quote('2317')!;
    const low = Math.floor((q.bidMinor * 0.95) / 100) * 100; // whole NT$: on the tick table below NT$1,000
    const pending = await ok(
      'trade/placeOrder',
      { ...market('2317', { couponId: c.id }), orderType: 'limit', priceMinor: low },
      token,
    );
    expect(pending.status).toBe('pending');
    const [row] = await h.database.db.select().from(feeCoupons).where(eq(feeCoupons.id, c.id));
    expect(row!.status).toBe('used');
    await ok('trade/cancelOrder', { orderId: pending.id }, token);
    const [back] = await h.database.db.select().from(feeCoupons).where(eq(feeCoupons.id, c.id));
    expect(back!.status).toBe('available');
    const avail = await ok('rewards/coupons', { tab: 'available', page: 1, pageSize: 10 }, token);
    expect(avail.items.map((x: { id: number }) => x.id)).toContain(c.id);
    h.wall.now += 2 * DAY;
    const expired = await ok('rewards/coupons', { tab: 'expired', page: 1, pageSize: 10 }, token);
    expect(expired.items.map((x: { id: number }) => x.id)).toContain(c.id);
    h.wall.now -= 2 * DAY;
    await clean();
    expect(uid).toBeGreaterThan(0);
  });

  it('buys a coupon with points; refuses without enough points', async () => {
    const { codes } = await batch('points', 120, 1);
    await redeem(token, codes[0]!);
    const coupon = await ok('rewards/buyCoupon', { offerId: 'off20' }, token, idem());
    expect(coupon).toMatchObject({ kind: 'amount', offMinor: 2_000, source: 'points', state: 'available' });
    expect((await ok('rewards/summary', {}, token)).pointsBalance).toBe(20);
    const poor = await h.call('rewards/buyCoupon', { offerId: 'off20' }, token, idem());
    expect([poor.http, poor.body.msg]).toEqual([422, 'insufficientPoints']);
  });
});

describe('daily sign-in', () => {
  it('grants points once per Asia/Taipei day', async () => {
    const token = await h.fundedMember('0920000030', FUNDS);
    const first = await ok('rewards/signIn', {}, token);
    expect(first).toMatchObject({ points: 10, pointsBalance: 10 });
    const again = await h.call('rewards/signIn', {}, token);
    expect([again.http, again.body.msg]).toEqual([409, 'alreadySignedIn']);
    expect((await ok('rewards/summary', {}, token)).signedInToday).toBe(true);
    h.wall.now += DAY;
    const next = await ok('rewards/signIn', {}, token);
    expect(next.pointsBalance).toBe(20);
    expect(next.day).not.toBe(first.day);
    h.wall.now -= DAY;
  });
});

describe('concurrency', () => {
  it('30 concurrent redemptions of one code: exactly one succeeds', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 30 }, (_, i) => h.register(`09300000${String(i).padStart(2, '0')}`)),
    );
    const { codes } = await batch('cash', 10_000, 1, { perMemberLimit: 1 });
    const res = await Promise.all(tokens.map((t) => redeem(t, codes[0]!)));
    expect(res.filter((r) => r.body.status === 1)).toHaveLength(1);
    expect(res.filter((r) => r.body.msg === 'pointsCodeInvalid')).toHaveLength(29);
    await clean();
  });

  it('30 concurrent sign-ins of one member: one', async () => {
    const token = await h.register('0930000099');
    const res = await Promise.all(Array.from({ length: 30 }, () => h.call('rewards/signIn', {}, token)));
    expect(res.filter((r) => r.body.status === 1)).toHaveLength(1);
    expect(res.filter((r) => r.body.msg === 'alreadySignedIn')).toHaveLength(29);
    expect((await ok('rewards/summary', {}, token)).pointsBalance).toBe(10);
  });

  it('30 concurrent orders naming one coupon: the coupon is used once', async () => {
    const token = await h.fundedMember('0930000098', FUNDS);
    const uid = await h.userId('0930000098');
    const c = await ok(
      'admin/grantCoupon',
      { account: '0930000098', kind: 'amount', offMinor: 1_000, validDays: 7 },
      op,
    );
    const res = await Promise.all(
      Array.from({ length: 30 }, () => h.call('trade/placeOrder', market('2317', { couponId: c.id }), token)),
    );
    expect(res.filter((r) => r.body.status === 1)).toHaveLength(1);
    expect(res.filter((r) => r.body.msg === 'couponUnavailable')).toHaveLength(29);
    const withCoupon = await h.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, uid), eq(orders.couponId, c.id)));
    expect(withCoupon).toHaveLength(1);
    await clean();
  });
});
