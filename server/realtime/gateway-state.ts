/**
 * The realtime gateway's state (gateway.ts explains the protocol): one GatewayState per gateway
 * core — its streams and their per-channel indexes, the open connections, the flush's work lists,
 * the counters behind stats() — and one Conn per socket. The gateway's modules (registry.ts,
 * outbound.ts, subscriptions.ts, connections.ts, flush.ts) read and update it in place.
 */
import type { CandlePeriod } from '../../contract/market';
import type { Channel } from '../../contract/realtime';
import type { SupportPeer } from '../modules/support/hub';
import type { GatewaySocket, RateLimiter } from './budget';
import type { GatewaySupport } from './gateway';
import type { AddressBook, AddressShare, WsLimits } from './limits';
import type { GatewayFeed, Stream as AnyStream } from './streams';

/** A stream whose subscribers are connections. */
export type Stream = AnyStream<Conn>;

/** One socket as the gateway holds it. */
export interface Conn {
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

/** The gateway's cumulative counters (part of gateway.ts `GatewayStats`). */
export interface GatewayCounters {
  /** Flushes skipped for a socket over the budget (per socket per flush). */
  skippedFlushes: number;
  /** Snapshots sent to drained sockets for the streams they missed. */
  resyncSnapshots: number;
  /** Snapshot replies to `sub` deferred because the socket was over its budget. */
  deferredSnapshots: number;
  /** Error replies, heartbeats and pongs not sent because the socket was over its budget. */
  droppedReplies: number;
  /** Client messages refused by the rate limit or the queue bound. */
  refusedMessages: number;
  /** `sub` symbols refused by the subscription or cost limits. */
  refusedSubscriptions: number;
  /** `sub` symbols refused because the address's snapshot bucket was short. */
  refusedSnapshots: number;
  /** Connections refused because their address held the maximum. */
  refusedConnections: number;
  /** Sockets closed with WS_CLOSE_TOO_SLOW / WS_CLOSE_TOO_FREQUENT. */
  closedTooSlow: number;
  closedTooFrequent: number;
  /** Sockets closed with WS_CLOSE_SESSION_ENDED: their session ended. */
  closedSessionEnded: number;
  /** The largest frame sent so far (characters of JSON text). */
  maxFrameBytes: number;
}

/** Everything one gateway core holds (see the module docstring). */
export interface GatewayState {
  readonly feed: GatewayFeed;
  /** Wall clock (ms) of the slow-socket grace and the rate limits. */
  readonly now: () => number;
  readonly limits: WsLimits;
  readonly support: GatewaySupport | undefined;
  readonly addresses: AddressBook;
  /** Every stream by streamId. */
  readonly streams: Map<string, Stream>;
  /** Per-channel indexes by symbol for the feed events (no string building per event). */
  readonly quoteStreams: Map<string, Stream>;
  readonly depthStreams: Map<string, Stream>;
  readonly tradeStreams: Map<string, Stream>;
  readonly candleStreams: Map<string, Map<CandlePeriod, Stream>>;
  readonly conns: Set<Conn>;
  /** Streams with changes since the last flush. */
  readonly dirty: Stream[];
  /** Connections visited by the current flush. */
  readonly visited: Conn[];
  /** Connections with missed streams waiting for a resync snapshot. */
  readonly resyncing: Set<Conn>;
  /** Sockets seen over their budget and not seen drained since. */
  readonly slow: Set<Conn>;
  /** Sockets that missed support events: a `resync` once drained. */
  readonly supportMissed: Set<Conn>;
  /** Flushes so far. */
  flushNo: number;
  readonly counters: GatewayCounters;
  /** Records a frame's size (characters) for maxFrameBytes. */
  readonly onFrame: (chars: number) => void;
}

/** A fresh state (no streams, no sockets, zero counters). */
export function createGatewayState(
  feed: GatewayFeed,
  now: () => number,
  limits: WsLimits,
  support: GatewaySupport | undefined,
  addresses: AddressBook,
): GatewayState {
  const counters: GatewayCounters = {
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
  return {
    feed,
    now,
    limits,
    support,
    addresses,
    streams: new Map(),
    quoteStreams: new Map(),
    depthStreams: new Map(),
    tradeStreams: new Map(),
    candleStreams: new Map(),
    conns: new Set(),
    dirty: [],
    visited: [],
    resyncing: new Set(),
    slow: new Set(),
    supportMissed: new Set(),
    flushNo: 0,
    counters,
    onFrame: (chars) => {
      if (chars > counters.maxFrameBytes) counters.maxFrameBytes = chars;
    },
  };
}
