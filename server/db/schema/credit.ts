/**
 * Schema of the credit area (server/modules/credit, migration 0015, docs/credit.md):
 * `credit_loans` and the operator's `credit_settings`.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { CREDIT_LOAN_STATUSES } from '../../../contract/credit';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';

/**
 * Credit loans: an application (`pending`) an operator approves (disbursed: `lending`) or rejects;
 * `completed` once principal and interest are repaid. Days are market-calendar trading days (the
 * market clock's session number). Interest accrues per trading day into
 * `interest_accrued_minor` up to `accrued_through_day`; repayments pay interest first.
 */
export const creditLoans = pgTable(
  'credit_loans',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/credit.ts CREDIT_LOAN_STATUSES */
    status: text('status', { enum: CREDIT_LOAN_STATUSES }).notNull().default('pending'),
    principalMinor: money('principal_minor').notNull(),
    /** Annual rate (bps) and term (trading days) fixed when the member applied. */
    annualRateBps: integer('annual_rate_bps').notNull(),
    termDays: integer('term_days').notNull(),
    principalRepaidMinor: money('principal_repaid_minor').notNull().default(0),
    interestAccruedMinor: money('interest_accrued_minor').notNull().default(0),
    interestPaidMinor: money('interest_paid_minor').notNull().default(0),
    disbursedDay: integer('disbursed_day'),
    dueDay: integer('due_day'),
    /** Interest is accrued for every trading day before this one. */
    accruedThroughDay: integer('accrued_through_day'),
    completedDay: integer('completed_day'),
    reason: text('reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_loans_user_idx').on(t.userId, t.id),
    index('credit_loans_status_idx').on(t.status, t.id),
    check('credit_loans_status_check', oneOf(t.status, CREDIT_LOAN_STATUSES)),
    check(
      'credit_loans_amounts',
      sql`${t.principalMinor} > 0 and ${t.principalRepaidMinor} between 0 and ${t.principalMinor} and ${t.interestPaidMinor} between 0 and ${t.interestAccruedMinor} and ${t.annualRateBps} between 0 and 10000 and ${t.termDays} > 0`,
    ),
  ],
);

/** The operator's credit settings (one row, id 1; contract/credit.ts CREDIT_DEFAULTS when absent). */
export const creditSettings = pgTable('credit_settings', {
  id: integer('id').primaryKey(),
  annualRateBps: integer('annual_rate_bps').notNull(),
  termDays: integer('term_days').notNull(),
  /** contract/credit.ts creditBandSchema[], ascending minScore. */
  bands: jsonb('bands').notNull(),
  updatedBy: integer('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
