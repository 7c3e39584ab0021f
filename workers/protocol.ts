/**
 * The market worker's interface as the main thread sees it (through Comlink), and the batch
 * shapes it delivers. Wire messages to and from the server are contract/realtime.ts (protocol
 * v2); this file is the worker ↔ page boundary only. No DOM, no React.
 *
 * Units: prices integer TWD minor units, volumes shares (depth: lots), times epoch ms. Times
 * named `…At` are the WORKER's wall clock (when data reached it); `ts` fields are market time.
 *
 * ## Connection states (`ConnState`)
 * - `stopped`: before `start()` / after `stop()`.
 * - `connecting`: first socket attempt after `start()`.
 * - `live`: the socket is open; every wanted stream is (re)subscribed; data flows.
 * - `reconnecting`: the socket closed, errored or missed heartbeats for `heartbeatTimeoutMs`;
 *   a reconnect is scheduled with exponential backoff + jitter (`attempt`, `nextRetryAt`) and
 *   the REST snapshots are being polled every `pollMs`.
 * - `polling`: still no socket, but the last REST poll succeeded: quotes (all wanted symbols),
 *   depth, trades and candles (`since` = last bar held) of the first few wanted streams keep
 *   updating at `pollMs`.
 * - `stale`: no market data (socket message incl. heartbeats, or successful poll) for longer
 *   than `staleAfterMs` while visible: e.g. the server is unreachable. Reconnecting and polling
 *   go on; the first data leaves `stale` (to `live` with a socket, else `polling`).
 *   `lastDataAt` says how old the data on screen is.
 * - `backgrounded`: the page is hidden (`setVisibility(false)`). Nothing is delivered to the page
 *   (the worker keeps conflating the latest value per stream). For `backgroundGraceMs` the
 *   connection is left as it was (socket kept, reconnect/polling continue) so a quick app
 *   switch returns to a warm socket; after that the socket is closed and polling stops.
 *   `setVisibility(true)` resyncs at once: with an open socket every wanted stream is
 *   re-`sub`scribed for fresh snapshots (`live`); otherwise the backoff is reset, the socket
 *   reopened immediately and one poll made right away (`reconnecting`). Time spent hidden does
 *   not count towards `stale`.
 *
 * ## Candles after an outage
 * Every resync (reconnect, sequence gap, return from background) asks the server for a fresh
 * snapshot (the latest ≤ 300 bars). If that snapshot starts after the last bar the worker holds
 * (the outage was longer than the snapshot window), the worker first fetches `market/candles`
 * with `since` = that last bar and merges. Either way the first update delivered for the stream
 * after the resync is `snapshot: true` carrying every bar the worker holds (≤ MAX_HELD_BARS):
 * see `CandleUpdate`.
 */
import type { Candle, CandlePeriod, ClockState, Depth, Quote, Trade } from '../contract/market';
import type { Channel } from '../contract/realtime';
import type { SupportEvent } from '../contract/support';

export { HEARTBEAT_MS, streamId } from '../contract/constants';

/** Prints kept per symbol, by the worker and by the page's tape. */
export const TAPE_MAX = 100;

/** Connection state machine (see the module comment for each state's meaning). */
export type ConnState =
  'stopped' | 'connecting' | 'live' | 'reconnecting' | 'polling' | 'stale' | 'backgrounded';

/** What a subscription asks for: symbols, and the period for candles. */
export interface StreamParams {
  symbols: string[];
  /** Candles only (default `1m`). */
  period?: CandlePeriod;
  /**
   * Slowest delivery this subscriber wants, ms: its batches are conflated over this interval
   * instead of the service's flush (one frame), within [flush, MAX_SUBSCRIBER_FLUSH_MS]. For
   * views that redraw at a cost per batch (the chart's canvas), not for prices read at a glance.
   */
  flushMs?: number;
}

/** The longest conflation interval a subscriber may ask for (StreamParams.flushMs), ms. */
export const MAX_SUBSCRIBER_FLUSH_MS = 2_000;

