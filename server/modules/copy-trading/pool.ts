/**
 * A follow's pool: the pieces the copy-trading files share (follows.ts, mirroring.ts,
 * settlement.ts, stop.ts).
 *
 * A follow's cash (`follows.cash_minor`, TWD minor) is its part of the member's `follow` ledger
 * account, changed only in the transaction of a posting on that account. Lock order, the same in
 * every transaction that touches a follow: the member's `available` account first
 * (fills.ts lockedAvailable), then the follow's row. A close already holds `available` when
 * copy trading settles it (the engine's closeAt locks it), so taking the follow's row second
 * everywhere keeps two such transactions from waiting on each other.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { followCopies, follows, users } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';
import type { AuthUser } from '../common/context';
import type { AccountRef } from '../ledger/ledger';
import type { TradingEngine } from '../trading/engine';
import { lockedAvailable } from '../trading/fills';

export type FollowRow = typeof follows.$inferSelect;
export type CopyRow = typeof followCopies.$inferSelect;

/** The services mirroring and stopping need. */
export interface CopyDeps {
  db: Db;
  trading: TradingEngine;
  feed: MarketFeed;
  now: () => number;
  log?: (msg: string, err?: unknown) => void;
}

/** The ledger reference of a follow's flows. */
export const followRef = (f: { id: number; userId: number }) => ({
  refType: 'follow',
  refId: f.id,
  actorUserId: f.userId,
});
export const followAcc = (userId: number): AccountRef => ({ userId, purpose: 'follow' });
export const availableAcc = (userId: number): AccountRef => ({ userId, purpose: 'available' });

/**
 * Locks follow `followId` for an update of its cash, in the pool's lock order (module docstring):
 * the member's `available` account, then the row. Undefined when there is no such follow.
 */
export async function lockFollow(tx: Tx, followId: number): Promise<FollowRow | undefined> {
  const [owner] = await tx.select({ userId: follows.userId }).from(follows).where(eq(follows.id, followId));
  if (!owner) return undefined;
  await lockedAvailable(tx, owner.userId);
  const [f] = await tx.select().from(follows).where(eq(follows.id, followId)).for('update');
  return f;
}

/** The member as the trading engine's entry checks see them. */
export async function userOf(db: Db | Tx, userId: number): Promise<AuthUser> {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  return {
    id: u!.id,
    account: u!.account,
    role: u!.role,
    tradeBanned: u!.tradeBanned || u!.frozen,
    withdrawBanned: u!.withdrawBanned || u!.frozen,
    frozen: u!.frozen,
  };
}

/** Open copies of follow `followId`, oldest first. */
export const openCopies = (d: Db | Tx, followId: number) =>
  d
    .select()
    .from(followCopies)
    .where(and(eq(followCopies.followId, followId), eq(followCopies.status, 'open')))
    .orderBy(asc(followCopies.id));
