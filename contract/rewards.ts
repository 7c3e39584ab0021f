/**
 * Rewards: points codes, daily sign-in, account levels and fee coupons (product-spec "Points-code
 * redemption", routes `/user/accountLevel` and `/home/coupons`, errors "points code invalid or
 * expired" and "already signed in today", fund-flow type "points-code exchange"; the account's
 * "account level"). The rules and their reasons: docs/levels.md.
 *
 * Units: points are whole numbers (not money, kept in their own journal, never in the ledger);
 * cash amounts TWD minor (1/100 NT$); discounts bps of the commission (1,000 = 10 % off); times
 * epoch ms; the sign-in day is the Asia/Taipei calendar date (YYYY-MM-DD).
 */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { pageQuery, paged } from './envelope';

/** What a points code credits: points, or TWD cash (a ledger posting "points-code exchange"). */
export const POINTS_CODE_KINDS = ['points', 'cash'] as const;
export type PointsCodeKind = (typeof POINTS_CODE_KINDS)[number];

/** Fee coupon kinds: a fixed amount off the opening commission, or bps of it. */
export const COUPON_KINDS = ['amount', 'bps'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];
/** Stored coupon states; `expired` is shown for an unused coupon past its expiry (never stored). */
export const COUPON_STATUSES = ['available', 'used'] as const;
export const COUPON_TABS = ['available', 'used', 'expired'] as const;
export type CouponTab = (typeof COUPON_TABS)[number];
/** Where a coupon came from: an operator's grant, or bought with points. */
export const COUPON_SOURCES = ['grant', 'points'] as const;
/** Why a member's points moved (points_entries.reason). */
export const POINTS_REASONS = ['code', 'signIn', 'couponPurchase'] as const;
export type PointsReason = (typeof POINTS_REASONS)[number];

/** Points granted by one daily sign-in. */
export const SIGN_IN_POINTS = 10;
/** The calendar a sign-in day is counted in. */
export const SIGN_IN_ZONE = 'Asia/Taipei';
/**
 * A points code as printed: 16 characters of Crockford base-32 (no I, L, O, U: 80 bits of
 * crypto randomness), grouped XXXX-XXXX-XXXX-XXXX. Input is normalised (normaliseCode) first.
 */
export const POINTS_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const POINTS_CODE_LENGTH = 16;

/** Upper-cases, drops spaces and dashes, maps the look-alikes I/L → 1 and O → 0 (Crockford). */
export function normaliseCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

/** The printed form: groups of four joined by dashes. */
export function formatCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/**
 * A code field as the member types or pastes it, shown in the printed form: upper-cased, anything
 * but letters and digits dropped (dashes, spaces), at most POINTS_CODE_LENGTH characters, grouped
 * by four ("abcd efgh-ijkl" → "ABCD-EFGH-IJKL"). The server normalises again (normaliseCode).
 */
export function groupCodeInput(input: string): string {
  return formatCode(
    input
      .normalize('NFKC')
      .toUpperCase()
      .replace(/[^0-9A-Z]/g, '')
      .slice(0, POINTS_CODE_LENGTH),
  );
}

/**
 * Coupons sold for points (the catalogue; docs/levels.md). `validDays` from the purchase.
 * NT$20 off equals the minimum commission, so it covers a small order's whole commission.
 */
export const COUPON_OFFERS = [
  { id: 'off20', kind: 'amount', offMinor: 2_000, offBps: 0, pointsCost: 100, validDays: 30 },
  { id: 'bps2000', kind: 'bps', offMinor: 0, offBps: 2_000, pointsCost: 150, validDays: 30 },
] as const satisfies ReadonlyArray<{
  id: string;
  kind: CouponKind;
  offMinor: number;
  offBps: number;
  pointsCost: number;
  validDays: number;
}>;
export type CouponOfferId = (typeof COUPON_OFFERS)[number]['id'];
const OFFER_IDS = COUPON_OFFERS.map((o) => o.id) as [CouponOfferId, ...CouponOfferId[]];

// ---------- REST ----------

const minor = z.number().int();
const bps = z.number().int().min(0).max(10_000);

/** rewards/summary: what the member centre shows. */
export const rewardsSummaryRes = z.object({
  pointsBalance: z.number().int(),
  level: z.number().int(),
  levelName: z.string(),
  feeDiscountBps: bps,
  signedInToday: z.boolean(),
  signInPoints: z.number().int(),
  availableCoupons: z.number().int(),
});
export type RewardsSummary = z.infer<typeof rewardsSummaryRes>;

/** rewards/redeemCode: a code as the member typed it (normalised on the server). */
export const redeemCodeReq = z.object({ code: z.string().trim().min(1).max(40) });
export const redeemCodeRes = z.object({
  kind: z.enum(POINTS_CODE_KINDS),
  /** Points, or TWD minor for a cash code. */
  amount: z.number().int(),
  pointsBalance: z.number().int(),
});

