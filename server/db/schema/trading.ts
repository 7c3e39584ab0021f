/**
 * Schema of the trading area (server/modules/trading): `orders`, each an order and, once filled,
 * the position it opened. The risk, copy-trading, lending, dividends, primary and ipo areas
 * reference it.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { TIME_IN_FORCE } from '../../../contract/market-rules';
import {
  CLOSE_REASONS,
  ENTRY_SESSIONS,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
} from '../../../contract/trading';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';
import { instruments } from './market';

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
