/**
 * Margin calls and forced sales of one account (contract/risk.ts; docs/adr/0001-account-risk-model.md),
 * run by the risk monitor (monitor.ts) one account at a time:
 *
 * - **Call** (updateCall): the own pool's ratio below MARGIN_CALL_BPS raises a call: a
 *   `marginCall` risk event and notice that name the deadline (the first trading session of forced
 *   sales: called session + MARGIN_CALL_GRACE_DAYS + 1, TW-MARKET-RULES "Maintenance call") and
 *   the order in which the margined positions would be sold (largest loss first). It clears at
 *   MARGIN_CALL_BPS + MARGIN_CALL_CLEAR_BAND_BPS, or when nothing margined is left.
 * - **Forced sales** (liquidate), only of margined positions (a cash holding is never sold):
 *   - below MAINTENANCE_BPS, at once, until the pool is back at or above it;
 *   - an own-pool call still open on or after its deadline session, while the ratio is below
 *     MARGIN_CALL_BPS, until it is back at or above it (then the call is closed: a later fall is a
 *     new call with a new deadline);
 *   - a follow's pool (copy trading) below maintenance: its copies, until the pool is back.
 *   A notice always comes first, in a transaction committed before the first sale: the call itself
 *   when this evaluation raised it straight below maintenance (`immediate`), else a `forcedSale`
 *   notice naming the cause and the order of sales.
 *
 * Each sale goes through the trading engine's forced close (close_reason `liquidation`) with its
 * `liquidation` risk event in the same transaction. Units: minor units, basis points, sessions.
 */
import {
  liquidationOrder,
  marginCallSaleSession,
  nextMarginCallState,
  type RiskThresholds,
} from '../../../contract/risk';
import type { Db, Tx } from '../../db/client';
import type { MarketFeed } from '../../market/feed';
import { AppError } from '../common/errors';
import { notifyMember } from '../notices/notify';
import { loadAccountRisk, type LoadedAccountRisk, type OpenOrder, type PoolRisk } from './account-risk';
import { lastMarginCall, openMarginCall, recordRiskEvent, type OpenMarginCall } from './events';

/** Positions closed per account and run at most (a bound on the loop, far above any account's). */
const MAX_CLOSES_PER_RUN = 10_000;

/** The trading engine's forced close, as forced sales need it. */
export interface PositionCloser {
  /**
   * Closes a holding at market for `reason`, running `onClosed` in the same DB transaction;
   * resolves null when the order is no longer holding (closed first by someone else).
   * @throws AppError when the market refuses (not open, no price).
   */
  forceClose(
    orderId: number,
    reason: 'liquidation',
    onClosed?: (tx: Tx, closed: OpenOrder) => Promise<void>,
  ): Promise<OpenOrder | null>;
}

/** What margin calls and forced sales need. */
export interface MarginCallDeps {
  db: Db;
  feed: Pick<MarketFeed, 'quote' | 'kind'>;
  closer: PositionCloser;
  thresholds: RiskThresholds;
  /** The market clock's trading session number now (replay: the clock session). */
  session: () => number;
  /** The trading date of a session, for the notice (null when the clock has none). */
  sessionDate: (session: number) => string | null;
  /** Trading days a call gives the member (MARGIN_CALL_GRACE_DAYS). */
  graceDays: number;
  log: (msg: string, err?: unknown) => void;
}

/** Why the own pool is sold now, or null. */
export type SaleCause = 'maintenance' | 'deadline';

/** Per-account state the monitor keeps between evaluations. */
export interface MarginCalls {
  /**
   * Records a call or its clearing when the own pool's ratio crosses; returns what changed and
   * whether a call raised now was raised straight below maintenance.
   */
  updateCall(
    userId: number,
    ratio: { ratioBps: number | null; equityMinor: number; usedMarginMinor: number },
    opts?: { clearAtCall?: boolean },
  ): Promise<{ marginCall: boolean; cleared: boolean; immediate: boolean }>;
  /** Why the own pool must be sold now (given its ratio), or null. */
  ownSaleCause(userId: number, ratioBps: number | null): Promise<SaleCause | null>;
  /**
   * Sells: the own pool for `ownCause` (null: not the own pool), and any follow pool below
   * maintenance; `noticed`: a notice naming the sale was already committed by this evaluation.
   */
  liquidate(
    userId: number,
    ownCause: SaleCause | null,
    noticed: boolean,
  ): Promise<{ closed: number[]; ratioAfter: number | null; held: string[]; refused: boolean }>;
  /** Forgets an account's cached call state. */
  forget(userId: number): void;
  readonly liquidations: number;
}

