/**
 * Database schema (Drizzle, PostgreSQL dialect; runs on PGlite embedded and on a PostgreSQL server).
 * Money columns are bigint minor units (TWD: 1 NT$ = 100); quantities in shares; times timestamptz.
 * Migrations are generated from this file by drizzle-kit into server/db/migrations.
 *
 * State columns (a status, state, kind, role, side...) are typed with the value list their contract
 * module exports (`text(name, { enum })`) and carry a CHECK constraint naming the same values
 * (`<table>_<column>_check`, migration 0009), so neither the code nor a hand-written SQL statement
 * can store a state the contract does not know. tests/integration/state-enums.test.ts compares
 * each constraint with its list.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { PASSWORD_RESET_STATUSES, ROLES } from '../../contract/auth';
import { IDEMPOTENCY_STATES, KYC_RECORD_STATUSES, UPLOAD_PURPOSES } from '../../contract/constants';
import {
  COPY_REASONS,
  COPY_STATUSES,
  FOLLOW_END_REASONS,
  FOLLOW_STATUSES,
  MENTOR_STATUSES,
} from '../../contract/copy-trading';
import {
  CORPORATE_ACTION_KINDS,
  CORPORATE_ACTION_OUTCOMES,
  CORPORATE_ACTION_TARGETS,
} from '../../contract/corporate-actions';
import { CREDIT_LOAN_STATUSES } from '../../contract/credit';
import { DAY_TRADE_APP_STATUSES, DAY_TRADE_GRANTS } from '../../contract/day-trading';
import { DEPOSIT_STATUSES, WITHDRAWAL_STATUSES } from '../../contract/funds';
import { IPO_APPLICATION_STATUSES, IPO_PRICINGS, IPO_STAGES } from '../../contract/ipo';
import {
  LENDING_ALLOCATION_STATUSES,
  LENDING_FINISH_REASONS,
  LENDING_STATUSES,
} from '../../contract/lending';
import {
  AUCTION_BID_STATUSES,
  PRIMARY_APPLICATION_STATUSES,
  PRIMARY_KINDS,
  PRIMARY_STAGES,
} from '../../contract/primary';
import { INSTRUMENT_KINDS, MARKETS, SECURITY_TYPES } from '../../contract/market';
import { NEWS_KINDS, NEWS_STATUSES } from '../../contract/news';
import { TIME_IN_FORCE } from '../../contract/market-rules';
import {
  COUPON_KINDS,
  COUPON_SOURCES,
  COUPON_STATUSES,
  POINTS_CODE_KINDS,
  POINTS_REASONS,
} from '../../contract/rewards';
import { ACCOUNT_NOTICE_KINDS } from '../../contract/notices';
import { RISK_EVENT_KINDS } from '../../contract/risk-api';
import { SUPPORT_SENDERS, SUPPORT_STATUSES } from '../../contract/support';
import {
  CLOSE_REASONS,
  ENTRY_SESSIONS,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
} from '../../contract/trading';

const money = (name: string) => bigint(name, { mode: 'number' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * `column IN ('a', 'b', …)` for a CHECK constraint. The values are the contract's identifiers,
 * asserted plain (letters only) because they are spliced into the SQL text.
 */
function oneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  for (const v of values) if (!/^[A-Za-z]+$/.test(v)) throw new Error(`state value not an identifier: ${v}`);
  return sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;
}

// ---------- users and sessions ----------

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Login account: a ten-digit mobile number for members (product-spec §5). */
    account: text('account').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    /** contract/auth.ts ROLES: roles live here, never in a request header. */
    role: text('role', { enum: ROLES }).notNull().default('member'),
    inviteCode: text('invite_code'),
    disabled: boolean('disabled').notNull().default(false),
    frozen: boolean('frozen').notNull().default(false),
    loginBanned: boolean('login_banned').notNull().default(false),
    withdrawBanned: boolean('withdraw_banned').notNull().default(false),
    tradeBanned: boolean('trade_banned').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [check('users_role_check', oneOf(t.role, ROLES))],
);

/**
 * Invitation codes (migration 0006): registration consumes one use of a code that is neither
 * expired, used up nor disabled (server/modules/auth/invitations.ts).
 */
export const invitationCodes = pgTable(
  'invitation_codes',
  {
    code: text('code').primaryKey(),
    /** The owner: the operator or member who issued the code. */
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    /** Registrations the code allows in all. */
    maxUses: integer('max_uses').notNull().default(1),
    /** Registrations made with it so far (never above maxUses). */
    uses: integer('uses').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when an operator disabled the code; it refuses registrations from then on. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'invitation_codes_uses_check',
      sql`${t.uses} >= 0 AND ${t.maxUses} > 0 AND ${t.uses} <= ${t.maxUses}`,
    ),
    index('invitation_codes_created_by_idx').on(t.createdBy),
  ],
);

/**
 * Login and registration throttling counters: the store of rate-limiter-flexible's
 * RateLimiterDrizzle (server/modules/auth/throttle.ts), one row per limiter key.
 */
export const authThrottle = pgTable(
  'auth_throttle',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull(),
    expire: timestamp('expire', { withTimezone: true }),
  },
  (t) => [index('auth_throttle_expire_idx').on(t.expire)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** sha256 of the random token; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    /** Last request on the session (written at most once a minute): the idle timeout's start. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Devices a user logged in from: sha256 of the token the device keeps (modules/auth/devices.ts). */
export const knownDevices = pgTable(
  'known_devices',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('known_devices_user_idx').on(t.userId)],
);

