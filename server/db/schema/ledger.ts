/**
 * Schema of the ledger area (server/modules/ledger): double-entry `ledger_accounts`,
 * `ledger_transactions` and `ledger_postings`; every balance in the app is a ledger account's.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { money, createdAt } from './columns';
import { users } from './auth';

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
