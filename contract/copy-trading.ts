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
import { pageQuery, paged } from './envelope';

const minor = z.number().int();
const id = z.number().int().positive().max(2_147_483_647);
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
 * Why a copy was skipped or closed: zeroLots (floor(...) = 0), margin (the follow's cash cannot pay
 * the copy), refused (the trading engine refused it: session, price), paused (the follow was
 * paused), mentorClosed, stopLoss (the follow's copy stop-loss), followStopped (the follow ended),
 * closedElsewhere (the copy's position was closed outside copy trading: the risk monitor's
 * liquidation or the member by hand; its proceeds were swept back into the follow),
 * mentorClosedFirst (the mentor closed the order before a pass could copy it).
 */
export const COPY_REASONS = [
  'zeroLots',
  'margin',
  'refused',
  'paused',
  'mentorClosed',
  'stopLoss',
  'followStopped',
  'closedElsewhere',
  'mentorClosedFirst',
] as const;
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

export const mentorSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  /** The member's account, masked but for its last four digits. */
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
  /** Highest equity on which a profit share was settled (starts at the amount). */
  highWaterMinor: minor,
  stopLossBps: z.number().int(),
  deadlineAt: z.number().int(),
  /** Returned to the wallet when it ended (null while running). */
  returnedMinor: minor.nullable(),
  /** Profit share paid to the mentor when it ended. */
  profitShareMinor: minor.nullable(),
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
  createdAt: z.number().int(),
});
export type Copy = z.infer<typeof copySchema>;
export const followRecordsReq = pageQuery.extend({ followId: id });
export const followRecordsRes = paged(copySchema);

// ---- operator ----
export const adminMentorsReq = pageQuery.extend({ status: z.enum(['review', 'all']).default('review') });
/** A mentor as the operator sees it: with the member's account. */
export const adminMentorSchema = mentorSchema.extend({ account: z.string() });
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
