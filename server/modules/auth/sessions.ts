/**
 * Session tokens: 32 random bytes (base64url) handed to the client; only their sha256 is stored,
 * with an expiry. `authenticate` resolves a token to the user, or 'expired', or null.
 */
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Role } from '../../../contract/auth';
import type { Db, Tx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import type { AuthUser } from '../../http/context';

/** sha256 hex of a session token: what the sessions table stores. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a session; returns the raw token and its expiry (epoch ms). */
export async function createSession(db: Db | Tx, userId: number, ttlMs: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlMs);
  await db.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt });
  return { token, expiresAt: expiresAt.getTime() };
}

/** Ends the session behind `token` (logout); unknown tokens are ignored. */
export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** The user behind a token; 'expired' for a known but expired session; null otherwise or if disabled/login-banned. */
export async function authenticate(db: Db, token: string): Promise<AuthUser | 'expired' | null> {
  if (token.length > 200) return null;
  const rows = await db
    .select({
      id: users.id,
      account: users.account,
      role: users.role,
      expiresAt: sessions.expiresAt,
      disabled: users.disabled,
      loginBanned: users.loginBanned,
      tradeBanned: users.tradeBanned,
      withdrawBanned: users.withdrawBanned,
      frozen: users.frozen,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, hashToken(token)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (row.expiresAt.getTime() <= Date.now()) return 'expired';
  if (row.disabled || row.loginBanned) return null;
  return {
    id: row.id,
    account: row.account,
    role: row.role as Role,
    tradeBanned: row.tradeBanned || row.frozen,
    withdrawBanned: row.withdrawBanned || row.frozen,
    frozen: row.frozen,
  };
}
