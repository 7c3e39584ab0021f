/**
 * Resting limit orders indexed by symbol and price, so a quote finds the orders it triggers
 * without scanning all orders. A long (buy) limit triggers when ask ≤ limit; a short (sell) limit
 * when bid ≥ limit. Per symbol, longs are kept sorted by limit descending and shorts ascending,
 * so the triggered orders are always a prefix: O(k + log n) per quote for k triggered orders.
 */
export interface RestingOrder {
  id: number;
  symbol: string;
  side: 'long' | 'short';
  limitPriceMinor: number;
}

interface Book {
  /** limit descending, then id ascending (time priority) */
  longs: RestingOrder[];
  /** limit ascending, then id ascending */
  shorts: RestingOrder[];
}

function insertSorted(
  list: RestingOrder[],
  o: RestingOrder,
  before: (a: RestingOrder, b: RestingOrder) => boolean,
) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(list[mid]!, o)) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, o);
}

/** Whether `a` comes before `b` in a `side` list (price, then time priority). */
function priorityBefore(side: 'long' | 'short', a: RestingOrder, b: RestingOrder): boolean {
  if (a.limitPriceMinor === b.limitPriceMinor) return a.id < b.id;
  return side === 'long' ? a.limitPriceMinor > b.limitPriceMinor : a.limitPriceMinor < b.limitPriceMinor;
}

/** The per-symbol price index of resting limit orders (see the module docstring). */
export class TriggerIndex {
  private books = new Map<string, Book>();
  private byId = new Map<number, RestingOrder>();

  get size(): number {
    return this.byId.size;
  }

  add(o: RestingOrder): void {
    if (this.byId.has(o.id)) return;
    this.byId.set(o.id, o);
    let book = this.books.get(o.symbol);
    if (!book) this.books.set(o.symbol, (book = { longs: [], shorts: [] }));
    if (o.side === 'long')
      insertSorted(
        book.longs,
        o,
        (a, b) =>
          a.limitPriceMinor > b.limitPriceMinor || (a.limitPriceMinor === b.limitPriceMinor && a.id < b.id),
      );
    else
      insertSorted(
        book.shorts,
        o,
        (a, b) =>
          a.limitPriceMinor < b.limitPriceMinor || (a.limitPriceMinor === b.limitPriceMinor && a.id < b.id),
      );
  }

  remove(id: number): boolean {
    const o = this.byId.get(id);
    if (!o) return false;
    this.byId.delete(id);
    const book = this.books.get(o.symbol)!;
    const list = o.side === 'long' ? book.longs : book.shorts;
    const i = list.indexOf(o);
    if (i >= 0) list.splice(i, 1);
    return true;
  }

  /** Every resting order (no order promised). O(n): for checks, not the hot path. */
  entries(): RestingOrder[] {
    return [...this.byId.values()];
  }

  /**
   * The first inconsistency of the index with itself, or null: every order listed once, under its
   * symbol and side, each list in priority order, and nothing listed that `byId` does not hold.
   * O(n): for RestingBook.assertInvariants, not the hot path.
   */
  selfCheck(): string | null {
    let listed = 0;
    for (const [symbol, book] of this.books)
      for (const [side, list] of [
        ['long', book.longs],
        ['short', book.shorts],
      ] as const) {
        for (let i = 0; i < list.length; i++) {
          const o = list[i]!;
          listed++;
          if (this.byId.get(o.id) !== o) return `order ${o.id} listed but not indexed`;
          if (o.symbol !== symbol || o.side !== side) return `order ${o.id} listed under ${symbol} ${side}`;
          const prev = list[i - 1];
          if (prev && !priorityBefore(side, prev, o)) return `order ${o.id} out of priority order`;
        }
      }
    return listed === this.byId.size ? null : `${this.byId.size} indexed, ${listed} listed`;
  }

  /** Whether the order is resting here. */
  has(id: number): boolean {
    return this.byId.has(id);
  }

  /** Number of orders resting for one symbol. */
  countFor(symbol: string): number {
    const book = this.books.get(symbol);
    return book ? book.longs.length + book.shorts.length : 0;
  }

  /** Removes and returns every order of `symbol` (longs then shorts, each in priority order). */
  drain(symbol: string): RestingOrder[] {
    const book = this.books.get(symbol);
    if (!book) return [];
    const out = [...book.longs, ...book.shorts];
    this.books.delete(symbol);
    for (const o of out) this.byId.delete(o.id);
    return out;
  }

  /**
   * Removes and returns the orders a call auction at `priceMinor` executes: longs with limit ≥
   * price and shorts with limit ≤ price (TWSE Art. 58-3: buy orders at or above and sell orders at
   * or below the determined price are satisfied), in price-time priority.
   */
  takeAtAuction(symbol: string, priceMinor: number): RestingOrder[] {
    return this.take(symbol, priceMinor, priceMinor);
  }

  /** Removes and returns every order the quote triggers, in price-time priority. */
  take(symbol: string, bidMinor: number, askMinor: number): RestingOrder[] {
    const book = this.books.get(symbol);
    if (!book) return [];
    // A side with no price (0: no ask or no bid in the book) triggers nothing; without this an
    // empty ask side would fill every resting long.
    let nl = 0;
    if (askMinor > 0) while (nl < book.longs.length && book.longs[nl]!.limitPriceMinor >= askMinor) nl++;
    let ns = 0;
    if (bidMinor > 0) while (ns < book.shorts.length && book.shorts[ns]!.limitPriceMinor <= bidMinor) ns++;
    const out = [...book.longs.splice(0, nl), ...book.shorts.splice(0, ns)];
    for (const o of out) this.byId.delete(o.id);
    return out;
  }
}
