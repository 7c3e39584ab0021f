/**
 * Schema of the risk area (server/modules/risk): `position_exposures` (open positions and
 * resting orders summed per member and pool, kept by a trigger on `orders`) and `risk_events`
 * (margin calls and forced liquidations).
 */
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { RISK_EVENT_KINDS } from '../../../contract/risk-api';
import { ORDER_SIDES } from '../../../contract/trading';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';
import { orders } from './trading';

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
