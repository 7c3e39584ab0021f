/**
 * rewards/* handlers (contract/rewards.ts): the member's points, level and sign-in state; points
 * code redemption (money-moving for cash codes: the request's transaction carries the
 * idempotency key); the daily sign-in; `/user/accountLevel`; fee coupons and the points shop; and
 * the operator's points-code batches, level table and coupon grants.
 */
import { and, count, desc, eq, gt } from 'drizzle-orm';
import { COUPON_OFFERS, SIGN_IN_POINTS } from '../../../contract/rewards';
import { feeCoupons, users } from '../../db/schema';
import { requireUser, type Ctx, type Handlers } from '../common/context';
import { pageOf } from '../common/paging';
import {
  createBatch,
  exportBatch,
  listBatches,
  redeemThrottled,
  redeemedCounts,
  type BatchRow,
} from './codes';
import { buyCoupon, couponDto, grantCoupon, listCoupons, signIn, signedInToday } from './coupons';
import { deleteLevel, levelTable, saveLevel } from './levels';
import { pointsBalance } from './points';

const batchDto = (b: BatchRow, redeemed: number) => ({
  id: b.id,
  kind: b.kind,
  amount: b.amount,
  expiresAt: b.expiresAt.getTime(),
  count: b.count,
  perMemberLimit: b.perMemberLimit,
  redeemed,
  note: b.note,
  createdAt: b.createdAt.getTime(),
});

const now = (ctx: Ctx) => ctx.now();

export const rewardsHandlers: Pick<
  Handlers,
  | 'rewards/summary'
  | 'rewards/redeemCode'
  | 'rewards/signIn'
  | 'user/accountLevel'
  | 'rewards/coupons'
  | 'rewards/couponOffers'
  | 'rewards/buyCoupon'
  | 'admin/pointsCodeBatches'
  | 'admin/createPointsCodes'
  | 'admin/exportPointsCodes'
  | 'admin/levels'
  | 'admin/saveLevel'
  | 'admin/deleteLevel'
  | 'admin/grantCoupon'
  | 'admin/coupons'
> = {
  async 'rewards/summary'(_body, ctx) {
    const user = requireUser(ctx);
    const t = now(ctx);
    const level = await ctx.services.levels.level(user.id, t);
    const [{ n }] = (await ctx.db
      .select({ n: count() })
      .from(feeCoupons)
      .where(
        and(
          eq(feeCoupons.userId, user.id),
          eq(feeCoupons.status, 'available'),
          gt(feeCoupons.expiresAt, new Date(t)),
        ),
      )) as [{ n: number }];
    return {
      pointsBalance: await pointsBalance(ctx.db, user.id),
      level: level.current.level,
      levelName: level.current.name,
      feeDiscountBps: level.current.feeDiscountBps,
      signedInToday: await signedInToday(ctx.db, user.id, t),
      signInPoints: SIGN_IN_POINTS,
      availableCoupons: Number(n),
    };
  },

  async 'rewards/redeemCode'(body, ctx) {
    const user = requireUser(ctx);
    return redeemThrottled(ctx.db, user.id, body.code, now(ctx));
  },

  async 'rewards/signIn'(_body, ctx) {
    const user = requireUser(ctx);
    return signIn(ctx.db, user.id, now(ctx));
  },

  async 'user/accountLevel'(_body, ctx) {
    const user = requireUser(ctx);
    return ctx.services.levels.level(user.id, now(ctx));
  },

  async 'rewards/coupons'(body, ctx) {
    const user = requireUser(ctx);
    return listCoupons(ctx.db, user.id, body.tab, now(ctx), body.page, body.pageSize);
  },

  async 'rewards/couponOffers'(_body, ctx) {
    const user = requireUser(ctx);
    return {
      offers: COUPON_OFFERS.map((o) => ({ ...o })),
      pointsBalance: await pointsBalance(ctx.db, user.id),
    };
  },

  async 'rewards/buyCoupon'(body, ctx) {
    const user = requireUser(ctx);
    return (await buyCoupon(ctx.db, user.id, body.offerId, now(ctx))).coupon;
  },

  async 'admin/pointsCodeBatches'(body, ctx) {
    const { rows, total } = await listBatches(ctx.db, body.page, body.pageSize);
    const redeemed = await redeemedCounts(
      ctx.db,
      rows.map((r) => r.id),
    );
    return {
      items: rows.map((b) => batchDto(b, redeemed.get(b.id) ?? 0)),
      total,
      page: body.page,
      pageSize: body.pageSize,
    };
  },

  async 'admin/createPointsCodes'(body, ctx) {
    const op = requireUser(ctx);
    const { batch, codes } = await createBatch(ctx.db, op.id, body);
    return { batch: batchDto(batch, 0), codes };
  },

  async 'admin/exportPointsCodes'(body, ctx) {
    const { batch, codes } = await exportBatch(ctx.db, body.batchId);
    return {
      batch: batchDto(batch, codes.filter((c) => c.account !== null).length),
      codes: codes.map((c) => ({ hint: c.hint, redeemedBy: c.account, redeemedAt: c.at?.getTime() ?? null })),
    };
  },

  async 'admin/levels'(_body, ctx) {
    return { levels: await levelTable(ctx.db) };
  },

  async 'admin/saveLevel'(body, ctx) {
    const op = requireUser(ctx);
    const levels = await saveLevel(ctx.db, op.id, body);
    ctx.services.levels.clear();
    return { levels };
  },

  async 'admin/deleteLevel'(body, ctx) {
    const op = requireUser(ctx);
    const levels = await deleteLevel(ctx.db, op.id, body.level);
    ctx.services.levels.clear();
    return { levels };
  },

  async 'admin/grantCoupon'(body, ctx) {
    const op = requireUser(ctx);
    const t = now(ctx);
    const c = await grantCoupon(ctx.db, op.id, body, t);
    return { ...couponDto(c, t), account: c.account };
  },

  async 'admin/coupons'(body, ctx) {
    const t = now(ctx);
    const where = body.account ? eq(users.account, body.account) : undefined;
    const total = ctx.db
      .select({ n: count() })
      .from(feeCoupons)
      .innerJoin(users, eq(users.id, feeCoupons.userId))
      .where(where);
    const rows = ctx.db
      .select({ c: feeCoupons, account: users.account })
      .from(feeCoupons)
      .innerJoin(users, eq(users.id, feeCoupons.userId))
      .where(where)
      .orderBy(desc(feeCoupons.id));
    const page = await pageOf(ctx.db, rows, { query: total }, body);
    return { ...page, items: page.items.map((r) => ({ ...couponDto(r.c, t), account: r.account })) };
  },
};