export const siteConfig = pgTable('site_config', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

// ---------- market reference data ----------

export const instruments = pgTable(
  'instruments',
  {
    symbol: text('symbol').primaryKey(),
    name: text('name').notNull(),
    /**
     * The exchange's published English short name (英文簡稱, e.g. 'TSMC'); null where none is in
     * seed-data/reference/instrument_names_en.csv (its README: source and coverage).
     */
    nameEn: text('name_en'),
    isin: text('isin'),
    listingDate: date('listing_date', { mode: 'string' }),
    /** contract/market.ts MARKETS: TWSE | TPEx */
    market: text('market', { enum: MARKETS }).notNull(),
    industry: text('industry'),
    /** contract/market.ts INSTRUMENT_KINDS: the trading-rule class (tick table, tax). */
    kind: text('kind', { enum: INSTRUMENT_KINDS }).notNull(),
    /** contract/market.ts SECURITY_TYPES: what the security is (innovation-board shares are stocks). */
    securityType: text('security_type', { enum: SECURITY_TYPES }).notNull().default('stock'),
    delisted: boolean('delisted').notNull().default(false),
  },
  (t) => [
    check('instruments_kind_check', oneOf(t.kind, INSTRUMENT_KINDS)),
    check('instruments_market_check', oneOf(t.market, MARKETS)),
    check('instruments_security_type_check', oneOf(t.securityType, SECURITY_TYPES)),
  ],
);

export const dailyCandles = pgTable(
  'daily_candles',
  {
    symbol: text('symbol')
      .notNull()
      .references(() => instruments.symbol),
    date: date('date', { mode: 'string' }).notNull(),
    openMinor: money('open_minor').notNull(),
    highMinor: money('high_minor').notNull(),
    lowMinor: money('low_minor').notNull(),
    closeMinor: money('close_minor').notNull(),
    volumeShares: money('volume_shares').notNull(),
    /** Null where the source has no turnover (non-official OHLCV files). */
    turnoverMinor: money('turnover_minor'),
    source: text('source').notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.date] })],
);

export const watchlist = pgTable(
  'watchlist',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    symbol: text('symbol')
      .notNull()
      .references(() => instruments.symbol),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.symbol] })],
);

/**
 * Search history (contract/search.ts): one row per member and instrument they opened from a search
 * result; opening it again moves `opened_at` forward. Hot searches count members per instrument
 * with `opened_at` inside the window. Cleared by the member (rows deleted).
 */
export const searchHistory = pgTable(
  'search_history',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    symbol: text('symbol')
      .notNull()
      .references(() => instruments.symbol),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.symbol] }),
    index('search_history_user_opened_idx').on(t.userId, t.openedAt),
    index('search_history_opened_idx').on(t.openedAt),
  ],
);

// ---------- ledger ----------

/**
 * A ledger account per (owner, currency, purpose). `balanceMinor` is a cache of SUM(postings),
 * updated in the same transaction as the postings. Member accounts may not go negative
 * (`allowNegative` false); platform accounts (bank clearing, fee revenue, ...) may.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: serial('id').primaryKey(),
    /** null for platform accounts */
    userId: integer('user_id').references(() => users.id),
    currency: text('currency').notNull(),
    purpose: text('purpose').notNull(),
    balanceMinor: money('balance_minor').notNull().default(0),
    allowNegative: boolean('allow_negative').notNull().default(false),
    /**
     * Platform accounts come in PLATFORM_SLOTS slots per purpose and currency, so concurrent
     * members' transactions do not queue on one hot row (server/modules/ledger/ledger.ts); a
     * member's accounts have slot 0.
     */
    slot: smallint('slot').notNull().default(0),
  },
  (t) => [
    uniqueIndex('ledger_accounts_owner_uq').on(sql`coalesce(${t.userId}, 0)`, t.currency, t.purpose, t.slot),
    check('ledger_accounts_non_negative', sql`${t.allowNegative} or ${t.balanceMinor} >= 0`),
  ],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** A fund-flow type (contract/funds.ts FUND_FLOW_TYPES). */
    type: text('type').notNull(),
    refType: text('ref_type'),
    refId: text('ref_id'),
    idempotencyKey: text('idempotency_key'),
    actorUserId: integer('actor_user_id').references(() => users.id),
    memo: text('memo'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_tx_ref_idx').on(t.refType, t.refId),
    // Partial: most transactions have no key, and a NULL entry per row would only cost writes.
    uniqueIndex('ledger_tx_idempotency_key_uq')
      .on(t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
  ],
);

export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    /** Signed: positive raises the account's balance. Postings of one transaction sum to zero per currency. */
    amountMinor: money('amount_minor').notNull(),
    currency: text('currency').notNull(),
  },
  (t) => [
    // A posting is found through its transaction (this key) or its account (the index below);
    // one key instead of an id key plus a transaction index: one index write less per posting.
    primaryKey({ columns: [t.transactionId, t.id] }),
    index('ledger_postings_account_idx').on(t.accountId, t.id),
  ],
);

// ---------- funds ----------

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

// ---------- trading ----------

