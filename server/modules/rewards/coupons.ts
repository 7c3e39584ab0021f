/**
 * Fee coupons (route `/home/coupons`; docs/levels.md "Coupons") and the daily sign-in.
 *
 * A coupon takes a fixed amount (TWD minor, whole NT$) or bps off ONE order's opening commission
 * (contract/market-rules.ts FeeDiscount, applied by the same fee function in the ticket's preview
 * and at the fill). It is granted by an operator or bought with points (COUPON_OFFERS), and used
 * by exactly one order: `claimCoupon` is a conditional UPDATE (status available → used, not
 * expired, the member's own) in the order's transaction, so of concurrent orders naming it one
 * wins and the others are refused `couponUnavailable`; an order refused for another reason rolls
 * the claim back, and a pending order cancelled or expired unfilled gives it back (trading
 * fills.ts releaseOrder).
 *
 * Sign-in: one per member and Asia/Taipei calendar day (the wall clock's date there), the
 * sign_ins primary key (user, day) refusing the second, also under concurrent requests
 * (`alreadySignedIn`); it grants SIGN_IN_POINTS.
 */
import { and, desc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import { DateTime } from 'luxon';
import {
  COUPON_OFFERS,
  SIGN_IN_POINTS,
  SIGN_IN_ZONE,
  type Coupon,
  type CouponKind,
  type CouponOfferId,
  type CouponTab,
} from '../../../contract/rewards';
import type { Db, Tx } from '../../db/client';
import { feeCoupons, signIns, users } from '../../db/schema';
import { audit } from '../common/audit';
import { fail } from '../common/errors';
import { isUniqueViolation } from '../common/db-errors';
import { pageOf } from '../common/paging';
import { addPoints, lockPoints } from './points';

export type CouponRow = typeof feeCoupons.$inferSelect;
const DAY_MS = 86_400_000;

/** The coupon as the member sees it at `nowMs`: an unused one past its expiry is `expired`. */
export function couponDto(c: CouponRow, nowMs: number): Coupon {
  const state: CouponTab =
    c.status === 'used' ? 'used' : c.expiresAt.getTime() <= nowMs ? 'expired' : 'available';
  return {
    id: c.id,
    kind: c.kind,
    offMinor: c.offMinor,
    offBps: c.offBps,
    source: c.source,
    state,
    expiresAt: c.expiresAt.getTime(),
    usedAt: c.usedAt?.getTime() ?? null,
    orderNo: c.orderNo,
    createdAt: c.createdAt.getTime(),
  };
}

/** The SQL condition of a tab at `nowMs`. */
export function tabWhere(tab: CouponTab, nowMs: number): SQL {
  const now = new Date(nowMs);
  if (tab === 'used') return eq(feeCoupons.status, 'used');
  return and(
    eq(feeCoupons.status, 'available'),
    tab === 'available' ? gt(feeCoupons.expiresAt, now) : lte(feeCoupons.expiresAt, now),
  )!;
}

/** The member's coupons of one tab, newest first, paged. */
export async function listCoupons(
  db: Db | Tx,
  userId: number,
  tab: CouponTab,
  nowMs: number,
  page: number,
  pageSize: number,
) {
  const where = and(eq(feeCoupons.userId, userId), tabWhere(tab, nowMs));
  const rows = db.select().from(feeCoupons).where(where).orderBy(desc(feeCoupons.id));
  const p = await pageOf(db, rows, { table: feeCoupons, where }, { page, pageSize });
  return { ...p, items: p.items.map((c) => couponDto(c, nowMs)) };
}

/**
 * Marks coupon `couponId` used by order `orderNo` (see the module docstring); returns its terms
 * as order columns. @throws AppError couponUnavailable
 */
export async function claimCoupon(
  tx: Tx,
  userId: number,
  couponId: number,
  orderNo: string,
  nowMs: number,
): Promise<{ couponBps: number; couponOffMinor: number }> {
  const [c] = await tx
    .update(feeCoupons)
    .set({ status: 'used', orderNo, usedAt: new Date(nowMs) })
    .where(
      and(
        eq(feeCoupons.id, couponId),
        eq(feeCoupons.userId, userId),
        eq(feeCoupons.status, 'available'),
        gt(feeCoupons.expiresAt, new Date(nowMs)),
      ),
    )
    .returning();
  if (!c) throw fail('couponUnavailable');
  return { couponBps: c.offBps, couponOffMinor: c.offMinor };
}

/** Buys offer `offerId` with points at `nowMs`: the points spent and the coupon in one transaction. */
export async function buyCoupon(
  db: Db | Tx,
  userId: number,
  offerId: CouponOfferId,
  nowMs: number,
): Promise<{ coupon: Coupon; pointsBalance: number }> {
  const offer = COUPON_OFFERS.find((o) => o.id === offerId)!;
  return db.transaction(async (tx) => {
    await lockPoints(tx, userId);
    const [c] = await tx
      .insert(feeCoupons)
      .values({
        userId,
        kind: offer.kind,
        offMinor: offer.offMinor,
        offBps: offer.offBps,
        source: 'points',
        expiresAt: new Date(nowMs + offer.validDays * DAY_MS),
      })
      .returning();
    const pointsBalance = await addPoints(tx, userId, -offer.pointsCost, 'couponPurchase', c!.id);
    return { coupon: couponDto(c!, nowMs), pointsBalance };
  });
}

/** An operator grants a coupon to the member `account`. @throws AppError accountNotFound */
export async function grantCoupon(
  db: Db | Tx,
  operatorId: number,
  input: { account: string; kind: CouponKind; offMinor: number; offBps: number; validDays: number },
  nowMs: number,
): Promise<CouponRow & { account: string }> {
  return db.transaction(async (tx) => {
    const [u] = await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(eq(users.account, input.account));
    if (!u || u.role !== 'member') throw fail('accountNotFound');
    const [c] = await tx
      .insert(feeCoupons)
      .values({
        userId: u.id,
        kind: input.kind,
        offMinor: input.kind === 'amount' ? input.offMinor : 0,
        offBps: input.kind === 'bps' ? input.offBps : 0,
        source: 'grant',
        grantedBy: operatorId,
        expiresAt: new Date(nowMs + input.validDays * DAY_MS),
      })
      .returning();
    await audit(tx, {
      actorUserId: operatorId,
      action: 'coupon.grant',
      targetType: 'feeCoupon',
      targetId: c!.id,
      after: c,
    });
    return { ...c!, account: input.account };
  });
}

/** The Asia/Taipei calendar date (YYYY-MM-DD) of `nowMs`. */
export const signInDay = (nowMs: number) => DateTime.fromMillis(nowMs, { zone: SIGN_IN_ZONE }).toISODate()!;

/**
 * Signs the member in for today (Asia/Taipei) and grants SIGN_IN_POINTS.
 * @throws AppError alreadySignedIn (the second time that day, also under concurrency)
 */
export async function signIn(
  db: Db | Tx,
  userId: number,
  nowMs: number,
): Promise<{ day: string; points: number; pointsBalance: number }> {
  const day = signInDay(nowMs);
  try {
    return await db.transaction(async (tx) => {
      await tx.insert(signIns).values({ userId, day, points: SIGN_IN_POINTS });
      const pointsBalance = await addPoints(tx, userId, SIGN_IN_POINTS, 'signIn', day);
      return { day, points: SIGN_IN_POINTS, pointsBalance };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw fail('alreadySignedIn');
    throw err;
  }
}

/** Whether the member signed in on today's Asia/Taipei date. */
export async function signedInToday(db: Db | Tx, userId: number, nowMs: number): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`1` })
    .from(signIns)
    .where(and(eq(signIns.userId, userId), eq(signIns.day, signInDay(nowMs))));
  return !!row;
}
