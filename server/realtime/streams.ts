/**
 * The gateway's streams and the messages built from them (server/realtime/gateway.ts explains
 * the protocol around them): one Stream per (channel, symbol[, period]), its accumulated feed
 * events, its flush counter `seq`, and the delta and snapshot texts it yields.
 */
import type { Candle, CandlePeriod, Depth, Quote, Trade } from '../../contract/market';
import { diffDepth } from '../../contract/depth-delta';
import { diffQuote } from '../../contract/quote-delta';
import { MAX_TRADES_PER_FLUSH, streamId, type Channel } from '../../contract/realtime';
import type { MarketFeed } from '../market/feed';

/** Bars in a candles snapshot. */
export const CANDLE_SNAPSHOT_BARS = 300;
/** Prints in a trades snapshot. */
export const TRADE_SNAPSHOT_PRINTS = 50;

/** The part of the market feed the gateway uses. */
export type GatewayFeed = Pick<
  MarketFeed,
  | 'onQuote'
  | 'onDepth'
  | 'onCandle'
  | 'onTrade'
  | 'quote'
  | 'depth'
  | 'candles'
  | 'trades'
  | 'isTradable'
  | 'clock'
>;

/** One stream; `S` is whatever the gateway keeps per subscriber (its connection). */
export interface Stream<S = unknown> {
  id: string;
  channel: Channel;
  symbol: string;
  period: CandlePeriod | undefined;
  /** Flush counter: the seq of the last message built for this stream. */
  seq: number;
  subs: Set<S>;
  /** Candle snapshots being fetched for it (keep the stream alive and accumulating). */
  pending: number;
  dirty: boolean;
  /** Flushes that consumed this stream's accumulated changes (snapshot consistency check). */
  flushes: number;
  /** quotes/depth: every subscriber holds a full state (else the next flush sends a snapshot). */
  primed: boolean;
  quote: Quote | null;
  /** The quote as of the last flush: what the next quote delta is diffed against. */
  sentQuote: Quote | null;
  book: Depth | null;
  sentBook: Depth | null;
  bars: Map<number, Candle>;
  prints: Trade[];
  truncated: boolean;
  /** First print accumulated since the last flush (trades snapshots end before it). */
  firstPending: Trade | null;
  /**
   * candles: the snapshot bars fetched at `flushes` (shared by every subscriber asking before the
   * next flush consumes a change), and the snapshot text built from them at `seq`.
   */
  candleFetch: { flushes: number; data: Promise<Candle[]> } | null;
  candleText: { seq: number; data: Candle[]; text: string } | null;
}

/** A fresh stream with nothing accumulated and seq 0. */
export function newStream<S>(channel: Channel, symbol: string, period: CandlePeriod | undefined): Stream<S> {
  return {
    id: streamId(channel, symbol, period),
    channel,
    symbol,
    period,
    seq: 0,
    subs: new Set(),
    pending: 0,
    dirty: false,
    flushes: 0,
    primed: false,
    quote: null,
    book: null,
    sentBook: null,
    sentQuote: null,
    bars: new Map(),
    prints: [],
    truncated: false,
    firstPending: null,
    candleFetch: null,
    candleText: null,
  };
}

/** The `error` message text for an error key. */
export const errorText = (msg: string): string => JSON.stringify({ type: 'error', msg });

