/**
 * Copy trading (跟單; product-spec "Follow orders": mentor list in three levels, mentor info,
 * following with an amount, follow records, rebates; states in progress, ended, rejected, under
 * review, cancelled).
 *
 * - A **mentor** is a member who applied and whom an operator approved (never their own
 *   application: four eyes). The application is accepted only when the member meets the criteria
 *   of docs/copy-trading.md (account age, closed trades, max drawdown), measured at application.
 * - A **follow** allocates an amount of the member's wallet to one mentor; the amount moves from
 *   `available` into the member's `follow` ledger account (the follow sub-account) and every
 *   order the mentor opens or closes while the follow runs is mirrored in whole lots.
 *
 * Units: money in TWD minor units (1 NT$ = 100), rates and percentages in basis points
 * (10,000 = 100 %), times in epoch ms, durations in ms, leverage × 100 (`avgLeverageX100`).
 */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { pageQuery, paged } from './envelope';

const minor = z.number().int();
const amountMinor = z.number().int().positive().max(100_000_000_000);

/** Mentor application states: under review → approved | rejected. */
export const MENTOR_STATUSES = ['review', 'approved', 'rejected'] as const;
export type MentorStatus = (typeof MENTOR_STATUSES)[number];

/** Mentor levels, from measured figures (docs/copy-trading.md "Levels"). */
export const MENTOR_LEVELS = ['junior', 'intermediate', 'senior'] as const;
export type MentorLevel = (typeof MENTOR_LEVELS)[number];
export const mentorLevelSchema = z.enum(MENTOR_LEVELS);

/**
 * Follow states. A follow starts `following` (the money is the member's own and the mentor is
 * already approved, so nobody reviews it); `review` is the spec's state, kept for a follow an
 * operator must look at and written by no flow yet. `ended`: stopped by the member or the deadline,
 * equity returned; `cancelled`: ended by an operator; `rejected`: refused by an operator.
 */
export const FOLLOW_STATUSES = ['review', 'following', 'ended', 'cancelled', 'rejected'] as const;
export type FollowStatus = (typeof FOLLOW_STATUSES)[number];

/** Why a follow ended: the member stopped it, its deadline passed, or an operator cancelled it. */
export const FOLLOW_END_REASONS = ['member', 'deadline', 'operator'] as const;
export type FollowEndReason = (typeof FOLLOW_END_REASONS)[number];

/** What happened to one mentor order for one follow. */
export const COPY_STATUSES = ['open', 'closed', 'skipped'] as const;
export type CopyStatus = (typeof COPY_STATUSES)[number];

/**
 * Why a copy was skipped (not copied) or closed.
 * Skips: zeroLots (floor(mentor lots × allocation ÷ mentor equity) = 0), margin (the follow's cash
 * cannot pay the copy), refused (the trading engine refused it: session, price, …; the refusal's
 * error key is kept with the record), paused (the follow was paused), mentorClosedFirst (the
 * mentor closed the order before a pass could copy it).
 * Closes, each from the copy's order's own close reason (contract/trading.ts CLOSE_REASONS):
 * mentorClosed (the mentor closed the order it copies), stopLoss (the follow's copy stop-loss),
 * followStopped (the follow ended: stopped, deadline or cancelled by an operator), follower (the
 * member closed it by hand), liquidation (the risk monitor's forced close of the follow's pool),
 * dayTradeClose (the day-trade close at the closing call).
 */
export const COPY_REASONS = [
  'zeroLots',
  'margin',
  'refused',
  'paused',
  'mentorClosed',
  'stopLoss',
  'followStopped',
  'mentorClosedFirst',
  'follower',
  'liquidation',
  'dayTradeClose',
] as const;
/** The reasons a mentor order was not copied (follow_copies status `skipped`). */
export const SKIP_REASONS = ['zeroLots', 'margin', 'refused', 'paused', 'mentorClosedFirst'] as const;
export type CopyReason = (typeof COPY_REASONS)[number];

/** Copy stop-loss per follow: default 40 %, between 5 % and 95 % (bps). */
export const COPY_STOP_LOSS_DEFAULT_BPS = 4_000;
export const COPY_STOP_LOSS_MIN_BPS = 500;
export const COPY_STOP_LOSS_MAX_BPS = 9_500;

