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
 * frame `[m1,m2,…]` (several when longer than WS_MAX_FRAME_CHARS). Cost per flush: O(dirty
 * streams + their subscriptions), independent of the feed's event rate.
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
 * One `sub` answers with one frame (all its snapshots, and an `error` per refused symbol; split
 * like a flush). Before
 * the feed has a quote or book for a symbol there is no snapshot; the first flush with one then
 * sends it to every subscriber as a `snapshot` (seq + 1), not a delta.
 *
 * One outbound budget (server/realtime/budget.ts, contract/realtime.ts "Limits"): every frame —
 * flushes, snapshot replies to `sub`, error replies, heartbeats and pongs — goes out only while the
 * socket's unsent bytes are within WS_OUTBOUND_BUDGET_BYTES, in frames of at most
 * WS_MAX_FRAME_CHARS with the budget checked between them. Over it:
 * - stream data waits: the socket skips flushes and the gateway remembers which streams it
 *   missed; at the first flush at which it has drained it gets a fresh snapshot of each missed
 *   stream instead of their deltas (candles: as soon as the async fetch returns, in a frame of its
 *   own). A `sub` answered while over budget registers the subscription and defers its snapshots
 *   the same way. So the client sees no seq gap and never has to detect one (a client that
 *   re-sends `sub` anyway gets a snapshot), and the latest state wins;
 * - error replies, heartbeats and pongs are dropped (a client that does not read has no use for
 *   them);
 * - a socket that stays over it for WS_SLOW_GRACE_MS is closed with WS_CLOSE_TOO_SLOW (and
 *   destroyed WS_CLOSE_LINGER_MS later if the peer never answers the close).
 * What one connection holds on the server is therefore bounded: the budget plus one frame of
 * unsent bytes, at most WS_MAX_STREAMS subscriptions (a `missed` entry per subscription), at
 * most MAX_QUEUED_MESSAGES unhandled client messages of at most WS_MAX_MESSAGE_BYTES.
 *
 * Inbound: a token bucket per connection (WS_MESSAGES_PER_S, burst WS_MESSAGE_BURST); a message
 * beyond it is answered with `error` `tooFrequent` (within the budget), and WS_ABUSE_REFUSALS
 * refusals within WS_ABUSE_WINDOW_MS close the socket with WS_CLOSE_TOO_FREQUENT. A `sub` beyond
 * WS_MAX_STREAMS[channel] is refused per symbol with `error` `tooManySubscriptions`.
 *
 * Per client address (./limits.ts, configurable): at most `connectionsPerAddress` sockets (one
 * more gets `error` `tooManyConnections` and is closed with WS_CLOSE_TOO_MANY_CONNECTIONS); the
 * streams held cost at most `costPerConnection` per socket and `costPerAddress` together (beyond:
 * `tooManySubscriptions` per symbol); every snapshot a `sub` asks for is paid from the address's
 * bucket (beyond: `tooFrequent` per symbol, not subscribed). Candle snapshots are fetched once per
 * stream and flush and serialised once per seq, whatever the number of subscribers asking.
 *
 * Heartbeats: `{type:'hb', ts: Date.now(), clock}` every HEARTBEAT_MS, on connect, and in answer
 * to `ping`, as single-message frames; an unparsable client message gets a single `error`.
 * Support channel (contract/support.ts): `auth` and `say` go to the support hub
 * (server/modules/support/hub.ts) in the socket's message order; its events go out as
 * single-message frames within the same budget. An event that does not fit is dropped, and at the
 * first flush at which the socket has drained it gets one `resync` event instead (the client
 * reloads the history over REST), so the hub never queues per socket.
 *
 * Module layout: streams and their messages in ./streams.ts, the budget and the rate limiter in
 * ./budget.ts, the wiring (subscriptions, flush, limits, timers) here.
 */
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Candle, CandlePeriod } from '../../contract/market';
import {
  clientMessageSchema,
  GATEWAY_FLUSH_MS,
  HEARTBEAT_MS,
  MAX_TRADES_PER_FLUSH,
  streamId,
  WS_CLOSE_REASONS,
  WS_CLOSE_SESSION_ENDED,
  WS_CLOSE_TOO_FREQUENT,
  WS_CLOSE_TOO_MANY_CONNECTIONS,
  WS_CLOSE_TOO_SLOW,
  WS_MAX_STREAMS,
  WS_OUTBOUND_BUDGET_BYTES,
  WS_SLOW_GRACE_MS,
  type Channel,
  type WsCloseCode,
} from '../../contract/realtime';
import type { MarketFeed } from '../market/feed';
import { z } from 'zod';
import { supportClientMessages } from '../../contract/support';
import type { SupportOp, SupportPeer } from '../modules/support/hub';

