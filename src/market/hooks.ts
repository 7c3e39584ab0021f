/**
 * React hooks over the market stream. Each hook subscribes through the worker bridge and turns
 * every batch into exactly one Redux action (auto-batched per animation frame).
 */
import { useEffect, useMemo } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import type { Subscription } from 'rxjs';
import type { Depth, Quote } from '../../contract/market';
import { connChanged, depthReceived, quotesReceived, type MarketRootState } from './quotes-slice';
import {
  makeSelectRowView,
  selectClock,
  selectConn,
  selectDepth,
  selectQuote,
  type RowView,
} from './selectors';
import { marketStatus$, marketStream } from './worker-bridge';

/**
 * When the symbol set changes, the old subscription is dropped a moment after the new one is
 * opened, so symbols present in both never see an unsub/sub round trip in the worker.
 */
const HANDOVER_MS = 300;

function symbolsKey(symbols: readonly string[]): string {
  return Array.from(new Set(symbols)).sort().join(',');
}

/** Keeps the given symbols' quotes live in the store while mounted. */
export function useQuoteStream(symbols: readonly string[]): void {
  const dispatch = useDispatch();
  const key = symbolsKey(symbols);
  useEffect(() => {
    if (!key) return;
    const sub: Subscription = marketStream('quotes', { symbols: key.split(',') }).subscribe((batch) => {
      dispatch(quotesReceived(batch.items));
    });
    return () => {
      setTimeout(() => sub.unsubscribe(), HANDOVER_MS);
    };
  }, [key, dispatch]);
}

/** Keeps one symbol's five-level book live in the store while mounted. */
export function useDepthStream(symbol: string | null): void {
  const dispatch = useDispatch();
  useEffect(() => {
    if (!symbol) return;
    const sub = marketStream('depth', { symbols: [symbol] }).subscribe((batch) => {
      dispatch(depthReceived(batch.items));
    });
    return () => sub.unsubscribe();
  }, [symbol, dispatch]);
}

/** Mirrors the worker's connection state and clock into the store (mount once at the root). */
export function useMarketStatusBridge(): void {
  const dispatch = useDispatch();
  useEffect(() => {
    const sub = marketStatus$().subscribe((s) => {
      dispatch(connChanged({ conn: s.state, attempt: s.attempt, clock: s.clock }));
    });
    return () => sub.unsubscribe();
  }, [dispatch]);
}

export function useQuote(symbol: string): Quote | undefined {
  return useSelector((s: MarketRootState) => selectQuote(s, symbol));
}

export function useDepth(symbol: string): Depth | undefined {
  return useSelector((s: MarketRootState) => selectDepth(s, symbol));
}

/** The displayed figures of one row; re-renders only when this symbol's quote changed. */
export function useRowView(symbol: string): RowView | undefined {
  const select = useMemo(makeSelectRowView, []);
  return useSelector((s: MarketRootState) => select(s, symbol));
}

export function useConn() {
  return useSelector(selectConn);
}

export function useClock() {
  return useSelector(selectClock);
}

/** Seeds the store with REST snapshots (list pages, detail) so rows paint before the stream. */
export function useSeedQuotes(quotes: readonly Quote[] | undefined): void {
  const dispatch = useDispatch();
  useEffect(() => {
    if (quotes && quotes.length) dispatch(quotesReceived([...quotes]));
  }, [quotes, dispatch]);
}
