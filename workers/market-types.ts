/**
 * Shapes shared by the market service's parts (workers/market-service.ts composes them): the
 * injected I/O, one wanted stream's state, the updates flowing through the channel subjects, and
 * the counters and stats the tests read.
 */
import type { Candle, CandlePeriod, Depth, Quote, Trade } from '../contract/market';
import type { Channel } from '../contract/realtime';
import type { CandleUpdate, ConnState, MarketWorkerApi, TradeUpdate } from './protocol';

/** The subset of the WebSocket API the service uses (browser WebSocket and mock-socket fit). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}
export type WebSocketCtor = new (url: string) => WebSocketLike;

/** The subset of fetch the polling fallback uses (injectable in tests). */
export interface FetchLike {
  (
    url: string,
    init: { method: string; headers: Record<string, string>; body: string },
  ): Promise<{
    ok: boolean;
    json(): Promise<unknown>;
  }>;
}

/** Everything the service touches outside itself: socket factory, fetch, clock, randomness, Comlink. */
export interface ServiceDeps {
  WebSocket: WebSocketCtor;
  fetch: FetchLike;
  /** For jitter; injectable for deterministic tests. */
  random?: () => number;
  /** Wall clock, epoch ms (default Date.now). */
  now?: () => number;
  /** Releases a callbacks object received through Comlink (no-op for plain objects). */
  release?: (callbacks: object) => void;
  /** Marks buffers of a batch to be transferred, not copied (`Comlink.transfer`; identity by default). */
  transfer?: <T>(value: T, transferables: Transferable[]) => T;
}

/** One stream (channel, symbol[, period]) the page wants, with what the worker holds of it. */
export interface StreamState {
  id: string;
  channel: Channel;
  symbol: string;
  period?: CandlePeriod;
  /** Subscriptions wanting it: `sub` on 0 → 1, `unsub` on 1 → 0. */
  count: number;
  /** Last seq on this connection; null until a snapshot arrived (deltas are then not applicable). */
  seq: number | null;
  /** When a `sub` for a fresh snapshot was last sent (null: not waiting for one). */
  resyncAt: number | null;
  /** Worker wall clock of the last data for this stream. */
  receivedAt: number | null;
  quote?: Quote;
  book?: Depth;
  /** Oldest first, ≤ MAX_HELD_BARS. */
  bars?: Candle[];
  /** Oldest first, ≤ TAPE_MAX. */
  tape?: Trade[];
  /** A `market/candles since` backfill is in flight: updates are held until it lands. */
  backfilling?: boolean;
  /** Time of the first bar of the last snapshot: bars from it on came from the socket. */
  socketFrom?: number;
}

export type Item = Quote | Depth | CandleUpdate | TradeUpdate;
/** What flows through the channel subjects: one stream's new value. */
export interface Update {
  id: string;
  item: Item;
}

/** Event counters of the service (ServiceStats without the live sizes). */
export interface ServiceCounters {
  resyncs: number;
  gaps: number;
  depthMisfits: number;
  connects: number;
  polls: number;
  pollFailures: number;
  backfills: number;
  backfillFailures: number;
  batchesDelivered: number;
  /** Live `subscribe` handles (each holds one callbacks proxy). */
  subscribers: number;
}

/** Counters for tests and diagnostics (live proxies, messages, batches). */
export interface ServiceStats extends ServiceCounters {
  state: ConnState;
  visible: boolean;
  /** Streams wanted (refcounted). */
  wanted: number;
  /** Live `watchStatus` handles. */
  statusWatchers: number;
  lastDataAt: number | null;
}

/** The worker's API plus test hooks. */
export interface MarketService extends MarketWorkerApi {
  stats(): ServiceStats;
}

/** Type guard: a non-null object. */
export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Calls a possibly remote (Comlink) callback; never throws, never leaves a rejection unhandled.
 * Takes a thunk: on a Comlink proxy even `.bind` would be a remote call, so never touch it.
 */
export function safeCall(invoke: () => unknown): Promise<void> {
  try {
    return Promise.resolve(invoke()).then(
      () => undefined,
      () => undefined,
    );
  } catch {
    return Promise.resolve();
  }
}