/** Everything the gateway accepts: the market ops plus the support channel's `auth` and `say`. */
const gatewayMessageSchema = z.union([clientMessageSchema, ...supportClientMessages]);
import {
  createRateLimiter,
  OPEN,
  overBudget,
  sendParts,
  type GatewaySocket,
  type RateLimiter,
} from './budget';
import { createAddressBook, DEFAULT_WS_LIMITS, streamCost, type AddressShare, type WsLimits } from './limits';
import { clientAddress } from '../http/client-address';
import {
  CANDLE_SNAPSHOT_BARS,
  candleSnapshotText,
  deltaMessage,
  errorText,
  newStream,
  syncSnapshot,
  type GatewayFeed,
  type Stream as AnyStream,
} from './streams';

export { CANDLE_SNAPSHOT_BARS, TRADE_SNAPSHOT_PRINTS, type GatewayFeed } from './streams';
export type { GatewaySocket } from './budget';
/** The WebSocket server's maxPayload (registered with the plugin in server/app.ts). */
export { WS_MAX_MESSAGE_BYTES } from '../../contract/realtime';

/** Above this many unsent bytes a socket skips flushes until it drains (the outbound budget). */
export const MAX_BUFFERED_BYTES = WS_OUTBOUND_BUDGET_BYTES;
/**
 * Client messages waiting to be handled, per socket. Messages are handled at once, in order,
 * except behind a candle snapshot being fetched (daily periods read the database): a queue this
 * long means the client asks faster than the server answers, and further messages are refused.
 */
export const MAX_QUEUED_MESSAGES = 32;
/** After a close for slowness or abuse, the socket is destroyed if still open this much later. */
export const WS_CLOSE_LINGER_MS = 2_000;
/** Candle snapshot fetches repeated at most this often when flushes interleave. */
const SNAPSHOT_FETCH_ATTEMPTS = 4;
/** ws readyState CLOSED. */
const CLOSED = 3;

type Stream = AnyStream<Conn>;

interface Conn {
  ws: GatewaySocket;
  streams: Set<Stream>;
  /** Streams held per channel (the WS_MAX_STREAMS limit). */
  held: Record<Channel, number>;
  /** The client's address and its share of the address limits (realtime/limits.ts). */
  address: string;
  share: AddressShare;
  /** Cost of the streams held (streamCost), counted in `share.cost` too. */
  cost: number;
  /** Messages of the current flush, and the stream each belongs to (null: an error). */
  out: string[];
  outStreams: Array<Stream | null>;
  /** Flush number when last visited, and whether it was over the budget then. */
  mark: number;
  blocked: boolean;
  /** Streams whose deltas it missed → true while a candle snapshot for it is being fetched. */
  missed: Map<Stream, boolean>;
  /** A message being handled that waits (a candle snapshot), and the messages behind it. */
  busy: Promise<void> | null;
  waiting: Array<{ raw: string; done: () => void }>;
  limiter: RateLimiter;
  /** The socket as the support hub sees it (created on its first support op). */
  peer: SupportPeer | null;
  /** When it was first seen over its budget without draining since (ms), or null. */
  overSince: number | null;
  closed: boolean;
}

