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
 * Module layout: the wiring here (createGatewayCore composes the pieces, registerGateway puts it
 * on Fastify); state and Conn in ./gateway-state.ts; the stream registry, feed wiring and candle
 * fetch in ./registry.ts; subscriptions and cost accounting in ./subscriptions.ts; the connection
 * lifecycle (admission, messages, closes) in ./connections.ts; the outbound path in ./outbound.ts;
 * flush, resync and heartbeat in ./flush.ts; streams and their messages in ./streams.ts; the
 * budget and the rate limiter in ./budget.ts; the per-address limits in ./limits.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { GATEWAY_FLUSH_MS, HEARTBEAT_MS, WS_OUTBOUND_BUDGET_BYTES } from '../../contract/realtime';
import type { MarketFeed } from '../market/feed';
import type { SupportOp, SupportPeer } from '../modules/support/hub';
import { overBudget, type GatewaySocket } from './budget';
import { forget, openConn, takeMessage } from './connections';
import { flush, heartbeat } from './flush';
import { createGatewayState, type Conn, type GatewayCounters, type GatewayState } from './gateway-state';
import { createAddressBook, DEFAULT_WS_LIMITS, type WsLimits } from './limits';
import { clientAddress } from '../http/client-address';
import { wireFeed } from './registry';
import type { GatewayFeed } from './streams';

export { CANDLE_SNAPSHOT_BARS, TRADE_SNAPSHOT_PRINTS, type GatewayFeed } from './streams';
export type { GatewaySocket } from './budget';
export { MAX_QUEUED_MESSAGES, WS_CLOSE_LINGER_MS } from './connections';
/** The WebSocket server's maxPayload (registered with the plugin in server/app.ts). */
export { WS_MAX_MESSAGE_BYTES } from '../../contract/realtime';

/** Above this many unsent bytes a socket skips flushes until it drains (the outbound budget). */
export const MAX_BUFFERED_BYTES = WS_OUTBOUND_BUDGET_BYTES;

/** Counters for tests and metrics: the cumulative ones and the state right now. */
export interface GatewayStats extends GatewayCounters {
  sockets: number;
  streams: number;
  /** Client addresses known (with sockets, or without and their snapshot bucket not refilled). */
  addresses: number;
  /** Sockets over their budget right now. */
  overBudget: number;
  /** The largest send buffer (bytes) of any open socket right now. */
  maxBufferedBytes: number;
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

/** GatewayCore.stats: the counters, plus the sockets' current buffers and budgets. */
function statsOf(g: GatewayState): GatewayStats {
  let maxBufferedBytes = 0;
  let over = 0;
  for (const c of g.conns) {
    if (c.ws.bufferedAmount > maxBufferedBytes) maxBufferedBytes = c.ws.bufferedAmount;
    if (overBudget(c.ws)) over++;
  }
  return {
    sockets: g.conns.size,
    streams: g.streams.size,
    addresses: g.addresses.size(),
    overBudget: over,
    maxBufferedBytes,
    ...g.counters,
  };
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
  const g = createGatewayState(feed, now, limits, opts.support, createAddressBook(limits, now));
  const offFeed = wireFeed(g);
  const timers: Array<ReturnType<typeof setInterval>> = [];
  if (opts.timers !== false) {
    timers.push(
      setInterval(() => flush(g), GATEWAY_FLUSH_MS),
      setInterval(() => heartbeat(g), HEARTBEAT_MS),
    );
    for (const t of timers) t.unref?.();
  }
  return {
    open: (ws, address = 'local') => openConn(g, ws, address),
    message: (c, raw) => takeMessage(g, c, raw),
    close: (c) => forget(g, c),
    flush: () => flush(g),
    heartbeat: () => heartbeat(g),
    stats: () => statsOf(g),
    stop() {
      for (const t of timers) clearInterval(t);
      offFeed();
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
