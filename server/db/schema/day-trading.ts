/**
 * Schema of the day-trading area (server/modules/day-trading): `day_trade_applications`,
 * a member's applications for day-trading eligibility.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { DAY_TRADE_APP_STATUSES, DAY_TRADE_GRANTS } from '../../../contract/day-trading';
import { createdAt, oneOf } from './columns';
import { users } from './auth';

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
