/**
 * Schema of the identity area (server/modules/identity): `user_security` (the funds
 * password), `uploads` (ID photos, transfer receipts and other files), `kyc_records` (real-name
 * verification) and `bank_cards`.
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
import { KYC_RECORD_STATUSES, UPLOAD_PURPOSES } from '../../../contract/constants';
import { createdAt, oneOf } from './columns';
import { users } from './auth';

/** Member security settings: the funds password (hash) and its failed-try counter. */
export const userSecurity = pgTable('user_security', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  fundsPasswordHash: text('funds_password_hash'),
  /** Consecutive wrong funds passwords; withdrawals lock at FUNDS_PASSWORD_MAX_TRIES. */
  fundsPasswordFails: integer('funds_password_fails').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An uploaded file (ID photo, transfer receipt). Stored under DATA_DIR/uploads/<sha-named file>,
 * never under a public path; served only to its owner and to operators.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/constants.ts UPLOAD_PURPOSES */
    purpose: text('purpose', { enum: UPLOAD_PURPOSES }).notNull(),
    /** Detected from the content and re-encoded: image/jpeg | image/png | image/webp */
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
    /**
     * sha256 (hex) of the bytes as the member sent them, before any re-encoding: what receipts
     * are matched by (the same file sent twice has the same hash whatever is stored).
     */
    receivedSha256: text('received_sha256').notNull(),
    /**
     * Receipts only (null otherwise and before migration 0033): sha256 of the decoded pixels and
     * the 256-bit perceptual hash (server/modules/identity/receipt-fingerprint.ts).
     */
    pixelsSha256: text('pixels_sha256'),
    phash: text('phash'),
  },
  (t) => [
    index('uploads_user_idx').on(t.userId),
    check('uploads_purpose_check', oneOf(t.purpose, UPLOAD_PURPOSES)),
    check('uploads_phash_check', sql`${t.phash} IS NULL OR ${t.phash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** Real-name verification submissions; the newest row per user is the user's KYC status. */
export const kycRecords = pgTable(
  'kyc_records',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    idNumber: text('id_number').notNull(),
    frontUploadId: text('front_upload_id')
      .notNull()
      .references(() => uploads.id),
    backUploadId: text('back_upload_id')
      .notNull()
      .references(() => uploads.id),
    /** contract/constants.ts KYC_RECORD_STATUSES */
    status: text('status', { enum: KYC_RECORD_STATUSES }).notNull().default('review'),
    reason: text('reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('kyc_user_idx').on(t.userId, t.id),
    index('kyc_status_idx').on(t.status, t.id),
    check('kyc_records_status_check', oneOf(t.status, KYC_RECORD_STATUSES)),
    // One verified identity per ID number across users.
    uniqueIndex('kyc_verified_id_uq')
      .on(t.idNumber)
      .where(sql`${t.status} = 'verified'`),
  ],
);

/**
 * A member's bank card (product-spec §3 "Bank card"); deleted cards are kept with deletedAt.
 * A Taiwan account carries its bank code and branch code, an account outside Taiwan its UPI /
 * IFSC (contract/identity.ts addBankCardReq; docs/adr/0039-bank-cards-taiwan-codes.md).
 */
export const bankCards = pgTable(
  'bank_cards',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    holderName: text('holder_name').notNull(),
    cardNumber: text('card_number').notNull(),
    /** An account at a bank outside Taiwan (identified by `upi`, no bank or branch code). */
    outsideTaiwan: boolean('outside_taiwan').notNull().default(false),
    /**
     * The 3-digit FISC bank code (contract/banks.ts). Null outside Taiwan, and on a card bound
     * before it was asked for whose branch code did not carry it (migration 0022).
     */
    bankCode: text('bank_code'),
    bankName: text('bank_name').notNull(),
    branchName: text('branch_name').notNull(),
    /** The 4-digit branch code (分行代號); null outside Taiwan. Older cards: 3–7 digits as typed. */
    branchCode: text('branch_code'),
    /** The spec's "UPI (also labelled IFSC)" field: accounts outside Taiwan (older cards: any). */
    upi: text('upi'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('bank_cards_user_idx').on(t.userId),
    check('bank_cards_bank_code_check', sql`${t.bankCode} ~ '^[0-9]{3}$'`),
    check('bank_cards_outside_taiwan_upi_check', sql`not ${t.outsideTaiwan} or ${t.upi} is not null`),
    // A card number is live on at most one account.
    uniqueIndex('bank_cards_number_live_uq')
      .on(t.cardNumber)
      .where(sql`${t.deletedAt} is null`),
  ],
);