/**
 * An order and, once filled, the position it opened (the spec's single "order or position"
 * entity). Status: pending → holding → closed, or pending → cancelled.
 */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    symbol: text('symbol')
      .notNull()
      .references(() => instruments.symbol),
    /** contract/trading.ts ORDER_SIDES */
    side: text('side', { enum: ORDER_SIDES }).notNull(),
    /** contract/trading.ts ORDER_TYPES */
    orderType: text('order_type', { enum: ORDER_TYPES }).notNull(),
    /** Limit price; null for market orders. */
    limitPriceMinor: money('limit_price_minor'),
    lots: integer('lots').notNull(),
    shares: integer('shares').notNull(),
    leverage: integer('leverage').notNull(),
    /** contract/trading.ts ORDER_STATUSES */
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    /** Funds reserved while pending (margin + fee + tax at the limit price). */
    frozenMinor: money('frozen_minor').notNull().default(0),
    /** The average fill price shown (minor): openValueMinor ÷ shares rounded once a corporate action changed the shares. */
    openPriceMinor: money('open_price_minor'),
    /**
     * The position's cost: Σ fill price × shares (minor), null until filled. Every P&L is computed
     * from it; a split changes the shares and keeps it (contract/corporate-actions.ts).
     */
    openValueMinor: money('open_value_minor'),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    marginMinor: money('margin_minor').notNull().default(0),
    openFeeMinor: money('open_fee_minor').notNull().default(0),
    openTaxMinor: money('open_tax_minor').notNull().default(0),
    closePriceMinor: money('close_price_minor'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closeFeeMinor: money('close_fee_minor').notNull().default(0),
    closeTaxMinor: money('close_tax_minor').notNull().default(0),
    /** Gross realised P&L (before fees and taxes). */
    pnlMinor: money('pnl_minor'),
    /** ROD (rest of day) | IOC (immediate or cancel) | FOK (fill or kill). */
    timeInForce: text('time_in_force', { enum: TIME_IN_FORCE }).notNull().default('ROD'),
    /** regular | afterHours (fixed-price session 14:00–14:30, fills once at 14:30 at the close). */
    entrySession: text('entry_session', { enum: ENTRY_SESSIONS }).notNull().default('regular'),
    /** Opened and closed the same trading day as a day trade (taxed at the day-trade rate). */
    dayTrade: boolean('day_trade').notNull().default(false),
    /** Why a position was closed or an order cancelled: contract/trading.ts CLOSE_REASONS. */
    closeReason: text('close_reason', { enum: CLOSE_REASONS }),
    /** Trading date (Asia/Taipei) the order was entered for. */
    tradeDate: date('trade_date', { mode: 'string' }),
    /**
     * The member's `idempotency-key` of the request that placed the order (unique per member):
     * a retry with the same key is answered with this order (server/modules/trading/engine.ts).
     */
    idempotencyKey: text('idempotency_key'),
    /** sha256 (hex) of the placing request's endpoint and body: a reused key with another body is refused. */
    requestSha256: text('request_sha256'),
    /**
     * The member's fee discount when the order was placed (contract/market-rules.ts FeeDiscount,
     * docs/levels.md): the account level's bps off every leg's commission, and the coupon used on
     * the opening leg (its id, bps or fixed TWD minor). Fills and the close charge with these.
     */
    feeDiscountBps: integer('fee_discount_bps').notNull().default(0),
    couponId: integer('coupon_id'),
    couponBps: integer('coupon_bps').notNull().default(0),
    couponOffMinor: money('coupon_off_minor').notNull().default(0),
    /**
     * The copy-trading follow whose cash backs this position (its risk pool, contract/risk.ts);
     * null: the member's own pool. Set when a copy opens. No Drizzle reference: `follows` is
     * declared below (the migration carries the foreign key).
     */
    followId: integer('follow_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('orders_user_status_idx').on(t.userId, t.status, t.id),
    uniqueIndex('orders_user_idempotency_key_uq')
      .on(t.userId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index('orders_pending_symbol_idx')
      .on(t.symbol, t.limitPriceMinor)
      .where(sql`${t.status} = 'pending'`),
    check('orders_lots_positive', sql`${t.lots} > 0`),
    check('orders_status_check', oneOf(t.status, ORDER_STATUSES)),
    check('orders_side_check', oneOf(t.side, ORDER_SIDES)),
    check('orders_order_type_check', oneOf(t.orderType, ORDER_TYPES)),
    check('orders_time_in_force_check', oneOf(t.timeInForce, TIME_IN_FORCE)),
    check('orders_entry_session_check', oneOf(t.entrySession, ENTRY_SESSIONS)),
    // NULL (still open) passes: CHECK refuses only a false condition.
    check('orders_close_reason_check', oneOf(t.closeReason, CLOSE_REASONS)),
  ],
);

/**
 * Open positions and resting orders summed per member, risk pool (0: own; else the follow id),
 * instrument, side and kind (`cash`: a long at 1×, contract/risk.ts isCashHolding). Written only
 * by the `orders_position_exposure` trigger (migration 0027) in the same statement as the order
 * row, read by order entry's whole-account check and the risk monitor
 * (server/modules/risk/exposures.ts). Money in TWD minor units; `openValueMinor` Σ fill price ×
 * shares; resting figures are pending orders' frozen funds and the margin their fills will use.
 */
export const positionExposures = pgTable(
  'position_exposures',
  {
    userId: integer('user_id').notNull(),
    pool: integer('pool').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ORDER_SIDES }).notNull(),
    cash: boolean('cash').notNull(),
    openCount: integer('open_count').notNull().default(0),
    openShares: money('open_shares').notNull().default(0),
    openValueMinor: money('open_value_minor').notNull().default(0),
    openMarginMinor: money('open_margin_minor').notNull().default(0),
    restingCount: integer('resting_count').notNull().default(0),
    restingFrozenMinor: money('resting_frozen_minor').notNull().default(0),
    restingMarginMinor: money('resting_margin_minor').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'position_exposures_pk', columns: [t.userId, t.pool, t.symbol, t.side, t.cash] }),
    check('position_exposures_side_check', oneOf(t.side, ORDER_SIDES)),
  ],
);

