/**
 * Schema of the lending area (借券; server/modules/lending, contract/lending.ts): the operator's
 * `lending_channel`, per-instrument `lending_quotas`, the members' `lending_orders` and the
 * `lending_allocations` of lent shares to short positions.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import {
  LENDING_ALLOCATION_STATUSES,
  LENDING_FINISH_REASONS,
  LENDING_STATUSES,
} from '../../../contract/lending';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';
import { instruments } from './market';
import { orders } from './trading';

/** The operator's lending channel: open or closed, the rate cap (bps/yr) and the longest term (business days). One row. */
export const lendingChannel = pgTable(
  'lending_channel',
  {
    id: integer('id').primaryKey().default(1),
    open: boolean('open').notNull().default(true),
    rateCapBps: integer('rate_cap_bps').notNull().default(1600),
    maxDays: integer('max_days').notNull().default(120),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('lending_channel_one_row', sql`${t.id} = 1`),
    check('lending_channel_limits', sql`${t.rateCapBps} between 1 and 10000 and ${t.maxDays} > 0`),
  ],
);

/** Shares of an instrument that may be in loan at once (all members), and those in loan now. */
export const lendingQuotas = pgTable(
  'lending_quotas',
  {
    symbol: text('symbol')
      .primaryKey()
      .references(() => instruments.symbol),
    quotaShares: integer('quota_shares').notNull().default(0),
    lentShares: integer('lent_shares').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('lending_quotas_amounts', sql`${t.quotaShares} >= 0 and ${t.lentShares} >= 0`)],
);

/** A member's lending order: shares of one long position lent at a rate for a term of business days. */
export const lendingOrders = pgTable(
  'lending_orders',
  {
    id: serial('id').primaryKey(),
    /** `L` and the id, zero-padded. */
    lendingNo: text('lending_no').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The lent long position. */
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    symbol: text('symbol')
      .notNull()
      .references(() => instruments.symbol),
    shares: integer('shares').notNull(),
    rateBps: integer('rate_bps').notNull(),
    days: integer('days').notNull(),
    /** Market-clock business day the loan started; the term ends on start_day + days. */
    startDay: integer('start_day').notNull(),
    /** Business days whose fee was paid (days start_day … start_day + accrued_days − 1). */
    accruedDays: integer('accrued_days').notNull().default(0),
    rebateMinor: money('rebate_minor').notNull().default(0),
    /** contract/lending.ts LENDING_STATUSES */
    status: text('status', { enum: LENDING_STATUSES }).notNull().default('inLoan'),
    /** contract/lending.ts LENDING_FINISH_REASONS */
    finishReason: text('finish_reason', { enum: LENDING_FINISH_REASONS }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('lending_orders_user_idx').on(t.userId, t.id),
    index('lending_orders_order_idx')
      .on(t.orderId)
      .where(sql`${t.status} = 'inLoan'`),
    index('lending_orders_in_loan_idx')
      .on(t.symbol, t.id)
      .where(sql`${t.status} = 'inLoan'`),
    check('lending_orders_status_check', oneOf(t.status, LENDING_STATUSES)),
    check('lending_orders_finish_reason_check', oneOf(t.finishReason, LENDING_FINISH_REASONS)),
    check(
      'lending_orders_amounts',
      sql`${t.shares} > 0 and ${t.rateBps} > 0 and ${t.days} > 0 and ${t.accruedDays} between 0 and ${t.days} and ${t.rebateMinor} >= 0`,
    ),
  ],
);

/** Lent shares borrowed by a short position (from start_day until end_day), with the borrow fees it paid. */
export const lendingAllocations = pgTable(
  'lending_allocations',
  {
    id: serial('id').primaryKey(),
    lendingOrderId: integer('lending_order_id')
      .notNull()
      .references(() => lendingOrders.id),
    shortOrderId: integer('short_order_id')
      .notNull()
      .references(() => orders.id),
    /** The short seller. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    shares: integer('shares').notNull(),
    startDay: integer('start_day').notNull(),
    endDay: integer('end_day'),
    feeMinor: money('fee_minor').notNull().default(0),
    /** contract/lending.ts LENDING_ALLOCATION_STATUSES */
    status: text('status', { enum: LENDING_ALLOCATION_STATUSES }).notNull().default('open'),
    createdAt: createdAt(),
  },
  (t) => [
    index('lending_allocations_lending_idx')
      .on(t.lendingOrderId)
      .where(sql`${t.status} = 'open'`),
    index('lending_allocations_short_idx').on(t.shortOrderId),
    check('lending_allocations_status_check', oneOf(t.status, LENDING_ALLOCATION_STATUSES)),
    check('lending_allocations_amounts', sql`${t.shares} > 0 and ${t.feeMinor} >= 0`),
  ],
);
