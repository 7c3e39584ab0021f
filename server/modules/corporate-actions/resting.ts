/**
 * A unit change applied to one resting limit order (an `orders` row pending in the regular
 * session), in ONE database transaction with its `corporate_action_adjustments` row (unique per
 * order, session and kind) and the member's notice (contract/corporate-actions.ts
 * adjustRestingOrder):
 * - adjusted: shares × ratio in whole lots, the limit re-priced on the tick table on the member's
 *   side, frozen funds unchanged (a fill at the new price costs what it would have: the engine's
 *   fill returns or takes the difference as for any fill, trading/fills.ts fillFromFrozen);
 * - cancelled (`corporateAction`): the frozen funds back to `available` (fills.ts releaseOrder).
 * The caller then has the trading engine re-admit the row at its new price (engine `readmit`).
 * Units: TWD minor, shares.
 */
import { and, eq, sql } from 'drizzle-orm';
import { adjustRestingOrder, ratioLabel, type ShareRatio } from '../../../contract/corporate-actions';
import { DEFAULT_FEES, type InstrumentKind, type Side } from '../../../contract/market-rules';
import type { Db } from '../../db/client';
import { corporateActionAdjustments, orders } from '../../db/schema';
import { notifyMember } from '../notices/notify';
import { releaseOrder, type OrderRow } from '../trading/fills';
import { unadjustedOrders, type ActionDay } from './positions';

/**
 * Applies `ratio` of `day` (kind `split` or `windowRestart`) to resting order `orderId`; returns
 * the row as it stands after (to re-admit), or null when it is no longer pending or was already
 * adjusted for (day, kind).
 */
export async function adjustRestingLimit(
  db: Db,
  day: ActionDay,
  kind: 'split' | 'windowRestart',
  ratio: ShareRatio,
  orderId: number,
  instrumentKind: InstrumentKind,
  now: () => Date,
): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const [o] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!o || o.status !== 'pending' || o.limitPriceMinor === null) return null;
    const r = adjustRestingOrder(
      { side: o.side as Side, shares: o.shares, limitPriceMinor: o.limitPriceMinor },
      ratio,
      instrumentKind,
    );
    const adjusted = r.outcome === 'adjusted';
    const [rec] = await tx
      .insert(corporateActionAdjustments)
      .values({
        orderId: o.id,
        userId: o.userId,
        symbol: o.symbol,
        session: day.session,
        actionDate: day.date,
        kind,
        target: 'order',
        outcome: r.outcome,
        oldShares: ratio.oldShares,
        newShares: ratio.newShares,
        sharesBefore: o.shares,
        sharesAfter: adjusted ? r.shares : o.shares,
        limitBeforeMinor: o.limitPriceMinor,
        limitAfterMinor: adjusted ? r.limitPriceMinor : null,
      })
      .onConflictDoNothing()
      .returning({ id: corporateActionAdjustments.id });
    if (!rec) return null;
    const common = {
      orderId: o.id,
      orderNo: o.orderNo,
      symbol: o.symbol,
      date: day.date,
      split: ratioLabel(ratio),
    };
    if (!adjusted) {
      const released = await releaseOrder(
        tx,
        { fees: DEFAULT_FEES, kindOf: () => instrumentKind, now },
        o,
        'corporateAction',
      );
      await notifyMember(tx, o.userId, 'orderCancelledByAction', {
        ...common,
        reason: r.reason,
        amountMinor: o.frozenMinor,
        currency: 'TWD',
      });
      return released;
    }
    const [row] = await tx
      .update(orders)
      .set({ shares: r.shares, lots: r.lots, limitPriceMinor: r.limitPriceMinor })
      .where(eq(orders.id, o.id))
      .returning();
    await notifyMember(tx, o.userId, 'orderAdjusted', {
      ...common,
      sharesBefore: o.shares,
      sharesAfter: r.shares,
      limitBeforeMinor: o.limitPriceMinor,
      limitAfterMinor: r.limitPriceMinor,
      currency: 'TWD',
    });
    return row!;
  });
}

/** Resting regular-session limit orders of `symbol` not yet adjusted for (session, kind). */
export const restingOrdersOf = (db: Db, symbol: string, session: number, kind: string) =>
  unadjustedOrders(db, symbol, session, kind, {
    where: and(
      eq(orders.status, 'pending'),
      eq(orders.entrySession, 'regular'),
      sql`${orders.limitPriceMinor} is not null`,
    )!,
    at: orders.createdAt,
  });
