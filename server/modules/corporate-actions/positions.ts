/**
 * A corporate action applied to one open position (an `orders` row holding or closing), in ONE
 * database transaction with its `corporate_action_adjustments` row (unique per order, session and
 * kind: a second run, a concurrent run or a restart finds it and changes nothing), its ledger
 * transaction and the member's notice:
 *
 * - a unit change (contract/corporate-actions.ts adjustPosition): shares × ratio, lots from the
 *   shares, open value and margin kept, the average price shown re-rounded (money.ts); a fraction
 *   of a new share paid at the day's reference, its realised P&L through cash.ts settleCash; a
 *   position smaller than one new share is paid out whole and closed (`corporateAction`). With
 *   it, in the same transaction: the shares in loan of a lent long (lending_orders, the quota's
 *   lent shares by the same difference), the lent shares a short borrows (lending_allocations),
 *   and the lots recorded on an open copy (follow_copies: the follower's and the mentor's);
 * - a stock dividend's ex-rights value (exRightsCashMinor) settled in cash through settleCash.
 *
 * Units: TWD minor, shares.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  adjustLentShares,
  adjustPosition,
  exRightsCashMinor,
  ratioLabel,
  type ShareRatio,
} from '../../../contract/corporate-actions';
import { mulDivRound } from '../../../contract/money';
import type { Side } from '../../../contract/market-rules';
import type { Db, Tx } from '../../db/client';
import {
  corporateActionAdjustments,
  followCopies,
  lendingAllocations,
  lendingOrders,
  lendingQuotas,
  orders,
} from '../../db/schema';
import { move, post } from '../ledger/ledger';
import { notifyMember } from '../notices/notify';
import type { OrderRow } from '../trading/fills';
import { settleCash } from './cash';

/** Where an adjustment happens: the clock session and its replayed date. */
export interface ActionDay {
  session: number;
  date: string;
}

const lock = async (tx: Tx, id: number): Promise<OrderRow | undefined> =>
  (await tx.select().from(orders).where(eq(orders.id, id)).for('update'))[0];
const isOpen = (o: OrderRow | undefined): o is OrderRow =>
  o !== undefined && (o.status === 'holding' || o.status === 'closing') && o.openValueMinor !== null;

/**
 * Applies the unit change `ratio` (kind `split` or `windowRestart`) of `day` to position
 * `orderId` at the day's reference price `referenceMinor` (per new share). Returns false when
 * the position is no longer open or was already adjusted for (day, kind).
 */
export async function adjustOpenPosition(
  db: Db,
  day: ActionDay,
  kind: 'split' | 'windowRestart',
  ratio: ShareRatio,
  orderId: number,
  referenceMinor: number,
  now: () => Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const o = await lock(tx, orderId);
    if (!isOpen(o)) return false;
    const side = o.side as Side;
    const adj = adjustPosition(
      { side, shares: o.shares, openValueMinor: o.openValueMinor!, marginMinor: o.marginMinor },
      ratio,
      referenceMinor,
    );
    const [rec] = await tx
      .insert(corporateActionAdjustments)
      .values({
        orderId: o.id,
        userId: o.userId,
        symbol: o.symbol,
        session: day.session,
        actionDate: day.date,
        kind,
        target: 'position',
        outcome: adj.shares === 0 ? 'paidOut' : 'adjusted',
        oldShares: ratio.oldShares,
        newShares: ratio.newShares,
        sharesBefore: o.shares,
        sharesAfter: adj.shares,
        openValueBeforeMinor: o.openValueMinor,
        openValueAfterMinor: adj.shares === 0 ? 0 : adj.openValueMinor,
        cashMinor: adj.realisedPnlMinor,
      })
      .onConflictDoNothing()
      .returning({ id: corporateActionAdjustments.id });
    if (!rec) return false;
    const memo = `${o.symbol} ${day.date} ${ratioLabel(ratio)}`;
    let openPriceMinor: number | null = null;
    if (adj.shares === 0) {
      // Smaller than one new share: the whole position is the fraction, paid at the reference.
      await post(tx, {
        type: 'stockSale',
        refType: 'order',
        refId: o.id,
        actorUserId: o.userId,
        memo,
        postings: move(
          { userId: o.userId, purpose: 'margin' },
          { userId: o.userId, purpose: 'available' },
          o.marginMinor,
        ),
      });
      await tx
        .update(orders)
        .set({
          status: 'closed',
          closePriceMinor: referenceMinor,
          closedAt: now(),
          closeFeeMinor: 0,
          closeTaxMinor: 0,
          pnlMinor: adj.realisedPnlMinor,
          closeReason: 'corporateAction',
        })
        .where(eq(orders.id, o.id));
    } else {
      openPriceMinor = mulDivRound(adj.openValueMinor, 1, adj.shares);
      await tx
        .update(orders)
        .set({ shares: adj.shares, lots: adj.lots, openValueMinor: adj.openValueMinor, openPriceMinor })
        .where(eq(orders.id, o.id));
    }
    const txId = await settleCash(tx, o, adj.realisedPnlMinor, memo);
    if (txId !== null)
      await tx
        .update(corporateActionAdjustments)
        .set({ ledgerTransactionId: txId })
        .where(eq(corporateActionAdjustments.id, rec.id));
    await adjustLending(tx, o, ratio, now);
    await tx
      .update(followCopies)
      .set({ lots: adj.lots })
      .where(and(eq(followCopies.orderId, o.id), eq(followCopies.status, 'open')));
    await tx
      .update(followCopies)
      .set({ mentorLots: adj.lots })
      .where(and(eq(followCopies.mentorOrderId, o.id), eq(followCopies.status, 'open')));
    await notifyMember(tx, o.userId, 'positionAdjusted', {
      orderId: o.id,
      symbol: o.symbol,
      date: day.date,
      split: ratioLabel(ratio),
      oldShares: ratio.oldShares,
      newShares: ratio.newShares,
      sharesBefore: o.shares,
      sharesAfter: adj.shares,
      openValueMinor: adj.shares === 0 ? 0 : adj.openValueMinor,
      openPriceMinor: openPriceMinor ?? referenceMinor,
      cashMinor: adj.cashInLieuMinor,
      currency: 'TWD',
    });
    return true;
  });
}

