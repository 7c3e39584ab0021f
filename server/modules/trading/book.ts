/**
 * The resting book: every live order the engine waits on, in memory (no database writes here).
 *
 * - `index`: regular-session limit orders resting for continuous trading (and those entered in
 *   the closing call), by symbol and price (trigger-index.ts);
 * - `openingQueue`: orders entered in pre-open, waiting for their trading day's opening match;
 * - `restingDate`: the trading date of every order in `index` and `openingQueue`;
 * - `closing`: positions queued to close at their symbol's next match (status `closing`);
 * - `afterHours`: pending after-hours fixed-price orders → their trading date.
 *
 * The book decides where an order waits and which orders a match takes (pure functions of the
 * day state); matching.ts writes what it decides. assertInvariants checks the book against the
 * database: after the engine's queue has drained, the book's orders are exactly the pending
 * orders, and its queued closes exactly the closing ones.
 */
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders } from '../../db/schema';
import type { OrderRow } from './fills';
import type { DayState } from './session-days';
import { TriggerIndex, type RestingOrder } from './trigger-index';

/** An order row as the trigger index keeps it. */
export const restingOf = (row: OrderRow): RestingOrder => ({
  id: row.id,
  symbol: row.symbol,
  side: row.side as 'long' | 'short',
  limitPriceMinor: row.limitPriceMinor!,
});

/** What an opening match does (RestingBook.openingMatch): order ids to expire, fill and close. */
export interface OpeningMatch {
  expiring: number[];
  fills: number[];
  closes: number[];
}

/** What a closing match does (RestingBook.closingMatch), each in execution order. */
export interface ClosingMatch {
  fills: number[];
  closes: number[];
  expiring: number[];
}

/** The engine's live orders in memory (see the module docstring). */
export class RestingBook {
  /** Continuous-trading resting orders (and those entered in the closing call). */
  readonly index = new TriggerIndex();
  /** Orders entered in pre-open, waiting for their trading day's opening match. */
  readonly openingQueue = new TriggerIndex();
  /** Trading date of every order in `index` and `openingQueue`. */
  readonly restingDate = new Map<number, string>();
  /** Positions queued to close at their symbol's next match: symbol → order ids. */
  readonly closing = new Map<string, Set<number>>();
  /** Pending after-hours orders: id → trading date. */
  readonly afterHours = new Map<number, string>();

  /**
   * Puts a pending regular order where it waits, given its instrument's day `st` (undefined on a
   * source without sessions): the opening queue when its trading day has not opened yet, the
   * trigger index during its day. Returns 'expire' (nothing kept) when its day's closing match
   * has already run or its day has passed.
   */
  rest(row: OrderRow, st: DayState | undefined): 'rested' | 'expire' {
    const date = row.tradeDate ?? st?.date ?? '';
    if (st && !st.opened && date >= st.date) {
      // Entered in the pre-open of the instrument's day: waits for its opening match.
      this.openingQueue.add(restingOf(row));
    } else if (!st || date === st.date) {
      if (st?.closeDone) return 'expire';
      this.index.add(restingOf(row));
    } else if (date > st.date) {
      this.openingQueue.add(restingOf(row));
    } else {
      return 'expire';
    }
    this.restingDate.set(row.id, date);
    return 'rested';
  }

  /** Queues position `id` of `symbol` to close at the symbol's next match. */
  queueClose(symbol: string, id: number): void {
    let set = this.closing.get(symbol);
    if (!set) this.closing.set(symbol, (set = new Set()));
    set.add(id);
  }

  /** Removes and returns the positions queued to close on `symbol`. */
  takeClosing(symbol: string): number[] {
    const set = this.closing.get(symbol);
    if (!set || set.size === 0) return [];
    this.closing.delete(symbol);
    return [...set];
  }

  /** Drops a queued close (the position was closed another way). */
  dropClosing(symbol: string, id: number): void {
    this.closing.get(symbol)?.delete(id);
  }

  /** Drops a pending order from wherever it waits (cancelled, or re-read after a change). */
  forget(id: number): void {
    this.index.remove(id);
    this.openingQueue.remove(id);
    this.restingDate.delete(id);
    this.afterHours.delete(id);
  }

  /**
   * The first print of `st`'s day on `symbol` at `openMinor`: the orders of the day that has ended
   * expire (a replay that starts its window over goes back in date, hence `!==`); orders queued
   * for this day fill when the price crosses their limit (long: limit ≥ price, short: limit ≤
   * price) or rest for continuous trading; queued closes close. null when nothing waits.
   */
  openingMatch(symbol: string, st: DayState, openMinor: number): OpeningMatch | null {
    const stale = this.index.countFor(symbol) ? this.index.drain(symbol) : [];
    const queued = this.openingQueue.countFor(symbol) ? this.openingQueue.drain(symbol) : [];
    const closes = this.takeClosing(symbol);
    if (stale.length === 0 && queued.length === 0 && closes.length === 0) return null;
    const expiring: number[] = [];
    const fills: number[] = [];
    for (const o of stale) {
      if ((this.restingDate.get(o.id) ?? '') !== st.date) expiring.push(o.id);
      else this.index.add(o);
    }
    for (const o of queued) {
      const d = this.restingDate.get(o.id) ?? st.date;
      if (d > st.date) this.openingQueue.add(o);
      else if (d < st.date) expiring.push(o.id);
      else if (o.side === 'long' ? o.limitPriceMinor >= openMinor : o.limitPriceMinor <= openMinor)
        fills.push(o.id);
      else this.index.add(o); // rests for continuous trading
    }
    return { expiring, fills, closes };
  }

