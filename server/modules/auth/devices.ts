/**
 * Known devices: after a successful login the device is handed a random token (32 bytes,
 * base64url) that it keeps and sends with its next logins of that account (`device` in
 * user/login and admin/login). Only the token's sha256 is stored (table `known_devices`, with its
 * user). A known device is throttled on its own counter instead of its address's and the
 * account's (./throttle.ts), so guessing from elsewhere never locks the owner out of a device
 * they have used before. The token grants nothing else: the password is still required.
 *
 * A device not used for KNOWN_DEVICE_DAYS is forgotten; a user keeps at most KNOWN_DEVICE_MAX
 * devices (the least recently used go first).
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { knownDevices, users } from '../../db/schema';
import { hashToken } from './sessions';

/** Days a device stays known without a login from it. */
export const KNOWN_DEVICE_DAYS = 180;
/** Devices kept per user. */
export const KNOWN_DEVICE_MAX = 20;

/**
 * The stored hash of `token` when it is a known device of `account` (used within
 * KNOWN_DEVICE_DAYS), else null. Never throws for a malformed token.
 */
export async function knownDevice(
  db: Db,
  account: string,
  token: string | undefined,
): Promise<string | null> {
  if (!token || token.length > 128) return null;
  const hash = hashToken(token);
  const since = new Date(Date.now() - KNOWN_DEVICE_DAYS * 86_400_000);
  const [row] = await db
    .select({ hash: knownDevices.tokenHash })
    .from(knownDevices)
    .innerJoin(users, eq(users.id, knownDevices.userId))
    .where(
      and(eq(knownDevices.tokenHash, hash), eq(users.account, account), gt(knownDevices.lastUsedAt, since)),
    )
    .limit(1);
  return row?.hash ?? null;
}

/**
 * After a successful login of `userId`: refreshes the known device `hash` and answers its token
 * unchanged (`token`), or registers a new device and answers its new token.
 */
export async function rememberDevice(
  db: Db,
  userId: number,
  known: { hash: string; token: string } | null,
): Promise<string> {
  if (known) {
    await db
      .update(knownDevices)
      .set({ lastUsedAt: new Date() })
      .where(eq(knownDevices.tokenHash, known.hash));
    return known.token;
  }
  const token = randomBytes(32).toString('base64url');
  await db.insert(knownDevices).values({ tokenHash: hashToken(token), userId });
  const keep = db
    .select({ hash: knownDevices.tokenHash })
    .from(knownDevices)
    .where(eq(knownDevices.userId, userId))
    .orderBy(desc(knownDevices.lastUsedAt))
    .limit(KNOWN_DEVICE_MAX);
  const kept = (await keep).map((r) => r.hash);
  await db
    .delete(knownDevices)
    .where(and(eq(knownDevices.userId, userId), notInArray(knownDevices.tokenHash, kept)));
  return token;
}