/** A mentor's figures, all computed from the ledger and orders (server/modules/copy-trading/stats.ts). */
export const mentorStatsSchema = z.object({
  /** Followers' allocated amounts of the running follows. */
  fundScaleMinor: minor,
  /** Net realised P&L (gross − fees − taxes) of every closed order. */
  totalProfitMinor: minor,
  /** Net realised P&L of orders closed on the previous Taipei calendar day. */
  yesterdayProfitMinor: minor,
  /** yesterdayProfit ÷ equity now, bps (truncated toward zero). */
  dailyReturnBps: z.number().int(),
  /** Closed orders with a positive net P&L ÷ closed orders, bps (0 with none). */
  winRateBps: z.number().int(),
  /** Gross realised P&L of every closed order (before fees and taxes). */
  historicalProfitMinor: minor,
  closedTrades: z.number().int(),
  /** Mean of closedAt − openedAt over closed orders, ms (0 with none). */
  avgHoldingMs: z.number().int(),
  /** Largest fall of the realised-equity curve from a peak, bps of the peak. */
  maxDrawdownBps: z.number().int(),
  /** Mean leverage of filled orders × 100 (250 = 2.5×; 0 with none). */
  avgLeverageX100: z.number().int(),
  /** Days since the first filled order (track-record length). */
  trackDays: z.number().int(),
  /** available + frozen + margin − debt now. */
  equityMinor: minor,
});
export type MentorStats = z.infer<typeof mentorStatsSchema>;

/** A mentor as any member sees it: no user id, nothing of the account (a mobile number). */
export const mentorSchema = z.object({
  id: z.number().int(),
  /** A handle from the mentor number (M0007), never from the account. */
  nickname: z.string(),
  status: z.enum(MENTOR_STATUSES),
  level: mentorLevelSchema,
  minFollowMinor: minor,
  profitShareBps: z.number().int(),
  stats: mentorStatsSchema,
  reason: z.string().nullable(),
  createdAt: z.number().int(),
  reviewedAt: z.number().int().nullable(),
});
export type Mentor = z.infer<typeof mentorSchema>;

/** mentor/status: the caller's own application (null when none) and the criteria. */
export const mentorCriteriaSchema = z.object({
  minAccountDays: z.number().int(),
  minClosedTrades: z.number().int(),
  maxDrawdownBps: z.number().int(),
  accountDays: z.number().int(),
  closedTrades: z.number().int(),
  drawdownBps: z.number().int(),
  eligible: z.boolean(),
});
export const mentorStatusRes = z.object({
  mentor: mentorSchema.nullable(),
  criteria: mentorCriteriaSchema,
});

export const mentorListReq = pageQuery.extend({ level: mentorLevelSchema.optional() });
export const mentorListRes = paged(mentorSchema);
export const mentorIdReq = z.object({ mentorId: id });

export const followSchema = z.object({
  id: z.number().int(),
  mentorId: z.number().int(),
  mentorNickname: z.string(),
  status: z.enum(FOLLOW_STATUSES),
  paused: z.boolean(),
  /** Amount allocated when following. */
  amountMinor: minor,
  /** Cash of the follow sub-account not held by copies. */
  cashMinor: minor,
  /**
   * High-water mark: the highest realised level (amount + realised) on which the mentor's profit
   * share was settled; starts at the amount (docs/copy-trading.md "Profit share").
   */
  highWaterMinor: minor,
  /**
   * Realised P&L of the follow's closed copies so far, before the profit share: each copy's
   * proceeds less what it cost the follow, with its dividends and borrow fees.
   */
  realisedMinor: minor,
  stopLossBps: z.number().int(),
  deadlineAt: z.number().int(),
  /** Returned to the wallet when it ended (null while running). */
  returnedMinor: minor.nullable(),
  /** Profit share paid to the mentor so far (settled at each copy's close). */
  profitShareMinor: minor,
  endReason: z.enum(FOLLOW_END_REASONS).nullable(),
  createdAt: z.number().int(),
  endedAt: z.number().int().nullable(),
});
export type Follow = z.infer<typeof followSchema>;

export const followReq = z.object({
  mentorId: id,
  amountMinor,
  /** Follow duration in whole days (the deadline = now + days). */
  days: z.number().int().min(1).max(365),
  stopLossBps: z
    .number()
    .int()
    .min(COPY_STOP_LOSS_MIN_BPS)
    .max(COPY_STOP_LOSS_MAX_BPS)
    .default(COPY_STOP_LOSS_DEFAULT_BPS),
});
export const followIdReq = z.object({ followId: id });
export const followListReq = pageQuery;
export const followListRes = paged(followSchema);