/** Counters for tests and metrics. */
export interface GatewayStats {
  sockets: number;
  streams: number;
  /** Client addresses known (with sockets, or without and their snapshot bucket not refilled). */
  addresses: number;
  /** Flushes skipped for a socket over the budget (cumulative, per socket per flush). */
  skippedFlushes: number;
  /** Snapshots sent to drained sockets for the streams they missed (cumulative). */
  resyncSnapshots: number;
  /** Snapshot replies to `sub` deferred because the socket was over its budget (cumulative). */
  deferredSnapshots: number;
  /** Error replies, heartbeats and pongs not sent because the socket was over its budget. */
  droppedReplies: number;
  /** Client messages refused by the rate limit or the queue bound (cumulative). */
  refusedMessages: number;
  /** `sub` symbols refused by the subscription or cost limits (cumulative). */
  refusedSubscriptions: number;
  /** `sub` symbols refused because the address's snapshot bucket was short (cumulative). */
  refusedSnapshots: number;
  /** Connections refused because their address held the maximum (cumulative). */
  refusedConnections: number;
  /** Sockets closed with WS_CLOSE_TOO_SLOW / WS_CLOSE_TOO_FREQUENT (cumulative). */
  closedTooSlow: number;
  closedTooFrequent: number;
  /** Sockets closed with WS_CLOSE_SESSION_ENDED: their session ended (cumulative). */
  closedSessionEnded: number;
  /** Sockets over their budget right now. */
  overBudget: number;
  /** The largest send buffer (bytes) of any open socket right now. */
  maxBufferedBytes: number;
  /** The largest frame sent so far (characters of JSON text). */
  maxFrameBytes: number;
}

/** The gateway without Fastify: feed wiring, subscriptions, flushes (tests drive it directly). */
export interface GatewayCore {
  /**
   * Registers a socket of the client `address` and sends it a heartbeat; one beyond the address's
   * connection limit gets an `error` `tooManyConnections` and is closed (the Conn returned is
   * closed already).
   */
  open(ws: GatewaySocket, address?: string): Conn;
  /**
   * Takes one client text frame: refused at once past the rate limit or the queue bound (an
   * `error` `tooFrequent`; persistent abuse closes the socket), else queued and handled in order;
   * resolves when handled.
   */
  message(conn: Conn, raw: string): Promise<void>;
  /** Forgets the socket and every stream only it held. */
  close(conn: Conn): void;
  /** One flush (the timer calls it every GATEWAY_FLUSH_MS); also closes sockets slow too long. */
  flush(): void;
  /** One heartbeat to every socket within its budget. */
  heartbeat(): void;
  stats(): GatewayStats;
  /** Stops the timers and unsubscribes from the feed. */
  stop(): void;
}

/** The support hub as the gateway uses it (server/modules/support/hub.ts SupportHub). */
export interface GatewaySupport {
  handle(peer: SupportPeer, msg: SupportOp): Promise<void>;
  close(peer: SupportPeer): void;
  readonly resyncText: string;
}

/** Handle to stop the gateway (on app close) and read its counters. */
export interface Gateway {
  stop(): void;
  /** Number of open sockets (tests, metrics). */
  connections(): number;
  stats(): GatewayStats;
}

/**
 * Creates the gateway core on a feed. `timers: false` (tests) leaves flush() and heartbeat() to
 * the caller; otherwise they run every GATEWAY_FLUSH_MS and HEARTBEAT_MS (unref'd timers).
 * `now` (ms) times the slow-socket grace and the rate limit (default Date.now).
 */
