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
 * `liquidation` risk event in the same transaction (margin-sales.ts). Units: minor units, basis
 * points, sessions.
 */
import { marginCallSaleSession, nextMarginCallState, type RiskThresholds } from '../../../contract/risk';
import type { Db, Tx } from '../../db/client';
import type { MarketFeed } from '../../market/feed';
import { notifyMember } from '../notices/notify';
import { loadAccountRisk, type OpenOrder } from './account-risk';
import { lastMarginCall, openMarginCall, recordRiskEvent, type OpenMarginCall } from './events';
import { liquidate, saleOrderOf } from './margin-sales';

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

/** The own pool's ratio figures a call is judged on (minor units, basis points). */
export interface CallRatio {
  ratioBps: number | null;
  equityMinor: number;
  usedMarginMinor: number;
}

/** The per-account state behind one MarginCalls (see createMarginCalls). */
export interface MarginCallState {
  deps: MarginCallDeps;
  /** The open call per account (null: none), cached from the risk events. */
  calls: Map<number, OpenMarginCall | null>;
  /** `${userId}:${followId ?? 'own'}` of pools whose sale notice was sent and whose sale is still due. */
  saleNoticed: Set<string>;
  /** Positions closed by forced sales so far. */
  liquidations: number;
}

/** Creates the per-account call state over `deps`. */
export function createMarginCalls(deps: MarginCallDeps): MarginCalls {
  const s: MarginCallState = { deps, calls: new Map(), saleNoticed: new Set(), liquidations: 0 };
  return {
    updateCall: (userId, r, opts = {}) => updateCall(s, userId, r, opts),
    ownSaleCause: (userId, ratioBps) => ownSaleCause(s, userId, ratioBps),
    liquidate: (userId, ownCause, noticed) => liquidate(s, userId, ownCause, noticed),
    forget: (userId) => s.calls.delete(userId),
    get liquidations() {
      return s.liquidations;
    },
  };
}

/** The account's open call (cached; read from the risk events on first use), or null. */
async function callOf(s: MarginCallState, userId: number): Promise<OpenMarginCall | null> {
  let c = s.calls.get(userId);
  if (c === undefined) s.calls.set(userId, (c = await openMarginCall(s.deps.db, userId)));
  return c;
}

/** MarginCalls.updateCall over `s`: raises or clears the own pool's call when its ratio crosses. */
async function updateCall(
  s: MarginCallState,
  userId: number,
  r: CallRatio,
  opts: { clearAtCall?: boolean },
): Promise<{ marginCall: boolean; cleared: boolean; immediate: boolean }> {
  const { thresholds } = s.deps;
  const open = await callOf(s, userId);
  let below = nextMarginCallState(open !== null, r.ratioBps, thresholds);
  if (opts.clearAtCall && r.ratioBps !== null && r.ratioBps >= thresholds.marginCallBps) below = false;
  const none = { marginCall: false, cleared: false, immediate: false };
  if (below === (open !== null)) return none;
  if (!below) {
    await clearCall(s, userId, r);
    return { ...none, cleared: true };
  }
  const immediate = await raiseCall(s, userId, r);
  return { marginCall: true, cleared: false, immediate };
}

/** Records the clearing of the account's open call (a `marginCallCleared` risk event). */
async function clearCall(s: MarginCallState, userId: number, r: CallRatio): Promise<void> {
  const { db, thresholds } = s.deps;
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
  s.calls.set(userId, null);
}

/**
 * Raises a call: its `marginCall` risk event and (unless it only repeats a call whose deadline
 * stands) its notice, in one transaction. Returns whether it was raised straight below maintenance.
 */
async function raiseCall(s: MarginCallState, userId: number, r: CallRatio): Promise<boolean> {
  const { db, feed, thresholds } = s.deps;
  const snap = await loadAccountRisk(db, feed, userId, thresholds);
  const saleOrder = saleOrderOf(snap, snap.pools[0]!);
  const immediate = r.ratioBps !== null && r.ratioBps < thresholds.maintenanceBps;
  // A call raised again before its predecessor's deadline (the ratio bounced above the clearing
  // band and fell back) keeps that deadline, and the notice already sent stands: a bounce
  // neither restarts the grace days nor repeats the notice.
  const prev = await lastMarginCall(db, userId);
  const now = s.deps.session();
  const again = prev?.saleSession != null && prev.calledSession != null && now < prev.saleSession;
  const calledSession = again ? prev.calledSession! : now;
  const saleSession = again ? prev.saleSession! : marginCallSaleSession(calledSession, s.deps.graceDays);
  const saleDate = s.deps.sessionDate(saleSession);
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
  s.calls.set(userId, {
    id,
    calledSession,
    saleSession,
    saleDate,
    saleOrder: saleOrder.map((o) => o.symbol),
  });
  return immediate;
}

/** MarginCalls.ownSaleCause over `s`. */
async function ownSaleCause(
  s: MarginCallState,
  userId: number,
  ratioBps: number | null,
): Promise<SaleCause | null> {
  const { thresholds } = s.deps;
  if (ratioBps === null) return null;
  if (ratioBps < thresholds.maintenanceBps) return 'maintenance';
  const open = await callOf(s, userId);
  if (open?.saleSession == null || ratioBps >= thresholds.marginCallBps) return null;
  return s.deps.session() >= open.saleSession ? 'deadline' : null;
}
