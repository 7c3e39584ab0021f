/**
 * The risk monitor: watches the feed's quotes and evaluates the accounts holding the quoted
 * instrument: their margin calls and forced sales (margin-calls.ts: a call below MARGIN_CALL_BPS
 * with MARGIN_CALL_GRACE_DAYS to act, forced sales below MAINTENANCE_BPS or after an unmet call's
 * deadline, a notice always first; a follow's pool below maintenance has its copies sold). Cash
 * holdings (a long at 1×) are outside every figure and never sold. Figures: contract/risk.ts and
 * account-risk.ts (risk pools).
 *
 * Cost per quote: a Map lookup of the accounts holding that symbol and a Set insert (no scan of
 * positions). The accounts marked so are evaluated in the background, serially, each at most
 * once per `throttleMs` of wall time; an evaluation is one read-only snapshot of the account's
 * summed exposure rows (account-risk.ts loadAccountExposure). Only a call or a sale loads the
 * positions one by one.
 *
 * The symbol → accounts index (monitor-index.ts) is loaded at start and kept current without a
 * hook in the trading engine: at most every `syncMs` (checked when quotes arrive) it reads orders with an id above
 * the highest seen (primary-key range), re-reads the pending ones it knows (a resting order that
 * fills becomes a holding) and the ids skipped in the sequence (an insert that had not committed
 * yet, or a rolled-back one; at most MAX_GAPS, each dropped after GAP_SYNCS syncs). Each
 * evaluation also corrects the account's own entries. A position opened between syncs is watched
 * from the next sync on.
 *
 * Clocks: throttling and sync use the injected wall clock `now` (tests drive it); deadlines use the
 * market clock's trading sessions (`session`).
 */
import type { Quote } from '../../../contract/market';
import { DEFAULT_MARGIN_CALL_GRACE_DAYS, type RiskThresholds } from '../../../contract/risk';
import type { Db } from '../../db/client';
import type { MarketFeed } from '../../market/feed';
import { loadAccountExposure } from './account-risk';
import { createMarginCalls, type MarginCalls, type PositionCloser } from './margin-calls';
import { createHoldingsIndex, loadIndex, reindex, syncIndex, type HoldingsIndex } from './monitor-index';

export type { PositionCloser } from './margin-calls';
export { GAP_SYNCS } from './monitor-index';

/** Default minimum wall ms between two evaluations of one account. */
export const RISK_THROTTLE_MS = 500;
/** Default wall ms between two syncs of the holdings index with the orders table. */
export const RISK_SYNC_MS = 500;
/** Accounts evaluated per drain before yielding to a later one. */
const MAX_EVALUATIONS_PER_DRAIN = 1_000;

/** What one evaluation did. */
export interface RiskEvaluation {
  userId: number;
  /** The own pool's ratio when judged (before any sale); null with nothing margined. */
  ratioBps: number | null;
  /** 'unmarked': some holding had no live price, nothing was judged. */
  skipped?: 'unmarked';
  marginCall: boolean;
  cleared: boolean;
  /** Positions closed by this evaluation. */
  liquidated: number[];
  /** The ratio after the liquidation (when one ran). */
  ratioAfterBps?: number | null;
}

/** The risk monitor's handle (createRiskMonitor). */
export interface RiskMonitor {
  /** Loads the holdings index and subscribes to the feed's quotes. */
  start(): Promise<void>;
  /** Unsubscribes; evaluations already queued still finish (await idle()). */
  stop(): void;
  /** Resolves when every evaluation queued so far has finished. */
  idle(): Promise<void>;
  /** Brings the holdings index up to date with the orders table now. */
  sync(): Promise<void>;
  /** Evaluates one account now (queued behind the running evaluations). */
  evaluate(userId: number): Promise<RiskEvaluation>;
  /**
   * Evaluates every marked account now, past the wall-clock throttle (queued behind the running
   * work): the manual test clock's catch-up (server/http/test-clock.ts), where no later quote
   * comes to pick up an account the throttle skipped.
   */
  flush(): Promise<void>;
  stats(): { accounts: number; symbols: number; evaluations: number; liquidations: number };
}

