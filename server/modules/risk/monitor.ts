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
 * The symbol → accounts index is loaded at start and kept current without a hook in the trading
 * engine: at most every `syncMs` (checked when quotes arrive) it reads orders with an id above
 * the highest seen (primary-key range), re-reads the pending ones it knows (a resting order that
 * fills becomes a holding) and the ids skipped in the sequence (an insert that had not committed
 * yet, or a rolled-back one; at most MAX_GAPS, each dropped after GAP_SYNCS syncs). Each
 * evaluation also corrects the account's own entries. A position opened between syncs is watched
 * from the next sync on.
 *
 * Clocks: throttling and sync use the injected wall clock `now` (tests drive it); deadlines use the
 * market clock's trading sessions (`session`).
 */
import { asc, desc, gt, inArray } from 'drizzle-orm';
import type { Quote } from '../../../contract/market';
import { DEFAULT_MARGIN_CALL_GRACE_DAYS, type RiskThresholds } from '../../../contract/risk';
import type { Db } from '../../db/client';
import { orders } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';
import { OPEN_STATUSES, loadAccountExposure } from './account-risk';
import { createMarginCalls, type PositionCloser } from './margin-calls';

export type { PositionCloser } from './margin-calls';

/** Default minimum wall ms between two evaluations of one account. */
export const RISK_THROTTLE_MS = 500;
/** Default wall ms between two syncs of the holdings index with the orders table. */
export const RISK_SYNC_MS = 500;
/** Syncs after which an id skipped in the order sequence is no longer looked for (~10 s). */
export const GAP_SYNCS = 20;
/** Skipped ids remembered at most (refused orders roll their insert back and leave gaps). */
const MAX_GAPS = 10_000;
/** Rows read per sync query (the range read repeats until it returns fewer). */
const SYNC_BATCH = 5_000;
/** Ids per `in (…)` re-read. */
const RECHECK_CHUNK = 1_000;
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
  stats(): { accounts: number; symbols: number; evaluations: number; liquidations: number };
}