export const signInRes = z.object({
  day: z.string(),
  points: z.number().int(),
  pointsBalance: z.number().int(),
});

/** One row of the level table (operator-configurable). */
export const levelSchema = z.object({
  level: z.number().int().min(0).max(99),
  name: z.string().trim().min(1).max(24),
  /** Total assets needed (ledger: available + frozen + margin + debt), TWD minor. */
  minAssetsMinor: z.number().int().min(0).max(1e15),
  /** Trading volume in the last 30 days needed (opening and closing fills' value), TWD minor. */
  minVolume30dMinor: z.number().int().min(0).max(1e15),
  /** Discount on commission, bps of it. */
  feeDiscountBps: bps,
});
export type Level = z.infer<typeof levelSchema>;

/** user/accountLevel: the member's figures, current level, the next and the table. */
export const accountLevelRes = z.object({
  totalAssetsMinor: minor,
  volume30dMinor: minor,
  current: levelSchema,
  next: levelSchema.nullable(),
  levels: z.array(levelSchema),
});
export type AccountLevel = z.infer<typeof accountLevelRes>;

export const couponSchema = z.object({
  id: z.number().int(),
  kind: z.enum(COUPON_KINDS),
  offMinor: minor,
  offBps: bps,
  source: z.enum(COUPON_SOURCES),
  /** available | used | expired (an unused one past its expiry). */
  state: z.enum(COUPON_TABS),
  expiresAt: z.number().int(),
  usedAt: z.number().int().nullable(),
  orderNo: z.string().nullable(),
  createdAt: z.number().int(),
});
export type Coupon = z.infer<typeof couponSchema>;
export const couponsReq = pageQuery.extend({ tab: z.enum(COUPON_TABS).default('available') });
export const couponsRes = paged(couponSchema);

export const couponOfferSchema = z.object({
  id: z.string(),
  kind: z.enum(COUPON_KINDS),
  offMinor: minor,
  offBps: bps,
  pointsCost: z.number().int(),
  validDays: z.number().int(),
});
export const couponOffersRes = z.object({
  offers: z.array(couponOfferSchema),
  pointsBalance: z.number().int(),
});
export const buyCouponReq = z.object({ offerId: z.enum(OFFER_IDS) });

// ---------- operator ----------

export const createPointsCodesReq = z
  .object({
    kind: z.enum(POINTS_CODE_KINDS),
    /** Points per code, or TWD minor per code for cash (whole NT$). */
    amount: z.number().int().positive().max(100_000_000),
    /** Last instant a code can be redeemed (epoch ms). */
    expiresAt: z.number().int().positive().max(8.64e15),
    count: z.number().int().min(1).max(1_000),
    /** Most codes of this batch one member may redeem. */
    perMemberLimit: z.number().int().min(1).max(1_000),
    note: z.string().trim().max(100).default(''),
  })
  .refine((v) => v.kind === 'points' || v.amount % 100 === 0, {
    message: 'parameterError',
    path: ['amount'],
  });

export const pointsCodeBatchSchema = z.object({
  id: z.number().int(),
  kind: z.enum(POINTS_CODE_KINDS),
  amount: z.number().int(),
  expiresAt: z.number().int(),
  count: z.number().int(),
  perMemberLimit: z.number().int(),
  redeemed: z.number().int(),
  note: z.string(),
  createdAt: z.number().int(),
});
export const pointsCodeBatchesRes = paged(pointsCodeBatchSchema);
/** The new batch and its codes in clear: the only time they are shown (only a hash is stored). */
export const createPointsCodesRes = z.object({ batch: pointsCodeBatchSchema, codes: z.array(z.string()) });
export const batchIdReq = z.object({ batchId: id });
/** A batch's codes for export: the last four characters, who redeemed each and when. */
export const exportPointsCodesRes = z.object({
  batch: pointsCodeBatchSchema,
  codes: z.array(
    z.object({
      hint: z.string(),
      redeemedBy: z.string().nullable(),
      redeemedAt: z.number().int().nullable(),
    }),
  ),
});

export const levelsRes = z.object({ levels: z.array(levelSchema) });
export const saveLevelReq = levelSchema;
export const deleteLevelReq = z.object({ level: z.number().int().min(1).max(99) });

export const grantCouponReq = z
  .object({
    account: z.string().trim().min(1).max(32),
    kind: z.enum(COUPON_KINDS),
    offMinor: z.number().int().min(0).max(100_000_000).default(0),
    offBps: bps.default(0),
    validDays: z.number().int().min(1).max(366),
  })
  .refine(
    (v) =>
      v.kind === 'amount'
        ? v.offMinor > 0 && v.offMinor % 100 === 0 && v.offBps === 0
        : v.offBps > 0 && v.offMinor === 0,
    { message: 'parameterError', path: ['kind'] },
  );
export const adminCouponsReq = pageQuery.extend({ account: z.string().trim().max(32).optional() });
export const adminCouponSchema = couponSchema.extend({ account: z.string() });
export const adminCouponsRes = paged(adminCouponSchema);
