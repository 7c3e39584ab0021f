/**
 * The engine's matching (createMatcher): admitting resting orders and queued closes into the
 * book, the quote handler (a new trading day's opening match, continuous triggers, the 13:30
 * closing match with ROD expiry), the clock-driven after-hours match, and the announcements of
 * each match. What the book decides is written on the serial queue (EngineContext.enqueue), one
 * order per transaction. engine.ts module docstring has the rules.
 */
import { eq } from 'drizzle-orm';
import type { Quote } from '../../../contract/market';
import { orders } from '../../db/schema';
import type { Closer } from './closes';
import { lockOrder } from './closes';
import type { EngineContext } from './engine-context';
import type { MatchEvent } from './engine-types';
import { fillFromFrozen, releaseOrder, type OrderRow } from './fills';
import { dayTimes, marketDate } from './market-session';
import { awaitingOpen, newDayState, type DayState } from './session-days';

/** The engine's matching (see the module docstring). */
export interface Matcher {
  /** Puts a pending regular order in the book (RestingBook.rest), or queues its expiry. */
  admit(row: OrderRow, shaped: boolean): void;
  /** Queues a position asked to close in a call phase on `requestedOn`; closes it now if that match already ran. */
  admitClosing(row: OrderRow, requestedOn: string, shaped: boolean): void;
  /** Handles one quote of the feed. */
  onQuote(q: Quote): void;
  /** Runs the closing match of `st`'s day at `q` (a closing print seen before the engine started). */
  closeDay(q: Quote, st: DayState): void;
  /** Runs the after-hours match when due; resolves when everything queued so far is written. */
  sweep(): Promise<void>;
  /** Listens to matches after their fills are written; returns the unsubscribe. */
  onMatch(fn: (e: MatchEvent) => void | Promise<void>): () => void;
  /** Whether the feed's source has sessions (set at start: a source without keeps matching continuously). */
  shaped: boolean;
}

async function expire(m: MatchCore, orderId: number): Promise<void> {
  m.ctx.book.restingDate.delete(orderId);
  await m.ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (order?.status === 'pending') await releaseOrder(tx, m.ctx.env, order, 'expired');
  });
}

/** Fills a resting order at `priceMinor`; false when it could not be written. */
async function fillResting(m: MatchCore, orderId: number, priceMinor: number): Promise<boolean> {
  m.ctx.book.restingDate.delete(orderId);
  try {
    await m.ctx.db.transaction(async (tx) => {
      const order = await lockOrder(tx, orderId);
      if (order?.status === 'pending') await fillFromFrozen(tx, m.ctx.env, order, priceMinor);
    });
    return true;
  } catch (err) {
    m.ctx.log(`fill failed for order ${orderId}`, err);
    return false;
  }
}

/**
 * Closes a position queued during a call auction at that auction's price. `tradeDate` is the
 * auction's trading date (the replay may already have rolled to the next day when this runs),
 * so a same-day offset is still taxed as a day trade.
 */
async function closeQueued(
  m: MatchCore,
  orderId: number,
  priceMinor: number,
  tradeDate: string,
): Promise<void> {
  await m.ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (order?.status === 'closing') await m.closer.closeAt(tx, order, priceMinor, 'user', tradeDate);
  });
}

async function announce(m: MatchCore, e: MatchEvent): Promise<void> {
  for (const fn of m.matchFns) {
    try {
      await fn(e);
    } catch (err) {
      m.ctx.log(`match listener failed (${e.kind} ${e.symbol})`, err);
    }
  }
}

function admit(m: MatchCore, row: OrderRow, shaped: boolean): void {
  const st = shaped ? m.ctx.days.dayOf(row.symbol) : undefined;
  if (m.ctx.book.rest(row, st) === 'expire')
    m.ctx.enqueue(`expiry of order ${row.id}`, () => expire(m, row.id));
}

function admitClosing(m: MatchCore, row: OrderRow, requestedOn: string, shaped: boolean): void {
  const st = shaped ? m.ctx.days.dayOf(row.symbol) : undefined;
  let price: number | null = null;
  if (st && requestedOn === st.date && st.closeDone) price = st.closePriceMinor;
  else if (st && requestedOn < st.date)
    price =
      st.prevClose?.date === requestedOn
        ? st.prevClose.priceMinor
        : (m.ctx.feed.quote(row.symbol)?.openMinor ?? null);
  if (price === null) return m.ctx.book.queueClose(row.symbol, row.id);
  const p = price;
  m.ctx.enqueue(`queued close of order ${row.id}`, () => closeQueued(m, row.id, p, requestedOn));
}

/**
 * Replay clock: a quote of an earlier date than the instrument's day that is the clock's own
 * date is the replay starting its window over, a new day (not a late quote).
 */
function windowRestarted(m: MatchCore, q: Quote): boolean {
  const v = m.ctx.view();
  return v.replay && marketDate(q.ts) === marketDate(v.nowMs);
}

