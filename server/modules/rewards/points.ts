/**
 * Points: a member's balance (points_accounts, never negative by a CHECK) and its journal
 * (points_entries). Points are not money: they have no TWD value, are never posted to the ledger
 * and cannot be withdrawn; they buy fee coupons (coupons.ts). A cash points code credits TWD
 * through the ledger instead (codes.ts). Every change is `addPoints` inside the caller's
 * transaction, which locks the member's row first, so one member's point operations run one
 * after another and the balance always equals the sum of the journal.
 */
import { eq, sql } from 'drizzle-orm';
import type { PointsReason } from '../../../contract/rewards';
import type { Db, Tx } from '../../db/client';
import { pointsAccounts, pointsEntries } from '../../db/schema';
import { fail } from '../common/errors';
import { isCheckViolation } from '../common/db-errors';

/**
 * Locks the member's points row (creating it at 0 the first time) for the rest of `tx`; returns
 * the balance. Serialises one member's redemptions, sign-ins and purchases.
 */
export async function lockPoints(tx: Tx, userId: number): Promise<number> {
  await tx.insert(pointsAccounts).values({ userId, balance: 0 }).onConflictDoNothing();
  const [row] = await tx
    .select({ balance: pointsAccounts.balance })
    .from(pointsAccounts)
    .where(eq(pointsAccounts.userId, userId))
    .for('update');
  return row!.balance;
}

/**
 * Adds `delta` points (negative to spend) with its journal entry; returns the new balance.
 * @throws AppError insufficientPoints when the balance would go below zero (nothing written)
 */
export async function addPoints(
  tx: Tx,
  userId: number,
  delta: number,
  reason: PointsReason,
  refId: string | number | null,
): Promise<number> {
  if (!Number.isSafeInteger(delta) || delta === 0)
    throw new Error(`points delta not a whole number: ${delta}`);
  await lockPoints(tx, userId);
  let row: { balance: number } | undefined;
  try {
    [row] = await tx.transaction(async (sp) => {
      const r = await sp
        .update(pointsAccounts)
        .set({ balance: sql`${pointsAccounts.balance} + ${delta}` })
        .where(eq(pointsAccounts.userId, userId))
        .returning({ balance: pointsAccounts.balance });
      await sp
        .insert(pointsEntries)
        .values({ userId, delta, reason, refId: refId === null ? null : String(refId) });
      return r;
    });
  } catch (err) {
    if (isCheckViolation(err, 'points_accounts_non_negative')) throw fail('insufficientPoints');
    throw err;
  }
  return row!.balance;
}

/** The member's points balance (0 before the first points). */
export async function pointsBalance(db: Db | Tx, userId: number): Promise<number> {
  const [row] = await db
    .select({ balance: pointsAccounts.balance })
    .from(pointsAccounts)
    .where(eq(pointsAccounts.userId, userId));
  return row?.balance ?? 0;
}
