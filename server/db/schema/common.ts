/**
 * Schema of the common area (server/modules/common: settings, site pages, audit, handler
 * plumbing): `site_config` (operator settings by name), `site_pages` (operator-edited page texts,
 * migration 0021), `idempotency_keys` (request-level idempotency of money-moving endpoints) and
 * `audit_log` (every operator action).
 */
import { bigserial, check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { IDEMPOTENCY_STATES } from '../../../contract/constants';
import { createdAt, oneOf } from './columns';
import { users } from './auth';

export const siteConfig = pgTable('site_config', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Request-level idempotency for money-moving endpoints: the first answer to (user, key) is kept
 * and returned to every retry with the same body; a different body under the same key is refused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    endpoint: text('endpoint').notNull(),
    bodySha256: text('body_sha256').notNull(),
    /** contract/constants.ts IDEMPOTENCY_STATES: pending while the first request runs; done once its answer is stored. */
    state: text('state', { enum: IDEMPOTENCY_STATES }).notNull().default('pending'),
    httpStatus: integer('http_status'),
    response: text('response'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    check('idempotency_keys_state_check', oneOf(t.state, IDEMPOTENCY_STATES)),
  ],
);

/** Every operator action: who, what, when, and the record before and after (JSON text). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorUserId: integer('actor_user_id')
      .notNull()
      .references(() => users.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: text('before'),
    after: text('after'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_created_idx').on(t.id)],
);

/**
 * The operator-editable pages (contract/common.ts PAGE_NAMES) per language; a missing row means
 * the text shipped with the app (server/modules/common/pages.ts).
 */
export const sitePages = pgTable(
  'site_pages',
  {
    name: text('name').notNull(),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.name, t.lang] })],
);
