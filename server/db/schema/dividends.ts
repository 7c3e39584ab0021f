/**
 * Schema of the dividends area (server/modules/dividends, contract/dividends.ts): the replay's
 * `ex_rights_events` (imported by server/market/import.ts) and the `dividend_credits` paid on
 * open positions.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ORDER_SIDES } from '../../../contract/trading';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';
import { orders } from './trading';

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