/**
 * The shares in loan of long `o` (lending orders in loan; the instrument's lent shares by the same
 * difference) and the shares short `o` borrows (open allocations) after `ratio`. A loan or a
 * borrow left with no whole share ends (finished `positionClosed` / returned).
 */
async function adjustLending(tx: Tx, o: OrderRow, ratio: ShareRatio, now: () => Date): Promise<void> {
  if (o.side === 'long') {
    const loans = await tx
      .select()
      .from(lendingOrders)
      .where(and(eq(lendingOrders.orderId, o.id), eq(lendingOrders.status, 'inLoan')))
      .for('update');
    let delta = 0;
    for (const loan of loans) {
      const shares = adjustLentShares(loan.shares, ratio);
      delta += shares - loan.shares;
      await tx
        .update(lendingOrders)
        .set(
          shares > 0 ? { shares } : { status: 'finished', finishReason: 'positionClosed', finishedAt: now() },
        )
        .where(eq(lendingOrders.id, loan.id));
    }
    if (delta !== 0)
      await tx
        .update(lendingQuotas)
        .set({ lentShares: sql`greatest(${lendingQuotas.lentShares} + ${delta}, 0)` })
        .where(eq(lendingQuotas.symbol, o.symbol));
    return;
  }
  const borrows = await tx
    .select()
    .from(lendingAllocations)
    .where(and(eq(lendingAllocations.shortOrderId, o.id), eq(lendingAllocations.status, 'open')))
    .for('update');
  for (const a of borrows) {
    const shares = adjustLentShares(a.shares, ratio);
    await tx
      .update(lendingAllocations)
      .set(shares > 0 ? { shares } : { status: 'returned', endDay: a.startDay })
      .where(eq(lendingAllocations.id, a.id));
  }
}

/**
 * Settles the ex-rights value of `day`'s stock-dividend event (close before → reference) on
 * position `orderId`: + to a long, − from a short (exRightsCashMinor). Returns false when the
 * position is no longer open or was already settled for the day.
 */
export async function settleExRights(
  db: Db,
  day: ActionDay,
  event: { closeBeforeMinor: number; referenceMinor: number },
  orderId: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const o = await lock(tx, orderId);
    if (!isOpen(o)) return false;
    const amount = exRightsCashMinor(o.side as Side, o.shares, event.closeBeforeMinor, event.referenceMinor);
    const [rec] = await tx
      .insert(corporateActionAdjustments)
      .values({
        orderId: o.id,
        userId: o.userId,
        symbol: o.symbol,
        session: day.session,
        actionDate: day.date,
        kind: 'exRights',
        target: 'position',
        outcome: 'settled',
        sharesBefore: o.shares,
        sharesAfter: o.shares,
        openValueBeforeMinor: o.openValueMinor,
        openValueAfterMinor: o.openValueMinor,
        cashMinor: amount,
      })
      .onConflictDoNothing()
      .returning({ id: corporateActionAdjustments.id });
    if (!rec) return false;
    const txId = await settleCash(tx, o, amount, `${o.symbol} ${day.date} ex-rights`);
    if (txId !== null)
      await tx
        .update(corporateActionAdjustments)
        .set({ ledgerTransactionId: txId })
        .where(eq(corporateActionAdjustments.id, rec.id));
    await notifyMember(tx, o.userId, 'exRightsSettled', {
      orderId: o.id,
      symbol: o.symbol,
      date: day.date,
      shares: o.shares,
      amountMinor: amount,
      closeBeforeMinor: event.closeBeforeMinor,
      referenceMinor: event.referenceMinor,
      currency: 'TWD',
    });
    return true;
  });
}

/**
 * Orders of `symbol` matching `which` and not yet adjusted for (session, kind): id, trade date and
 * the instant that dates them (`at`, opened at or created at), in id order.
 */
export async function unadjustedOrders(
  db: Db,
  symbol: string,
  session: number,
  kind: string,
  which: { where: SQL; at: typeof orders.openedAt | typeof orders.createdAt },
) {
  return db
    .select({ id: orders.id, tradeDate: orders.tradeDate, at: which.at })
    .from(orders)
    .leftJoin(
      corporateActionAdjustments,
      and(
        eq(corporateActionAdjustments.orderId, orders.id),
        eq(corporateActionAdjustments.session, session),
        sql`${corporateActionAdjustments.kind} = ${kind}`,
      ),
    )
    .where(and(eq(orders.symbol, symbol), which.where, sql`${corporateActionAdjustments.id} is null`))
    .orderBy(orders.id);
}

/** Open positions of `symbol` not yet adjusted for (session, kind). */
export const openPositionsOf = (db: Db, symbol: string, session: number, kind: string) =>
  unadjustedOrders(db, symbol, session, kind, {
    where: and(inArray(orders.status, ['holding', 'closing']), sql`${orders.openValueMinor} is not null`)!,
    at: orders.openedAt,
  });
