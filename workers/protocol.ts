/**
 * The market worker's interface as the main thread sees it (through Comlink), and the batch
 * shapes it delivers. Wire messages are contract/realtime.ts; this file is the worker ↔ page
 * boundary only. No DOM, no React.
 */
import type { Candle, CandlePeriod, ClockState, Depth, Quote } from '../contract/market';
import type { Channel } from '../contract/realtime';

export { HEARTBEAT_MS, streamId } from '../contract/constants';

/**
 * Connection state machine (after bluesky's events agent):
 * connecting → live ⇄ reconnecting → polling → live. `stopped` before start / after stop.
 */
export type ConnState = 'stopped' | 'connecting' | 'live' | 'reconnecting' | 'polling';

/** What a subscription asks for: symbols, and the period for candles. */
export interface StreamParams {
  symbols: string[];
  /** Candles only. */
  period?: CandlePeriod;
}

/** One candle stream's change: a snapshot replaces the session so far; otherwise changed bars. */
export interface CandleUpdate {
  symbol: string;
  period: CandlePeriod;
  snapshot: boolean;
  items: Candle[];
}

export type QuoteBatch = { channel: 'quotes'; items: Quote[] };
export type DepthBatch = { channel: 'depth'; items: Depth[] };
export type CandleBatch = { channel: 'candles'; items: CandleUpdate[] };
export type StreamBatch = QuoteBatch | DepthBatch | CandleBatch;
export type BatchOf<C extends Channel> = Extract<StreamBatch, { channel: C }>;

/** Main-thread callbacks, passed as one `Comlink.proxy({...})`. */
export interface StreamCallbacks<B = StreamBatch> {
  next(batch: B): void | Promise<void>;
  error?(msg: string): void | Promise<void>;
  complete?(): void | Promise<void>;
}

/** The connection state machine's state as the UI shows it, with the latest clock. */
export interface StatusSnapshot {
  state: ConnState;
  /** Market clock from the last heartbeat (null until one arrived). */
  clock: ClockState | null;
  /** Reconnect attempts since the socket was last live. */
  attempt: number;
  /** Last `error` message the server sent, if any. */
  lastError: string | null;
}

/** Returned by `subscribe`/`watchStatus` (a `Comlink.proxy` across the boundary). */
export interface StreamHandle {
  /** Stops delivery, sends `unsub` for streams nobody else wants, releases the callbacks proxy. */
  unsubscribe(): void;
}

/** Worker start-up settings; intervals in ms. */
export interface MarketConfig {
  /** ws://host/ws */
  wsUrl: string;
  /** http://host/api/vue/ (for the polling fallback). */
  restBase: string;
  /** Flush interval for batches to the main thread (default 16 ms). */
  flushMs?: number;
  /** Polling interval while the socket is down (default 2000 ms). */
  pollMs?: number;
  /** No message for this long → the socket is considered dead (default 3 × HEARTBEAT_MS). */
  heartbeatTimeoutMs?: number;
  /** Ping interval (default HEARTBEAT_MS). */
  pingMs?: number;
  /** Reconnect backoff base and cap (defaults 500 ms / 10 s). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

/** What `Comlink.expose` publishes from workers/market.worker.ts. */
export interface MarketWorkerApi {
  /** Opens the socket (idempotent; a second call with a new config reconnects). */
  start(config: MarketConfig): void;
  /** Subscribes callbacks to conflated batches of one channel for the given symbols. */
  subscribe(channel: Channel, params: StreamParams, callbacks: StreamCallbacks): StreamHandle;
  /** Connection state and clock; the current snapshot is delivered at once. */
  watchStatus(callbacks: StreamCallbacks<StatusSnapshot>): StreamHandle;
  /** Closes the socket and stops every timer (subscriptions stay registered). */
  stop(): void;
}
