/**
 * A copy's money in its follow's pool (docs/copy-trading.md "Pools and profit share"): every cash
 * flow of a copy goes through the follow's cash, and the mentor's profit share is settled from
 * each copy's realised P&L in the transaction that closes it, whoever closes it.
 *
 * - Close (`settleCopyClose`, the trading engine's `onClose` hook, so in the close's own
 *   transaction: the mentor's close mirrored, the follower's close by hand, the risk monitor's
 *   liquidation, the day-trade close, a stop): the position's proceeds (margin + P&L − close fee −
 *   close tax, credited to `available` by the close) move to the follow's cash (`followTransfer`);
 *   a loss beyond the margin is taken from the follow's cash (at most all of it), repaying first
 *   what the close left the member owing (`debt`), then their available. The copy is
 *   marked closed with the reason its order was closed with (copyCloseReason), so moving cash out
 *   of the wallet afterwards (an exchange, a withdrawal) cannot take the proceeds along.
 * - Realised P&L of a copy, TWD minor = what came back to the follow − what its opening took from
 *   the follow (margin + open fee + open tax) + its cash flows (dividends, borrow fees) = the
 *   order's P&L − fees − taxes + cash flows whenever the follow could pay its loss.
 * - Profit share, high-water-mark style: the follow's realised P&L accumulates
 *   (`follows.realised_minor`); when amount + realised rises above the high-water mark, the mentor
 *   receives mentors.profit_share_bps of the rise (truncated: a share paid never exceeds its rate;
 *   `followRebate`, follow → the mentor's available) and the mark moves up to it. A loss lowers
 *   the level and nothing is paid until it is made good. So cash = amount + realised − shares paid
 *   − open copies' cost + open copies' cash flows at every commit.
 * - Cash flows (`postCopyCashFlow`): a dividend credited or charged on a copy (dividends/crediting.ts)
 *   and a short copy's borrow fee (lending/service.ts) move through the follow's cash, never the
 *   member's wallet; a charge beyond the follow's cash is owed by the member (`debt`), as a loss
 *   beyond funds is. On an open copy they count in its realised P&L at its close; on a copy
 *   already closed (a borrow fee charged after its day) they are realised at once.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { CopyReason } from '../../../contract/copy-trading';
import type { Tx } from '../../db/client';
import {
  followCopies,
  follows,
  ledgerAccounts,
  ledgerPostings,
  ledgerTransactions,
  mentors,
} from '../../db/schema';
import { move, post, postAll, type AccountRef, type PostInput, type PostingInput } from '../ledger/ledger';
import type { OrderRow } from '../trading/engine';
import { lockedAvailable } from '../trading/fills';
import { availableAcc, followAcc, followRef, lockFollow, type CopyRow, type FollowRow } from './pool';
import { bpsOf } from './rules';

/** The copy reason of a copy whose order was closed with `closeReason` (contract/trading.ts CLOSE_REASONS). */
export function copyCloseReason(closeReason: string | null): CopyReason {
  switch (closeReason) {
    case 'copyMentorClosed':
      return 'mentorClosed';
    case 'copyStopLoss':
      return 'stopLoss';
    case 'copyFollowEnded':
      return 'followStopped';
    case 'liquidation':
      return 'liquidation';
    case 'dayTradeClose':
      return 'dayTradeClose';
    default:
      return 'follower';
  }
}

/** The order close reason copy trading closes a copy with, for each reason it closes for. */
export const COPY_CLOSE_REASONS = {
  mentorClosed: 'copyMentorClosed',
  stopLoss: 'copyStopLoss',
  followStopped: 'copyFollowEnded',
} as const;

/**
 * Adds `pnlMinor` to follow `f`'s realised P&L and works out the mentor's share of any rise above
 * the high-water mark, at most `payableMinor` (the follow's cash after this step). Returns the
 * follow's new columns, the share and its posting (none when the share is 0).
 */
async function realise(tx: Tx, f: FollowRow, pnlMinor: number, payableMinor: number, key?: string) {
  const [m] = await tx
    .select({ userId: mentors.userId, bps: mentors.profitShareBps })
    .from(mentors)
    .where(eq(mentors.id, f.mentorId));
  const realisedMinor = f.realisedMinor + pnlMinor;
  const level = f.amountMinor + realisedMinor;
  const share =
    level > f.highWaterMinor
      ? Math.max(0, Math.min(bpsOf(level - f.highWaterMinor, m!.bps), payableMinor))
      : 0;
  const rebate: PostInput | null =
    share > 0
      ? {
          type: 'followRebate',
          ...followRef(f),
          idempotencyKey: key,
          postings: move(followAcc(f.userId), availableAcc(m!.userId), share),
        }
      : null;
  return {
    share,
    rebate,
    set: {
      realisedMinor,
      highWaterMinor: Math.max(f.highWaterMinor, level),
      profitShareMinor: f.profitShareMinor + share,
    },
  };
}

/** What the close of order `orderId` left owed (its lossShortfall postings on `debt`), TWD minor ≥ 0. */
async function shortfallOf(tx: Tx, orderId: number): Promise<number> {
  const [row] = await tx
    .select({ s: sql<string>`coalesce(sum(${ledgerPostings.amountMinor}), 0)` })
    .from(ledgerPostings)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerPostings.transactionId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .where(
      and(
        eq(ledgerTransactions.type, 'lossShortfall'),
        eq(ledgerTransactions.refType, 'order'),
        eq(ledgerTransactions.refId, String(orderId)),
        eq(ledgerAccounts.purpose, 'debt'),
      ),
    );
  return Math.max(0, -Number(row!.s));
}

/**
 * The engine's `onClose` hook (trading/engine.ts), in the close's transaction: when `closed` is
 * an open copy's order, settles it (settleCopy). One indexed lookup for any other order.
 */