/** Creates the per-account call state over `deps`. */
export function createMarginCalls(deps: MarginCallDeps): MarginCalls {
  const { db, feed, closer, thresholds } = deps;
  const calls = new Map<number, OpenMarginCall | null>();
  /** `${userId}:${followId ?? 'own'}` of pools whose sale notice was sent and whose sale is still due. */
  const saleNoticed = new Set<string>();
  let liquidations = 0;

  async function callOf(userId: number): Promise<OpenMarginCall | null> {
    let c = calls.get(userId);
    if (c === undefined) calls.set(userId, (c = await openMarginCall(db, userId)));
    return c;
  }

  /** The pool's margined holdings in sale order, as the notices name them. */
  function saleOrderOf(snap: LoadedAccountRisk, pool: PoolRisk) {
    const bySymbol = new Map(snap.holdings.map((h) => [h.id, h.symbol]));
    return liquidationOrder(pool.risk.positions).map((id) => ({ orderId: id, symbol: bySymbol.get(id)! }));
  }

  async function updateCall(
    userId: number,
    r: { ratioBps: number | null; equityMinor: number; usedMarginMinor: number },
    opts: { clearAtCall?: boolean } = {},
  ) {
    const open = await callOf(userId);
    let below = nextMarginCallState(open !== null, r.ratioBps, thresholds);
    if (opts.clearAtCall && r.ratioBps !== null && r.ratioBps >= thresholds.marginCallBps) below = false;
    const none = { marginCall: false, cleared: false, immediate: false };
    if (below === (open !== null)) return none;
    if (!below) {
      await db.transaction(async (tx) => {
        await recordRiskEvent(tx, {
          userId,
          kind: 'marginCallCleared',
          ratioBps: r.ratioBps,
          detail: {
            thresholdBps: thresholds.marginCallBps,
            equityMinor: r.equityMinor,
            usedMarginMinor: r.usedMarginMinor,
          },
        });
      });
      calls.set(userId, null);
      return { ...none, cleared: true };
    }
    const snap = await loadAccountRisk(db, feed, userId, thresholds);
    const saleOrder = saleOrderOf(snap, snap.pools[0]!);
    const immediate = r.ratioBps !== null && r.ratioBps < thresholds.maintenanceBps;
    // A call raised again before its predecessor's deadline (the ratio bounced above the clearing
    // band and fell back) keeps that deadline, and the notice already sent stands: a bounce
    // neither restarts the grace days nor repeats the notice.
    const prev = await lastMarginCall(db, userId);
    const now = deps.session();
    const again = prev?.saleSession != null && prev.calledSession != null && now < prev.saleSession;
    const calledSession = again ? prev.calledSession! : now;
    const saleSession = again ? prev.saleSession! : marginCallSaleSession(calledSession, deps.graceDays);
    const saleDate = deps.sessionDate(saleSession);
    const id = await db.transaction(async (tx) => {
      const eventId = await recordRiskEvent(tx, {
        userId,
        kind: 'marginCall',
        ratioBps: r.ratioBps,
        detail: {
          thresholdBps: thresholds.marginCallBps,
          equityMinor: r.equityMinor,
          usedMarginMinor: r.usedMarginMinor,
          calledSession,
          saleSession,
          saleDate,
          saleOrder,
          immediate,
        },
      });
      if (!again || immediate)
        await notifyMember(tx, userId, 'marginCall', {
          ratioBps: r.ratioBps ?? 0,
          thresholdBps: thresholds.marginCallBps,
          maintenanceBps: thresholds.maintenanceBps,
          saleDate: saleDate ?? '',
          saleOrder: saleOrder.map((o) => o.symbol).join(', '),
          immediate: immediate ? 1 : 0,
        });
      return eventId;
    });
    calls.set(userId, {
      id,
      calledSession,
      saleSession,
      saleDate,
      saleOrder: saleOrder.map((o) => o.symbol),
    });
    return { marginCall: true, cleared: false, immediate };
  }

  async function ownSaleCause(userId: number, ratioBps: number | null): Promise<SaleCause | null> {
    if (ratioBps === null) return null;
    if (ratioBps < thresholds.maintenanceBps) return 'maintenance';
    const open = await callOf(userId);
    if (open?.saleSession == null || ratioBps >= thresholds.marginCallBps) return null;
    return deps.session() >= open.saleSession ? 'deadline' : null;
  }

  /** The pool to sell next, with the line it is sold back to; undefined when none is due. */
  function duePool(snap: LoadedAccountRisk, ownCause: SaleCause | null, holding: Set<number>) {
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

  async function liquidate(userId: number, ownCause: SaleCause | null, noticed: boolean) {
    const closed: number[] = [];
    let refused = false;
    let snap = await loadAccountRisk(db, feed, userId, thresholds);
    const key = (followId: number | null) => `${userId}:${followId ?? 'own'}`;
    if (noticed) saleNoticed.add(key(null));
    for (let step = 0; step < MAX_CLOSES_PER_RUN && snap.marked; step++) {
      const holding = new Set(snap.holdings.filter((h) => h.status === 'holding').map((h) => h.id));
      const due = duePool(snap, ownCause, holding);
      if (!due) {
        for (const pool of snap.pools) saleNoticed.delete(key(pool.followId));
        break;
      }
      const order = saleOrderOf(snap, due.pool).filter((o) => holding.has(o.orderId));
      const next = order[0]!;
      if (!saleNoticed.has(key(due.pool.followId))) {
        await notifyMember(db, userId, 'forcedSale', {
          cause: due.cause,
          ratioBps: due.pool.risk.ratioBps ?? 0,
          lineBps: due.lineBps,
          saleOrder: order.map((o) => o.symbol).join(', '),
          ...(due.pool.followId === null ? {} : { followId: due.pool.followId }),
        });
        saleNoticed.add(key(due.pool.followId));
      }
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
        row = await closer.forceClose(next.orderId, 'liquidation', async (tx, done) => {
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
        if (!(err instanceof AppError)) deps.log(`liquidation of order ${next.orderId} failed`, err);
        refused = true;
        break;
      }
      if (row) {
        closed.push(next.orderId);
        liquidations++;
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

  return {
    updateCall,
    ownSaleCause,
    liquidate,
    forget: (userId) => calls.delete(userId),
    get liquidations() {
      return liquidations;
    },
  };
}