// ---------- identity, cards, money in and out (issue 4) ----------

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

/**
 * Exchange rates against USD, operator-managed (seeded from the real Bank of Taiwan sample).
 * `buyPpm`: units of `currency` (in millionths) the platform pays for 1 USD (member sells USD);
 * `sellPpm`: units of `currency` the member pays for 1 USD. Integer, exact.
 */
export const fxRates = pgTable('fx_rates', {
  currency: text('currency').primaryKey(),
  buyPpm: bigint('buy_ppm', { mode: 'number' }).notNull(),
  sellPpm: bigint('sell_ppm', { mode: 'number' }).notNull(),
  /** Where the rate came from (e.g. "Bank of Taiwan spot 2026-03-06", "operator"). */
  source: text('source').notNull(),
  asOf: date('as_of', { mode: 'string' }).notNull(),
  updatedAt: createdAt(),
});

/** Completed currency exchanges (each is one ledger transaction). */
export const exchanges = pgTable(
  'exchanges',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    fromCurrency: text('from_currency').notNull(),
    toCurrency: text('to_currency').notNull(),
    fromMinor: money('from_minor').notNull(),
    toMinor: money('to_minor').notNull(),
    /** The rate applied, units of the non-USD currency per USD in millionths. */
    ratePpm: bigint('rate_ppm', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('exchanges_user_idx').on(t.userId, t.id)],
);

/**
 * Request-level idempotency for money-moving endpoints: the first answer to (user, key) is kept
 * and returned to every retry with the same body; a different body under the same key is refused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    endpoint: text('endpoint').notNull(),
    bodySha256: text('body_sha256').notNull(),
    /** contract/constants.ts IDEMPOTENCY_STATES: pending while the first request runs; done once its answer is stored. */
    state: text('state', { enum: IDEMPOTENCY_STATES }).notNull().default('pending'),
    httpStatus: integer('http_status'),
    response: text('response'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    check('idempotency_keys_state_check', oneOf(t.state, IDEMPOTENCY_STATES)),
  ],
);

/** Every operator action: who, what, when, and the record before and after (JSON text). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorUserId: integer('actor_user_id')
      .notNull()
      .references(() => users.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: text('before'),
    after: text('after'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_created_idx').on(t.id)],
);

// ---------- risk and day trading (issue 5) ----------

/**
 * Risk events: a margin call notice when an account's maintenance ratio crosses the call threshold,
 * a forced liquidation when it falls below maintenance (with the ratio and price that triggered it).
 */
export const riskEvents = pgTable(
  'risk_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** null for an account-level event */
    orderId: integer('order_id').references(() => orders.id),
    /** contract/risk-api.ts RISK_EVENT_KINDS */
    kind: text('kind', { enum: RISK_EVENT_KINDS }).notNull(),
    /** Maintenance ratio at the event, basis points (equity ÷ used margin × 10,000). */
    ratioBps: integer('ratio_bps'),
    priceMinor: money('price_minor'),
    detail: text('detail'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('risk_events_user_idx').on(t.userId, t.id),
    check('risk_events_kind_check', oneOf(t.kind, RISK_EVENT_KINDS)),
  ],
);

/** Day-trading eligibility applications (product-spec §2 "Day trading": already applied). */
export const dayTradeApplications = pgTable(
  'day_trade_applications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/day-trading.ts DAY_TRADE_APP_STATUSES */
    status: text('status', { enum: DAY_TRADE_APP_STATUSES }).notNull().default('pending'),
    /** contract/day-trading.ts DAY_TRADE_GRANTS: auto (eligible by account age and trade count) | operator */
    grantedBy: text('granted_by', { enum: DAY_TRADE_GRANTS }),
    reason: text('reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('day_trade_apps_user_idx').on(t.userId, t.id),
    check('day_trade_applications_status_check', oneOf(t.status, DAY_TRADE_APP_STATUSES)),
    check('day_trade_applications_granted_by_check', oneOf(t.grantedBy, DAY_TRADE_GRANTS)),
    uniqueIndex('day_trade_apps_one_open_uq')
      .on(t.userId)
      .where(sql`${t.status} in ('pending', 'approved')`),
  ],
);

// ---------- public IPO subscription (contract/ipo.ts) ----------

/**
 * Public subscriptions. Business days are market-clock session numbers (server/market/clock.ts
 * `session`): apply days `apply_start_day` … +2, deduction +3, draw +4, refund +5, listing
 * `listing_day`. Seeded offerings come from the real announcements (seed-data/corporate-actions,
 * one row per announcement and replay round: `source`, `round`); `seed` is the draw's secret
 * (hex), published as ipo_draws.commitment from creation and revealed there after the draw.
 */