/** A quote of a new trading day: expire what missed its close, run the opening match. */
function openDay(m: MatchCore, q: Quote, prev: DayState | undefined): DayState {
  const st = newDayState(q.ts, prev);
  m.ctx.days.days.set(q.symbol, st);
  const open = q.openMinor;
  const match = m.ctx.book.openingMatch(q.symbol, st, open);
  if (!match) return st;
  m.ctx.enqueue(`opening match ${q.symbol} ${st.date}`, async () => {
    for (const id of match.expiring) await expire(m, id);
    for (const id of match.fills) await fillResting(m, id, open);
    for (const id of match.closes) await closeQueued(m, id, open, st.date);
    if (match.fills.length || match.closes.length)
      await announce(m, { kind: 'opening', symbol: q.symbol, tradeDate: st.date, priceMinor: open });
  });
  return st;
}

function closeDay(m: MatchCore, q: Quote, st: DayState): void {
  const price = q.lastMinor;
  st.closeDone = true;
  st.closePriceMinor = price;
  const match = m.ctx.book.closingMatch(q.symbol, price);
  m.ctx.enqueue(`closing match ${q.symbol} ${st.date}`, async () => {
    for (const id of match.fills) await fillResting(m, id, price);
    for (const id of match.closes) await closeQueued(m, id, price, st.date);
    for (const id of match.expiring) await expire(m, id);
    await announce(m, { kind: 'closing', symbol: q.symbol, tradeDate: st.date, priceMinor: price });
  });
}

function continuous(m: MatchCore, q: Quote): void {
  if (m.ctx.book.index.size === 0) return;
  for (const hit of m.ctx.book.index.take(q.symbol, q.bidMinor, q.askMinor)) {
    m.ctx.enqueue(`limit fill of order ${hit.id}`, async () => {
      const date = m.ctx.book.restingDate.get(hit.id);
      if (!(await fillResting(m, hit.id, hit.limitPriceMinor))) {
        m.ctx.book.index.add(hit); // retry on a later quote
        if (date !== undefined) m.ctx.book.restingDate.set(hit.id, date);
      }
    });
  }
}

function onQuote(m: MatchCore, q: Quote): void {
  if (!m.matcher.shaped) return continuous(m, q);
  let st = m.ctx.days.days.get(q.symbol);
  if (st && q.ts < st.startMs && !windowRestarted(m, q)) return; // a late quote of an earlier day
  const newDay = !st || q.ts >= st.endMs || q.ts < st.startMs;
  if (newDay || !st!.opened) {
    if (awaitingOpen(q, m.ctx.view())) {
      // Pre-open: the day exists (orders queue for its opening) but nothing matches yet.
      if (newDay) m.ctx.days.days.set(q.symbol, newDayState(q.ts, st, false));
      return;
    }
    st = openDay(m, q, st);
  }
  st = st!;
  if (q.ts >= st.closeMs) {
    if (!st.closeDone) closeDay(m, q, st);
    return;
  }
  if (q.ts >= st.callMs) return; // closing call: indicative prices, no continuous matching
  continuous(m, q);
}

/** The after-hours match of the orders in `due` ([id, trading date]), at their fixed price. */
async function afterHoursMatch(m: MatchCore, due: Array<[number, string]>): Promise<void> {
  const announced = new Map<string, MatchEvent>();
  for (const [id, date] of due) {
    const row = (await m.ctx.db.select().from(orders).where(eq(orders.id, id)))[0];
    if (!row || row.status !== 'pending') continue;
    if (await fillResting(m, id, row.limitPriceMinor!))
      announced.set(`${row.symbol}|${date}`, {
        kind: 'afterHours',
        symbol: row.symbol,
        tradeDate: date,
        priceMinor: row.limitPriceMinor!,
      });
  }
  for (const e of announced.values()) await announce(m, e);
}

async function sweep(m: MatchCore): Promise<void> {
  if (m.ctx.book.afterHours.size > 0) {
    const v = m.ctx.view();
    const due = m.ctx.book.takeDueAfterHours((date) => v.nowMs >= dayTimes(date).afterHoursMatchMs);
    if (due.length) m.ctx.enqueue('after-hours match', () => afterHoursMatch(m, due));
  }
  await m.ctx.idle();
}

/** What the matching functions share: the engine's context, its closes and the match listeners. */
interface MatchCore {
  ctx: EngineContext;
  closer: Closer;
  matchFns: Set<(e: MatchEvent) => void | Promise<void>>;
  matcher: Matcher;
}

/** The matching of the engine sharing `ctx`, closing through `closer`. */
export function createMatcher(ctx: EngineContext, closer: Closer): Matcher {
  const matchFns = new Set<(e: MatchEvent) => void | Promise<void>>();
  const matcher: Matcher = {
    admit: (row, shaped) => admit(m, row, shaped),
    admitClosing: (row, requestedOn, shaped) => admitClosing(m, row, requestedOn, shaped),
    onQuote: (q) => onQuote(m, q),
    closeDay: (q, st) => closeDay(m, q, st),
    sweep: () => sweep(m),
    onMatch(fn) {
      matchFns.add(fn);
      return () => matchFns.delete(fn);
    },
    shaped: true,
  };
  const m: MatchCore = { ctx, closer, matchFns, matcher };
  return matcher;
}
