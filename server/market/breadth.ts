/**
 * Market breadth of the replayed day so far, for the index tab: how many instruments are up,
 * down, unchanged against their reference price, how many have not traded, and the market's
 * turnover — over the whole market and per exchange. Computed from the feed's quotes (one pass,
 * ~2,300 quotes ≈ 0.1 ms), never from the real file, so it agrees with the prices on screen.
 *
 * An instrument counts as not traded when its quote says `traded: false` (no row that day) or
 * it has not printed yet (volume 0, e.g. before 09:00). Units: turnover minor (1 NT$ = 100).
 */
import type { Instrument, Quote } from '../../contract/market';

/** Counts of one group of instruments. */
export interface BreadthCounts {
  advancers: number;
  decliners: number;
  unchanged: number;
  notTraded: number;
  /** Σ quote turnover (minor). */
  turnoverMinor: number;
}

/** feed.breadth(): the whole market and each exchange. */
export interface Breadth extends BreadthCounts {
  byMarket: { TWSE: BreadthCounts; TPEx: BreadthCounts };
}

const zero = (): BreadthCounts => ({
  advancers: 0,
  decliners: 0,
  unchanged: 0,
  notTraded: 0,
  turnoverMinor: 0,
});

/** Breadth of `quotes`; `marketOf` gives each symbol's exchange (instruments not in it count only in the total). */
export function breadthOf(
  quotes: Iterable<Quote>,
  marketOf: (symbol: string) => Instrument['market'] | undefined,
): Breadth {
  const all = zero();
  const byMarket = { TWSE: zero(), TPEx: zero() };
  for (const q of quotes) {
    const m = marketOf(q.symbol);
    const groups = m === 'TWSE' || m === 'TPEx' ? [all, byMarket[m]] : [all];
    for (const g of groups) {
      if (!q.traded || q.volumeShares === 0) g.notTraded++;
      else if (q.lastMinor > q.prevCloseMinor) g.advancers++;
      else if (q.lastMinor < q.prevCloseMinor) g.decliners++;
      else g.unchanged++;
      g.turnoverMinor += q.turnoverMinor;
    }
  }
  return { ...all, byMarket };
}

/** A lookup symbol → exchange over a directory (feed.instruments()). */
export function marketLookup(
  directory: readonly Instrument[],
): (symbol: string) => Instrument['market'] | undefined {
  const m = new Map(directory.map((i) => [i.symbol, i.market]));
  return (s) => m.get(s);
}
