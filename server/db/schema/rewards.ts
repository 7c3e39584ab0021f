/**
 * Schema of the rewards area (server/modules/rewards, docs/levels.md): points
 * (`points_accounts`, `points_entries`), points codes (`points_code_batches`, `points_codes`),
 * daily `sign_ins`, `account_levels` and `fee_coupons`.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import {
  COUPON_KINDS,
  COUPON_SOURCES,
  COUPON_STATUSES,
  POINTS_CODE_KINDS,
  POINTS_REASONS,
} from '../../../contract/rewards';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';

/** A member's points balance (never negative): the sum of their points_entries, kept in step. */
export const pointsAccounts = pgTable(
  'points_accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('points_accounts_non_negative', sql`${t.balance} >= 0`)],
);

/** The points journal: every change of a member's points with its reason and reference. */
export const pointsEntries = pgTable(
  'points_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Signed points. */
    delta: bigint('delta', { mode: 'number' }).notNull(),
    /** contract/rewards.ts POINTS_REASONS */
    reason: text('reason', { enum: POINTS_REASONS }).notNull(),
    refId: text('ref_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('points_entries_user_idx').on(t.userId, t.id),
    check('points_entries_reason_check', oneOf(t.reason, POINTS_REASONS)),
  ],
);

/** A batch of points codes issued by an operator. */
export const pointsCodeBatches = pgTable(
  'points_code_batches',
  {
    id: serial('id').primaryKey(),
    /** contract/rewards.ts POINTS_CODE_KINDS */
    kind: text('kind', { enum: POINTS_CODE_KINDS }).notNull(),
    /** Points per code, or TWD minor per code (cash). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
    perMemberLimit: integer('per_member_limit').notNull(),
    note: text('note').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('points_code_batches_kind_check', oneOf(t.kind, POINTS_CODE_KINDS)),
    check(
      'points_code_batches_positive',
      sql`${t.amount} > 0 and ${t.count} > 0 and ${t.perMemberLimit} > 0`,
    ),
  ],
);

/** One code: stored as sha256 of its normalised text (never in clear); redeemed once. */
export const pointsCodes = pgTable(
  'points_codes',
  {
    id: serial('id').primaryKey(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => pointsCodeBatches.id),
    codeSha256: text('code_sha256').notNull().unique(),
    /** The code's last four characters, for the operator's export. */
    hint: text('hint').notNull(),
    redeemedBy: integer('redeemed_by').references(() => users.id),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
  },
  (t) => [index('points_codes_batch_idx').on(t.batchId, t.redeemedBy)],
);

/** Daily sign-ins: one per member and Asia/Taipei calendar day (the primary key). */
export const signIns = pgTable(
  'sign_ins',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    day: date('day', { mode: 'string' }).notNull(),
    points: integer('points').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** The account-level table (operator-configurable; level 0 always exists). */
export const accountLevels = pgTable(
  'account_levels',
  {
    level: integer('level').primaryKey(),
    name: text('name').notNull(),
    minAssetsMinor: money('min_assets_minor').notNull().default(0),
    minVolume30dMinor: money('min_volume_30d_minor').notNull().default(0),
    feeDiscountBps: integer('fee_discount_bps').notNull().default(0),
  },
  (t) => [check('account_levels_discount_range', sql`${t.feeDiscountBps} between 0 and 10000`)],
);

/** Fee coupons: granted or bought with points; used by exactly one order (status moves once). */
export const feeCoupons = pgTable(
  'fee_coupons',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/rewards.ts COUPON_KINDS */
    kind: text('kind', { enum: COUPON_KINDS }).notNull(),
    offMinor: money('off_minor').notNull().default(0),
    offBps: integer('off_bps').notNull().default(0),
    /** contract/rewards.ts COUPON_SOURCES */
    source: text('source', { enum: COUPON_SOURCES }).notNull(),
    /** contract/rewards.ts COUPON_STATUSES */
    status: text('status', { enum: COUPON_STATUSES }).notNull().default('available'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    orderNo: text('order_no'),
    usedAt: timestamp('used_at', { withTimezone: true }),
    grantedBy: integer('granted_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('fee_coupons_user_idx').on(t.userId, t.status, t.id),
    check('fee_coupons_kind_check', oneOf(t.kind, COUPON_KINDS)),
    check('fee_coupons_source_check', oneOf(t.source, COUPON_SOURCES)),
    check('fee_coupons_status_check', oneOf(t.status, COUPON_STATUSES)),
    check(
      'fee_coupons_terms',
      sql`${t.offMinor} >= 0 and ${t.offBps} between 0 and 10000 and (${t.offMinor} > 0) <> (${t.offBps} > 0)`,
    ),
  ],
);
