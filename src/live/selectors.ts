/**
 * Market selectors. A row asks for its own symbol only: `selectQuote` returns the entity object,
 * which keeps its identity until that symbol's quote is replaced, so `useSelector` re-renders a
 * row only when its own quote changed. `makeSelectRowView` derives the displayed figures and
 * memoizes them per row instance.
 */
import { createSelector } from '@reduxjs/toolkit';
import type { ClockState, Depth, Quote } from '../../contract/market';
import type { ConnState } from '../../workers/protocol';
import { quoteOf, quoteReceivedAt, type MarketRootState } from './quotes-slice';

export const selectQuote = (s: MarketRootState, symbol: string): Quote | undefined =>
  quoteOf(s.quotes, symbol);
/** Worker wall clock (epoch ms) of the symbol's last streamed quote, if any. */
export const selectQuoteReceivedAt = (s: MarketRootState, symbol: string): number | undefined =>
  quoteReceivedAt(s.quotes, symbol);
export const selectDepth = (s: MarketRootState, symbol: string): Depth | undefined =>
  s.depth.entities[symbol];
export const selectConnState = (s: MarketRootState): ConnState => s.marketStatus.conn;
export const selectClock = (s: MarketRootState) => s.marketStatus.clock;

/**
 * The market clock as screens show it: every field but `now` (market epoch ms), which moves with
 * every heartbeat and which no screen shows.
 */
export type ClockView = Omit<ClockState, 'now'>;

/**
 * True when two clocks show the same (every field but `now` equal): `useClock`'s equality, so a
 * heartbeat that only moved the time re-renders nothing (before it, every ranking row and the
 * market and detail screens re-rendered on each heartbeat).
 */
export function sameClockView(a: ClockView | null, b: ClockView | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  // Every field but `now`, so a field added to ClockState is compared without a change here.
  const other: Record<string, unknown> = b;
  for (const [k, v] of Object.entries(a)) if (k !== 'now' && other[k] !== v) return false;
  return Object.keys(a).length === Object.keys(b).length;
}

/** What the connection badge needs; `lastDataAt` is epoch ms (worker clock), null before any data. */
export interface ConnView {
  state: ConnState;
  attempt: number;
  lastDataAt: number | null;
}

/** Memoized: the same object until one of its fields changes. */
export const selectConn = createSelector(
  [
    (s: MarketRootState) => s.marketStatus.conn,
    (s: MarketRootState) => s.marketStatus.attempt,
    (s: MarketRootState) => s.marketStatus.lastDataAt,
  ],
  (state, attempt, lastDataAt): ConnView => ({ state, attempt, lastDataAt }),
);

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
