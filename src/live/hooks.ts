/**
 * React hooks over the market stream. Quote and depth hooks subscribe through the worker bridge
 * and turn every batch into exactly one low-priority Redux action (auto-batched per animation
 * frame). The trades tape stays outside Redux: `useTrades` reads a per-symbol store through
 * `useSyncExternalStore`, so only the component showing the tape re-renders.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { Subscription } from 'rxjs';
import type { Depth, Quote, Trade } from '../../contract/market';
import { TAPE_MAX } from '../../workers/protocol';
import { applyTradeUpdate } from '../../workers/conflate';
import {
  connChanged,
  depthReceived,
  quoteBatchReceived,
  quotesReceived,
  type MarketRootState,
} from './quotes-slice';
import {
  makeSelectRowView,
  selectClock,
  selectConn,
  selectDepth,
  selectQuote,
  selectQuoteReceivedAt,
  sameClockView,
  type ClockView,
  type ConnView,
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

/** Keeps the given symbols' quotes live in the store while mounted (one dispatch per batch). */
export function useQuoteStream(symbols: readonly string[]): void {
  const dispatch = useDispatch();
  const key = symbolsKey(symbols);
  useEffect(() => {
    if (!key) return;
    const sub: Subscription = marketStream('quotes', { symbols: key.split(',') }).subscribe((batch) => {
      dispatch(quoteBatchReceived({ items: batch.items, receivedAt: batch.receivedAt }));
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

/** Mirrors the worker's connection state, clock and lastDataAt into the store (mount once at the root). */
export function useMarketStatusBridge(): void {
  const dispatch = useDispatch();
  useEffect(() => {
    const sub = marketStatus$().subscribe((s) => {
      dispatch(connChanged({ conn: s.state, attempt: s.attempt, clock: s.clock, lastDataAt: s.lastDataAt }));
    });
    return () => sub.unsubscribe();
  }, [dispatch]);
}

export function useQuote(symbol: string): Quote | undefined {
  return useSelector((s: MarketRootState) => selectQuote(s, symbol));
}

/**
 * Draws a symbol's later quotes without re-rendering: `paint(q, fresh)` writes the figures of `q`
 * (undefined: not known) into the DOM the component rendered.
 *
 * Returns the quote the store holds at render, for the render to draw. After that, instead of a
 * React render per new quote (`useQuote`: a synchronous render of every row on screen once per
 * animation frame under the stream, which on a slow phone at 4x CPU made bench:stream's long
 * tasks), `paint(q, false)` is called in the store's notification (once per animation frame)
 * whenever the store holds a new quote object for `symbol`.
 *
 * After every commit that changed `symbol`, the rendered quote or `paint`, `paint(rendered, true)`
 * runs first: `fresh` means what is on screen is not known, so draw every figure. React diffs a
 * render against its own previous render, not against what `paint` wrote, so a row that changed
 * symbol can keep a figure `paint` drew for the old one.
 *
 * `paint` must draw what the render draws from the same quote. Memoize it: it is an effect
 * dependency.
 */
export function usePaintedQuote(
  symbol: string,
  paint: (q: Quote | undefined, fresh: boolean) => void,
): Quote | undefined {
  const store = useStore<MarketRootState>();
  const rendered = selectQuote(store.getState(), symbol);
  useLayoutEffect(() => {
    let held = rendered;
    paint(held, true);
    const check = () => {
      const q = selectQuote(store.getState(), symbol);
      if (q === held) return;
      held = q;
      paint(q, false);
    };
    check();
    return store.subscribe(check);
  }, [store, symbol, rendered, paint]);
  return rendered;
}

/** Worker wall clock (epoch ms) at which the symbol's last streamed quote arrived. */
export function useQuoteReceivedAt(symbol: string): number | undefined {
  return useSelector((s: MarketRootState) => selectQuoteReceivedAt(s, symbol));
}

export function useDepth(symbol: string): Depth | undefined {
  return useSelector((s: MarketRootState) => selectDepth(s, symbol));
}

/** The displayed figures of one row; re-renders only when this symbol's quote changed. */
export function useRowView(symbol: string): RowView | undefined {
  const select = useMemo(makeSelectRowView, []);
  return useSelector((s: MarketRootState) => select(s, symbol));
}

/**
 * Connection state for the badge: `{ state, attempt, lastDataAt }` (ConnState; reconnect
 * attempts; worker epoch ms of the last data, null before any). Same object until a field changes.
 */
export function useConn(): ConnView {
  return useSelector(selectConn);
}

/**
 * The market clock as screens show it (ClockView: no `now`), null before the first one; the same
 * object until a shown field changes (`sameClockView`).
 */
export function useClock(): ClockView | null {
  return useSelector(selectClock, sameClockView);
}

/**
 * True when the server's wall timestamps (an order's createdAt, openedAt, closedAt) are market
 * times: on the exchange clock and the stress source. On the replay clock they are not (the
 * market replays another date at any hour), so screens show the replayed trade date instead;
 * also before the first clock arrives.
 */
export function useWallIsMarketTime(): boolean {
  const clock = useClock();
  return !!clock && (clock.mode === 'exchange' || clock.source === 'stress');
}

/** Seeds the store with REST snapshots (list pages, detail) so rows paint before the stream. */
export function useSeedQuotes(quotes: readonly Quote[] | undefined): void {
  const dispatch = useDispatch();
  useEffect(() => {
    if (quotes && quotes.length) dispatch(quotesReceived([...quotes]));
  }, [quotes, dispatch]);
}

// ---- trades tape (outside Redux) ----

const NO_TRADES: readonly Trade[] = Object.freeze([]);

interface TapeEntry {
  /** Oldest first, ≤ TAPE_MAX; replaced (never mutated) on each batch. */
  tape: readonly Trade[];
  listeners: Set<() => void>;
  sub: Subscription | null;
  teardown: ReturnType<typeof setTimeout> | null;
}

const tapes = new Map<string, TapeEntry>();

/**
 * The per-symbol tape store behind `useTrades`: one worker subscription per symbol however many
 * components show it, dropped HANDOVER_MS after the last one leaves (a remount keeps it).
 */
export const tradeTapes = {
  subscribe(symbol: string, listener: () => void): () => void {
    let entry = tapes.get(symbol);
    if (!entry) {
      entry = { tape: NO_TRADES, listeners: new Set(), sub: null, teardown: null };
      tapes.set(symbol, entry);
    }
    const e = entry;
    if (e.teardown !== null) clearTimeout(e.teardown);
    e.teardown = null;
    e.listeners.add(listener);
    e.sub ??= marketStream('trades', { symbols: [symbol] }).subscribe((batch) => {
      let changed = false;
      for (const u of batch.items) {
        if (u.symbol !== symbol) continue;
        e.tape = applyTradeUpdate(e.tape, u, TAPE_MAX);
        changed = true;
      }
      if (changed) for (const l of e.listeners) l();
    });
    let done = false;
    return () => {
      if (done) return;
      done = true;
      e.listeners.delete(listener);
      if (e.listeners.size > 0 || e.teardown !== null) return;
      e.teardown = setTimeout(() => {
        e.teardown = null;
        if (e.listeners.size > 0) return;
        e.sub?.unsubscribe();
        e.sub = null;
        if (tapes.get(symbol) === e) tapes.delete(symbol);
      }, HANDOVER_MS);
    };
  },
  get(symbol: string): readonly Trade[] {
    return tapes.get(symbol)?.tape ?? NO_TRADES;
  },
};

/**
 * The symbol's recent prints, oldest first (≤ TAPE_MAX), live while mounted; an empty array
 * before the first batch or for a null symbol. Re-renders at most once per worker batch.
 */
export function useTrades(symbol: string | null): readonly Trade[] {
  const subscribe = useCallback(
    (onChange: () => void) => (symbol ? tradeTapes.subscribe(symbol, onChange) : () => undefined),
    [symbol],
  );
  const get = useCallback(() => (symbol ? tradeTapes.get(symbol) : NO_TRADES), [symbol]);
  return useSyncExternalStore(subscribe, get, get);
}
