/**
 * Schema of the account area (server/modules/account): a member's `watchlist`, their `feedback`
 * (rating of the app) and `member_preferences` (migration 0023).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { money, createdAt } from './columns';
import { users } from './auth';
import { instruments } from './market';

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