export function createGatewayCore(
  feed: GatewayFeed,
  opts: { timers?: boolean; now?: () => number; support?: GatewaySupport; limits?: WsLimits } = {},
): GatewayCore {
  const now = opts.now ?? Date.now;
  const limits = opts.limits ?? DEFAULT_WS_LIMITS;
  const addresses = createAddressBook(limits, now);
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
  /** Sockets seen over their budget and not seen drained since. */
  const slow = new Set<Conn>();
  /** Sockets that missed support events: a `resync` once drained. */
  const supportMissed = new Set<Conn>();
  let flushNo = 0;
  const counters = {
    skippedFlushes: 0,
    resyncSnapshots: 0,
    deferredSnapshots: 0,
    droppedReplies: 0,
    refusedMessages: 0,
    refusedSubscriptions: 0,
    refusedSnapshots: 0,
    refusedConnections: 0,
    closedTooSlow: 0,
    closedTooFrequent: 0,
    closedSessionEnded: 0,
    maxFrameBytes: 0,
  };
  const onFrame = (chars: number) => {
    if (chars > counters.maxFrameBytes) counters.maxFrameBytes = chars;
  };

  // ---------- streams ----------

  function ensureStream(channel: Channel, symbol: string, period: CandlePeriod | undefined): Stream {
    const id = streamId(channel, symbol, period);
    let s = streams.get(id);
    if (!s) {
      s = newStream<Conn>(channel, symbol, period);
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

  /**
   * Candle snapshot bars, re-fetched while a flush consumed the stream's changes meanwhile. One
   * fetch per stream and flush: subscribers asking before the next flush share it.
   */
  async function fetchCandles(s: Stream): Promise<Candle[]> {
    for (let attempt = 1; ; attempt++) {
      const before = s.flushes;
      let f = s.candleFetch;
      if (!f || f.flushes !== before) {
        const fetch = {
          flushes: before,
          data: feed.candles(s.symbol, s.period ?? '1m', CANDLE_SNAPSHOT_BARS),
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

  // ---------- the outbound budget: every send goes through here ----------

  /**
   * True when c may be sent to now. Notes a socket over its budget for the slow check, and one
   * seen drained as no longer slow (a flush may fill it again right after: it still reads).
   */
  function sendable(c: Conn): boolean {
    if (c.closed || c.ws.readyState !== OPEN) return false;
    if (!overBudget(c.ws)) {
      if (c.overSince !== null) {
        c.overSince = null;
        slow.delete(c);
      }
      return true;
    }
    if (c.overSince === null) {
      c.overSince = now();
      slow.add(c);
    }
    return false;
  }

  /** The stream's next snapshot for c comes from the resync at a flush once c has drained. */
  function defer(c: Conn, s: Stream): void {
    if (!c.missed.has(s)) c.missed.set(s, false);
    resyncing.add(c);
  }

  /**
   * Sends stream messages (and errors, stream null) within the budget; those that do not fit
   * are deferred (a stream's message: a fresh snapshot later) or dropped (an error).
   */
  function sendStreamParts(c: Conn, parts: string[], of: Array<Stream | null>): void {
    if (parts.length === 0) return;
    const sent = sendable(c) ? sendParts(c.ws, parts, onFrame) : 0;
    if (sent === parts.length) return;
    sendable(c); // notes the socket as over budget if that is what stopped the frames
    for (let i = sent; i < parts.length; i++) {
      const s = of[i];
      if (!s) counters.droppedReplies++;
      else if (c.streams.has(s)) defer(c, s);
    }
  }

  /** Sends one single-message frame (hb, pong, error) within the budget, else drops it. */
  function sendReply(c: Conn, text: string): void {
    if (sendable(c)) c.ws.send(text);
    else if (!c.closed) counters.droppedReplies++;
  }

  /**
   * Closes a socket for slowness, abuse or an ended session: forgotten at once (nothing more is
   * sent to it), the close code and reason sent, destroyed WS_CLOSE_LINGER_MS later if the peer
   * has not answered (one that does not read never gets the close frame, queued behind what it
   * did not read).
   */
  function closeFor(c: Conn, code: WsCloseCode): void {
    if (c.closed) return;
    if (code === WS_CLOSE_TOO_SLOW) counters.closedTooSlow++;
    else if (code === WS_CLOSE_TOO_FREQUENT) counters.closedTooFrequent++;
    else if (code === WS_CLOSE_SESSION_ENDED) counters.closedSessionEnded++;
    forget(c);
    const ws = c.ws;
    try {
      ws.close(code, WS_CLOSE_REASONS[code]);
    } catch {
      // already closing
    }
    if (ws.terminate) {
      const t = setTimeout(() => {
        if (ws.readyState !== CLOSED) ws.terminate!();
      }, WS_CLOSE_LINGER_MS);
      t.unref?.();
    }
  }

  /** Clears sockets that drained; closes those over their budget for WS_SLOW_GRACE_MS. */
  function checkSlow(): void {
    if (slow.size === 0) return;
    const t = now();
    for (const c of slow) {
      if (c.closed || !overBudget(c.ws)) {
        c.overSince = null;
        slow.delete(c);
      } else if (t - c.overSince! >= WS_SLOW_GRACE_MS) closeFor(c, WS_CLOSE_TOO_SLOW);
    }
  }

  // ---------- flush ----------

  function visit(c: Conn): void {
    c.mark = flushNo;
    c.blocked = !sendable(c);
    if (c.blocked) counters.skippedFlushes++;
    visited.push(c);
  }

  function queue(c: Conn, text: string, s: Stream | null): void {
    c.out.push(text);
    c.outStreams.push(s);
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
          if (!sendable(c)) return defer(c, s);
          counters.resyncSnapshots++;
          sendStreamParts(c, [candleSnapshotText(s, data)], [s]);
        });
        continue;
      }
      c.missed.delete(s);
      const text = syncSnapshot(feed, s);
      if (text) {
        queue(c, text, s);
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
        if (c.blocked) defer(c, s);
        else if (!c.missed.has(s)) queue(c, text, s);
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
        const parts = c.out;
        const of = c.outStreams;
        c.out = [];
        c.outStreams = [];
        sendStreamParts(c, parts, of);
      }
    }
    visited.length = 0;
    for (const c of supportMissed) {
      if (c.closed) supportMissed.delete(c);
      else if (sendable(c)) {
        c.ws.send(opts.support!.resyncText);
        supportMissed.delete(c);
      }
    }
    checkSlow();
  }

  /** The socket as the support hub sees it: events and replies within the budget. */
  function peerOf(c: Conn): SupportPeer {
    c.peer ??= {
      deliver(text) {
        if (sendable(c)) c.ws.send(text);
        else if (!c.closed) supportMissed.add(c);
      },
      reply: (text) => sendReply(c, text),
      end() {
        sendReply(c, errorText('sessionEnded'));
        closeFor(c, WS_CLOSE_SESSION_ENDED);
      },
    };
    return c.peer;
  }

  // ---------- client messages ----------

  function attach(c: Conn, s: Stream): void {
    s.subs.add(c);
    if (!c.streams.has(s)) {
      c.streams.add(s);
      c.held[s.channel]++;
      const cost = streamCost(s.channel, s.period);
      c.cost += cost;
      c.share.cost += cost;
    }
    c.missed.delete(s);
  }

  /**
   * Why a `sub` of `symbol` is refused (an error key), or null when it is accepted: not tradable,
   * beyond WS_MAX_STREAMS or a cost limit (a new stream; `room` and `adding` count this `sub`'s
   * earlier symbols), or its snapshot beyond the address's bucket.
   */
  function refusal(
    c: Conn,
    symbol: string,
    held: boolean,
    room: number,
    adding: number,
    cost: number,
  ): 'productNotFound' | 'tooManySubscriptions' | 'tooFrequent' | null {
    if (!feed.isTradable(symbol)) return 'productNotFound';
    if (
      !held &&
      (room <= 0 ||
        c.cost + adding + cost > limits.costPerConnection ||
        c.share.cost + adding + cost > limits.costPerAddress)
    ) {
      counters.refusedSubscriptions++;
      return 'tooManySubscriptions';
    }
    if (!c.share.takeSnapshot(now(), cost)) {
      counters.refusedSnapshots++;
      return 'tooFrequent';
    }
    return null;
  }

  /** Answers a `sub` at once, except candle snapshots: then a promise of the answer. */
  function subscribe(
    c: Conn,
    channel: Channel,
    symbols: string[],
    period: CandlePeriod | undefined,
  ): Promise<void> | undefined {
    const parts: string[] = [];
    const of: Array<Stream | null> = [];
    const accepted: Stream[] = [];
    let room = WS_MAX_STREAMS[channel] - c.held[channel];
    const cost = streamCost(channel, period);
    let adding = 0;
    for (const symbol of new Set(symbols)) {
      const known = streams.get(streamId(channel, symbol, period));
      const held = known !== undefined && c.streams.has(known);
      const refused = refusal(c, symbol, held, room, adding, cost);
      if (refused) {
        parts.push(errorText(refused));
        of.push(null);
      } else {
        if (!held) {
          room--;
          adding += cost;
        }
        accepted.push(ensureStream(channel, symbol, period));
      }
    }
    if (accepted.length > 0 && !sendable(c)) {
      // Over budget: subscribe now, snapshot once drained (no fetch, no text built now).
      for (const s of accepted) {
        if (s.channel !== 'candles' && s.subs.size === 0) syncSnapshot(feed, s); // primes a new stream
        attach(c, s);
        defer(c, s);
        counters.deferredSnapshots++;
      }
      accepted.length = 0;
    }
    if (channel === 'candles' && accepted.length > 0) return subscribeCandles(c, accepted, parts, of);
    for (const s of accepted) {
      const text = syncSnapshot(feed, s);
      if (text) {
        parts.push(text);
        of.push(s);
      }
      attach(c, s);
    }
    sendStreamParts(c, parts, of);
    return undefined;
  }

  /** Fetches candle snapshots, then subscribes and answers (with `parts` already built). */
  async function subscribeCandles(
    c: Conn,
    accepted: Stream[],
    parts: string[],
    of: Array<Stream | null>,
  ): Promise<void> {
    for (const s of accepted) s.pending++;
    const data = await Promise.all(accepted.map(fetchCandles));
    // From here to the send: one synchronous turn (seq read, subscription registered).
    accepted.forEach((s, i) => {
      s.pending--;
      if (c.closed) return dropIfUnused(s);
      parts.push(candleSnapshotText(s, data[i]!));
      of.push(s);
      attach(c, s);
    });
    sendStreamParts(c, parts, of);
  }

  function unsubscribe(c: Conn, s: Stream): void {
    s.subs.delete(c);
    if (c.streams.delete(s)) {
      c.held[s.channel]--;
      const cost = streamCost(s.channel, s.period);
      c.cost -= cost;
      c.share.cost -= cost;
    }
    c.missed.delete(s);
    if (c.missed.size === 0) resyncing.delete(c);
    dropIfUnused(s);
  }

  /** Handles one client message; a promise only while it waits (a candle snapshot). */
  function handle(c: Conn, raw: string): Promise<void> | undefined {
    if (c.closed) return undefined;
    let parsed;
    try {
      parsed = gatewayMessageSchema.safeParse(JSON.parse(raw));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      sendReply(c, errorText('parameterError'));
      return undefined;
    }
    const m = parsed.data;
    if (m.op === 'ping') {
      sendReply(c, heartbeatText());
      return undefined;
    }
    if (m.op === 'auth' || m.op === 'say') {
      if (!opts.support) {
        sendReply(c, errorText('parameterError'));
        return undefined;
      }
      return opts.support.handle(peerOf(c), m);
    }
    const period = m.channel === 'candles' ? (m.period ?? '1m') : undefined;
    if (m.op === 'sub') return subscribe(c, m.channel, m.symbols, period);
    for (const symbol of m.symbols) {
      const s = streams.get(streamId(m.channel, symbol, period));
      if (s && c.streams.has(s)) unsubscribe(c, s);
    }
    return undefined;
  }

  /**
   * Handles a message now; one that waits (a candle snapshot) makes the socket busy, and its
   * later messages wait in `waiting` until it is done, so each socket's messages are answered
   * in order. Resolves when the message is handled.
   */
  function run(c: Conn, raw: string): Promise<void> {
    let p: Promise<void> | undefined;
    try {
      p = handle(c, raw);
    } catch (err) {
      console.error('realtime gateway: message failed', err);
    }
    if (!p) return Promise.resolve();
    const busy = p
      .catch((err) => console.error('realtime gateway: message failed', err))
      .then(() => {
        c.busy = null;
        while (c.busy === null && c.waiting.length > 0) {
          const next = c.waiting.shift()!;
          void run(c, next.raw).then(next.done);
        }
      });
    c.busy = busy;
    return busy;
  }

  /** Forgets the socket and every stream only it held. */
  function forget(c: Conn): void {
    if (c.closed) return;
    c.closed = true;
    for (const s of [...c.streams]) unsubscribe(c, s);
    c.missed.clear();
    supportMissed.delete(c);
    if (c.peer) opts.support?.close(c.peer);
    for (const w of c.waiting.splice(0)) w.done();
    c.out = [];
    c.outStreams = [];
    resyncing.delete(c);
    slow.delete(c);
    if (conns.delete(c)) addresses.release(c.address);
  }

  /** Tells a socket beyond its address's connection limit why, and closes it. */
  function refuseConnection(ws: GatewaySocket): void {
    try {
      if (ws.readyState === OPEN) ws.send(errorText('tooManyConnections'));
      ws.close(WS_CLOSE_TOO_MANY_CONNECTIONS, WS_CLOSE_REASONS[WS_CLOSE_TOO_MANY_CONNECTIONS]);
    } catch {
      // already closing
    }
  }

  // ---------- heartbeats and timers ----------

  const heartbeatText = () => JSON.stringify({ type: 'hb', ts: Date.now(), clock: feed.clock() });

  function heartbeat(): void {
    const text = heartbeatText();
    for (const c of conns) sendReply(c, text);
  }

  const timers: Array<ReturnType<typeof setInterval>> = [];
  if (opts.timers !== false) {
    timers.push(setInterval(flush, GATEWAY_FLUSH_MS), setInterval(heartbeat, HEARTBEAT_MS));
    for (const t of timers) t.unref?.();
  }

  return {
    open(ws, address = 'local') {
      const share = addresses.admit(address);
      const c: Conn = {
        ws,
        streams: new Set(),
        held: { quotes: 0, depth: 0, trades: 0, candles: 0 },
        address,
        share: share ?? { connections: 0, cost: 0, takeSnapshot: () => false, full: () => true },
        cost: 0,
        out: [],
        outStreams: [],
        mark: -1,
        blocked: false,
        missed: new Map(),
        busy: null,
        waiting: [],
        limiter: createRateLimiter(),
        peer: null,
        overSince: null,
        closed: share === null,
      };
      if (!share) {
        counters.refusedConnections++;
        refuseConnection(ws);
        return c;
      }
      conns.add(c);
      sendReply(c, heartbeatText());
      return c;
    },
    message(c, raw) {
      if (c.closed) return Promise.resolve();
      const verdict = c.limiter.take(now());
      if (verdict === 'abusive') {
        counters.refusedMessages++;
        closeFor(c, WS_CLOSE_TOO_FREQUENT);
        return Promise.resolve();
      }
      if (verdict === 'refused' || c.waiting.length >= MAX_QUEUED_MESSAGES) {
        counters.refusedMessages++;
        sendReply(c, errorText('tooFrequent'));
        return Promise.resolve();
      }
      if (c.busy === null) return run(c, raw);
      return new Promise<void>((done) => c.waiting.push({ raw, done }));
    },
    close: forget,
    flush,
    heartbeat,
    stats() {
      let maxBufferedBytes = 0;
      let over = 0;
      for (const c of conns) {
        if (c.ws.bufferedAmount > maxBufferedBytes) maxBufferedBytes = c.ws.bufferedAmount;
        if (overBudget(c.ws)) over++;
      }
      return {
        sockets: conns.size,
        streams: streams.size,
        addresses: addresses.size(),
        overBudget: over,
        maxBufferedBytes,
        ...counters,
      };
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
export function registerGateway(
  app: FastifyInstance,
  feed: MarketFeed,
  support?: GatewaySupport,
  limits?: WsLimits,
): Gateway {
  const core = createGatewayCore(feed, { support, limits });
  const sockets = new Set<WebSocket>();
  app.get('/ws', { websocket: true }, (socket: WebSocket, request) => {
    sockets.add(socket);
    const conn = core.open(socket, clientAddress(request));
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
