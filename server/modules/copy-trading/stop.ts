/**
 * Closing copies and ending follows (docs/copy-trading.md "Ending").
 *
 * Copy trading closes a copy through the engine's forced close with the order close reason of why
 * (settlement.ts COPY_CLOSE_REASONS: copyMentorClosed, copyStopLoss, copyFollowEnded); the
 * engine's onClose hook settles it in the close's transaction (settlement.ts settleCopyClose),
 * as it does for a copy the member or the risk monitor closes.
 *
 * Ending (member stop, deadline, operator): every open copy is closed first (each settling its
 * profit share); then, in one transaction, the follow's cash returns to the member's available
 * (`followReturn`). The mentor's share was settled at each close, so nothing is left to share here
 * (the follow's cash never exceeds its high-water mark less the shares paid: settlement.ts).
 */
import { eq } from 'drizzle-orm';
import { follows, orders } from '../../db/schema';
import { fail } from '../common/errors';
import { move, post } from '../ledger/ledger';
import {
  availableAcc,
  followAcc,
  followRef,
  lockFollow,
  openCopies,
  type CopyDeps,
  type CopyRow,
  type FollowRow,
} from './pool';
import { COPY_CLOSE_REASONS, settleCopy } from './settlement';

/**
 * Settles copy `c` whose position is already closed but was not settled in its close's
 * transaction (closes written without the engine's onClose hook): proceeds back, at most what
 * `available` still holds. Resolves false when the position is still open.
 */
export async function settleClosedElsewhere(deps: CopyDeps, c: CopyRow): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [o] = await tx.select().from(orders).where(eq(orders.id, c.orderId!)).for('update');
    if (!o || o.status !== 'closed') return false;
    await settleCopy(tx, c, o, true);
    return true;
  });
}

/**
 * Closes open copy `c` at market (engine forceClose) with the close reason of `reason`, settled in
 * the close's transaction by the engine's onClose hook; a savepoint of `deps.db` when that is a
 * transaction (follow/stop's request transaction). A copy whose position was already closed is
 * only settled if it was not. Resolves false when nothing was closed here.
 * @throws the engine's refusal (nonTradingTime, priceUnavailable).
 */
export async function closeCopy(
  deps: CopyDeps,
  c: CopyRow,
  reason: keyof typeof COPY_CLOSE_REASONS,
): Promise<boolean> {
  if (await settleClosedElsewhere(deps, c)) return false;
  const closed = await deps.trading.forceClose(
    c.orderId!,
    COPY_CLOSE_REASONS[reason],
    undefined,
    undefined,
    deps.db,
  );
  if (!closed) await settleClosedElsewhere(deps, c);
  return closed !== null;
}

/**
 * Ends a follow: closes its open copies (`followStopped`, each settling its profit share), then
 * returns the follow's cash to the member's wallet (`followReturn`) in one transaction. `deps.db`
 * may be a request's idempotency transaction (follow/stop): every close and the return then
 * commit with the stored answer, so a retry with the same key gets that answer and moves nothing.
 * @throws notFound (404), followNotRunning (409), followHasOpenCopies (409: a copy could not be
 *   closed now, e.g. outside trading hours; nothing was returned)
 */
export async function endFollow(
  deps: CopyDeps,
  followId: number,
  endReason: 'member' | 'deadline' | 'operator',
  ownerId?: number,
): Promise<FollowRow> {
  const [f0] = await deps.db.select().from(follows).where(eq(follows.id, followId));
  if (!f0 || (ownerId !== undefined && f0.userId !== ownerId)) throw fail('notFound');
  if (f0.status !== 'following') throw fail('followNotRunning');
  for (const c of await openCopies(deps.db, followId)) {
    try {
      await closeCopy(deps, c, 'followStopped');
    } catch {
      throw fail('followHasOpenCopies');
    }
  }
  return deps.db.transaction(async (tx) => {
    const f = (await lockFollow(tx, followId))!;
    if (f.status !== 'following') throw fail('followNotRunning');
    if ((await openCopies(tx, f.id)).length > 0) throw fail('followHasOpenCopies');
    const equity = f.cashMinor;
    if (equity > 0)
      await post(tx, {
        type: 'followReturn',
        ...followRef(f),
        idempotencyKey: `followReturn:${f.id}`,
        postings: move(followAcc(f.userId), availableAcc(f.userId), equity),
      });
    const [row] = await tx
      .update(follows)
      .set({
        status: endReason === 'operator' ? 'cancelled' : 'ended',
        endReason,
        cashMinor: 0,
        returnedMinor: equity,
        endedAt: new Date(deps.now()),
      })
      .where(eq(follows.id, f.id))
      .returning();
    return row!;
  });
}
