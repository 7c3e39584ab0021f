/**
 * The listener registry both market feeds share (the replay feed, feed.ts, and the stress feed,
 * stress.ts): one set per MarketFeed event, the four registration methods (onQuote, onDepth,
 * onCandle, onTrade; each returns its unsubscribe) and an emit function per event.
 *
 * - emit*() calls every listener of that event in registration order with the same arguments;
 *   a listener that throws is logged (`<name> listener failed`) and the others still run, so one
 *   failing consumer cannot break a tick.
 * - The sets are exposed so a feed can skip building an event nobody listens to
 *   (`if (depthFns.size > 0) emitDepth(depthOf(s))`).
 */
import type { Candle, CandlePeriod, Depth, Quote, Trade } from '../../contract/market';

export type QuoteListener = (q: Quote) => void;
export type DepthListener = (d: Depth) => void;
export type CandleListener = (symbol: string, period: CandlePeriod, c: Candle) => void;
export type TradeListener = (symbol: string, t: Trade) => void;

/** What createFeedListeners returns (see the module docstring). */
export interface FeedListeners {
  readonly quoteFns: ReadonlySet<QuoteListener>;
  readonly depthFns: ReadonlySet<DepthListener>;
  readonly candleFns: ReadonlySet<CandleListener>;
  readonly tradeFns: ReadonlySet<TradeListener>;
  onQuote(fn: QuoteListener): () => void;
  onDepth(fn: DepthListener): () => void;
  onCandle(fn: CandleListener): () => void;
  onTrade(fn: TradeListener): () => void;
  emitQuote(q: Quote): void;
  emitDepth(d: Depth): void;
  emitCandle(symbol: string, period: CandlePeriod, c: Candle): void;
  emitTrade(symbol: string, t: Trade): void;
}

/** A new, empty registry; `name` labels the error log of a failing listener (e.g. 'market feed'). */
export function createFeedListeners(name: string): FeedListeners {
  const quoteFns = new Set<QuoteListener>();
  const depthFns = new Set<DepthListener>();
  const candleFns = new Set<CandleListener>();
  const tradeFns = new Set<TradeListener>();

  const safe = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      console.error(`${name} listener failed`, err);
    }
  };
  const on =
    <F>(set: Set<F>) =>
    (fn: F) => {
      set.add(fn);
      return () => set.delete(fn);
    };

  return {
    quoteFns,
    depthFns,
    candleFns,
    tradeFns,
    onQuote: on(quoteFns),
    onDepth: on(depthFns),
    onCandle: on(candleFns),
    onTrade: on(tradeFns),
    emitQuote(q) {
      for (const fn of quoteFns) safe(() => fn(q));
    },
    emitDepth(d) {
      for (const fn of depthFns) safe(() => fn(d));
    },
    emitCandle(symbol, period, c) {
      for (const fn of candleFns) safe(() => fn(symbol, period, c));
    },
    emitTrade(symbol, t) {
      for (const fn of tradeFns) safe(() => fn(symbol, t));
    },
  };
}