/** createRiskMonitor's options (see the module docstring). */
export interface RiskMonitorOptions {
  db: Db;
  feed: Pick<MarketFeed, 'onQuote' | 'quote' | 'kind'>;
  closer: PositionCloser;
  thresholds: RiskThresholds;
  now?: () => number;
  /** The market clock's trading session now; default 0 (a call's deadline never comes). */
  session?: () => number;
  /** The trading date of a session (for the call's notice); default none. */
  sessionDate?: (session: number) => string | null;
  /** MARGIN_CALL_GRACE_DAYS (default 2). */
  graceDays?: number;
  throttleMs?: number;
  syncMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

/** One monitor's state (createRiskMonitor), shared by the module's functions. */
interface MonitorState {
  db: Db;
  feed: Pick<MarketFeed, 'onQuote' | 'quote' | 'kind'>;
  thresholds: RiskThresholds;
  now: () => number;
  throttleMs: number;
  syncMs: number;
  log: (msg: string, err?: unknown) => void;
  calls: MarginCalls;
  ix: HoldingsIndex;
  /** Wall ms of each account's last evaluation (for the throttle). */
  lastEvaluated: Map<number, number>;
  /** The serial chain of syncs and evaluations. */
  queue: Promise<unknown>;
  scheduled: boolean;
  unsubscribe: (() => void) | null;
  evaluations: number;
}

/** Creates the monitor; call start() after the trading engine has started. */
export function createRiskMonitor(opts: RiskMonitorOptions): RiskMonitor {
  const { db, feed, thresholds } = opts;
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  const m: MonitorState = {
    db,
    feed,
    thresholds,
    now,
    throttleMs: opts.throttleMs ?? RISK_THROTTLE_MS,
    syncMs: opts.syncMs ?? RISK_SYNC_MS,
    log,
    calls: createMarginCalls({
      db,
      feed,
      closer: opts.closer,
      thresholds,
      session: opts.session ?? (() => 0),
      sessionDate: opts.sessionDate ?? (() => null),
      graceDays: opts.graceDays ?? DEFAULT_MARGIN_CALL_GRACE_DAYS,
      log,
    }),
    ix: createHoldingsIndex(db, now),
    lastEvaluated: new Map(),
    queue: Promise.resolve(),
    scheduled: false,
    unsubscribe: null,
    evaluations: 0,
  };
  return monitorHandle(m);
}

/** The RiskMonitor methods over `m`. */
function monitorHandle(m: MonitorState): RiskMonitor {
  return {
    async start() {
      await loadIndex(m.ix);
      m.unsubscribe = m.feed.onQuote((q) => onQuote(m, q));
    },
    stop() {
      m.unsubscribe?.();
      m.unsubscribe = null;
    },
    idle: async () => {
      // A drain may schedule another (throttled accounts stay dirty); wait for the chain to settle.
      let seen: Promise<unknown> | null = null;
      while (seen !== m.queue) {
        seen = m.queue;
        await m.queue;
      }
    },
    sync: () => {
      const p = m.queue.then(() => syncIndex(m.ix));
      m.queue = p.catch((err) => m.log('risk sync failed', err));
      return p;
    },
    flush: () => {
      const p = m.queue.then(() => drain(m, true));
      m.queue = p.catch((err) => m.log('risk flush failed', err));
      return p;
    },
    evaluate: (userId) => {
      const p = m.queue.then(() => evaluateNow(m, userId));
      m.queue = p.catch((err) => m.log(`risk evaluation of user ${userId} failed`, err));
      return p;
    },
    stats: () => ({
      accounts: m.ix.symbolsOf.size,
      symbols: m.ix.bySymbol.size,
      evaluations: m.evaluations,
      liquidations: m.calls.liquidations,
    }),
  };
}

/** Evaluates one account now: its call, and the forced sales due (see the module docstring). */
async function evaluateNow(m: MonitorState, userId: number): Promise<RiskEvaluation> {
  const { db, feed, thresholds, calls, ix } = m;
  m.evaluations++;
  const exp = await loadAccountExposure(db, feed, userId, thresholds);
  reindex(ix, userId, exp.symbols);
  if (exp.symbols.length === 0) {
    // Nothing held: forget the account until it holds something again (a call still open is
    // cleared below: nothing margined is left).
    m.lastEvaluated.delete(userId);
  }
  const out: RiskEvaluation = {
    userId,
    ratioBps: exp.ratio.ratioBps,
    marginCall: false,
    cleared: false,
    liquidated: [],
  };
  if (!exp.marked) return { ...out, skipped: 'unmarked' };
  const r = exp.ratio;
  const call = await calls.updateCall(userId, r);
  out.marginCall = call.marginCall;
  out.cleared = call.cleared;
  const ownCause = await calls.ownSaleCause(userId, r.ratioBps);
  if (ownCause === null && !exp.follows.some((f) => f.ratio.level === 'liquidation')) {
    if (exp.symbols.length === 0) calls.forget(userId);
    return out;
  }
  const sold = await calls.liquidate(userId, ownCause, call.marginCall && call.immediate);
  if (sold.refused) ix.dirty.add(userId);
  reindex(ix, userId, sold.held);
  out.liquidated = sold.closed;
  out.ratioAfterBps = sold.ratioAfter;
  // Recovered (or nothing left): the call clears now, not on the next quote; after a deadline's
  // sales brought it back to the call line, the call is over.
  const after = await loadAccountExposure(db, feed, userId, thresholds);
  if (after.marked) {
    const c = await calls.updateCall(userId, after.ratio, { clearAtCall: ownCause === 'deadline' });
    out.cleared = out.cleared || c.cleared;
  }
  return out;
}

/**
 * Syncs the index when due, then evaluates the marked accounts past their throttle (every marked
 * account with `force`), serially.
 */
async function drain(m: MonitorState, force = false): Promise<void> {
  m.scheduled = false;
  if (m.now() - m.ix.lastSync >= m.syncMs) await syncIndex(m.ix);
  const t = m.now();
  let n = 0;
  for (const userId of [...m.ix.dirty]) {
    if (n >= MAX_EVALUATIONS_PER_DRAIN) {
      schedule(m);
      break;
    }
    const last = m.lastEvaluated.get(userId);
    if (!force && last !== undefined && t - last < m.throttleMs) continue; // stays dirty for a later drain
    m.ix.dirty.delete(userId);
    m.lastEvaluated.set(userId, t);
    n++;
    try {
      await evaluateNow(m, userId);
    } catch (err) {
      m.log(`risk evaluation of user ${userId} failed`, err);
    }
  }
}

/** Queues one drain behind the running work (at most one waiting). */
function schedule(m: MonitorState): void {
  if (m.scheduled) return;
  m.scheduled = true;
  m.queue = m.queue.then(() => drain(m)).catch((err) => m.log('risk drain failed', err));
}

/** The feed's quote listener: marks the accounts holding the symbol and schedules a drain. */
function onQuote(m: MonitorState, q: Quote): void {
  const users = m.ix.bySymbol.get(q.symbol);
  if (users) for (const u of users) m.ix.dirty.add(u);
  if (m.ix.dirty.size > 0 || m.now() - m.ix.lastSync >= m.syncMs) schedule(m);
}
