/**
 * Live quotes for the rows a virtualized list shows: give `onRange` to react-virtuoso's
 * `rangeChanged`; the symbols in that range plus OVERSCAN_ROWS either side are kept subscribed
 * through the worker (useQuoteStream), re-chosen VISIBLE_DEBOUNCE_MS after scrolling settles, so
 * a fling does not subscribe every row it passes. Before the first range, the first
 * INITIAL_ROWS are subscribed.
 */
import { useEffect, useState } from 'react';
import type { ListRange } from 'react-virtuoso';
import { useQuoteStream } from './hooks';

/** Rows beyond the visible range that are also kept live (smooth scrolling). */
export const OVERSCAN_ROWS = 5;
/** Wall ms of scroll quiet before the subscribed set changes. */
export const VISIBLE_DEBOUNCE_MS = 200;
/** Rows subscribed before the list reports its first range (a phone screen of 60 px rows). */
export const INITIAL_ROWS = 15;

/** See the module docstring; returns the `rangeChanged` handler. */
export function useVisibleQuotes(symbols: readonly string[]): (range: ListRange) => void {
  const [range, setRange] = useState<ListRange>({ startIndex: 0, endIndex: INITIAL_ROWS });
  const [visible, setVisible] = useState<string[]>([]);
  useEffect(() => {
    const timer = setTimeout(() => {
      const from = Math.max(0, range.startIndex - OVERSCAN_ROWS);
      const to = Math.min(symbols.length, range.endIndex + OVERSCAN_ROWS + 1);
      setVisible(symbols.slice(from, to));
    }, VISIBLE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [range, symbols]);
  useQuoteStream(visible);
  return setRange;
}
