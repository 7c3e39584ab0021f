/**
 * Forced sales of one account (margin-calls.ts MarginCalls.liquidate; contract/risk.ts,
 * docs/adr/0001-account-risk-model.md): the pool due for a sale (the own pool below maintenance,
 * or under its call line after an unmet call's deadline; a follow's pool below maintenance) is
 * sold in liquidationOrder, one margined holding at a time, until no pool is due. A `forcedSale`
 * notice comes first per pool and due sale (unless the evaluation's call already named it). Each
 * sale is the trading engine's forced close (close_reason `liquidation`) with its `liquidation`
 * risk event in the same transaction.
 *
 * Units: minor units, basis points. Errors: a refused close (AppError: market not open, no price)
 * stops the run (`refused`, retried on a later quote); any other close error is logged, likewise.
 */
import { liquidationOrder } from '../../../contract/risk';
import { AppError } from '../common/errors';
import { notifyMember } from '../notices/notify';
import { loadAccountRisk, type LoadedAccountRisk, type OpenOrder, type PoolRisk } from './account-risk';
import { recordRiskEvent } from './events';
import type { MarginCallState, SaleCause } from './margin-calls';

/** Positions closed per account and run at most (a bound on the loop, far above any account's). */
const MAX_CLOSES_PER_RUN = 10_000;

/** A pool due for a sale: the line it is sold back to (basis points) and why. */
interface DuePool {
  pool: PoolRisk;
  lineBps: number;
  cause: SaleCause;
}

/** The pool's margined holdings in sale order, as the notices name them. */
export function saleOrderOf(snap: LoadedAccountRisk, pool: PoolRisk): { orderId: number; symbol: string }[] {
  const bySymbol = new Map(snap.holdings.map((h) => [h.id, h.symbol]));
  return liquidationOrder(pool.risk.positions).map((id) => ({ orderId: id, symbol: bySymbol.get(id)! }));
}

/** The pool to sell next, with the line it is sold back to; undefined when none is due. */
function duePool(
  s: MarginCallState,
  snap: LoadedAccountRisk,
  ownCause: SaleCause | null,
  holding: Set<number>,
): DuePool | undefined {
  const { thresholds } = s.deps;
  for (const pool of snap.pools) {
    const ratio = pool.risk.ratioBps;
    const sellable = pool.risk.positions.some((p) => !p.cash && holding.has(p.id));
    if (!sellable || ratio === null) continue;
    if (pool.followId !== null) {
      if (pool.risk.level === 'liquidation')
        return { pool, lineBps: thresholds.maintenanceBps, cause: 'maintenance' as const };
      continue;
    }
    if (ownCause === 'maintenance' && ratio < thresholds.maintenanceBps)
      return { pool, lineBps: thresholds.maintenanceBps, cause: ownCause };
    if (ownCause === 'deadline' && ratio < thresholds.marginCallBps)
      return { pool, lineBps: thresholds.marginCallBps, cause: ownCause };
  }
  return undefined;
}

/**
 * Sells: the own pool for `ownCause` (null: not the own pool), and any follow pool below
 * maintenance; `noticed`: a notice naming the sale was already committed by this evaluation.
 * Returns the order ids closed, the own pool's ratio after, the symbols still held, and whether
 * the market refused a close.
 */
export async function liquidate(
  s: MarginCallState,
  userId: number,
  ownCause: SaleCause | null,
  noticed: boolean,
): Promise<{ closed: number[]; ratioAfter: number | null; held: string[]; refused: boolean }> {
  const { db, feed, thresholds } = s.deps;
  const closed: number[] = [];
  let refused = false;
  let snap = await loadAccountRisk(db, feed, userId, thresholds);
  const key = (followId: number | null) => `${userId}:${followId ?? 'own'}`;
  if (noticed) s.saleNoticed.add(key(null));
  for (let step = 0; step < MAX_CLOSES_PER_RUN && snap.marked; step++) {
    const holding = new Set(snap.holdings.filter((h) => h.status === 'holding').map((h) => h.id));
    const due = duePool(s, snap, ownCause, holding);
    if (!due) {
      for (const pool of snap.pools) s.saleNoticed.delete(key(pool.followId));
      break;
    }
    const order = saleOrderOf(snap, due.pool).filter((o) => holding.has(o.orderId));
    if (!s.saleNoticed.has(key(due.pool.followId))) {
      await notifyMember(db, userId, 'forcedSale', {
        cause: due.cause,
        ratioBps: due.pool.risk.ratioBps ?? 0,
        lineBps: due.lineBps,
        saleOrder: order.map((o) => o.symbol).join(', '),
        ...(due.pool.followId === null ? {} : { followId: due.pool.followId }),
      });
      s.saleNoticed.add(key(due.pool.followId));
    }
    const sold = await sellNext(s, userId, due, order[0]!);
    if (sold === 'refused') {
      refused = true;
      break;
    }
    if (sold) {
      closed.push(order[0]!.orderId);
      s.liquidations++;
    }
    snap = await loadAccountRisk(db, feed, userId, thresholds);
  }
  return {
    closed,
    ratioAfter: snap.pools[0]!.risk.ratioBps,
    held: snap.holdings.map((h) => h.symbol),
    refused,
  };
}

/**
 * Force-closes `next` of the due pool with its `liquidation` risk event in the close's
 * transaction. Returns true when closed, false when it was no longer holding, 'refused' when the
 * close threw (an AppError is the market refusing: expected; anything else is logged).
 */
async function sellNext(
  s: MarginCallState,
  userId: number,
  due: DuePool,
  next: { orderId: number; symbol: string },
): Promise<boolean | 'refused'> {
  const pos = due.pool.risk.positions.find((p) => p.id === next.orderId)!;
  const why = {
    ratioBps: due.pool.risk.ratioBps,
    detail: {
      symbol: next.symbol,
      thresholdBps: due.lineBps,
      markMinor: pos.markMinor,
      equityMinor: due.pool.risk.equityMinor,
      usedMarginMinor: due.pool.risk.usedMarginMinor,
      cause: due.cause,
      ...(due.pool.followId === null ? {} : { followId: due.pool.followId }),
    },
  };
  let row: OpenOrder | null;
  try {
    row = await s.deps.closer.forceClose(next.orderId, 'liquidation', async (tx, done) => {
      await recordRiskEvent(tx, {
        userId,
        kind: 'liquidation',
        orderId: next.orderId,
        ratioBps: why.ratioBps,
        priceMinor: done.closePriceMinor,
        detail: why.detail,
      });
    });
  } catch (err) {
    // The market refused (not in continuous trading, no price): expected, retried on a later
    // quote. Anything else is logged.
    if (!(err instanceof AppError)) s.deps.log(`liquidation of order ${next.orderId} failed`, err);
    return 'refused';
  }
  return !!row;
}
