/**
 * The funds password: set, change, and check before a withdrawal. Wrong passwords count up in
 * user_security.funds_password_fails; at FUNDS_PASSWORD_MAX_TRIES withdrawals lock until an
 * operator unlocks (admin/unlockFundsPassword).
 */
import { eq, sql } from 'drizzle-orm';
import { FUNDS_PASSWORD_MAX_TRIES } from '../../../contract/constants';
import type { Db, Tx } from '../../db/client';
import { userSecurity } from '../../db/schema';
import { fail } from '../common/errors';
import { hashPassword, needsRehash, verifyPassword } from '../auth/passwords';

/** A member's funds-password state as user/security reports it. */
export interface FundsPasswordState {
  set: boolean;
  locked: boolean;
  /** Wrong tries left before the lock (0 when locked). */
  triesLeft: number;
}

/** The funds-password state of a member (no row = not set, nothing failed). */
export async function fundsPasswordState(db: Db | Tx, userId: number): Promise<FundsPasswordState> {
  const [row] = await db
    .select({ hash: userSecurity.fundsPasswordHash, fails: userSecurity.fundsPasswordFails })
    .from(userSecurity)
    .where(eq(userSecurity.userId, userId));
  const fails = row?.fails ?? 0;
  return {
    set: Boolean(row?.hash),
    locked: fails >= FUNDS_PASSWORD_MAX_TRIES,
    triesLeft: Math.max(0, FUNDS_PASSWORD_MAX_TRIES - fails),
  };
}

/**
 * Checks a member's funds password in its own transaction (call it BEFORE the withdrawal's
 * transaction, so a wrong try is counted even though the withdrawal is refused).
 * A right password resets the counter (and replaces a legacy scrypt hash by argon2id). The
 * member's user_security row is locked while checking, so concurrent wrong tries are all counted.
 * @throws AppError fundsPasswordNotSet (422), fundsPasswordLocked (403) when already locked or
 *   when this wrong try reaches FUNDS_PASSWORD_MAX_TRIES, fundsPasswordWrong (422)
 */
export async function verifyFundsPassword(db: Db, userId: number, password: string): Promise<void> {
  // The outcome is decided inside the transaction but thrown after it commits: throwing inside
  // would roll back the counted failure.
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ hash: userSecurity.fundsPasswordHash, fails: userSecurity.fundsPasswordFails })
      .from(userSecurity)
      .where(eq(userSecurity.userId, userId))
      .for('update');
    if (!row?.hash) return 'notSet' as const;
    if (row.fails >= FUNDS_PASSWORD_MAX_TRIES) return 'locked' as const;
    if (await verifyPassword(password, row.hash)) {
      // A hash stored before argon2id is replaced now that the password is known to be right.
      const rehash = needsRehash(row.hash) ? { fundsPasswordHash: await hashPassword(password) } : {};
      if (row.fails !== 0 || 'fundsPasswordHash' in rehash)
        await tx
          .update(userSecurity)
          .set({ fundsPasswordFails: 0, updatedAt: new Date(), ...rehash })
          .where(eq(userSecurity.userId, userId));
      return 'ok' as const;
    }
    const [after] = await tx
      .update(userSecurity)
      .set({ fundsPasswordFails: sql`${userSecurity.fundsPasswordFails} + 1`, updatedAt: new Date() })
      .where(eq(userSecurity.userId, userId))
      .returning({ fails: userSecurity.fundsPasswordFails });
    return after!.fails >= FUNDS_PASSWORD_MAX_TRIES ? ('nowLocked' as const) : ('wrong' as const);
  });
  switch (outcome) {
    case 'ok':
      return;
    case 'notSet':
      throw fail('fundsPasswordNotSet');
    case 'locked':
    case 'nowLocked':
      throw fail('fundsPasswordLocked');
    case 'wrong':
      throw fail('fundsPasswordWrong');
  }
}

/**
 * Sets the funds password the first time (no hash stored yet). Race-safe: of two concurrent
 * first-time sets, one wins and the other is refused.
 * @throws AppError operationFailed (409) when a funds password was set meanwhile
 */
export async function setFirstFundsPassword(db: Db, userId: number, password: string): Promise<void> {
  const hash = await hashPassword(password);
  const rows = await db
    .insert(userSecurity)
    .values({ userId, fundsPasswordHash: hash, fundsPasswordFails: 0 })
    .onConflictDoUpdate({
      target: userSecurity.userId,
      set: { fundsPasswordHash: hash, fundsPasswordFails: 0, updatedAt: new Date() },
      setWhere: sql`${userSecurity.fundsPasswordHash} is null`,
    })
    .returning({ userId: userSecurity.userId });
  if (!rows.length) throw fail('operationFailed');
}

/** Replaces the funds password (the old one was checked by verifyFundsPassword) and clears the count. */
export async function replaceFundsPassword(db: Db, userId: number, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await db
    .update(userSecurity)
    .set({ fundsPasswordHash: hash, fundsPasswordFails: 0, updatedAt: new Date() })
    .where(eq(userSecurity.userId, userId));
}
