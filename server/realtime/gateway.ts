/**
 * The `/ws` realtime gateway, protocol version 2 (contract/realtime.ts).
 *
 * Streams: one per (channel, symbol[, period]), id `streamId(...)` (`quotes:2330`,
 * `candles:2330:1m`, `trades:2330`). A stream exists only while it has a subscriber (or a
 * subscriber's snapshot is being fetched); the last unsubscribe or socket close deletes it, so
 * sockets coming and going leave nothing behind. Only existing streams accumulate feed events.
 *
 * Conflation: feed events only accumulate into their stream and mark it dirty — quotes keep the
 * latest quote, depth the latest full book, candles the changed bars by ts, trades every print
 * (at most MAX_TRADES_PER_FLUSH kept, the newest, with `truncated`). One global timer flushes
 * every GATEWAY_FLUSH_MS: each dirty stream increments its `seq` (its flush counter), builds ONE
 * message and serialises it ONCE (quotes: `diffQuote(sentQuote, quote)`, the changed fields
 * only, then sentQuote = quote; depth: `diffDepth(lastSentBook, book)`, then lastSentBook =
 * book); the string goes into the outgoing list of every subscriber; then each socket gets one
 * frame `[m1,m2,…]`. Cost per flush: O(dirty streams + their subscriptions), independent of the
 * feed's event rate.
 *
 * Snapshots on `sub` carry the stream's current seq and are registered in the same turn as seq
 * is read, so the next delta (seq + 1) applies on top of them:
 * - quotes: sentQuote (the quote as of the last flush, which the next delta is diffed against),
 *   or the current quote for a new stream (which then becomes its sentQuote);
 * - depth: lastSentBook (the book as of the last flush, which the next delta is diffed against),
 *   or the current book for a new stream (which then becomes its lastSentBook);
 * - trades: the latest TRADE_SNAPSHOT_PRINTS prints up to the last flush (prints since then come
 *   in the next delta: no duplicates; found by identity in feed.trades());
 * - candles: the latest CANDLE_SNAPSHOT_BARS bars, fetched asynchronously (daily periods read the
 *   database): the stream is created first so it accumulates during the fetch, and the fetch is
 *   repeated if a flush consumed the stream's changes meanwhile. A bar that changed after the
 *   last flush may be in both the snapshot and the next delta; bars merge by ts.
 * One `sub` answers with one frame (all its snapshots, and an `error` per refused symbol). Before
 * the feed has a quote or book for a symbol there is no snapshot; the first flush with one then
 * sends it to every subscriber as a `snapshot` (seq + 1), not a delta.
 *
 * Slow sockets: a socket whose send buffer is above MAX_BUFFERED_BYTES at a flush gets nothing
 * in that flush; the gateway remembers which streams it missed. At the first flush at which it
 * has drained below the cap it gets a fresh snapshot of each missed stream instead of their
 * deltas (candles: as soon as the async fetch returns, in a frame of its own). So the client
 * sees no seq gap and never has to detect one; its memory on the server is bounded by the cap
 * plus one frame, never a growing queue. (A client that re-sends `sub` anyway gets a snapshot.)
 *
 * Heartbeats: `{type:'hb', ts: Date.now(), clock}` every HEARTBEAT_MS, on connect, and in answer
 * to `ping`, as single-message frames; an unparsable client message gets a single `error`.
 */
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { diffDepth } from '../../contract/depth-delta';
import { diffQuote } from '../../contract/quote-delta';
import type { Candle, CandlePeriod, Depth, Quote, Trade } from '../../contract/market';
import {
  clientMessageSchema,
  GATEWAY_FLUSH_MS,
  HEARTBEAT_MS,
  MAX_TRADES_PER_FLUSH,
  streamId,
  type Channel,
} from '../../contract/realtime';
import type { MarketFeed } from '../market/feed';

