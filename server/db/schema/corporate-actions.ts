/**
 * Schema of the corporate-actions area (server/modules/corporate-actions, migration 0025):
 * `corporate_action_runs` (one action on one replayed session for an instrument) and
 * `corporate_action_adjustments` (each position or resting order it changed).
 */
import { check, date, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  CORPORATE_ACTION_KINDS,
  CORPORATE_ACTION_OUTCOMES,
  CORPORATE_ACTION_TARGETS,
} from '../../../contract/corporate-actions';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';
import { orders } from './trading';

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