/**
 * One candle stream's change, bars oldest first.
 * - `snapshot: true`: from `items[0].ts` on, the bars are exactly `items`: replace every bar you
 *   hold at or after that time, keep the older ones (history loaded through REST `before`).
 *   Sent first on a subscription and after every resync (the chart reloads its bars).
 * - `snapshot: false`: these bars changed or are new (usually the last one or two): upsert by ts.
 * `applyCandleUpdate` (workers/conflate.ts) implements both.
 */
export interface CandleUpdate {
  symbol: string;
  period: CandlePeriod;
  snapshot: boolean;
  items: Candle[];
}

/**
 * One symbol's new prints, oldest first. `snapshot: true` replaces the tape (last ≤ TAPE_MAX
 * prints the worker holds); otherwise append `items` and keep the last TAPE_MAX.
 */
export interface TradeUpdate {
  symbol: string;
  snapshot: boolean;
  items: Trade[];
}

/**
 * Batches as the page sees them (worker-bridge decodes the wire form). `receivedAt[i]` is the
 * worker wall clock (epoch ms) at which the data of `items[i]` reached the worker (socket
 * message or poll): per-stream receipt time.
 */
export type QuoteBatch = { channel: 'quotes'; items: Quote[]; receivedAt: number[] };
export type DepthBatch = { channel: 'depth'; items: Depth[]; receivedAt: number[] };
export type CandleBatch = { channel: 'candles'; items: CandleUpdate[]; receivedAt: number[] };
export type TradeBatch = { channel: 'trades'; items: TradeUpdate[]; receivedAt: number[] };
export type StreamBatch = QuoteBatch | DepthBatch | CandleBatch | TradeBatch;
export type BatchOf<C extends Channel> = Extract<StreamBatch, { channel: C }>;

/**
 * Depth books packed for transfer: `symbols[k]` is book k; `data` holds, per book in order:
 * `ts, bidsLen, asksLen`, then `bidsLen` × `(priceMinor, volumeLots)`, then the asks likewise.
 */
export interface PackedDepths {
  symbols: string[];
  data: Float64Array;
}

/**
 * A candle snapshot packed for transfer: `columns` holds 7 columns of n values each, in the
 * order ts, openMinor, highMinor, lowMinor, closeMinor, volumeShares, turnoverMinor (NaN for
 * null). All values are integers (< 2^53), so float64 holds them exactly.
 */
export interface PackedCandleUpdate {
  symbol: string;
  period: CandlePeriod;
  snapshot: true;
  columns: Float64Array;
}

/**
 * What a quote carries besides numbers, sent once per subscription for each symbol (and again
 * when one of them changes, e.g. a new replay day): `[slot, symbol, name, kind, replayDate,
 * phase, traded]`. Later rows name the symbol by its slot.
 */
export type QuoteDef = [
  slot: number,
  symbol: string,
  name: string,
  kind: Quote['kind'],
  replayDate: string | null,
  phase: Quote['phase'],
  traded: boolean,
  priceLimits: Quote['priceLimits'],
  referenceEstimated: Quote['referenceEstimated'],
  taxKind: Quote['taxKind'],
];

/**
 * A quote batch packed for transfer: `rows` holds QUOTE_COLUMNS float64 values per quote, in the
 * order slot, receivedAt, lastMinor, openMinor, highMinor, lowMinor, prevCloseMinor,
 * limitUpMinor, limitDownMinor, bidMinor, askMinor, volumeShares, turnoverMinor, ts (all
 * integers < 2^53, exact in float64); `defs` are the slots this batch introduces or changes.
 * Decoding needs the subscription's earlier defs (workers/transfer.ts `createBatchDecoder`).
 */
export interface PackedQuotes {
  rows: Float64Array;
  defs: QuoteDef[];
}