/** Above this many unsent bytes a socket skips flushes until it drains. */
export const MAX_BUFFERED_BYTES = 256 * 1024;
/** Cap on streams one socket may hold (a sanity limit; a client watching 2,000 quotes fits). */
export const MAX_STREAMS_PER_SOCKET = 5_000;
/** Bars in a candles snapshot. */
export const CANDLE_SNAPSHOT_BARS = 300;
/** Prints in a trades snapshot. */
export const TRADE_SNAPSHOT_PRINTS = 50;
/** Candle snapshot fetches repeated at most this often when flushes interleave. */
const SNAPSHOT_FETCH_ATTEMPTS = 4;
/** ws readyState OPEN. */
const OPEN = 1;

/** What the gateway needs of a socket (`ws` WebSocket fits; tests pass a fake). */
export interface GatewaySocket {
  send(data: string): void;
  /** Bytes queued but not yet written to the network. */
  readonly bufferedAmount: number;
  /** 1 = open (WebSocket readyState). */
  readonly readyState: number;
}

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

interface Stream {
  id: string;
  channel: Channel;
  symbol: string;
  period: CandlePeriod | undefined;
  /** Flush counter: the seq of the last message built for this stream. */
  seq: number;
  subs: Set<Conn>;
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
}

interface Conn {
  ws: GatewaySocket;
  streams: Set<Stream>;
  /** Messages of the current flush. */
  out: string[];
  /** Flush number when last visited, and whether it was over the cap then. */
  mark: number;
  blocked: boolean;
  /** Streams whose deltas it missed → true while a candle snapshot for it is being fetched. */
  missed: Map<Stream, boolean>;
  /** Client messages handled one at a time, in order. */
  queue: Promise<void>;
  closed: boolean;
}

/** Counters for tests and metrics. */
export interface GatewayStats {
  sockets: number;
  streams: number;
  /** Flushes skipped for a socket over the cap (cumulative, per socket per flush). */
  skippedFlushes: number;
  /** Snapshots sent to drained sockets for the streams they missed (cumulative). */
  resyncSnapshots: number;
  /** The largest send buffer (bytes) of any open socket right now. */
  maxBufferedBytes: number;
  /** The largest frame sent so far (bytes). */
  maxFrameBytes: number;
}

/** The gateway without Fastify: feed wiring, subscriptions, flushes (tests drive it directly). */
export interface GatewayCore {
  /** Registers a socket and sends it a heartbeat. */
  open(ws: GatewaySocket): Conn;
  /** Handles one client text frame (queued per socket); resolves when handled. */
  message(conn: Conn, raw: string): Promise<void>;
  /** Forgets the socket and every stream only it held. */
  close(conn: Conn): void;
  /** One flush (the timer calls it every GATEWAY_FLUSH_MS). */
  flush(): void;
  /** One heartbeat to every socket. */
  heartbeat(): void;
  stats(): GatewayStats;
  /** Stops the timers and unsubscribes from the feed. */
  stop(): void;
}

/** Handle to stop the gateway (on app close) and read its counters. */
export interface Gateway {
  stop(): void;
  /** Number of open sockets (tests, metrics). */
  connections(): number;
  stats(): GatewayStats;
}

const errorText = (msg: string) => JSON.stringify({ type: 'error', msg });

/**
 * Creates the gateway core on a feed. `timers: false` (tests) leaves flush() and heartbeat() to
 * the caller; otherwise they run every GATEWAY_FLUSH_MS and HEARTBEAT_MS (unref'd timers).
 */