  /**
   * The 13:30 closing print of `symbol` at `priceMinor` (TWSE Art. 58-3): resting orders it
   * crosses fill, queued closes close, the other resting orders of the day expire (ROD).
   */
  closingMatch(symbol: string, priceMinor: number): ClosingMatch {
    const fills = this.index.takeAtAuction(symbol, priceMinor).map((o) => o.id);
    const expiring = this.index.drain(symbol).map((o) => o.id);
    return { fills, closes: this.takeClosing(symbol), expiring };
  }

  /** Removes and returns the after-hours orders whose match is due: [id, trading date] pairs. */
  takeDueAfterHours(isDue: (date: string) => boolean): Array<[number, string]> {
    const due: Array<[number, string]> = [];
    for (const [id, date] of this.afterHours) if (isDue(date)) due.push([id, date]);
    for (const [id] of due) this.afterHours.delete(id);
    return due;
  }

  /**
   * Checks the book against `db`; call it when the engine's queue has drained (a match takes
   * orders out of the book before its queued fills write them). Holds when:
   * - the book's orders (index, opening queue, after-hours) are exactly the pending orders, each
   *   in one place only, regular orders in the index or queue and after-hours orders apart;
   * - every index and queue entry has the row's symbol, side and limit price, and a trading date;
   *   nothing else has a trading date;
   * - the queued closes are exactly the closing orders, each under its symbol;
   * - each trigger index is consistent with itself (TriggerIndex.selfCheck).
   * @throws Error naming every difference found.
   */
  async assertInvariants(db: Db): Promise<void> {
    const rows = await db
      .select({
        id: orders.id,
        status: orders.status,
        symbol: orders.symbol,
        side: orders.side,
        limitPriceMinor: orders.limitPriceMinor,
        entrySession: orders.entrySession,
      })
      .from(orders)
      .where(inArray(orders.status, ['pending', 'closing']));
    const problems = [...this.selfProblems(), ...this.rowProblems(rows)];
    if (problems.length) throw new Error(`resting book ≠ database: ${problems.join('; ')}`);
  }

  /** The book's inconsistencies with itself. */
  private selfProblems(): string[] {
    const out: string[] = [];
    for (const [name, ix] of [
      ['index', this.index],
      ['opening queue', this.openingQueue],
    ] as const) {
      const bad = ix.selfCheck();
      if (bad) out.push(`${name}: ${bad}`);
    }
    const places = new Map<number, number>();
    const count = (id: number) => places.set(id, (places.get(id) ?? 0) + 1);
    for (const o of this.index.entries()) count(o.id);
    for (const o of this.openingQueue.entries()) count(o.id);
    for (const id of this.afterHours.keys()) count(id);
    for (const [id, n] of places) if (n > 1) out.push(`order ${id} waits in ${n} places`);
    for (const id of this.restingDate.keys())
      if (!this.index.has(id) && !this.openingQueue.has(id)) out.push(`order ${id} dated but not resting`);
    return out;
  }

  /** The book's differences from the live rows `rows` (pending and closing orders). */
  private rowProblems(
    rows: Array<Pick<OrderRow, 'id' | 'status' | 'symbol' | 'side' | 'limitPriceMinor' | 'entrySession'>>,
  ): string[] {
    const out: string[] = [];
    const pending = new Map(rows.filter((r) => r.status === 'pending').map((r) => [r.id, r]));
    const resting = [...this.index.entries(), ...this.openingQueue.entries()];
    for (const o of resting) {
      const r = pending.get(o.id);
      if (!r) out.push(`order ${o.id} rests but is not pending`);
      else if (r.entrySession !== 'regular') out.push(`after-hours order ${o.id} in the trigger index`);
      else if (r.symbol !== o.symbol || r.side !== o.side || r.limitPriceMinor !== o.limitPriceMinor)
        out.push(`order ${o.id} rests as ${o.symbol} ${o.side} ${o.limitPriceMinor}`);
      if (!this.restingDate.has(o.id)) out.push(`order ${o.id} rests without a trading date`);
    }
    for (const id of this.afterHours.keys()) {
      const r = pending.get(id);
      if (!r) out.push(`after-hours order ${id} is not pending`);
      else if (r.entrySession !== 'afterHours') out.push(`regular order ${id} in the after-hours queue`);
    }
    for (const id of pending.keys())
      if (!this.index.has(id) && !this.openingQueue.has(id) && !this.afterHours.has(id))
        out.push(`pending order ${id} is not in the book`);
    const closing = new Map(rows.filter((r) => r.status === 'closing').map((r) => [r.id, r.symbol]));
    const queued = new Set<number>();
    for (const [symbol, ids] of this.closing)
      for (const id of ids) {
        queued.add(id);
        if (closing.get(id) !== symbol) out.push(`queued close ${id} (${symbol}) is not a closing order`);
      }
    for (const id of closing.keys()) if (!queued.has(id)) out.push(`closing order ${id} is not queued`);
    return out;
  }
}
