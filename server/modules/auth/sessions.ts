/**
 * Session tokens: 32 random bytes (base64url) handed to the client; only their sha256 is stored,
 * with an expiry. `SessionAuth.authenticate` resolves a token to the user, or 'expired', or null.
 *
 * `createSessionAuth` is the app's one SessionAuth (buildApp's Services `sessions`): it
 * authenticates with the app's idle times and ends sessions together with their sockets.
 *
 * Idle timeout: a session unused for its role's idle time (SessionAuth `idle`: members
 * SESSION_IDLE_MINUTES 30, operators OPERATOR_SESSION_IDLE_MINUTES 15) ends like a logout
 * (`SessionAuth.end`) and answers 'expired' (401 `sessionExpired`, the client goes to login). Its
 * last use (`last_seen_at`) is written at most once per IDLE_TOUCH_MS, so the timeout may run out
 * up to that much earlier than the last request plus the idle time.
 *
 * A resolved session is kept in memory for SESSION_CACHE_MS, so a burst of requests (a day
 * trader's orders) costs one read of the sessions table, not one each. Every change the app makes
 * to a session or to what AuthUser carries (logout, password change, an operator's flags) drops
 * the entries at once (`forgetSessions`, after its commit); the cache time only bounds a change
 * made to the database outside the app.
 */
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Role } from '../../../contract/auth';
import type { Db, Tx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import type { AuthUser } from '../common/context';
import type { SessionSockets } from './session-sockets';

/** sha256 hex of a session token: what the sessions table stores. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a session; returns the raw token and its expiry (epoch ms). */
export async function createSession(db: Db | Tx, userId: number, ttlMs: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlMs);
  await db.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt });
  return { token, expiresAt: expiresAt.getTime() };
}

/** How long a session may go unused, per role, in wall ms. */
export interface SessionIdle {
  memberIdleMs: number;
  operatorIdleMs: number;
}
/** `last_seen_at` is rewritten once it is older than this (or a tenth of the idle time, if shorter). */
export const IDLE_TOUCH_MS = 60_000;

/** Wall ms a resolved session is trusted without reading the sessions table again. */
export const SESSION_CACHE_MS = 2_000;
/** Entries kept at most (the oldest go first). */
const SESSION_CACHE_MAX = 50_000;

interface CachedSession {
  user: AuthUser;
  /** Session expiry, epoch ms. */
  expiresAt: number;
  /** Read from the database at, epoch ms. */
  readAt: number;
}
/** Token hash → resolved session (tokens are random: one map serves every database). */
const cache = new Map<string, CachedSession>();
/** Bumped by every forget: a read that a forget overtook is not cached (it may predate the change). */
let generation = 0;

/** Drops the cached sessions of `userId` (call after committing a change to them or to the user). */
export function forgetSessions(userId: number): void {
  generation++;
  for (const [hash, entry] of cache) if (entry.user.id === userId) cache.delete(hash);
}

/** The app's sessions: authentication with its idle times, logout with its sockets. */
export interface SessionAuth {
  /**
   * The user behind a token; 'expired' for a known but expired (or idle past its role's time)
   * session; null otherwise or if disabled/login-banned.
   */
  authenticate(db: Db, token: string): Promise<AuthUser | 'expired' | null>;
  /** Ends the session behind `token` (logout) and closes its sockets; unknown tokens are ignored. */
  end(db: Db, token: string): Promise<void>;
}

/**
 * The SessionAuth of one app: `idle` null turns the idle timeout off; `sockets` is the app's
 * registry of session-authenticated sockets (closed when their session ends).
 */
export function createSessionAuth(opts: { idle: SessionIdle | null; sockets: SessionSockets }): SessionAuth {
  const idle = opts.idle && {
    memberIdleMs: opts.idle.memberIdleMs,
    operatorIdleMs: opts.idle.operatorIdleMs,
  };
  const end = async (db: Db, token: string) => {
    const hash = hashToken(token);
    await db.delete(sessions).where(eq(sessions.tokenHash, hash));
    generation++;
    cache.delete(hash);
    opts.sockets.revokeSession(hash);
  };
  return { authenticate: (db, token) => authenticate(db, token, idle, end), end };
}

/** SessionAuth.authenticate with the app's idle times and its `end` (logout with sockets). */
async function authenticate(
  db: Db,
  token: string,
  idle: SessionIdle | null,
  end: (db: Db, token: string) => Promise<void>,
): Promise<AuthUser | 'expired' | null> {
  if (token.length > 200) return null;
  const hash = hashToken(token);
  const now = Date.now();
  const hit = cache.get(hash);
  if (hit && now - hit.readAt < SESSION_CACHE_MS) return hit.expiresAt <= now ? 'expired' : hit.user;
  const seen = generation;
  const rows = await db
    .select({
      id: users.id,
      account: users.account,
      role: users.role,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      disabled: users.disabled,
      loginBanned: users.loginBanned,
      tradeBanned: users.tradeBanned,
      withdrawBanned: users.withdrawBanned,
      frozen: users.frozen,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, hash))
    .limit(1);
  const row = rows[0];
  cache.delete(hash);
  if (!row) return null;
  if (row.expiresAt.getTime() <= Date.now()) return 'expired';
  if (row.disabled || row.loginBanned) return null;
  if (idle) {
    const idleMs = row.role === 'member' ? idle.memberIdleMs : idle.operatorIdleMs;
    const unused = Date.now() - row.lastSeenAt.getTime();
    if (unused >= idleMs) {
      // Ended like a logout, so whatever follows a revoked session (its sockets) follows here too.
      await end(db, token);
      return 'expired';
    }
    if (unused >= Math.min(IDLE_TOUCH_MS, idleMs / 10))
      await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.tokenHash, hash));
  }
  const user: AuthUser = {
    id: row.id,
    account: row.account,
    role: row.role as Role,
    tradeBanned: row.tradeBanned || row.frozen,
    withdrawBanned: row.withdrawBanned || row.frozen,
    frozen: row.frozen,
  };
  if (seen === generation) {
    if (cache.size >= SESSION_CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(hash, { user, expiresAt: row.expiresAt.getTime(), readAt: now });
  }
  return user;
}
