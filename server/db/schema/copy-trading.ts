/**
 * Schema of the copy-trading area (server/modules/copy-trading): `mentors` (applications and
 * approved mentors), the members' `follows` and `follow_copies` (a mentor order as mirrored or
 * skipped for one follow).
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  COPY_REASONS,
  COPY_STATUSES,
  FOLLOW_END_REASONS,
  FOLLOW_STATUSES,
  MENTOR_STATUSES,
} from '../../../contract/copy-trading';
import { ORDER_SIDES } from '../../../contract/trading';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';
import { orders } from './trading';

/**
 * Mentor applications and approved mentors (contract/copy-trading.ts). One open (review or
 * approved) row per member (mentors_one_open_uq). The operator sets the minimum follow amount and
 * the profit share per mentor.
 */
export const mentors = pgTable(
  'mentors',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/copy-trading.ts MENTOR_STATUSES */
    status: text('status', { enum: MENTOR_STATUSES }).notNull().default('review'),
    /** Smallest amount a member may follow this mentor with (TWD minor). */
    minFollowMinor: money('min_follow_minor').notNull(),
    /** The mentor's share of a follow's profit above its high-water mark (bps). */
    profitShareBps: integer('profit_share_bps').notNull(),
    reason: text('reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('mentors_status_check', oneOf(t.status, MENTOR_STATUSES)),
    check('mentors_profit_share_range', sql`${t.profitShareBps} between 0 and 10000`),
    check('mentors_min_follow_positive', sql`${t.minFollowMinor} > 0`),
    uniqueIndex('mentors_one_open_uq')
      .on(t.userId)
      .where(sql`${t.status} in ('review', 'approved')`),
  ],
);

/**
 * A member following a mentor: the allocated amount sits in the member's `follow` ledger account
 * (this follow's part: cash_minor; copies' margin is in the member's margin account).
 */
export const follows = pgTable(
  'follows',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    mentorId: integer('mentor_id')
      .notNull()
      .references(() => mentors.id),
    /** contract/copy-trading.ts FOLLOW_STATUSES */
    status: text('status', { enum: FOLLOW_STATUSES }).notNull(),
    paused: boolean('paused').notNull().default(false),
    amountMinor: money('amount_minor').notNull(),
    cashMinor: money('cash_minor').notNull(),
    /** amount + the highest realised P&L on which the profit share was settled. */
    highWaterMinor: money('high_water_minor').notNull(),
    /** Realised P&L of the closed copies (before the profit share); server/modules/copy-trading/settlement.ts. */
    realisedMinor: money('realised_minor').notNull().default(0),
    stopLossBps: integer('stop_loss_bps').notNull(),
    /** The last orders.id when the follow started: mentor orders with a greater id are copied. */
    sinceOrderId: integer('since_order_id').notNull(),
    deadlineAt: timestamp('deadline_at', { withTimezone: true }).notNull(),
    returnedMinor: money('returned_minor'),
    /** Profit share paid to the mentor so far (at each copy's close). */
    profitShareMinor: money('profit_share_minor').notNull().default(0),
    /** contract/copy-trading.ts FOLLOW_END_REASONS */
    endReason: text('end_reason', { enum: FOLLOW_END_REASONS }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('follows_user_idx').on(t.userId, t.id),
    index('follows_mentor_status_idx').on(t.mentorId, t.status),
    check('follows_status_check', oneOf(t.status, FOLLOW_STATUSES)),
    check('follows_end_reason_check', oneOf(t.endReason, FOLLOW_END_REASONS)),
    check('follows_cash_non_negative', sql`${t.cashMinor} >= 0`),
    check('follows_stop_loss_range', sql`${t.stopLossBps} between 500 and 9500`),
  ],
);

/** One mentor order as mirrored (or skipped) for one follow; unique per (mentor order, follow). */
export const followCopies = pgTable(
  'follow_copies',
  {
    id: serial('id').primaryKey(),
    followId: integer('follow_id')
      .notNull()
      .references(() => follows.id),
    mentorOrderId: integer('mentor_order_id')
      .notNull()
      .references(() => orders.id),
    /** The follower's order; null when skipped. */
    orderId: integer('order_id').references(() => orders.id),
    symbol: text('symbol').notNull(),
    /** contract/trading.ts ORDER_SIDES */
    side: text('side', { enum: ORDER_SIDES }).notNull(),
    mentorLots: integer('mentor_lots').notNull(),
    lots: integer('lots').notNull(),
    mentorEquityMinor: money('mentor_equity_minor').notNull(),
    allocationMinor: money('allocation_minor').notNull(),
    /** contract/copy-trading.ts COPY_STATUSES */
    status: text('status', { enum: COPY_STATUSES }).notNull(),
    /** contract/copy-trading.ts COPY_REASONS */
    reason: text('reason', { enum: COPY_REASONS }),
    /** A `refused` skip: the engine's refusal (contract/errors.ts key). */
    refusal: text('refusal'),
    /** Σ dividends and borrow fees of the copy moved through the follow's cash (+ received). */
    cashFlowMinor: money('cash_flow_minor').notNull().default(0),
    /** Realised P&L for the follow at its close: proceeds − cost + cash flows. */
    pnlMinor: money('pnl_minor'),
    /** The mentor's profit share settled at its close. */
    profitShareMinor: money('profit_share_minor'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('follow_copies_mentor_order_follow_uq').on(t.mentorOrderId, t.followId),
    index('follow_copies_follow_idx').on(t.followId, t.id),
    // Every close looks its order up here (settlement.ts settleCopyClose).
    index('follow_copies_order_idx').on(t.orderId),
    check('follow_copies_status_check', oneOf(t.status, COPY_STATUSES)),
    check('follow_copies_side_check', oneOf(t.side, ORDER_SIDES)),
    check('follow_copies_reason_check', oneOf(t.reason, COPY_REASONS)),
  ],
);
