/**
 * Schema of the search area (server/modules/search): `search_history`, the instruments a member
 * opened from a search result (also the source of hot searches).
 */
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { instruments } from './market';

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