export function createGatewayCore(feed: GatewayFeed, opts: { timers?: boolean } = {}): GatewayCore {
  const streams = new Map<string, Stream>();
  // Per-channel indexes by symbol for the feed events (no string building per event).
  const quoteStreams = new Map<string, Stream>();
  const depthStreams = new Map<string, Stream>();
  const tradeStreams = new Map<string, Stream>();
  const candleStreams = new Map<string, Map<CandlePeriod, Stream>>();
  const conns = new Set<Conn>();
  const dirty: Stream[] = [];
  const visited: Conn[] = [];
  const resyncing = new Set<Conn>();
  let flushNo = 0;
  const counters = { skippedFlushes: 0, resyncSnapshots: 0, maxFrameBytes: 0 };

  // ---------- streams ----------

  function ensureStream(channel: Channel, symbol: string, period: CandlePeriod | undefined): Stream {
    const id = streamId(channel, symbol, period);
    let s = streams.get(id);
    if (!s) {
      s = {
        id,
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
      };
      streams.set(id, s);
      if (channel === 'candles') {
        let m = candleStreams.get(symbol);
        if (!m) candleStreams.set(symbol, (m = new Map()));
        m.set(period ?? '1m', s);
      } else indexOf(channel).set(symbol, s);
    }
    return s;
  }

  function indexOf(channel: 'quotes' | 'depth' | 'trades'): Map<string, Stream> {
    return channel === 'quotes' ? quoteStreams : channel === 'depth' ? depthStreams : tradeStreams;
  }

  function dropIfUnused(s: Stream): void {
    if (s.subs.size > 0 || s.pending > 0 || streams.get(s.id) !== s) return;
    streams.delete(s.id);
    if (s.channel === 'candles') {
      const m = candleStreams.get(s.symbol);
      m?.delete(s.period ?? '1m');
      if (m?.size === 0) candleStreams.delete(s.symbol);
    } else indexOf(s.channel).delete(s.symbol);
  }

  const markDirty = (s: Stream) => {
    if (!s.dirty) {
      s.dirty = true;
      dirty.push(s);
    }
  };

  // ---------- feed events: accumulate only ----------

  const offQuote = feed.onQuote((q) => {
    const s = quoteStreams.get(q.symbol);
    if (!s) return;
    s.quote = q;
    markDirty(s);
  });
  const offDepth = feed.onDepth((d) => {
    const s = depthStreams.get(d.symbol);
    if (!s) return;
    s.book = d;
    markDirty(s);
  });
  const offCandle = feed.onCandle((symbol, period, c) => {
    const s = candleStreams.get(symbol)?.get(period);
    if (!s) return;
    s.bars.set(c.ts, c);
    markDirty(s);
  });
  const offTrade = feed.onTrade((symbol, t) => {
    const s = tradeStreams.get(symbol);
    if (!s) return;
    if (!s.firstPending) s.firstPending = t;
    s.prints.push(t);
    // Trim in batches (amortised O(1)); the flush trims to exactly MAX_TRADES_PER_FLUSH.
    if (s.prints.length >= 2 * MAX_TRADES_PER_FLUSH) {
      s.prints.splice(0, s.prints.length - MAX_TRADES_PER_FLUSH);
      s.truncated = true;
    }
    markDirty(s);
  });

  // ---------- messages ----------

  /** The stream's delta for this flush (seq already incremented); consumes its accumulation. */
  function deltaMessage(s: Stream): object | null {
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
   * A synchronous snapshot of a quotes/depth/trades stream at its current seq (see the module
   * docstring), or null when the feed has nothing yet. Call before adding the subscriber.
   */
  function syncSnapshot(s: Stream): string | null {
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

  /** Candle snapshot bars, re-fetched while a flush consumed the stream's changes meanwhile. */
  async function fetchCandles(s: Stream): Promise<Candle[]> {
    for (let attempt = 1; ; attempt++) {
      const before = s.flushes;
      const items = await feed.candles(s.symbol, s.period ?? '1m', CANDLE_SNAPSHOT_BARS);
      if (s.flushes === before || attempt >= SNAPSHOT_FETCH_ATTEMPTS) return items;
    }
  }

  const candleSnapshotText = (s: Stream, data: Candle[]) => {
    return JSON.stringify({
      type: 'candles',
      kind: 'snapshot',
      symbol: s.symbol,
      period: s.period,
      seq: s.seq,
      data,
    });
  };

  function sendFrame(c: Conn, parts: string[]): void {
    if (parts.length === 0 || c.closed || c.ws.readyState !== OPEN) return;
    const frame = '[' + parts.join(',') + ']';
    if (frame.length > counters.maxFrameBytes) counters.maxFrameBytes = frame.length;
    c.ws.send(frame);
  }

  // ---------- flush ----------

  function visit(c: Conn): void {
    c.mark = flushNo;
    c.blocked = c.closed || c.ws.readyState !== OPEN || c.ws.bufferedAmount > MAX_BUFFERED_BYTES;
    if (c.blocked) counters.skippedFlushes++;
    visited.push(c);
  }

  /** Queues fresh snapshots of the streams a drained socket missed. */
  function resync(c: Conn): void {
    for (const [s, inFlight] of c.missed) {
      if (inFlight) continue;
      if (s.channel === 'candles') {
        c.missed.set(s, true);
        void fetchCandles(s).then((data) => {
          if (c.closed || !c.streams.has(s) || c.missed.get(s) !== true) return;
          c.missed.delete(s);
          if (c.missed.size === 0) resyncing.delete(c);
          counters.resyncSnapshots++;
          sendFrame(c, [candleSnapshotText(s, data)]);
        });
        continue;
      }
      c.missed.delete(s);
      const text = syncSnapshot(s);
      if (text) {
        c.out.push(text);
        counters.resyncSnapshots++;
      }
    }
    if (c.missed.size === 0) resyncing.delete(c);
  }

  function flush(): void {
    flushNo++;
    for (const s of dirty) {
      s.dirty = false;
      s.flushes++;
      if (s.subs.size === 0) {
        deltaMessage(s); // only a snapshot is being fetched: consume, send nothing
        continue;
      }
      s.seq++;
      const msg = deltaMessage(s);
      if (!msg) {
        s.seq--; // nothing to say (cannot happen for a dirty stream; keeps seq gap-free anyway)
        continue;
      }
      const text = JSON.stringify(msg);
      for (const c of s.subs) {
        if (c.mark !== flushNo) visit(c);
        if (c.blocked) {
          if (!c.missed.has(s)) c.missed.set(s, false);
          resyncing.add(c);
        } else if (!c.missed.has(s)) c.out.push(text);
        // else: a fresh snapshot replaces this delta for c
      }
    }
    dirty.length = 0;
    for (const c of resyncing) {
      if (c.mark !== flushNo) visit(c);
      if (!c.blocked) resync(c);
    }
    for (const c of visited) {
      if (c.out.length > 0) {
        sendFrame(c, c.out);
        c.out = [];
      }
    }
    visited.length = 0;
  }

  // ---------- client messages ----------

  async function subscribe(c: Conn, channel: Channel, symbols: string[], period: CandlePeriod | undefined) {
    const parts: string[] = [];
    const accepted: Stream[] = [];
    for (const symbol of symbols) {
      const id = streamId(channel, symbol, period);
      const known = streams.get(id);
      if (!feed.isTradable(symbol)) parts.push(errorText('productNotFound'));
      else if (c.streams.size + accepted.length >= MAX_STREAMS_PER_SOCKET && !(known && c.streams.has(known)))
        parts.push(errorText('parameterError'));
      else accepted.push(ensureStream(channel, symbol, period));
    }
    if (channel === 'candles' && accepted.length > 0) {
      for (const s of accepted) s.pending++;
      const data = await Promise.all(accepted.map(fetchCandles));
      // From here to the send: one synchronous turn (seq read, subscription registered).
      accepted.forEach((s, i) => {
        s.pending--;
        if (c.closed) return dropIfUnused(s);
        parts.push(candleSnapshotText(s, data[i]!));
        s.subs.add(c);
        c.streams.add(s);
        c.missed.delete(s);
      });
    } else {
      for (const s of accepted) {
        const text = syncSnapshot(s);
        if (text) parts.push(text);
        s.subs.add(c);
        c.streams.add(s);
        c.missed.delete(s);
      }
    }
    sendFrame(c, parts);
  }

  function unsubscribe(c: Conn, s: Stream): void {
    s.subs.delete(c);
    c.streams.delete(s);
    c.missed.delete(s);
    if (c.missed.size === 0) resyncing.delete(c);
    dropIfUnused(s);
  }

  async function handle(c: Conn, raw: string): Promise<void> {
    let parsed;
    try {
      parsed = clientMessageSchema.safeParse(JSON.parse(raw));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      if (!c.closed) c.ws.send(errorText('parameterError'));
      return;
    }
    const m = parsed.data;
    if (m.op === 'ping') {
      if (!c.closed) c.ws.send(JSON.stringify({ type: 'hb', ts: Date.now(), clock: feed.clock() }));
      return;
    }
    const period = m.channel === 'candles' ? (m.period ?? '1m') : undefined;
    if (m.op === 'sub') return subscribe(c, m.channel, m.symbols, period);
    for (const symbol of m.symbols) {
      const s = streams.get(streamId(m.channel, symbol, period));
      if (s && c.streams.has(s)) unsubscribe(c, s);
    }
  }

  // ---------- heartbeats and timers ----------

  function heartbeat(): void {
    const text = JSON.stringify({ type: 'hb', ts: Date.now(), clock: feed.clock() });
    for (const c of conns) if (c.ws.readyState === OPEN) c.ws.send(text);
  }

  const timers: Array<ReturnType<typeof setInterval>> = [];
  if (opts.timers !== false) {
    timers.push(setInterval(flush, GATEWAY_FLUSH_MS), setInterval(heartbeat, HEARTBEAT_MS));
    for (const t of timers) t.unref?.();
  }

  return {
    open(ws) {
      const c: Conn = {
        ws,
        streams: new Set(),
        out: [],
        mark: -1,
        blocked: false,
        missed: new Map(),
        queue: Promise.resolve(),
        closed: false,
      };
      conns.add(c);
      ws.send(JSON.stringify({ type: 'hb', ts: Date.now(), clock: feed.clock() }));
      return c;
    },
    message(c, raw) {
      c.queue = c.queue
        .then(() => handle(c, raw))
        .catch((err) => console.error('realtime gateway: message failed', err));
      return c.queue;
    },
    close(c) {
      if (c.closed) return;
      c.closed = true;
      for (const s of [...c.streams]) unsubscribe(c, s);
      c.missed.clear();
      resyncing.delete(c);
      conns.delete(c);
    },
    flush,
    heartbeat,
    stats() {
      let maxBufferedBytes = 0;
      for (const c of conns)
        if (c.ws.bufferedAmount > maxBufferedBytes) maxBufferedBytes = c.ws.bufferedAmount;
      return { sockets: conns.size, streams: streams.size, maxBufferedBytes, ...counters };
    },
    stop() {
      for (const t of timers) clearInterval(t);
      offQuote();
      offDepth();
      offCandle();
      offTrade();
    },
  };
}

/** Registers `/ws` on the app, wired to the feed; see the module docstring. */
export function registerGateway(app: FastifyInstance, feed: MarketFeed): Gateway {
  const core = createGatewayCore(feed);
  const sockets = new Set<WebSocket>();
  app.get('/ws', { websocket: true }, (socket: WebSocket) => {
    sockets.add(socket);
    const conn = core.open(socket);
    socket.on('message', (raw: Buffer) => void core.message(conn, raw.toString()));
    socket.on('close', () => {
      sockets.delete(socket);
      core.close(conn);
    });
  });
  return {
    stop() {
      core.stop();
      for (const ws of sockets) ws.terminate();
    },
    connections: () => sockets.size,
    stats: () => core.stats(),
  };
}
