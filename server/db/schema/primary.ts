/**
 * Schema of the primary area (server/modules/primary, contract/primary.ts): the operator-managed
 * primary market, `primary_offerings` (auctions, block trades, placements), `auction_bids`,
 * `primary_applications` (block trades and placements) and `block_trade_passwords`.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import {
  AUCTION_BID_STATUSES,
  PRIMARY_APPLICATION_STATUSES,
  PRIMARY_KINDS,
  PRIMARY_STAGES,
} from '../../../contract/primary';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';
import { instruments } from './market';
import { orders } from './trading';

/**
 * Auctions, block trades and placements an operator offers on an instrument. Days are market-clock
 * session numbers: `start_day` … `end_day` take bids or applications (an auction: three days),
 * `listing_day` delivers the shares. `price_minor` is the auction's minimum price or the fixed
 * price of the others; `seed` orders the auction's ties (HMAC-SHA256(seed, bid number)) and its
 * sha256 `commitment` is published from creation.
 */
export const primaryOfferings = pgTable(
  'primary_offerings',
  {
    id: serial('id').primaryKey(),
    /** contract/primary.ts PRIMARY_KINDS */
    kind: text('kind', { enum: PRIMARY_KINDS }).notNull(),
    symbol: text('symbol')
      .notNull()
      .references(() => instruments.symbol),
    name: text('name').notNull(),
    priceMinor: money('price_minor').notNull(),
    lots: integer('lots').notNull(),
    depositBps: integer('deposit_bps').notNull().default(0),
    capBps: integer('cap_bps').notNull().default(1000),
    startDay: integer('start_day').notNull(),
    endDay: integer('end_day').notNull(),
    listingDay: integer('listing_day').notNull(),
    /** contract/primary.ts PRIMARY_STAGES */
    stage: text('stage', { enum: PRIMARY_STAGES }).notNull().default('scheduled'),
    seed: text('seed').notNull(),
    commitment: text('commitment').notNull(),
    weightedAverageMinor: money('weighted_average_minor'),
    listingPriceMinor: money('listing_price_minor'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('primary_offerings_kind_start_idx').on(t.kind, t.startDay),
    check('primary_offerings_kind_check', oneOf(t.kind, PRIMARY_KINDS)),
    check('primary_offerings_stage_check', oneOf(t.stage, PRIMARY_STAGES)),
    check(
      'primary_offerings_amounts_positive',
      sql`${t.priceMinor} > 0 and ${t.lots} > 0 and ${t.depositBps} between 0 and 10000 and ${t.capBps} between 1 and 10000`,
    ),
    check(
      'primary_offerings_days_order',
      sql`${t.endDay} >= ${t.startDay} and ${t.listingDay} > ${t.endDay}`,
    ),
  ],
);

/** An auction bid with its frozen deposit (a member may bid several times; the cap is per member). */
export const auctionBids = pgTable(
  'auction_bids',
  {
    id: serial('id').primaryKey(),
    /** Published bid number (`A<offering>-<bid id>`, zero-padded): the tie order's message. */
    bidNo: text('bid_no').notNull().unique(),
    offeringId: integer('offering_id')
      .notNull()
      .references(() => primaryOfferings.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    priceMinor: money('price_minor').notNull(),
    lots: integer('lots').notNull(),
    depositMinor: money('deposit_minor').notNull(),
    lotsWon: integer('lots_won').notNull().default(0),
    balanceMinor: money('balance_minor').notNull().default(0),
    /** contract/primary.ts AUCTION_BID_STATUSES */
    status: text('status', { enum: AUCTION_BID_STATUSES }).notNull().default('bidding'),
    orderId: integer('order_id').references(() => orders.id),
    /** The bidder's verified ID number: the per-person cap sums over it (null on older rows). */
    idNumber: text('id_number'),
    createdAt: createdAt(),
  },
  (t) => [
    index('auction_bids_offering_idx').on(t.offeringId, t.id),
    index('auction_bids_person_idx').on(t.offeringId, t.idNumber),
    index('auction_bids_user_idx').on(t.userId, t.id),
    check('auction_bids_status_check', oneOf(t.status, AUCTION_BID_STATUSES)),
    check(
      'auction_bids_amounts',
      sql`${t.lots} > 0 and ${t.lotsWon} between 0 and ${t.lots} and ${t.depositMinor} >= 0 and ${t.balanceMinor} >= 0`,
    ),
  ],
);

/**
 * Block-trade and placement applications: the amount (price × lots × 1,000) held from apply until
 * an operator approves (a long holding without margin) or rejects (released) it.
 */
export const primaryApplications = pgTable(
  'primary_applications',
  {
    id: serial('id').primaryKey(),
    /** `B` (block trade) or `P` (placement), offering id and application id, zero-padded. */
    applicationNo: text('application_no').notNull().unique(),
    offeringId: integer('offering_id')
      .notNull()
      .references(() => primaryOfferings.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    priceMinor: money('price_minor').notNull(),
    lots: integer('lots').notNull(),
    amountMinor: money('amount_minor').notNull(),
    /** contract/primary.ts PRIMARY_APPLICATION_STATUSES */
    status: text('status', { enum: PRIMARY_APPLICATION_STATUSES }).notNull().default('pendingReview'),
    reason: text('reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    orderId: integer('order_id').references(() => orders.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('primary_applications_offering_idx').on(t.offeringId, t.id),
    index('primary_applications_user_idx').on(t.userId, t.id),
    index('primary_applications_status_idx').on(t.status, t.id),
    check('primary_applications_status_check', oneOf(t.status, PRIMARY_APPLICATION_STATUSES)),
    check(
      'primary_applications_amounts',
      sql`${t.lots} > 0 and ${t.priceMinor} > 0 and ${t.amountMinor} > 0`,
    ),
  ],
);

/** The block-trade password (argon2id hash, server/modules/auth/passwords.ts) and its wrong tries. */
export const blockTradePasswords = pgTable('block_trade_passwords', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  passwordHash: text('password_hash').notNull(),
  fails: integer('fails').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