export const ipoOfferings = pgTable(
  'ipo_offerings',
  {
    id: serial('id').primaryKey(),
    /** Where the offering comes from: `twse:<code>:<real apply start>` for a seeded one. */
    source: text('source').notNull(),
    /** Replay round of a seeded announcement (0 for one-off offerings). */
    round: integer('round').notNull().default(0),
    symbol: text('symbol')
      .notNull()
      .references(() => instruments.symbol),
    name: text('name').notNull(),
    /** The announcement's market text (初上市, 上櫃增資, …). */
    marketType: text('market_type').notNull(),
    priceMinor: money('price_minor').notNull(),
    sharesOffered: money('shares_offered').notNull(),
    sharesPerApplication: integer('shares_per_application').notNull(),
    applyStartDay: integer('apply_start_day').notNull(),
    listingDay: integer('listing_day').notNull(),
    realApplyStart: date('real_apply_start', { mode: 'string' }).notNull(),
    realDrawDate: date('real_draw_date', { mode: 'string' }).notNull(),
    /** contract/ipo.ts IPO_STAGES */
    stage: text('stage', { enum: IPO_STAGES }).notNull().default('scheduled'),
    seed: text('seed').notNull(),
    // How the price was placed on the replay (docs/adr/0004-ipo-offers-on-the-replay.md).
    /** contract/ipo.ts IPO_PRICINGS */
    pricing: text('pricing', { enum: IPO_PRICINGS }).notNull().default('asAnnounced'),
    /** The real announcement's price; its real close before its subscription (`announcement`). */
    announcedPriceMinor: money('announced_price_minor'),
    announcedCloseMinor: money('announced_close_minor'),
    announcedCloseDate: date('announced_close_date', { mode: 'string' }),
    /** The replayed close the price was set from and its clock session (`announcement`/`rule`). */
    referenceMinor: money('reference_minor'),
    referenceDay: integer('reference_day'),
    /** Offer ÷ reference applied: ratio_num ÷ ratio_den. */
    ratioNum: integer('ratio_num'),
    ratioDen: integer('ratio_den'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ipo_offerings_source_round_uq').on(t.source, t.round),
    check('ipo_offerings_pricing_check', oneOf(t.pricing, IPO_PRICINGS)),
    check(
      'ipo_offerings_ratio_check',
      sql`(${t.ratioNum} is null) = (${t.ratioDen} is null) and (${t.ratioDen} is null or (${t.ratioNum} > 0 and ${t.ratioDen} > 0))`,
    ),
    index('ipo_offerings_start_idx').on(t.applyStartDay),
    check('ipo_offerings_stage_check', oneOf(t.stage, IPO_STAGES)),
    check(
      'ipo_offerings_units_positive',
      sql`${t.sharesPerApplication} > 0 and ${t.sharesOffered} >= ${t.sharesPerApplication}`,
    ),
    check('ipo_offerings_days_order', sql`${t.listingDay} > ${t.applyStartDay} + 5`),
  ],
);

/** One application per member and offering (ipo_applications_one_per_member_uq). */
export const ipoApplications = pgTable(
  'ipo_applications',
  {
    id: serial('id').primaryKey(),
    /** Published number the draw ranks (`<offering id>-<application id>`, zero-padded). */
    applicationNo: text('application_no').notNull().unique(),
    offeringId: integer('offering_id')
      .notNull()
      .references(() => ipoOfferings.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/ipo.ts IPO_APPLICATION_STATUSES */
    status: text('status', { enum: IPO_APPLICATION_STATUSES }).notNull(),
    shares: integer('shares').notNull(),
    priceMinor: money('price_minor').notNull(),
    payableMinor: money('payable_minor').notNull(),
    paidMinor: money('paid_minor').notNull().default(0),
    refundedMinor: money('refunded_minor').notNull().default(0),
    wonUnits: integer('won_units').notNull().default(0),
    /** The position delivered on the listing day. */
    orderId: integer('order_id').references(() => orders.id),
    /** The applicant's verified ID number (null on rows from before it was required). */
    idNumber: text('id_number'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ipo_applications_one_per_member_uq').on(t.offeringId, t.userId),
    // One application per person (verified ID number) and offering, whatever the account.
    uniqueIndex('ipo_applications_one_per_id_uq').on(t.offeringId, t.idNumber),
    index('ipo_applications_user_idx').on(t.userId, t.id),
    check('ipo_applications_status_check', oneOf(t.status, IPO_APPLICATION_STATUSES)),
  ],
);

/**
 * The published draw of an offering: the commitment sha256(seed) from creation; after deduction
 * day the qualified application numbers; after the draw the winners and the revealed seed.
 */
export const ipoDraws = pgTable('ipo_draws', {
  offeringId: integer('offering_id')
    .primaryKey()
    .references(() => ipoOfferings.id),
  commitment: text('commitment').notNull(),
  /** Null until revealed (after the draw). */
  seed: text('seed'),
  units: integer('units').notNull(),
  qualified: jsonb('qualified').$type<string[]>(),
  winners: jsonb('winners').$type<string[]>(),
  oversubscribed: boolean('oversubscribed'),
  drawnAt: timestamp('drawn_at', { withTimezone: true }),
});

// ---------- copy trading ----------

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

// ---------- operator-managed primary market (contract/primary.ts) ----------

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

// ---------- member pages: site pages, feedback, password resets (migration 0021) ----------

/**
 * The operator-editable pages (contract/common.ts PAGE_NAMES) per language; a missing row means
 * the text shipped with the app (server/modules/common/pages.ts).
 */
export const sitePages = pgTable(
  'site_pages',
  {
    name: text('name').notNull(),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.name, t.lang] })],
);

