/**
 * Schema of the fx area (server/modules/fx): operator-managed `fx_rates` against USD and the
 * members' completed currency `exchanges`.
 */
import { bigint, date, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { money, createdAt } from './columns';
import { users } from './auth';

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
