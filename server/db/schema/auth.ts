/**
 * Schema of the auth area (server/modules/auth): `users` (members and operators, their role and
 * bans), `invitation_codes`, `auth_throttle` (login and registration counters), `sessions`,
 * `known_devices` and `password_resets` (resets through the operator, migration 0021). Every
 * member-owned row in the other areas references `users`.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { PASSWORD_RESET_STATUSES, ROLES } from '../../../contract/auth';
import { createdAt, oneOf } from './columns';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Login account: a ten-digit mobile number for members (product-spec §5). */
    account: text('account').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    /** contract/auth.ts ROLES: roles live here, never in a request header. */
    role: text('role', { enum: ROLES }).notNull().default('member'),
    inviteCode: text('invite_code'),
    disabled: boolean('disabled').notNull().default(false),
    frozen: boolean('frozen').notNull().default(false),
    loginBanned: boolean('login_banned').notNull().default(false),
    withdrawBanned: boolean('withdraw_banned').notNull().default(false),
    tradeBanned: boolean('trade_banned').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [check('users_role_check', oneOf(t.role, ROLES))],
);

/**
 * Invitation codes (migration 0006): registration consumes one use of a code that is neither
 * expired, used up nor disabled (server/modules/auth/invitations.ts).
 */
export const invitationCodes = pgTable(
  'invitation_codes',
  {
    code: text('code').primaryKey(),
    /** The owner: the operator or member who issued the code. */
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    /** Registrations the code allows in all. */
    maxUses: integer('max_uses').notNull().default(1),
    /** Registrations made with it so far (never above maxUses). */
    uses: integer('uses').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when an operator disabled the code; it refuses registrations from then on. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'invitation_codes_uses_check',
      sql`${t.uses} >= 0 AND ${t.maxUses} > 0 AND ${t.uses} <= ${t.maxUses}`,
    ),
    index('invitation_codes_created_by_idx').on(t.createdBy),
  ],
);

/**
 * Login and registration throttling counters: the store of rate-limiter-flexible's
 * RateLimiterDrizzle (server/modules/auth/throttle.ts), one row per limiter key.
 */
export const authThrottle = pgTable(
  'auth_throttle',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull(),
    expire: timestamp('expire', { withTimezone: true }),
  },
  (t) => [index('auth_throttle_expire_idx').on(t.expire)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** sha256 of the random token; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    /** Last request on the session (written at most once a minute): the idle timeout's start. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Devices a user logged in from: sha256 of the token the device keeps (modules/auth/devices.ts). */
export const knownDevices = pgTable(
  'known_devices',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('known_devices_user_idx').on(t.userId)],
);

/**
 * Password resets through the operator (contract/auth.ts PASSWORD_RESET_STATUSES): the code is
 * stored as an argon2id hash, never in clear; `fails` counts wrong codes against this request.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/auth.ts PASSWORD_RESET_STATUSES */
    status: text('status', { enum: PASSWORD_RESET_STATUSES }).notNull().default('pending'),
    codeHash: text('code_hash'),
    fails: integer('fails').notNull().default(0),
    issuedBy: integer('issued_by').references(() => users.id),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('password_resets_status_idx').on(t.status, t.id),
    index('password_resets_user_idx').on(t.userId, t.id),
    check('password_resets_status_check', oneOf(t.status, PASSWORD_RESET_STATUSES)),
  ],
);
