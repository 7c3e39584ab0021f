/**
 * Market selectors. A row asks for its own symbol only: `selectQuote` returns the entity object,
 * which keeps its identity until that symbol's quote is replaced, so `useSelector` re-renders a
 * row only when its own quote changed. `makeSelectRowView` derives the displayed figures and
 * memoizes them per row instance.
 */
import { createSelector } from '@reduxjs/toolkit';
import type { Depth, Quote } from '../../contract/market';
import type { MarketRootState } from './quotes-slice';

export const selectQuote = (s: MarketRootState, symbol: string): Quote | undefined =>
  s.quotes.entities[symbol];
export const selectDepth = (s: MarketRootState, symbol: string): Depth | undefined =>
  s.depth.entities[symbol];
export const selectConn = (s: MarketRootState) => s.marketStatus.conn;
export const selectClock = (s: MarketRootState) => s.marketStatus.clock;

export interface RowView {
  symbol: string;
  name: string;
  lastMinor: number;
  changeMinor: number;
  /** Change relative to the previous close, in percent (for display only). */
  changePct: number;
  prevCloseMinor: number;
  volumeShares: number;
}

export function toRowView(q: Quote): RowView {
  const changeMinor = q.lastMinor - q.prevCloseMinor;
  return {
    symbol: q.symbol,
    name: q.name,
    lastMinor: q.lastMinor,
    changeMinor,
    changePct: q.prevCloseMinor ? (changeMinor / q.prevCloseMinor) * 100 : 0,
    prevCloseMinor: q.prevCloseMinor,
    volumeShares: q.volumeShares,
  };
}

/** One memoized selector per row instance (use with useMemo). */
export function makeSelectRowView() {
  return createSelector([selectQuote], (q): RowView | undefined => (q ? toRowView(q) : undefined));
}