/** One mirrored (or skipped) mentor order of a follow: the follow record. */
export const copySchema = z.object({
  id: z.number().int(),
  followId: z.number().int(),
  mentorOrderId: z.number().int(),
  /** The follower's order (null when skipped). */
  orderId: z.number().int().nullable(),
  symbol: z.string(),
  side: z.string(),
  mentorLots: z.number().int(),
  lots: z.number().int(),
  /** Mentor equity the lots were computed with. */
  mentorEquityMinor: minor,
  allocationMinor: minor,
  status: z.enum(COPY_STATUSES),
  reason: z.enum(COPY_REASONS).nullable(),
  /** A `refused` skip: the engine's refusal (an error key of contract/errors.ts); else null. */
  refusal: z.string().nullable(),
  /** Dividends and borrow fees of the copy moved through the follow's cash (+ received). */
  cashFlowMinor: minor,
  /** A closed copy's realised P&L for the follow (proceeds − cost + cash flows); else null. */
  pnlMinor: minor.nullable(),
  /** The mentor's profit share settled at this copy's close (null until closed). */
  profitShareMinor: minor.nullable(),
  createdAt: z.number().int(),
  closedAt: z.number().int().nullable(),
});
export type Copy = z.infer<typeof copySchema>;
/** follow/records: one follow's records, or (no followId) the records of all the member's follows. */
export const followRecordsReq = pageQuery.extend({ followId: id.optional() });
export const followRecordsRes = paged(copySchema);

/** Days of the mentor's orders mentor/minFollow looks back over (by opening time). */
export const MIN_FOLLOW_WINDOW_DAYS = 30;
/** At most this many of the mentor's latest orders in that window. */
export const MIN_FOLLOW_MAX_ORDERS = 50;

/**
 * One of the mentor's recent orders and the smallest follow amount that would have copied it:
 * the copy has floor(lots × amount ÷ mentor equity) lots (docs/copy-trading.md "Mirroring"), so
 * it needs amount ≥ ⌈mentor equity ÷ lots⌉ for one lot.
 */
export const minFollowOrderSchema = z.object({
  orderId: z.number().int(),
  symbol: z.string(),
  side: z.string(),
  lots: z.number().int(),
  leverage: z.number().int(),
  openedAt: z.number().int(),
  /** The mentor's equity (available + frozen + margin − debt) right after it opened, from the ledger. */
  mentorEquityMinor: minor,
  /** ⌈equity ÷ lots⌉: the smallest amount copying one lot (null when the equity is not positive). */
  minAmountMinor: minor.nullable(),
});
export const minFollowRes = z.object({
  windowDays: z.number().int(),
  /** The mentor's own minimum follow amount. */
  mentorMinFollowMinor: minor,
  /**
   * The smallest amount (at least the mentor's minimum) that would have copied every listed
   * order; null when none is listed or one could not be copied at any amount.
   */
  coversAllMinor: minor.nullable(),
  /** Newest first. */
  orders: z.array(minFollowOrderSchema),
});
export type MinFollow = z.infer<typeof minFollowRes>;

/**
 * follow/copyOrders: which of the given orders of the member are copies (copy trading), for the
 * positions' "copy" tag; each with its follow and the mentor's nickname.
 */
export const copyOrdersReq = z.object({ orderIds: z.array(id).max(200) });
export const copyOrdersRes = z.object({
  copies: z.array(
    z.object({ orderId: z.number().int(), followId: z.number().int(), mentorNickname: z.string() }),
  ),
});
export type CopyOrders = z.infer<typeof copyOrdersRes>;

// ---- operator ----
export const adminMentorsReq = pageQuery.extend({ status: z.enum(['review', 'all']).default('review') });
/** A mentor as the operator sees it: with the member's account. */
export const adminMentorSchema = mentorSchema.extend({ userId: z.number().int(), account: z.string() });
export type AdminMentor = z.infer<typeof adminMentorSchema>;
export const adminMentorsRes = paged(adminMentorSchema);
export const mentorReviewReq = z.object({ id });
export const mentorRejectReq = mentorReviewReq.extend({ reason: z.string().trim().min(1).max(200) });
export const mentorSettingsReq = z.object({
  id,
  minFollowMinor: amountMinor,
  profitShareBps: z.number().int().min(0).max(5_000),
});

/** admin/follows: every follow (optionally one mentor's), newest first, with the member's account. */
export const adminFollowsReq = pageQuery.extend({ mentorId: id.optional() });
export const adminFollowSchema = followSchema.extend({ userId: z.number().int(), account: z.string() });
export const adminFollowsRes = paged(adminFollowSchema);
/** admin/cancelFollow: an operator ends a follow (state cancelled), equity returned as on a stop. */
export const adminCancelFollowReq = z.object({ id, reason: z.string().trim().min(1).max(200) });
/** admin/followRecords: one follow's records. */
export const adminFollowRecordsReq = pageQuery.extend({ id });
