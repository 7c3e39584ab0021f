/**
 * The risk monitor's symbol → accounts index (monitor.ts): which accounts hold (or have resting
 * orders on) each symbol, and the accounts marked for an evaluation. Loaded at start (loadIndex)
 * and kept current without a hook in the trading engine (syncIndex): it reads orders with an id
 * above the highest seen (primary-key range), re-reads the pending ones it knows (a resting order
 * that fills becomes a holding) and the ids skipped in the sequence (an insert that had not
 * committed yet, or a rolled-back one; at most MAX_GAPS, each dropped after GAP_SYNCS syncs).
 * Each evaluation corrects the account's own entries (reindex).
 *
 * Units: order ids, wall-clock ms (`now`). Errors: database errors propagate.
 */
import { asc, desc, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders } from '../../db/schema';
import { OPEN_STATUSES } from './account-risk';

/** Syncs after which an id skipped in the order sequence is no longer looked for (~10 s). */
export const GAP_SYNCS = 20;
/** Skipped ids remembered at most (refused orders roll their insert back and leave gaps). */
const MAX_GAPS = 10_000;
/** Rows read per sync query (the range read repeats until it returns fewer). */
const SYNC_BATCH = 5_000;
/** Ids per `in (…)` re-read. */
const RECHECK_CHUNK = 1_000;

/** The index's state (one per monitor). */
export interface HoldingsIndex {
  db: Db;
  /** The wall clock (ms). */
  now: () => number;
  /** Accounts watched per symbol. */
  bySymbol: Map<string, Set<number>>;
  /** Symbols watched per account. */
  symbolsOf: Map<number, Set<string>>;
  /** Accounts to evaluate. */
  dirty: Set<number>;
  /** The highest order id read. */
  maxSeenId: number;
  /** Orders seen pending (re-read each sync). */
  pendingIds: Set<number>;
  /** id skipped in the sequence → syncs left to look for it. */
  gaps: Map<number, number>;
  /** Wall ms of the last sync (or load). */
  lastSync: number;
}

/** An empty index over `db`. */
export function createHoldingsIndex(db: Db, now: () => number): HoldingsIndex {
  return {
    db,
    now,
    bySymbol: new Map(),
    symbolsOf: new Map(),
    dirty: new Set(),
    maxSeenId: 0,
    pendingIds: new Set(),
    gaps: new Map(),
    lastSync: Number.NEGATIVE_INFINITY,
  };
}

type Row = { id: number; userId: number; symbol: string; status: string };
const rowCols = { id: orders.id, userId: orders.userId, symbol: orders.symbol, status: orders.status };

/** Watches `symbol` for the account; true when it was not watched yet. */
function index(ix: HoldingsIndex, userId: number, symbol: string): boolean {
  let users = ix.bySymbol.get(symbol);
  if (!users) ix.bySymbol.set(symbol, (users = new Set()));
  if (users.has(userId)) return false;
  users.add(userId);
  let syms = ix.symbolsOf.get(userId);
  if (!syms) ix.symbolsOf.set(userId, (syms = new Set()));
  syms.add(symbol);
  return true;
}

/** Replaces the account's index entries with the symbols it holds now. */
export function reindex(ix: HoldingsIndex, userId: number, held: Iterable<string>): void {
  const next = new Set(held);
  for (const s of ix.symbolsOf.get(userId) ?? []) {
    if (next.has(s)) continue;
    const users = ix.bySymbol.get(s);
    users?.delete(userId);
    if (users?.size === 0) ix.bySymbol.delete(s);
  }
  ix.symbolsOf.delete(userId);
  for (const s of next) {
    ix.bySymbol.get(s)?.delete(userId);
    index(ix, userId, s);
  }
}

/**
 * Applies one order row: remembers a pending order, watches an open one and marks its account when
 * the symbol is new to it or a pending order of it has filled (its exposure changed after any
 * evaluation the filling quote caused).
 */
function apply(ix: HoldingsIndex, r: Row): void {
  if (r.status === 'pending') {
    ix.pendingIds.add(r.id);
    return;
  }
  const filled = ix.pendingIds.delete(r.id);
  if ((OPEN_STATUSES as readonly string[]).includes(r.status) && (index(ix, r.userId, r.symbol) || filled))
    ix.dirty.add(r.userId);
}

/** Loads the index from the pending and open orders, and the highest order id. */
export async function loadIndex(ix: HoldingsIndex): Promise<void> {
  const { db } = ix;
  const [top] = await db.select({ id: orders.id }).from(orders).orderBy(desc(orders.id)).limit(1);
  const live = await db
    .select(rowCols)
    .from(orders)
    .where(inArray(orders.status, ['pending', ...OPEN_STATUSES]));
  for (const r of live) apply(ix, r);
  ix.maxSeenId = top?.id ?? 0;
  ix.lastSync = ix.now();
}

/** Brings the index up to date with the orders table (see the module docstring). */
export async function syncIndex(ix: HoldingsIndex): Promise<void> {
  const { db, gaps } = ix;
  ix.lastSync = ix.now();
  // New orders, by primary-key range.
  for (;;) {
    const rows = await db
      .select(rowCols)
      .from(orders)
      .where(gt(orders.id, ix.maxSeenId))
      .orderBy(asc(orders.id))
      .limit(SYNC_BATCH);
    for (const r of rows) {
      for (let missing = ix.maxSeenId + 1; missing < r.id && gaps.size < MAX_GAPS; missing++)
        gaps.set(missing, GAP_SYNCS);
      ix.maxSeenId = r.id;
      apply(ix, r);
    }
    if (rows.length < SYNC_BATCH) break;
  }
  // Known pending orders and skipped ids, re-read.
  const recheck = [...ix.pendingIds, ...gaps.keys()];
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
      apply(ix, r);
    }
    for (const id of ids) if (!found.has(id)) ix.pendingIds.delete(id);
  }
}
