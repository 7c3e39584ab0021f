/**
 * Schema of the funds area (server/modules/funds): money in and out, `deposits` through
 * operator-managed `deposit_channels`, and `withdrawals` to a member's bank card.
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
import { DEPOSIT_STATUSES, WITHDRAWAL_STATUSES } from '../../../contract/funds';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';
import { bankCards, uploads } from './identity';

export const deposits = pgTable(
  'deposits',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    amountMinor: money('amount_minor').notNull(),
    currency: text('currency').notNull().default('TWD'),
    /** The operator's channel the member transferred to (null only for rows before channels). */
    channelId: integer('channel_id').references(() => depositChannels.id),
    /** The transfer receipt (an upload with purpose 'receipt'). */
    receiptUploadId: text('receipt_upload_id').references(() => uploads.id),
    /** contract/funds.ts DEPOSIT_STATUSES */
    status: text('status', { enum: DEPOSIT_STATUSES }).notNull().default('pending'),
    reason: text('reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
    /**
     * The receipt's picture hash (uploads.pixels_sha256; received_sha256 for a receipt stored
     * before migration 0033), copied at the request: one live deposit per member and picture, and
     * the console flags other members' deposits with the same one. Null only for rows that
     * predate it.
     */
    receiptSha256: text('receipt_sha256'),
    /** The receipt's perceptual hash (uploads.phash): near matches for the reviewer. */
    receiptPhash: text('receipt_phash'),
  },
  (t) => [
    check('deposits_status_check', oneOf(t.status, DEPOSIT_STATUSES)),
    check(
      'deposits_receipt_phash_check',
      sql`${t.receiptPhash} IS NULL OR ${t.receiptPhash} ~ '^[0-9a-f]{64}$'`,
    ),
    index('deposits_status_idx').on(t.status, t.id),
    index('deposits_user_idx').on(t.userId, t.id),
    // The same receipt content proves one live deposit per member (a rejected one credited nothing).
    uniqueIndex('deposits_member_receipt_uq')
      .on(t.userId, t.receiptSha256)
      .where(sql`${t.status} <> 'rejected'`),
    index('deposits_receipt_sha256_idx').on(t.receiptSha256),
    // A transfer receipt proves one deposit only.
    uniqueIndex('deposits_receipt_uq').on(t.receiptUploadId),
  ],
);

/** Deposit channels managed by operators: where members transfer money to. */
export const depositChannels = pgTable('deposit_channels', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  accountName: text('account_name').notNull(),
  accountNumber: text('account_number').notNull(),
  bankName: text('bank_name').notNull(),
  branch: text('branch').notNull(),
  currency: text('currency').notNull().default('TWD'),
  minMinor: money('min_minor').notNull(),
  maxMinor: money('max_minor').notNull(),
  /** scrypt hash of the optional channel password; null = none. */
  passwordHash: text('password_hash'),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
});

/** Withdrawal requests: pending → approved (paid out) | rejected (returned). */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    cardId: integer('card_id')
      .notNull()
      .references(() => bankCards.id),
    amountMinor: money('amount_minor').notNull(),
    currency: text('currency').notNull().default('TWD'),
    /** contract/funds.ts WITHDRAWAL_STATUSES */
    status: text('status', { enum: WITHDRAWAL_STATUSES }).notNull().default('pending'),
    reason: text('reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('withdrawals_status_check', oneOf(t.status, WITHDRAWAL_STATUSES)),
    index('withdrawals_status_idx').on(t.status, t.id),
    index('withdrawals_user_idx').on(t.userId, t.id),
    // One fund operation in progress at a time: at most one pending withdrawal per user.
    uniqueIndex('withdrawals_one_pending_uq')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
  ],
);