/** A member's rating of the app (`/user/pj`, contract/account.ts feedbackReq). */
export const feedback = pgTable(
  'feedback',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    rating: integer('rating').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('feedback_user_idx').on(t.userId, t.id),
    check('feedback_rating_check', sql`${t.rating} between 1 and 5`),
  ],
);

/**
 * Password resets through the operator (contract/auth.ts PASSWORD_RESET_STATUSES): the code is
 * stored as an argon2id hash, never in clear; `fails` counts wrong codes against this request.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/auth.ts PASSWORD_RESET_STATUSES */
    status: text('status', { enum: PASSWORD_RESET_STATUSES }).notNull().default('pending'),
    codeHash: text('code_hash'),
    fails: integer('fails').notNull().default(0),
    issuedBy: integer('issued_by').references(() => users.id),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('password_resets_status_idx').on(t.status, t.id),
    index('password_resets_user_idx').on(t.userId, t.id),
    check('password_resets_status_check', oneOf(t.status, PASSWORD_RESET_STATUSES)),
  ],
);

// ---------- rewards: points, points codes, sign-in, levels, fee coupons (docs/levels.md) ----------

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

// ---------- dividends and news (contract/dividends.ts, contract/news.ts) ----------

/**
 * The exchanges' ex-rights/ex-dividend events of the replay window (full-market/ex_rights_*.csv,
 * PROVENANCE §11), imported by server/market/import.ts importExRightsEvents. Prices TWD minor; the
 * cash dividend in millionths of a NT$ per share (the file has up to 6 decimals), null for a
 * rights-only event; the stock dividend ratio as the file's text (empty in every row).
 */
export const exRightsEvents = pgTable(
  'ex_rights_events',
  {
    symbol: text('symbol').notNull(),
    exDate: date('ex_date', { mode: 'string' }).notNull(),
    name: text('name').notNull(),
    market: text('market').notNull(),
    closeBeforeMinor: money('close_before_minor').notNull(),
    referenceMinor: money('reference_minor').notNull(),
    cashDividendMicros: money('cash_dividend_micros'),
    stockDividendRatio: text('stock_dividend_ratio'),
    /** The exchange's label as published: 息 (dividend), 權 (rights), 權息 (both). */
    kindZh: text('kind_zh').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.exDate] }),
    index('ex_rights_events_date_idx').on(t.exDate),
    check(
      'ex_rights_events_cash_non_negative',
      sql`${t.cashDividendMicros} is null or ${t.cashDividendMicros} >= 0`,
    ),
  ],
);

/**
 * One cash dividend credited to (long) or charged to (short) a position for one replayed ex-date
 * (clock session `exDay`), written in the transaction of its ledger transaction; unique per
 * (position, exDay), so crediting is idempotent across restarts. Amount TWD minor, signed from
 * the member's side (+ received, − paid).
 */
export const dividendCredits = pgTable(
  'dividend_credits',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    symbol: text('symbol').notNull(),
    exDate: date('ex_date', { mode: 'string' }).notNull(),
    exDay: integer('ex_day').notNull(),
    /** contract/trading.ts ORDER_SIDES */
    side: text('side', { enum: ORDER_SIDES }).notNull(),
    shares: integer('shares').notNull(),
    cashDividendMicros: money('cash_dividend_micros').notNull(),
    amountMinor: money('amount_minor').notNull(),
    ledgerTransactionId: integer('ledger_transaction_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('dividend_credits_once_uq').on(t.orderId, t.exDay),
    index('dividend_credits_user_idx').on(t.userId, t.id),
    check('dividend_credits_side_check', oneOf(t.side, ORDER_SIDES)),
  ],
);

/**
 * News items: operator articles (`operator`) and generated ones (contract/news.ts NEWS_KINDS),
 * each generated item unique by `sourceKey` (e.g. `exDividend:<ex session>`). Text in both
 * languages; the cover is an upload of purpose `newsCover`.
 */
export const newsArticles = pgTable(
  'news_articles',
  {
    id: serial('id').primaryKey(),
    /** contract/news.ts NEWS_KINDS */
    kind: text('kind', { enum: NEWS_KINDS }).notNull(),
    /** contract/news.ts NEWS_STATUSES */
    status: text('status', { enum: NEWS_STATUSES }).notNull().default('published'),
    sourceKey: text('source_key'),
    titleTw: text('title_tw').notNull(),
    titleEn: text('title_en').notNull(),
    bodyTw: text('body_tw').notNull(),
    bodyEn: text('body_en').notNull(),
    coverUploadId: text('cover_upload_id').references(() => uploads.id),
    /** The replayed date the item is about (generated items), else null. */
    replayDate: date('replay_date', { mode: 'string' }),
    createdBy: integer('created_by').references(() => users.id),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('news_articles_source_key_uq')
      .on(t.sourceKey)
      .where(sql`${t.sourceKey} is not null`),
    index('news_articles_published_idx').on(t.status, t.publishedAt, t.id),
    check('news_articles_kind_check', oneOf(t.kind, NEWS_KINDS)),
    check('news_articles_status_check', oneOf(t.status, NEWS_STATUSES)),
  ],
);

/** The instruments an article concerns (the stock detail screen lists them). */
export const newsInstruments = pgTable(
  'news_instruments',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => newsArticles.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.articleId, t.symbol] }),
    index('news_instruments_symbol_idx').on(t.symbol, t.articleId),
  ],
);