/** The stream's delta for this flush (seq already incremented); consumes its accumulation. */
export function deltaMessage(s: Stream): object | null {
  switch (s.channel) {
    case 'quotes': {
      const q = s.quote;
      s.quote = null;
      if (!q) return null;
      const prev = s.primed ? s.sentQuote : null;
      s.sentQuote = q;
      s.primed = true;
      return prev
        ? { type: 'quote', kind: 'delta', symbol: s.symbol, seq: s.seq, data: diffQuote(prev, q) }
        : { type: 'quote', kind: 'snapshot', symbol: s.symbol, seq: s.seq, data: q };
    }
    case 'depth': {
      const book = s.book;
      s.book = null;
      if (!book) return null;
      const prev = s.sentBook;
      s.sentBook = book;
      s.primed = true;
      return prev
        ? { type: 'depth', kind: 'delta', symbol: s.symbol, seq: s.seq, data: diffDepth(prev, book) }
        : { type: 'depth', kind: 'snapshot', symbol: s.symbol, seq: s.seq, data: book };
    }
    case 'candles': {
      if (s.bars.size === 0) return null;
      const data = [...s.bars.values()].sort((a, b) => a.ts - b.ts);
      s.bars.clear();
      return { type: 'candles', kind: 'delta', symbol: s.symbol, period: s.period, seq: s.seq, data };
    }
    case 'trades': {
      let data = s.prints;
      const truncated = s.truncated || data.length > MAX_TRADES_PER_FLUSH;
      if (data.length > MAX_TRADES_PER_FLUSH) data = data.slice(-MAX_TRADES_PER_FLUSH);
      s.prints = [];
      s.truncated = false;
      s.firstPending = null;
      if (data.length === 0) return null;
      return truncated
        ? { type: 'trades', kind: 'delta', symbol: s.symbol, seq: s.seq, data, truncated: true }
        : { type: 'trades', kind: 'delta', symbol: s.symbol, seq: s.seq, data };
    }
  }
}

/**
 * A synchronous snapshot of a quotes/depth/trades stream at its current seq (see the gateway's
 * docstring), or null when the feed has nothing yet. Call before adding the subscriber.
 */
export function syncSnapshot(feed: GatewayFeed, s: Stream): string | null {
  // `primed`: every subscriber holds a full state. One that subscribed while the feed had
  // nothing yet does not, and then the next flush sends a snapshot to all, not a delta.
  if (s.channel === 'quotes') {
    let q = s.primed ? s.sentQuote : null;
    if (!q) {
      q = feed.quote(s.symbol) ?? null;
      if (!q) return null;
      if (s.subs.size === 0) {
        // A new stream: the quote sent now is what the next delta is diffed against.
        s.sentQuote = q;
        s.quote = null;
        s.primed = true;
      } // else its first quote is pending, and the next flush sends it to all as a snapshot
    }
    return JSON.stringify({ type: 'quote', kind: 'snapshot', symbol: s.symbol, seq: s.seq, data: q });
  }
  if (s.channel === 'depth') {
    let book = s.sentBook;
    if (!book) {
      book = feed.depth(s.symbol) ?? null;
      if (!book) return null;
      if (s.subs.size === 0) {
        // A new stream: the book sent now is what the next delta is diffed against.
        s.sentBook = book;
        s.book = null;
      } // else its first book is pending, and the next flush sends it to all as a snapshot
    }
    return JSON.stringify({ type: 'depth', kind: 'snapshot', symbol: s.symbol, seq: s.seq, data: book });
  }
  // trades: up to the last flush; prints accumulated since then come in the next delta.
  const all = feed.trades(s.symbol, Number.MAX_SAFE_INTEGER);
  let end = all.length;
  if (s.firstPending) {
    const i = all.lastIndexOf(s.firstPending);
    end = i >= 0 ? i : 0; // not in the ring: everything in it is newer than the last flush
  }
  const data = all.slice(Math.max(0, end - TRADE_SNAPSHOT_PRINTS), end);
  return JSON.stringify({ type: 'trades', kind: 'snapshot', symbol: s.symbol, seq: s.seq, data });
}

/**
 * A candles snapshot text at the stream's current seq; built once per (seq, bars fetched) and
 * shared by every subscriber that asks meanwhile.
 */
export function candleSnapshotText(s: Stream, data: Candle[]): string {
  const c = s.candleText;
  if (c && c.seq === s.seq && c.data === data) return c.text;
  const text = JSON.stringify({
    type: 'candles',
    kind: 'snapshot',
    symbol: s.symbol,
    period: s.period,
    seq: s.seq,
    data,
  });
  s.candleText = { seq: s.seq, data, text };
  return text;
}