/**
 * Batches as they cross the boundary: quotes, depth books and candle snapshots as typed arrays
 * whose buffers are transferred (`Comlink.transfer`), candle deltas and trades as plain
 * objects. A subscription's `createBatchDecoder` (workers/transfer.ts) turns each WireBatch into
 * a StreamBatch.
 */
export type WireBatch =
  | { channel: 'quotes'; packed: PackedQuotes }
  | { channel: 'depth'; packed: PackedDepths; receivedAt: number[] }
  | { channel: 'candles'; items: (CandleUpdate | PackedCandleUpdate)[]; receivedAt: number[] }
  | TradeBatch;

/** Main-thread callbacks, passed as one `Comlink.proxy({...})`. */
export interface StreamCallbacks<B = WireBatch> {
  next(batch: B): void | Promise<void>;
  error?(msg: string): void | Promise<void>;
  complete?(): void | Promise<void>;
}

/** The connection state machine's state as the UI shows it, with the latest clock. */
export interface StatusSnapshot {
  state: ConnState;
  /** Market clock from the last heartbeat (null until one arrived). */
  clock: ClockState | null;
  /** Reconnect attempts since the socket was last open (0 while live). */
  attempt: number;
  /** Worker wall clock (epoch ms) when the next reconnect attempt is due; null if none is scheduled. */
  nextRetryAt: number | null;
  /**
   * Worker wall clock (epoch ms) of the last market data: any socket message (heartbeats
   * included: they confirm the data held is current) or successful REST poll; null if none yet.
   * Exact whenever `state` changes (so in `stale`); while live it is refreshed in the status at
   * least with every heartbeat.
   */
  lastDataAt: number | null;
  /** What the page last told `setVisibility`. */
  visible: boolean;
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
  /** http://host/api/vue/ (for the polling fallback and candle backfill). */
  restBase: string;
  /** Flush interval for batches to the main thread (default 16 ms: one per frame at 60 Hz). */
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
  /**
   * No data for this long while visible → `stale` (default max(2 × HEARTBEAT_MS, 2 × pollMs):
   * two missed confirmations from whichever source should be talking: a live socket heartbeats
   * every HEARTBEAT_MS even in a quiet market, polling answers every pollMs).
   */
  staleAfterMs?: number;
  /** Hidden for this long → close the socket and stop polling (default 30 s). */
  backgroundGraceMs?: number;
}

/** What `Comlink.expose` publishes from workers/market.worker.ts. */
export interface MarketWorkerApi {
  /** Opens the socket (idempotent; a second call with a new config reconnects). */
  start(config: MarketConfig): void;
  /**
   * Subscribes callbacks to conflated batches of one channel for the given symbols: at most one
   * batch per `flushMs`, the latest value per stream, never a growing queue (while the page has
   * not finished the previous `next`, newer values are merged into one held batch).
   */
  subscribe(channel: Channel, params: StreamParams, callbacks: StreamCallbacks): StreamHandle;
  /** Connection state and clock; the current snapshot is delivered at once. */
  watchStatus(callbacks: StreamCallbacks<StatusSnapshot>): StreamHandle;
  /**
   * The member's support events (contract/support.ts): the socket is authenticated with `token`
   * (now if open, and on every reconnect), and each `support` message is passed on. After a
   * reconnect a `resync` event is delivered first: events of the outage are lost, reload over REST.
   */
  watchSupport(token: string, callbacks: StreamCallbacks<SupportEvent>): StreamHandle;
  /**
   * Page visibility (worker-bridge calls it on `visibilitychange`, `pagehide` and `pageshow`).
   * `false`: stop delivering batches; after `backgroundGraceMs` close the socket and stop
   * polling. `true` after `false`: resync at once (see the module comment). `resync: true`
   * forces that resync even if the worker believed the page visible (a page restored from the
   * bfcache, `pageshow` with `persisted`).
   */
  setVisibility(visible: boolean, resync?: boolean): void;
  /** Closes the socket and stops every timer (subscriptions stay registered). */
  stop(): void;
}