/**
 * Asset overview (server/modules/wallet/snapshots.ts): a member's balances per currency at each
 * trading day's close, for the equity chart. Kinds are ledger balances (minor units of
 * `currency`); `otherMinor` sums every other member account (follow cash, a loan account …);
 * `unrealisedMinor` marks open positions to the close (TWD); `totalMinor` is the sum of the kinds
 * (CHECK); `valueTwdMinor` the total in TWD at the operator's rate then (null without a rate).
 */
export const equitySnapshots = pgTable(
  'equity_snapshots',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tradeDate: date('trade_date', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    availableMinor: money('available_minor').notNull(),
    frozenMinor: money('frozen_minor').notNull(),
    marginMinor: money('margin_minor').notNull(),
    debtMinor: money('debt_minor').notNull(),
    otherMinor: money('other_minor').notNull(),
    unrealisedMinor: money('unrealised_minor').notNull(),
    totalMinor: money('total_minor').notNull(),
    valueTwdMinor: money('value_twd_minor'),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'equity_snapshots_pk', columns: [t.userId, t.tradeDate, t.currency] }),
    check(
      'equity_snapshots_total',
      sql`${t.totalMinor} = ${t.availableMinor} + ${t.frozenMinor} + ${t.marginMinor} + ${t.debtMinor} + ${t.otherMinor} + ${t.unrealisedMinor}`,
    ),
    index('equity_snapshots_date_idx').on(t.tradeDate),
  ],
);

// ---- credit loans (migration 0015, server/modules/credit, docs/credit.md) ----

/**
 * Credit loans: an application (`pending`) an operator approves (disbursed: `lending`) or rejects;
 * `completed` once principal and interest are repaid. Days are market-calendar trading days (the
 * market clock's session number). Interest accrues per trading day into
 * `interest_accrued_minor` up to `accrued_through_day`; repayments pay interest first.
 */
export const creditLoans = pgTable(
  'credit_loans',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/credit.ts CREDIT_LOAN_STATUSES */
    status: text('status', { enum: CREDIT_LOAN_STATUSES }).notNull().default('pending'),
    principalMinor: money('principal_minor').notNull(),
    /** Annual rate (bps) and term (trading days) fixed when the member applied. */
    annualRateBps: integer('annual_rate_bps').notNull(),
    termDays: integer('term_days').notNull(),
    principalRepaidMinor: money('principal_repaid_minor').notNull().default(0),
    interestAccruedMinor: money('interest_accrued_minor').notNull().default(0),
    interestPaidMinor: money('interest_paid_minor').notNull().default(0),
    disbursedDay: integer('disbursed_day'),
    dueDay: integer('due_day'),
    /** Interest is accrued for every trading day before this one. */
    accruedThroughDay: integer('accrued_through_day'),
    completedDay: integer('completed_day'),
    reason: text('reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_loans_user_idx').on(t.userId, t.id),
    index('credit_loans_status_idx').on(t.status, t.id),
    check('credit_loans_status_check', oneOf(t.status, CREDIT_LOAN_STATUSES)),
    check(
      'credit_loans_amounts',
      sql`${t.principalMinor} > 0 and ${t.principalRepaidMinor} between 0 and ${t.principalMinor} and ${t.interestPaidMinor} between 0 and ${t.interestAccruedMinor} and ${t.annualRateBps} between 0 and 10000 and ${t.termDays} > 0`,
    ),
  ],
);

/** The operator's credit settings (one row, id 1; contract/credit.ts CREDIT_DEFAULTS when absent). */
export const creditSettings = pgTable('credit_settings', {
  id: integer('id').primaryKey(),
  annualRateBps: integer('annual_rate_bps').notNull(),
  termDays: integer('term_days').notNull(),
  /** contract/credit.ts creditBandSchema[], ascending minScore. */
  bands: jsonb('bands').notNull(),
  updatedBy: integer('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------- stock lending (借券; contract/lending.ts, server/modules/lending) ----------

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

// ---------- notices and customer service (migration 0019) ----------

/** An operator notice (announcement) in tw and en; visible to members while `publishedAt` is set. */
export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    titleTw: text('title_tw').notNull(),
    titleEn: text('title_en').notNull(),
    bodyTw: text('body_tw').notNull(),
    bodyEn: text('body_en').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('notices_published_idx').on(t.publishedAt)],
);

/** A member has read an announcement (absent: unread). */
export const noticeReads = pgTable(
  'notice_reads',
  {
    noticeId: integer('notice_id')
      .notNull()
      .references(() => notices.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'notice_reads_pk', columns: [t.noticeId, t.userId] }),
    index('notice_reads_user_idx').on(t.userId),
  ],
);

/** A member's account notice: a kind and its params (JSON text), worded by the client. */
export const memberNotices = pgTable(
  'member_notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/notices.ts ACCOUNT_NOTICE_KINDS */
    kind: text('kind', { enum: ACCOUNT_NOTICE_KINDS }).notNull(),
    params: text('params').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('member_notices_user_idx').on(t.userId, t.id),
    check('member_notices_kind_check', oneOf(t.kind, ACCOUNT_NOTICE_KINDS)),
  ],
);

