/**
 * Schema of the wallet area (server/modules/wallet): `equity_snapshots`, a member's balances per
 * currency at each trading day's close (the asset overview's equity chart).
 */
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { money } from './columns';
import { users } from './auth';

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
