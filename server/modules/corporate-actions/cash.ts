/**
 * The cash a corporate action moves for one position (fund-flow type `corporateAction`, refType
 * `order`): the realised P&L of a fraction of a share paid in cash, or a stock dividend's
 * ex-rights value. Between the member and the platform's `trading_pnl` (the simulated venue's
 * counterparty, as for a close's P&L and a cash dividend):
 *
 * | amount | ledger (TWD minor)                                                                  |
 * |--------|-------------------------------------------------------------------------------------|
 * | ≥ 0    | trading_pnl → member available                                                      |
 * | < 0    | member available → trading_pnl; what `available` cannot cover from `debt` (owed)    |
 *
 * A copy (an open `follow_copies` row of copy trading) keeps its cash flows in its follow's pool:
 * a credit continues available → follow (`followTransfer`, follows.cash_minor raised), a charge is
 * first paid follow → available from the follow's cash (at most all of it).
 * All inside the caller's transaction, which holds the order's row lock.
 */
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { followCopies, follows } from '../../db/schema';
import { move, post, postAll, type PostInput } from '../ledger/ledger';
import { lockedAvailable } from '../trading/fills';

const available = (userId: number) => ({ userId, purpose: 'available' as const });
const followAcc = (userId: number) => ({ userId, purpose: 'follow' as const });

/**
 * Moves `amountMinor` (signed from the member's side) for position `order` as described in the
 * module docstring; returns the `corporateAction` ledger transaction id (null for 0).
 */
export async function settleCash(
  tx: Tx,
  order: { id: number; userId: number },
  amountMinor: number,
  memo: string,
): Promise<number | null> {
  if (amountMinor === 0) return null;
  const ref = { refType: 'order', refId: order.id, actorUserId: order.userId, memo };
  const [copy] = await tx
    .select({ followId: followCopies.followId })
    .from(followCopies)
    .where(and(eq(followCopies.orderId, order.id), eq(followCopies.status, 'open')));
  const [f] = copy ? await tx.select().from(follows).where(eq(follows.id, copy.followId)).for('update') : [];
  if (amountMinor > 0) {
    const batch: PostInput[] = [
      {
        type: 'corporateAction',
        ...ref,
        postings: move({ platform: 'trading_pnl' }, available(order.userId), amountMinor),
      },
    ];
    if (f)
      batch.push({
        type: 'followTransfer',
        ...ref,
        postings: move(available(f.userId), followAcc(f.userId), amountMinor),
      });
    const [id] = await postAll(tx, batch);
    if (f)
      await tx
        .update(follows)
        .set({ cashMinor: f.cashMinor + amountMinor })
        .where(eq(follows.id, f.id));
    return id!;
  }
  const charge = -amountMinor;
  const fromPool = f ? Math.min(charge, Math.max(0, f.cashMinor)) : 0;
  if (f && fromPool > 0) {
    await post(tx, {
      type: 'followTransfer',
      ...ref,
      postings: move(followAcc(f.userId), available(f.userId), fromPool),
    });
    await tx
      .update(follows)
      .set({ cashMinor: f.cashMinor - fromPool })
      .where(eq(follows.id, f.id));
  }
  const fromAvailable = Math.min(Math.max(await lockedAvailable(tx, order.userId), 0), charge);
  return post(tx, {
    type: 'corporateAction',
    ...ref,
    postings: [
      { account: available(order.userId), amountMinor: -fromAvailable },
      { account: { userId: order.userId, purpose: 'debt' }, amountMinor: -(charge - fromAvailable) },
      { account: { platform: 'trading_pnl' }, amountMinor: charge },
    ],
  });
}