/** A member's support conversation (one per member) with the unread counts of both sides. */
export const supportConversations = pgTable(
  'support_conversations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .unique('support_conversations_user_uq')
      .references(() => users.id),
    /** contract/support.ts SUPPORT_STATUSES */
    status: text('status', { enum: SUPPORT_STATUSES }).notNull().default('open'),
    assignedTo: integer('assigned_to').references(() => users.id),
    memberUnread: integer('member_unread').notNull().default(0),
    operatorUnread: integer('operator_unread').notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_conversations_status_idx').on(t.status, t.lastMessageAt),
    check('support_conversations_status_check', oneOf(t.status, SUPPORT_STATUSES)),
    check('support_conversations_unread_check', sql`${t.memberUnread} >= 0 and ${t.operatorUnread} >= 0`),
  ],
);

/** A support message: text or an upload (purpose `support`), by the member or an operator. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => supportConversations.id),
    /** contract/support.ts SUPPORT_SENDERS */
    sender: text('sender', { enum: SUPPORT_SENDERS }).notNull(),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    text: text('text'),
    uploadId: text('upload_id').references(() => uploads.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_messages_conversation_idx').on(t.conversationId, t.id),
    check('support_messages_sender_check', oneOf(t.sender, SUPPORT_SENDERS)),
    check('support_messages_content_check', sql`${t.text} is not null or ${t.uploadId} is not null`),
  ],
);

// ---------- member preferences (migration 0023) ----------

/**
 * A member's preferences (contract/account.ts preferencesSchema), one row per member once they
 * save any: `confirmAboveMinor` is the confirmation threshold in TWD minor units (0: confirm
 * every order, cancel and exchange). No row: the defaults (CONFIRM_ABOVE_DEFAULT_MINOR).
 */
export const memberPreferences = pgTable(
  'member_preferences',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    confirmAboveMinor: money('confirm_above_minor').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('member_preferences_confirm_above_check', sql`${t.confirmAboveMinor} >= 0`)],
);

// ---------- install secrets ----------

/**
 * Secrets of one install, created on first start and never served by any endpoint (migration
 * 0028): `marketSeed`, the replay's intraday seed (server/market/install-seed.ts).
 */
export const installSecrets = pgTable('install_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});
// ---------- corporate actions on open positions (migration 0025; server/modules/corporate-actions) ----------

/**
 * One corporate action applied on one replayed session (clock session `session`, replayed date
 * `actionDate`) for an instrument: the instrument-wide part (the lending quota in shares) is done
 * in the transaction that writes this row, once. Ratio `newShares` per `oldShares` (null for an
 * ex-rights cash settlement).
 */
export const corporateActionRuns = pgTable(
  'corporate_action_runs',
  {
    id: serial('id').primaryKey(),
    symbol: text('symbol').notNull(),
    session: integer('session').notNull(),
    actionDate: date('action_date', { mode: 'string' }).notNull(),
    /** contract/corporate-actions.ts CORPORATE_ACTION_KINDS */
    kind: text('kind', { enum: CORPORATE_ACTION_KINDS }).notNull(),
    oldShares: integer('old_shares'),
    newShares: integer('new_shares'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('corporate_action_runs_once_uq').on(t.symbol, t.session, t.kind),
    check('corporate_action_runs_kind_check', oneOf(t.kind, CORPORATE_ACTION_KINDS)),
  ],
);

/**
 * One position or resting order adjusted by one corporate action on one session, written in the
 * transaction of the change (and of its ledger transaction, when cash moved); unique per (order,
 * session, kind), so a second run or a restart changes nothing twice. Before/after units: shares,
 * open value (positions), limit price (orders); `cashMinor` signed from the member's side.
 */
export const corporateActionAdjustments = pgTable(
  'corporate_action_adjustments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    symbol: text('symbol').notNull(),
    session: integer('session').notNull(),
    actionDate: date('action_date', { mode: 'string' }).notNull(),
    /** contract/corporate-actions.ts CORPORATE_ACTION_KINDS */
    kind: text('kind', { enum: CORPORATE_ACTION_KINDS }).notNull(),
    /** contract/corporate-actions.ts CORPORATE_ACTION_TARGETS */
    target: text('target', { enum: CORPORATE_ACTION_TARGETS }).notNull(),
    /** contract/corporate-actions.ts CORPORATE_ACTION_OUTCOMES */
    outcome: text('outcome', { enum: CORPORATE_ACTION_OUTCOMES }).notNull(),
    oldShares: integer('old_shares'),
    newShares: integer('new_shares'),
    sharesBefore: integer('shares_before').notNull(),
    sharesAfter: integer('shares_after').notNull(),
    openValueBeforeMinor: money('open_value_before_minor'),
    openValueAfterMinor: money('open_value_after_minor'),
    limitBeforeMinor: money('limit_before_minor'),
    limitAfterMinor: money('limit_after_minor'),
    cashMinor: money('cash_minor').notNull().default(0),
    ledgerTransactionId: integer('ledger_transaction_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('corporate_action_adjustments_once_uq').on(t.orderId, t.session, t.kind),
    index('corporate_action_adjustments_user_idx').on(t.userId, t.id),
    check('corporate_action_adjustments_kind_check', oneOf(t.kind, CORPORATE_ACTION_KINDS)),
    check('corporate_action_adjustments_target_check', oneOf(t.target, CORPORATE_ACTION_TARGETS)),
    check('corporate_action_adjustments_outcome_check', oneOf(t.outcome, CORPORATE_ACTION_OUTCOMES)),
  ],
);
