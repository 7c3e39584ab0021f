/**
 * The gateway's stream registry (gateway.ts): streams created on first subscription and deleted
 * when unused, the per-channel indexes the feed events use, the feed wiring (events only
 * accumulate into their stream and mark it dirty) and the shared candle-snapshot fetch.
 *
 * Errors: a failed candle fetch rejects fetchCandles (the shared fetch is forgotten so the next
 * asks again); feed events never throw here.
 */
import type { Candle, CandlePeriod } from '../../contract/market';
import { MAX_TRADES_PER_FLUSH, streamId, type Channel } from '../../contract/realtime';
import type { Conn, GatewayState, Stream } from './gateway-state';
import { CANDLE_SNAPSHOT_BARS, newStream } from './streams';

/** Candle snapshot fetches repeated at most this often when flushes interleave. */
const SNAPSHOT_FETCH_ATTEMPTS = 4;

/** The index by symbol of a non-candle channel. */
function indexOf(g: GatewayState, channel: 'quotes' | 'depth' | 'trades'): Map<string, Stream> {
  return channel === 'quotes' ? g.quoteStreams : channel === 'depth' ? g.depthStreams : g.tradeStreams;
}

/** The stream of (channel, symbol[, period]), created and indexed when new. */
export function ensureStream(
  g: GatewayState,
  channel: Channel,
  symbol: string,
  period: CandlePeriod | undefined,
): Stream {
  const id = streamId(channel, symbol, period);
  let s = g.streams.get(id);
  if (!s) {
    s = newStream<Conn>(channel, symbol, period);
    g.streams.set(id, s);
    if (channel === 'candles') {
      let m = g.candleStreams.get(symbol);
      if (!m) g.candleStreams.set(symbol, (m = new Map()));
      m.set(period ?? '1m', s);
    } else indexOf(g, channel).set(symbol, s);
  }
  return s;
}

/** Deletes a stream with no subscriber and no snapshot being fetched (and its index entry). */
export function dropIfUnused(g: GatewayState, s: Stream): void {
  if (s.subs.size > 0 || s.pending > 0 || g.streams.get(s.id) !== s) return;
  g.streams.delete(s.id);
  if (s.channel === 'candles') {
    const m = g.candleStreams.get(s.symbol);
    m?.delete(s.period ?? '1m');
    if (m?.size === 0) g.candleStreams.delete(s.symbol);
  } else indexOf(g, s.channel).delete(s.symbol);
}

/** Queues a stream for the next flush (once). */
function markDirty(g: GatewayState, s: Stream): void {
  if (!s.dirty) {
    s.dirty = true;
    g.dirty.push(s);
  }
}

/**
 * Subscribes to the feed's four events: each only accumulates into its existing stream (quotes
 * the latest quote, depth the latest book, candles bars by ts, trades the prints — trimmed in
 * batches, `truncated` set) and marks it dirty. Returns the unsubscribe of all four.
 */
export function wireFeed(g: GatewayState): () => void {
  const offQuote = g.feed.onQuote((q) => {
    const s = g.quoteStreams.get(q.symbol);
    if (!s) return;
    s.quote = q;
    markDirty(g, s);
  });
  const offDepth = g.feed.onDepth((d) => {
    const s = g.depthStreams.get(d.symbol);
    if (!s) return;
    s.book = d;
    markDirty(g, s);
  });
  const offCandle = g.feed.onCandle((symbol, period, c) => {
    const s = g.candleStreams.get(symbol)?.get(period);
    if (!s) return;
    s.bars.set(c.ts, c);
    markDirty(g, s);
  });
  const offTrade = g.feed.onTrade((symbol, t) => {
    const s = g.tradeStreams.get(symbol);
    if (!s) return;
    if (!s.firstPending) s.firstPending = t;
    s.prints.push(t);
    // Trim in batches (amortised O(1)); the flush trims to exactly MAX_TRADES_PER_FLUSH.
    if (s.prints.length >= 2 * MAX_TRADES_PER_FLUSH) {
      s.prints.splice(0, s.prints.length - MAX_TRADES_PER_FLUSH);
      s.truncated = true;
    }
    markDirty(g, s);
  });
  return () => {
    offQuote();
    offDepth();
    offCandle();
    offTrade();
  };
}

/**
 * Candle snapshot bars (the latest CANDLE_SNAPSHOT_BARS, ascending), re-fetched while a flush
 * consumed the stream's changes meanwhile (at most SNAPSHOT_FETCH_ATTEMPTS times). One fetch per
 * stream and flush: subscribers asking before the next flush share it.
 */
export async function fetchCandles(g: GatewayState, s: Stream): Promise<Candle[]> {
  for (let attempt = 1; ; attempt++) {
    const before = s.flushes;
    let f = s.candleFetch;
    if (!f || f.flushes !== before) {
      const fetch = {
        flushes: before,
        data: g.feed.candles(s.symbol, s.period ?? '1m', CANDLE_SNAPSHOT_BARS),
      };
      fetch.data.catch(() => {
        if (s.candleFetch === fetch) s.candleFetch = null;
      });
      s.candleFetch = f = fetch;
    }
    const items = await f.data;
    if (s.flushes === before || attempt >= SNAPSHOT_FETCH_ATTEMPTS) return items;
  }
}