export async function settleCopyClose(tx: Tx, closed: OrderRow): Promise<void> {
  const [c] = await tx
    .select()
    .from(followCopies)
    .where(and(eq(followCopies.orderId, closed.id), eq(followCopies.status, 'open')));
  if (c) await settleCopy(tx, c, closed, false);
}

/**
 * Marks copy `c` closed with the reason of its order `closed` and settles it in `tx`: proceeds to
 * the follow's cash, realised P&L, the mentor's share (module docstring). `bounded`: the close
 * happened in a transaction that did not settle it (a position closed before this hook existed),
 * so the member may have spent the proceeds: at most `available` moves. Nothing happens when the
 * copy was already marked.
 */
export async function settleCopy(tx: Tx, c: CopyRow, closed: OrderRow, bounded: boolean): Promise<void> {
  const f = await lockFollow(tx, c.followId);
  const marked = await tx
    .update(followCopies)
    .set({ status: 'closed', reason: copyCloseReason(closed.closeReason), closedAt: closed.closedAt })
    .where(and(eq(followCopies.id, c.id), eq(followCopies.status, 'open')))
    .returning();
  if (!f || marked.length === 0) return;
  const proceeds = closed.marginMinor + (closed.pnlMinor ?? 0) - closed.closeFeeMinor - closed.closeTaxMinor;
  let back = proceeds >= 0 ? proceeds : -Math.min(-proceeds, f.cashMinor);
  if (bounded && back > 0) back = Math.min(back, Math.max(0, await lockedAvailable(tx, f.userId)));
  const cost = closed.marginMinor + closed.openFeeMinor + closed.openTaxMinor;
  const pnl = back - cost + c.cashFlowMinor;
  const r = await realise(tx, f, pnl, f.cashMinor + back, `followRebate:copy:${c.id}`);
  const batch: PostInput[] = [];
  if (back > 0)
    batch.push({
      type: 'followTransfer',
      ...followRef(f),
      postings: move(availableAcc(f.userId), followAcc(f.userId), back),
    });
  else if (back < 0) {
    // The loss went through the member's available, and what available could not cover became
    // debt (the engine's lossShortfall): the follow repays that debt first, then available.
    const toDebt = Math.min(-back, await shortfallOf(tx, closed.id));
    const legs: PostingInput[] = [
      { account: followAcc(f.userId), amountMinor: back },
      { account: { userId: f.userId, purpose: 'debt' }, amountMinor: toDebt },
      { account: availableAcc(f.userId), amountMinor: -back - toDebt },
    ];
    batch.push({
      type: 'followTransfer',
      ...followRef(f),
      postings: legs.filter((p) => p.amountMinor !== 0),
    });
  }
  if (r.rebate) batch.push(r.rebate);
  if (batch.length > 0) await postAll(tx, batch);
  await tx
    .update(follows)
    .set({ cashMinor: f.cashMinor + back - r.share, ...r.set })
    .where(eq(follows.id, f.id));
  await tx
    .update(followCopies)
    .set({ pnlMinor: pnl, profitShareMinor: r.share })
    .where(eq(followCopies.id, c.id));
}

/**
 * Posts a cash flow of position `orderId` (a dividend, a borrow fee: `entry` without its
 * postings) through its follow's pool when the position is a copy of a running follow:
 * `amountMinor` (signed, + to the member) moves between `counterparty` and the follow's cash; a
 * charge beyond the follow's cash is owed by the member (`debt`). Updates the follow's cash and the
 * copy's cash flow in `tx` (realised at once, with the mentor's share, when the copy is already
 * closed). Returns the ledger transaction id, or null when the position is not such a copy: the
 * caller then posts to the member's wallet as for any position.
 */
export async function postCopyCashFlow(
  tx: Tx,
  orderId: number,
  amountMinor: number,
  counterparty: AccountRef,
  entry: Omit<PostInput, 'postings'>,
): Promise<number | null> {
  const [c] = await tx.select().from(followCopies).where(eq(followCopies.orderId, orderId));
  if (!c || amountMinor === 0) return null;
  const f = await lockFollow(tx, c.followId);
  if (!f || f.status !== 'following') return null;
  const fromPool = amountMinor >= 0 ? amountMinor : -Math.min(-amountMinor, f.cashMinor);
  const postings: PostingInput[] = [
    { account: counterparty, amountMinor: -amountMinor },
    { account: followAcc(f.userId), amountMinor: fromPool },
  ];
  if (fromPool !== amountMinor)
    postings.push({ account: { userId: f.userId, purpose: 'debt' }, amountMinor: amountMinor - fromPool });
  const txId = await post(tx, { ...entry, postings });
  const cash = f.cashMinor + fromPool;
  if (c.status === 'open') {
    await tx.update(follows).set({ cashMinor: cash }).where(eq(follows.id, f.id));
    await tx
      .update(followCopies)
      .set({ cashFlowMinor: sql`${followCopies.cashFlowMinor} + ${fromPool}` })
      .where(eq(followCopies.id, c.id));
    return txId;
  }
  const r = await realise(tx, f, fromPool, cash);
  if (r.rebate) await post(tx, r.rebate);
  await tx
    .update(follows)
    .set({ cashMinor: cash - r.share, ...r.set })
    .where(eq(follows.id, f.id));
  await tx
    .update(followCopies)
    .set({
      cashFlowMinor: sql`${followCopies.cashFlowMinor} + ${fromPool}`,
      pnlMinor: sql`coalesce(${followCopies.pnlMinor}, 0) + ${fromPool}`,
      profitShareMinor: sql`coalesce(${followCopies.profitShareMinor}, 0) + ${r.share}`,
    })
    .where(eq(followCopies.id, c.id));
  return txId;
}