/** Creates the monitor; call start() after the trading engine has started. */
export function createRiskMonitor(opts: {
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
}): RiskMonitor {
  const { db, feed, thresholds } = opts;
  const now = opts.now ?? Date.now;
  const throttleMs = opts.throttleMs ?? RISK_THROTTLE_MS;
  const syncMs = opts.syncMs ?? RISK_SYNC_MS;
  const log = opts.log ?? (() => undefined);
  const calls = createMarginCalls({
    db,
    feed,
    closer: opts.closer,
    thresholds,
    session: opts.session ?? (() => 0),
    sessionDate: opts.sessionDate ?? (() => null),
    graceDays: opts.graceDays ?? DEFAULT_MARGIN_CALL_GRACE_DAYS,
    log,
  });

  const bySymbol = new Map<string, Set<number>>();
  const symbolsOf = new Map<number, Set<string>>();
  const dirty = new Set<number>();
  const lastEvaluated = new Map<number, number>();
  let maxSeenId = 0;
  const pendingIds = new Set<number>();
  /** id skipped in the sequence → syncs left to look for it. */
  const gaps = new Map<number, number>();
  let lastSync = Number.NEGATIVE_INFINITY;
  let queue: Promise<unknown> = Promise.resolve();
  let scheduled = false;
  let unsubscribe: (() => void) | null = null;
  let evaluations = 0;

  /** Watches `symbol` for the account; true when it was not watched yet. */
  function index(userId: number, symbol: string): boolean {
    let users = bySymbol.get(symbol);
    if (!users) bySymbol.set(symbol, (users = new Set()));
    if (users.has(userId)) return false;
    users.add(userId);
    let syms = symbolsOf.get(userId);
    if (!syms) symbolsOf.set(userId, (syms = new Set()));
    syms.add(symbol);
    return true;
  }

  /** Replaces the account's index entries with the symbols it holds now. */
  function reindex(userId: number, held: Iterable<string>): void {
    const next = new Set(held);
    for (const s of symbolsOf.get(userId) ?? []) {
      if (next.has(s)) continue;
      const users = bySymbol.get(s);
      users?.delete(userId);
      if (users?.size === 0) bySymbol.delete(s);
    }
    symbolsOf.delete(userId);
    for (const s of next) {
      bySymbol.get(s)?.delete(userId);
      index(userId, s);
    }
  }

  type Row = { id: number; userId: number; symbol: string; status: string };
  const rowCols = { id: orders.id, userId: orders.userId, symbol: orders.symbol, status: orders.status };

  /** Applies one order row: remembers a pending order, watches an open one (and marks its account). */
  function apply(r: Row): void {
    if (r.status === 'pending') {
      pendingIds.add(r.id);
      return;
    }
    pendingIds.delete(r.id);
    if ((OPEN_STATUSES as readonly string[]).includes(r.status) && index(r.userId, r.symbol))
      dirty.add(r.userId);
  }

  async function sync(): Promise<void> {
    lastSync = now();
    // New orders, by primary-key range.
    for (;;) {
      const rows = await db
        .select(rowCols)
        .from(orders)
        .where(gt(orders.id, maxSeenId))
        .orderBy(asc(orders.id))
        .limit(SYNC_BATCH);
      for (const r of rows) {
        for (let missing = maxSeenId + 1; missing < r.id && gaps.size < MAX_GAPS; missing++)
          gaps.set(missing, GAP_SYNCS);
        maxSeenId = r.id;
        apply(r);
      }
      if (rows.length < SYNC_BATCH) break;
    }
    // Known pending orders and skipped ids, re-read.
    const recheck = [...pendingIds, ...gaps.keys()];
    for (const [id, left] of gaps) {
      if (left <= 1) gaps.delete(id);
      else gaps.set(id, left - 1);
    }
    for (let i = 0; i < recheck.length; i += RECHECK_CHUNK) {
      const ids = recheck.slice(i, i + RECHECK_CHUNK);
      const rows = await db.select(rowCols).from(orders).where(inArray(orders.id, ids));
      const found = new Set<number>();
      for (const r of rows) {
        found.add(r.id);
        gaps.delete(r.id);
        apply(r);
      }
      for (const id of ids) if (!found.has(id)) pendingIds.delete(id);
    }
  }

  async function evaluateNow(userId: number): Promise<RiskEvaluation> {
    evaluations++;
    const exp = await loadAccountExposure(db, feed, userId, thresholds);
    reindex(userId, exp.symbols);
    if (exp.symbols.length === 0) {
      // Nothing held: forget the account until it holds something again (a call still open is
      // cleared below: nothing margined is left).
      lastEvaluated.delete(userId);
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
    if (sold.refused) dirty.add(userId);
    reindex(userId, sold.held);
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

  async function drain(): Promise<void> {
    scheduled = false;
    if (now() - lastSync >= syncMs) await sync();
    const t = now();
    let n = 0;
    for (const userId of [...dirty]) {
      if (n >= MAX_EVALUATIONS_PER_DRAIN) {
        schedule();
        break;
      }
      const last = lastEvaluated.get(userId);
      if (last !== undefined && t - last < throttleMs) continue; // stays dirty for a later drain
      dirty.delete(userId);
      lastEvaluated.set(userId, t);
      n++;
      try {
        await evaluateNow(userId);
      } catch (err) {
        log(`risk evaluation of user ${userId} failed`, err);
      }
    }
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    queue = queue.then(drain).catch((err) => log('risk drain failed', err));
  }

  function onQuote(q: Quote): void {
    const users = bySymbol.get(q.symbol);
    if (users) for (const u of users) dirty.add(u);
    if (dirty.size > 0 || now() - lastSync >= syncMs) schedule();
  }

  return {
    async start() {
      const [top] = await db.select({ id: orders.id }).from(orders).orderBy(desc(orders.id)).limit(1);
      const live = await db
        .select(rowCols)
        .from(orders)
        .where(inArray(orders.status, ['pending', ...OPEN_STATUSES]));
      for (const r of live) apply(r);
      maxSeenId = top?.id ?? 0;
      lastSync = now();
      unsubscribe = feed.onQuote(onQuote);
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
    },
    idle: async () => {
      // A drain may schedule another (throttled accounts stay dirty); wait for the chain to settle.
      let seen: Promise<unknown> | null = null;
      while (seen !== queue) {
        seen = queue;
        await queue;
      }
    },
    sync: () => {
      const p = queue.then(sync);
      queue = p.catch((err) => log('risk sync failed', err));
      return p;
    },
    evaluate: (userId) => {
      const p = queue.then(() => evaluateNow(userId));
      queue = p.catch((err) => log(`risk evaluation of user ${userId} failed`, err));
      return p;
    },
    stats: () => ({
      accounts: symbolsOf.size,
      symbols: bySymbol.size,
      evaluations,
      liquidations: calls.liquidations,
    }),
  };
}
