/**
 * The market-data service that runs inside the worker: owns the WebSocket to /ws (protocol v2,
 * contract/realtime.ts), keeps one RxJS Subject per channel (quotes, depth, candles, trades),
 * conflates per subscriber and hands the page one batch per `flushMs`, detects sequence gaps,
 * applies depth deltas to the books it holds, keeps a bounded trades tape and candle series per
 * stream, watches heartbeats, reconnects with backoff + jitter, polls REST snapshots while the
 * socket is down, goes `stale` after silence and `backgrounded` while the page is hidden.
 *
 * Plain TypeScript with injected WebSocket/fetch/transfer/release so it runs under Node with
 * mock-socket (tests/unit/client-worker*.test.ts). workers/comlink-api.ts wires it to Comlink.
 *
 * Connection state machine: one `dispatch(event)` that switches on the state, then on the event
 * (after bluesky's events agent). Meanings of the states: workers/protocol.ts.
 *
 *                 start
 *   stopped ───────────────▶ connecting ──opened──▶ live ◀───────────────opened──────┐
 *      ▲                         │                   │                               │
 *      │ stop (any state)      down              down (close, error,                 │
 *      │                         ▼                   ▼  heartbeat timeout)            │
 *      │                    reconnecting ◀───────────┘   retry (backoff timer):       │
 *      │                         │  ▲                     open a new socket ──────────┘
 *      │                   pollOk│  │                     (reconnecting|polling|stale)
 *      │                         ▼  │
 *      │                      polling
 *      │
 *   connecting|live|reconnecting|polling ──silence (no data for staleAfterMs)──▶ stale
 *   stale ──data: socket open → live, else → polling;  opened → live
 *   any of the above ──hidden──▶ backgrounded ──graceOver──▶ (socket closed, polling stopped)
 *   backgrounded ──visible──▶ live (socket open: re-`sub` all) | reconnecting (reconnect now,
 *                             poll now); a forced visible (bfcache) resyncs in any active state.
 */
import { Subject, filter, from, merge as mergeStreams, type Subscription } from 'rxjs';
import { applyDepthDelta, type DepthDelta } from '../contract/depth-delta';
import { applyQuoteDelta } from '../contract/quote-delta';
import type { Candle, CandlePeriod, ClockState, Depth, Quote, Trade } from '../contract/market';
import type { Channel, ClientMessage } from '../contract/realtime';
import type { SupportEvent } from '../contract/support';
import { CANDLE_PERIODS, CHANNELS } from '../contract/constants';
import { backoffDelayMs } from './backoff';
import { applyTradeUpdate, conflate, upsertBars } from './conflate';
import { HEARTBEAT_MS, MAX_SUBSCRIBER_FLUSH_MS, TAPE_MAX, streamId } from './protocol';

export { TAPE_MAX };
import type {
  CandleUpdate,
  ConnState,
  MarketConfig,
  MarketWorkerApi,
  StatusSnapshot,
  StreamCallbacks,
  StreamHandle,
  StreamParams,
  TradeUpdate,
  WireBatch,
} from './protocol';
import { createBatchEncoder, type BatchItems } from './transfer';

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

const WS_OPEN = 1;
export const DEFAULT_FLUSH_MS = 16;
export const POLL_INTERVAL_MS = 2_000;
export const HEARTBEAT_TIMEOUT_MS = HEARTBEAT_MS * 3;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 10_000;
export const BACKGROUND_GRACE_MS = 30_000;
/** Default `staleAfterMs` for a poll interval (see MarketConfig.staleAfterMs for why). */
export const staleAfterDefaultMs = (pollMs: number): number => Math.max(2 * HEARTBEAT_MS, 2 * pollMs);
/** Bars kept per candle stream (the REST `limit` cap, so one backfill request can fill them). */
export const MAX_HELD_BARS = 2_000;
/** The protocol's cap on symbols per sub/unsub message (contract/realtime.ts). */
export const MAX_SYMBOLS_PER_MESSAGE = 500;
/** Per-symbol REST calls while the socket is down: only the first few wanted streams. */
export const MAX_POLLED_DEPTH_SYMBOLS = 5;
export const MAX_POLLED_TAPES = 3;
export const MAX_POLLED_CANDLE_STREAMS = 3;
/** Prints asked of `market/trades` per poll. */
export const POLLED_TRADES = 50;
/** Bars asked of `market/candles` when the worker holds none. */
export const CANDLE_SNAPSHOT_LIMIT = 300;
/** A re-`sub` for a fresh snapshot is not repeated sooner than this (one per gap, not per delta). */
export const RESYNC_RETRY_MS = 3_000;
/** Bound on messages handled from one frame (the gateway sends one per changed stream). */
export const MAX_MESSAGES_PER_FRAME = 10_000;
const SYMBOL_RE = /^[0-9A-Z]{4,6}$/;

/** One stream (channel, symbol[, period]) the page wants, with what the worker holds of it. */
interface StreamState {
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

type Item = Quote | Depth | CandleUpdate | TradeUpdate;
/** What flows through the channel subjects: one stream's new value. */
interface Update {
  id: string;
  item: Item;
}

/** Counters for tests and diagnostics (live proxies, messages, batches). */
export interface ServiceStats {
  state: ConnState;
  visible: boolean;
  /** Streams wanted (refcounted). */
  wanted: number;
  /** Live `subscribe` handles (each holds one callbacks proxy). */
  subscribers: number;
  /** Live `watchStatus` handles. */
  statusWatchers: number;
  resyncs: number;
  gaps: number;
  depthMisfits: number;
  connects: number;
  polls: number;
  pollFailures: number;
  backfills: number;
  backfillFailures: number;
  batchesDelivered: number;
  lastDataAt: number | null;
}

/** The worker's API plus test hooks. */
export interface MarketService extends MarketWorkerApi {
  stats(): ServiceStats;
}

/** Events of the connection state machine. */
type MachineEvent =
  | { type: 'start' }
  | { type: 'stop' }
  /** The current socket opened. */
  | { type: 'opened' }
  /** The current socket closed, errored or missed heartbeats. */
  | { type: 'down' }
  /** The backoff timer fired. */
  | { type: 'retry' }
  | { type: 'pollOk' }
  /** Data arrived while `stale`. */
  | { type: 'fresh' }
  /** No data for staleAfterMs. */
  | { type: 'silence' }
  | { type: 'hidden' }
  | { type: 'visible'; force: boolean }
  /** Hidden for backgroundGraceMs. */
  | { type: 'graceOver' };

function mergeUpdate(channel: Channel, prev: Update, next: Update): Update {
  if (channel === 'quotes' || channel === 'depth') return next; // full latest values
  if (channel === 'candles') {
    const p = prev.item as CandleUpdate;
    const n = next.item as CandleUpdate;
    if (n.snapshot) return next;
    return { id: next.id, item: { ...p, items: upsertBars(p.items, n.items, MAX_HELD_BARS) } };
  }
  const p = prev.item as TradeUpdate;
  const n = next.item as TradeUpdate;
  if (n.snapshot) return next;
  return { id: next.id, item: { ...p, items: applyTradeUpdate(p.items, n, TAPE_MAX) } };
}

/**
 * Calls a possibly remote (Comlink) callback; never throws, never leaves a rejection unhandled.
 * Takes a thunk: on a Comlink proxy even `.bind` would be a remote call, so never touch it.
 */
function safeCall(invoke: () => unknown): Promise<void> {
  try {
    return Promise.resolve(invoke()).then(
      () => undefined,
      () => undefined,
    );
  } catch {
    return Promise.resolve();
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Creates the market service (socket, streams, conflation, fallbacks); the worker exposes it through Comlink. */
export function createMarketService(deps: ServiceDeps): MarketService {
  const random = deps.random ?? Math.random;
  const now = deps.now ?? (() => Date.now());
  const release = deps.release ?? (() => undefined);
  const transfer = deps.transfer ?? (<T>(v: T) => v);

  let cfg: Required<MarketConfig> | null = null;
  let state: ConnState = 'stopped';
  let visible = true;
  let clock: ClockState | null = null;
  let lastError: string | null = null;
  let attempt = 0;
  let nextRetryAt: number | null = null;
  let lastDataAt: number | null = null;
  /** Start of the current visible, running period: silence before it does not count. */
  let activeSince = 0;

  let socket: WebSocketLike | null = null;
  let socketOpen = false;
  let lastSocketMsgAt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let pingTimer: ReturnType<typeof setInterval> | null = null;
  let pollTimer: ReturnType<typeof setInterval> | null = null;
  let graceTimer: ReturnType<typeof setTimeout> | null = null;
  let graceOver = false;
  /** Bumped by stopPolling: answers of an older generation are dropped. */
  let pollGen = 0;
  let pollInFlightGen = -1;

  const subjects = Object.fromEntries(CHANNELS.map((c) => [c, new Subject<Update>()])) as Record<
    Channel,
    Subject<Update>
  >;
  const streams = new Map<string, StreamState>();
  const statusWatchers = new Set<StreamCallbacks<StatusSnapshot>>();
  /** `watchSupport` callbacks and the token each authenticates with (the latest one is used). */
  const supportWatchers = new Map<StreamCallbacks<SupportEvent>, string>();
  const deliveries = new Set<{ resume(): void }>();
  const counters = {
    resyncs: 0,
    gaps: 0,
    depthMisfits: 0,
    connects: 0,
    polls: 0,
    pollFailures: 0,
    backfills: 0,
    backfillFailures: 0,
    batchesDelivered: 0,
    subscribers: 0,
  };

  // ---- timers checked lazily (no re-arming per message) ----

  /** A timeout that fires `onExpire` once `deadline()` has passed; re-arms itself if moved later. */
  function lazyDeadline(deadline: () => number | null, onExpire: () => void) {
    let t: ReturnType<typeof setTimeout> | null = null;
    const clear = (): void => {
      if (t !== null) clearTimeout(t);
      t = null;
    };
    const check = (): void => {
      t = null;
      const d = deadline();
      if (d === null) return;
      if (now() >= d) onExpire();
      else arm();
    };
    const arm = (): void => {
      clear();
      const d = deadline();
      if (d !== null) t = setTimeout(check, Math.max(0, d - now()));
    };
    return { arm, clear };
  }

  const watchdog = lazyDeadline(
    () => (socketOpen && cfg ? lastSocketMsgAt + cfg.heartbeatTimeoutMs : null),
    () => dispatch({ type: 'down' }), // no heartbeat in time: dead even if the OS has not noticed
  );
  const staleWatch = lazyDeadline(
    () => (cfg ? Math.max(lastDataAt ?? 0, activeSince) + cfg.staleAfterMs : null),
    () => dispatch({ type: 'silence' }),
  );

  // ---- status ----

  function snapshot(): StatusSnapshot {
    return { state, clock, attempt, nextRetryAt, lastDataAt, visible, lastError };
  }
  /** statusKey() at the last emission: dispatch emits when it changed. */
  let emittedKey = '';
  function emitStatus(): void {
    emittedKey = statusKey();
    const s = snapshot();
    for (const w of statusWatchers) void safeCall(() => w.next(s));
  }
  const statusKey = (): string => `${state}|${attempt}|${nextRetryAt}|${visible}`;

  function markData(): void {
    lastDataAt = now();
    if (state === 'stale') dispatch({ type: 'fresh' });
  }

  // ---- the state machine ----

  function dispatch(ev: MachineEvent): void {
    if (ev.type === 'stop') {
      shutDown();
      state = 'stopped';
    } else {
      switch (state) {
        case 'stopped':
          if (ev.type === 'start') {
            state = 'connecting';
            activeSince = now();
            openSocket();
            if (visible) staleWatch.arm();
            else enterBackground();
          }
          break;

        case 'connecting':
        case 'live':
        case 'reconnecting':
        case 'polling':
        case 'stale':
          switch (ev.type) {
            case 'opened':
              onOpened();
              activeSince = now();
              state = 'live';
              staleWatch.arm();
              break;
            case 'down':
              onDown();
              if (state === 'connecting' || state === 'live') state = 'reconnecting';
              break;
            case 'retry':
              openSocket();
              break;
            case 'pollOk':
              if (state !== 'live') state = 'polling';
              break;
            case 'fresh':
              state = socketOpen ? 'live' : 'polling';
              staleWatch.arm();
              break;
            case 'silence':
              state = 'stale';
              break;
            case 'hidden':
              enterBackground();
              break;
            case 'visible':
              if (ev.force) resync();
              break;
            case 'start':
            case 'graceOver':
              break;
          }
          break;

        case 'backgrounded':
          switch (ev.type) {
            case 'visible':
              leaveBackground();
              break;
            case 'graceOver':
              // Battery: nobody looks. `visible` reconnects at once.
              graceOver = true;
              closeSocket();
              cancelReconnect();
              stopPolling();
              break;
            case 'opened':
              onOpened();
              break;
            case 'down':
              if (graceOver) closeSocket();
              else onDown();
              break;
            case 'retry':
              if (!graceOver) openSocket();
              break;
            case 'start':
            case 'pollOk':
            case 'fresh':
            case 'silence':
            case 'hidden':
              break;
          }
          break;
      }
    }
    if (statusKey() !== emittedKey) emitStatus();
  }

  function enterBackground(): void {
    state = 'backgrounded';
    staleWatch.clear();
    graceOver = false;
    if (graceTimer !== null) clearTimeout(graceTimer);
    graceTimer = setTimeout(() => {
      graceTimer = null;
      dispatch({ type: 'graceOver' });
    }, cfg?.backgroundGraceMs ?? BACKGROUND_GRACE_MS);
  }

  function leaveBackground(): void {
    if (graceTimer !== null) clearTimeout(graceTimer);
    graceTimer = null;
    graceOver = false;
    activeSince = now();
    state = socketOpen ? 'live' : 'reconnecting';
    resync();
    staleWatch.arm();
  }

  /** Fresh data for every wanted stream now: re-`sub` on an open socket, else reconnect and poll now. */
  function resync(): void {
    if (socketOpen) {
      subscribeAll();
      return;
    }
    cancelReconnect();
    attempt = 0;
    if (!socket) openSocket();
    stopPolling();
    startPolling();
  }

  function onOpened(): void {
    socketOpen = true;
    attempt = 0;
    cancelReconnect();
    stopPolling();
    subscribeAll();
    authSupport(true);
    startPing();
    lastSocketMsgAt = now();
    watchdog.arm();
  }

  function onDown(): void {
    closeSocket();
    startPolling();
    scheduleReconnect();
  }

  function shutDown(): void {
    closeSocket();
    cancelReconnect();
    stopPolling();
    staleWatch.clear();
    if (graceTimer !== null) clearTimeout(graceTimer);
    graceTimer = null;
    graceOver = false;
    attempt = 0;
  }

  // ---- socket ----

  /** Authenticates the socket for support events; `resync` tells the watchers to reload. */
  function authSupport(resync: boolean): void {
    const token = [...supportWatchers.values()].pop();
    if (token === undefined) return;
    send({ op: 'auth', token });
    if (resync)
      for (const w of supportWatchers.keys())
        void safeCall(() => w.next({ type: 'support', event: 'resync' }));
  }

  function send(msg: ClientMessage | { op: 'auth'; token: string }): void {
    if (!socket || !socketOpen || socket.readyState !== WS_OPEN) return;
    try {
      socket.send(JSON.stringify(msg));
    } catch {
      // The close handler deals with a broken socket.
    }
  }

  /** Sends sub/unsub grouped by channel and period, in chunks the protocol accepts. */
  function sendGrouped(op: 'sub' | 'unsub', items: readonly StreamState[]): void {
    const groups = new Map<string, { channel: Channel; period?: CandlePeriod; symbols: string[] }>();
    for (const w of items) {
      const k = `${w.channel}|${w.period ?? ''}`;
      let g = groups.get(k);
      if (!g) {
        g = { channel: w.channel, period: w.period, symbols: [] };
        groups.set(k, g);
      }
      g.symbols.push(w.symbol);
    }
    for (const g of groups.values()) {
      for (let i = 0; i < g.symbols.length; i += MAX_SYMBOLS_PER_MESSAGE) {
        const symbols = g.symbols.slice(i, i + MAX_SYMBOLS_PER_MESSAGE);
        send(
          g.period
            ? { op, channel: g.channel, symbols, period: g.period }
            : { op, channel: g.channel, symbols },
        );
      }
    }
  }

  /** (Re-)subscribes every wanted stream: each answers with a fresh snapshot. */
  function subscribeAll(): void {
    const t = now();
    for (const st of streams.values()) {
      st.seq = null;
      st.resyncAt = t;
    }
    sendGrouped('sub', Array.from(streams.values()));
  }

  function openSocket(): void {
    if (!cfg || socket) return;
    let ws: WebSocketLike;
    counters.connects++;
    try {
      ws = new deps.WebSocket(cfg.wsUrl);
    } catch {
      // Asynchronously, like a socket that fails to connect.
      setTimeout(() => {
        if (!socket) scheduleReconnectIfActive();
      }, 0);
      return;
    }
    socket = ws;
    socketOpen = false;
    ws.onopen = () => {
      if (socket === ws) dispatch({ type: 'opened' });
    };
    ws.onmessage = (ev) => {
      if (socket === ws) onFrame(ev.data);
    };
    ws.onclose = () => {
      if (socket === ws) dispatch({ type: 'down' });
    };
    ws.onerror = () => {
      // Browsers follow an error with close; some environments do not, so act on a dead socket.
      if (socket === ws && ws.readyState >= 2) dispatch({ type: 'down' });
    };
  }

  function scheduleReconnectIfActive(): void {
    if (state === 'stopped' || (state === 'backgrounded' && graceOver)) return;
    dispatch({ type: 'down' });
  }

  /** Detaches and closes the current socket; every stream then needs a fresh snapshot. */
  function closeSocket(): void {
    stopPing();
    watchdog.clear();
    const ws = socket;
    socket = null;
    socketOpen = false;
    for (const st of streams.values()) {
      st.seq = null;
      st.resyncAt = null;
    }
    if (!ws) return;
    ws.onopen = null;
    ws.onclose = null;
    ws.onerror = null;
    ws.onmessage = null;
    try {
      ws.close();
    } catch {
      // already closed
    }
  }

  function scheduleReconnect(): void {
    if (!cfg || reconnectTimer !== null) return;
    const delay = backoffDelayMs(attempt, cfg.backoffBaseMs, cfg.backoffMaxMs, random);
    attempt++;
    nextRetryAt = now() + delay;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      nextRetryAt = null;
      dispatch({ type: 'retry' });
    }, delay);
  }
  function cancelReconnect(): void {
    if (reconnectTimer !== null) clearTimeout(reconnectTimer);
    reconnectTimer = null;
    nextRetryAt = null;
  }

  function startPing(): void {
    stopPing();
    if (!cfg) return;
    pingTimer = setInterval(() => send({ op: 'ping' }), cfg.pingMs);
  }
  function stopPing(): void {
    if (pingTimer !== null) clearInterval(pingTimer);
    pingTimer = null;
  }

  // ---- socket input ----

  function onFrame(raw: unknown): void {
    lastSocketMsgAt = now();
    if (typeof raw !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    markData();
    if (Array.isArray(parsed)) {
      const n = Math.min(parsed.length, MAX_MESSAGES_PER_FRAME);
      for (let i = 0; i < n; i++) onServerMessage(parsed[i]);
    } else onServerMessage(parsed);
  }

  function onServerMessage(m: unknown): void {
    if (!isObj(m)) return;
    switch (m.type) {
      case 'hb':
        if (isObj(m.clock)) clock = m.clock as unknown as ClockState;
        emitStatus();
        return;
      case 'error':
        lastError = String(m.msg ?? 'generic');
        emitStatus();
        return;
      case 'quote':
      case 'depth':
      case 'candles':
      case 'trades':
        onStreamMessage(m);
        return;
      case 'support':
        for (const w of supportWatchers.keys()) void safeCall(() => w.next(m as unknown as SupportEvent));
        return;
      default:
        return;
    }
  }

  function requestResync(st: StreamState): void {
    st.seq = null;
    const t = now();
    if (st.resyncAt !== null && t - st.resyncAt < RESYNC_RETRY_MS) return;
    st.resyncAt = t;
    counters.resyncs++;
    sendGrouped('sub', [st]);
  }

  function onStreamMessage(m: Record<string, unknown>): void {
    const channel: Channel = m.type === 'quote' ? 'quotes' : (m.type as Channel);
    const { symbol, seq, kind } = m;
    if (typeof symbol !== 'string' || typeof seq !== 'number') return;
    const period = channel === 'candles' ? (m.period as CandlePeriod) : undefined;
    const st = streams.get(streamId(channel, symbol, period));
    if (!st) return; // not (or no longer) wanted
    if (kind === 'snapshot') {
      st.seq = seq;
      st.resyncAt = null;
      applySnapshot(st, m.data);
      return;
    }
    if (kind !== 'delta') return;
    if (st.seq === null) {
      // A delta with no snapshot on this connection: we cannot apply it safely.
      requestResync(st);
      return;
    }
    if (seq <= st.seq) return; // duplicate or stale
    if (seq !== st.seq + 1) {
      counters.gaps++;
      requestResync(st);
      return;
    }
    st.seq = seq;
    applyDelta(st, m.data);
  }

  function publish(st: StreamState, item: Item): void {
    st.receivedAt = now();
    subjects[st.channel].next({ id: st.id, item });
  }

  function publishBars(st: StreamState, snapshot: boolean, items: Candle[]): void {
    if (st.backfilling) return; // the backfill publishes everything when it lands
    publish(st, { symbol: st.symbol, period: st.period!, snapshot, items });
  }

  /** A quote snapshot: held (the base of the next delta) and published. */
  function applyQuote(st: StreamState, data: unknown): void {
    if (!isObj(data)) return;
    st.quote = data as unknown as Quote;
    publish(st, st.quote);
  }

  function applySnapshot(st: StreamState, data: unknown): void {
    switch (st.channel) {
      case 'quotes':
        applyQuote(st, data);
        return;
      case 'depth':
        if (!isObj(data)) return;
        st.book = data as unknown as Depth;
        publish(st, st.book);
        return;
      case 'trades': {
        if (!Array.isArray(data)) return;
        const prints = data as Trade[];
        const first = prints[0];
        const older = first ? (st.tape ?? []).filter((t) => t.ts < first.ts) : (st.tape ?? []);
        st.tape = applyTradeUpdate(older, { snapshot: false, items: prints }, TAPE_MAX);
        publish(st, { symbol: st.symbol, snapshot: true, items: st.tape });
        return;
      }
      case 'candles':
        if (Array.isArray(data)) onCandleSnapshot(st, data as Candle[]);
        return;
    }
  }

  /**
   * A fresh candle snapshot (the latest ≤ 300 bars). Bars held before its first bar stay; if it
   * starts after the last bar held, bars in between may be missing: backfill them first.
   */
  function onCandleSnapshot(st: StreamState, data: Candle[]): void {
    const snap = upsertBars([], data);
    const held = st.bars ?? [];
    const first = snap[0];
    const lastHeld = held[held.length - 1];
    if (first) {
      st.bars = upsertBars(
        held.filter((b) => b.ts < first.ts),
        snap,
        MAX_HELD_BARS,
      );
      st.socketFrom = first.ts;
    } else st.bars = held;
    if (first && lastHeld && first.ts > lastHeld.ts && !st.backfilling) {
      void backfill(st, lastHeld.ts);
      return;
    }
    publishBars(st, true, st.bars);
  }

  async function backfill(st: StreamState, since: number): Promise<void> {
    st.backfilling = true;
    counters.backfills++;
    let fill: Candle[] = [];
    try {
      const res = (await postJson('market/candles', {
        symbol: st.symbol,
        period: st.period,
        since,
        limit: MAX_HELD_BARS,
      })) as { items?: Candle[] } | null;
      fill = Array.isArray(res?.items) ? res.items : [];
    } catch {
      // Deliver what we have; the gap stays visible in the chart rather than blocking it.
      counters.backfillFailures++;
    }
    if (streams.get(st.id) !== st) return; // unsubscribed meanwhile
    st.backfilling = false;
    // Precedence: socket bars (the snapshot and deltas since) > the REST answer > bars held from
    // before the outage (the last of which was still forming when it began).
    const from = st.socketFrom ?? Number.POSITIVE_INFINITY;
    const bars = st.bars ?? [];
    const old = bars.filter((b) => b.ts < from);
    const sock = bars.filter((b) => b.ts >= from);
    const rest = upsertBars([], fill).filter((b) => b.ts < from);
    st.bars = upsertBars(upsertBars(old, rest), sock, MAX_HELD_BARS);
    publishBars(st, true, st.bars);
  }

  function applyDelta(st: StreamState, data: unknown): void {
    switch (st.channel) {
      case 'quotes': {
        if (!st.quote) {
          requestResync(st);
          return;
        }
        let quote: Quote;
        try {
          quote = applyQuoteDelta(st.quote, data);
        } catch {
          // Not a delta of this protocol: ask for the whole quote.
          requestResync(st);
          return;
        }
        st.quote = quote;
        publish(st, quote);
        return;
      }
      case 'depth': {
        if (!st.book) {
          requestResync(st);
          return;
        }
        let book: Depth;
        try {
          book = applyDepthDelta(st.book, data as DepthDelta);
        } catch {
          book = st.book; // not applicable: fails the check below
        }
        if (book === st.book || !wholeBook(book)) {
          // The delta does not fit the book we hold: ask for the whole book.
          counters.depthMisfits++;
          requestResync(st);
          return;
        }
        st.book = book;
        publish(st, book);
        return;
      }
      case 'trades': {
        if (!Array.isArray(data) || data.length === 0) return;
        const prints = data as Trade[];
        st.tape = applyTradeUpdate(st.tape ?? [], { snapshot: false, items: prints }, TAPE_MAX);
        publish(st, { symbol: st.symbol, snapshot: false, items: prints });
        return;
      }
      case 'candles': {
        if (!Array.isArray(data) || data.length === 0) return;
        const bars = upsertBars([], data as Candle[]);
        st.bars = upsertBars(st.bars ?? [], bars, MAX_HELD_BARS);
        publishBars(st, false, bars);
        return;
      }
    }
  }

  // ---- polling fallback ----

  function startPolling(): void {
    if (pollTimer !== null || !cfg) return;
    void pollOnce();
    pollTimer = setInterval(() => void pollOnce(), cfg.pollMs);
  }
  function stopPolling(): void {
    if (pollTimer !== null) clearInterval(pollTimer);
    pollTimer = null;
    pollGen++;
  }

  async function postJson(name: string, body: unknown): Promise<unknown> {
    if (!cfg) return null;
    const res = await deps.fetch(`${cfg.restBase}${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`HTTP error on ${name}`);
    const env = (await res.json()) as { status?: number; data?: unknown };
    if (env.status !== 1) throw new Error(`refused ${name}`);
    return env.data;
  }

  /** One round of REST snapshots for what the page wants; each call applies its own answer. */
  async function pollOnce(): Promise<void> {
    const gen = pollGen;
    if (pollInFlightGen === gen || !cfg) return;
    const quoteSymbols: string[] = [];
    const tasks: (() => Promise<void>)[] = [];
    let depthN = 0;
    let tapeN = 0;
    let candleN = 0;
    const current = (st: StreamState) => gen === pollGen && streams.get(st.id) === st;
    for (const st of streams.values()) {
      if (st.channel === 'quotes') quoteSymbols.push(st.symbol);
      else if (st.channel === 'depth' && depthN < MAX_POLLED_DEPTH_SYMBOLS) {
        depthN++;
        tasks.push(async () => {
          const d = (await postJson('market/depth', { symbol: st.symbol })) as Depth | null;
          if (!current(st) || !isObj(d)) return;
          st.book = d;
          publish(st, d);
        });
      } else if (st.channel === 'trades' && tapeN < MAX_POLLED_TAPES) {
        tapeN++;
        tasks.push(async () => {
          const r = (await postJson('market/trades', { symbol: st.symbol, limit: POLLED_TRADES })) as {
            items?: Trade[];
          } | null;
          if (!current(st) || !Array.isArray(r?.items)) return;
          applySnapshot(st, r.items);
        });
      } else if (st.channel === 'candles' && candleN < MAX_POLLED_CANDLE_STREAMS && !st.backfilling) {
        candleN++;
        tasks.push(async () => {
          const last = st.bars?.[st.bars.length - 1];
          const body = last
            ? { symbol: st.symbol, period: st.period, since: last.ts, limit: MAX_HELD_BARS }
            : { symbol: st.symbol, period: st.period, limit: CANDLE_SNAPSHOT_LIMIT };
          const r = (await postJson('market/candles', body)) as { items?: Candle[] } | null;
          if (!current(st) || !Array.isArray(r?.items) || st.backfilling) return;
          const bars = upsertBars([], r.items);
          // `since` = the last bar held, so the answer joins the held bars without a gap.
          if (last) {
            st.bars = upsertBars(st.bars ?? [], bars, MAX_HELD_BARS);
            if (bars.length) publishBars(st, false, bars);
          } else {
            st.bars = bars.slice(-MAX_HELD_BARS);
            publishBars(st, true, st.bars);
          }
        });
      }
    }
    for (let i = 0; i < quoteSymbols.length; i += MAX_SYMBOLS_PER_MESSAGE) {
      const symbols = quoteSymbols.slice(i, i + MAX_SYMBOLS_PER_MESSAGE);
      tasks.push(async () => {
        const r = (await postJson('market/quotes', { symbols })) as { items?: Quote[] } | null;
        if (gen !== pollGen) return;
        for (const q of r?.items ?? []) {
          const st = streams.get(streamId('quotes', q.symbol));
          if (!st) continue;
          st.quote = q;
          publish(st, q);
        }
      });
    }
    if (tasks.length === 0) return;
    pollInFlightGen = gen;
    let results: PromiseSettledResult<void>[];
    try {
      results = await Promise.allSettled(tasks.map((t) => t()));
    } finally {
      if (pollInFlightGen === gen) pollInFlightGen = -1;
    }
    if (gen !== pollGen) return; // the socket came back (or we stopped) meanwhile
    if (results.some((r) => r.status === 'fulfilled')) {
      counters.polls++;
      markData();
      dispatch({ type: 'pollOk' });
    } else counters.pollFailures++;
  }

  // ---- subscriptions ----

  function addWanted(keys: { channel: Channel; symbol: string; period?: CandlePeriod }[]): {
    fresh: StreamState[];
    existing: StreamState[];
  } {
    const fresh: StreamState[] = [];
    const existing: StreamState[] = [];
    for (const k of keys) {
      const id = streamId(k.channel, k.symbol, k.period);
      const st = streams.get(id);
      if (st) {
        st.count++;
        existing.push(st);
      } else {
        const ns: StreamState = { ...k, id, count: 1, seq: null, resyncAt: now(), receivedAt: null };
        streams.set(id, ns);
        fresh.push(ns);
      }
    }
    return { fresh, existing };
  }

  function dropWanted(ids: readonly string[]): void {
    const gone: StreamState[] = [];
    for (const id of ids) {
      const st = streams.get(id);
      if (!st) continue;
      st.count--;
      if (st.count <= 0) {
        streams.delete(id);
        gone.push(st);
      }
    }
    if (gone.length) sendGrouped('unsub', gone);
  }

  /** What a late subscriber to an already-live stream gets at once. */
  function cachedUpdate(st: StreamState): Update | null {
    switch (st.channel) {
      case 'quotes':
        return st.quote ? { id: st.id, item: st.quote } : null;
      case 'depth':
        return st.book ? { id: st.id, item: st.book } : null;
      case 'candles':
        return st.bars?.length && !st.backfilling
          ? { id: st.id, item: { symbol: st.symbol, period: st.period!, snapshot: true, items: st.bars } }
          : null;
      case 'trades':
        return st.tape ? { id: st.id, item: { symbol: st.symbol, snapshot: true, items: st.tape } } : null;
    }
  }

  /**
   * Hands batches to the page one at a time: while the previous `next` has not resolved (the
   * page is busy) or the page is hidden, newer updates are merged by stream into one held batch
   * instead of queuing (bounded by the streams subscribed).
   */
  function createDelivery(channel: Channel, callbacks: StreamCallbacks) {
    let inFlight = false;
    let held: Map<string, Update> | null = null;
    let closed = false;
    const encode = createBatchEncoder();
    const hold = (ups: readonly Update[]): void => {
      held ??= new Map();
      for (const u of ups) {
        const prev = held.get(u.id);
        held.set(u.id, prev ? mergeUpdate(channel, prev, u) : u);
      }
    };
    const sendNow = (ups: readonly Update[]): void => {
      inFlight = true;
      counters.batchesDelivered++;
      const t = now();
      const { batch, transferables } = encode(
        { channel, items: ups.map((u) => u.item) } as BatchItems,
        ups.map((u) => streams.get(u.id)?.receivedAt ?? t),
      );
      const wire: WireBatch = transferables.length ? transfer(batch, transferables) : batch;
      void safeCall(() => callbacks.next(wire)).then(() => {
        inFlight = false;
        drain();
      });
    };
    const drain = (): void => {
      if (closed || inFlight || !visible || !held) return;
      const ups = Array.from(held.values());
      held = null;
      sendNow(ups);
    };
    return {
      push(ups: readonly Update[]): void {
        if (closed || ups.length === 0) return;
        if (inFlight || !visible) hold(ups);
        else sendNow(ups);
      },
      resume: drain,
      close(): void {
        closed = true;
        held = null;
      },
    };
  }

  function subscribe(channel: Channel, params: StreamParams, callbacks: StreamCallbacks): StreamHandle {
    if (!(CHANNELS as readonly string[]).includes(channel))
      throw new Error(`unknown channel ${String(channel)}`);
    const period: CandlePeriod | undefined = channel === 'candles' ? (params.period ?? '1m') : undefined;
    if (period && !(CANDLE_PERIODS as readonly string[]).includes(period))
      throw new Error(`unknown period ${String(period)}`);
    const symbols = Array.from(new Set((params.symbols ?? []).filter((s) => SYMBOL_RE.test(s))));
    const keys = symbols.map((symbol) => ({ channel, symbol, period }));
    const ids = keys.map((k) => streamId(k.channel, k.symbol, k.period));
    const idSet = new Set(ids);
    const serviceFlushMs = cfg?.flushMs ?? DEFAULT_FLUSH_MS;
    const asked = Number(params.flushMs);
    const flushMs = Number.isFinite(asked)
      ? Math.min(MAX_SUBSCRIBER_FLUSH_MS, Math.max(serviceFlushMs, asked))
      : serviceFlushMs;

    const { fresh, existing } = addWanted(keys);
    const cached = existing.map(cachedUpdate).filter((u): u is Update => u !== null);
    const delivery = createDelivery(channel, callbacks);
    deliveries.add(delivery);
    const rxSub: Subscription = mergeStreams(
      from(cached),
      subjects[channel].pipe(filter((u) => idSet.has(u.id))),
    )
      .pipe(
        conflate<Update, string>(
          (u) => u.id,
          flushMs,
          (a, b) => mergeUpdate(channel, a, b),
        ),
      )
      .subscribe((ups) => delivery.push(ups));
    counters.subscribers++;
    // After the pipeline exists, so an answer however fast finds it.
    if (fresh.length) {
      sendGrouped('sub', fresh);
      if (pollTimer !== null) void pollOnce(); // polling: do not make the new rows wait pollMs
    }

    let done = false;
    return {
      unsubscribe() {
        if (done) return;
        done = true;
        counters.subscribers--;
        rxSub.unsubscribe();
        delivery.close();
        deliveries.delete(delivery);
        dropWanted(ids);
        void safeCall(() => callbacks.complete?.()).finally(() => release(callbacks));
      },
    };
  }

  function watchStatus(callbacks: StreamCallbacks<StatusSnapshot>): StreamHandle {
    statusWatchers.add(callbacks);
    void safeCall(() => callbacks.next(snapshot()));
    let done = false;
    return {
      unsubscribe() {
        if (done) return;
        done = true;
        statusWatchers.delete(callbacks);
        release(callbacks);
      },
    };
  }

  function watchSupport(token: string, callbacks: StreamCallbacks<SupportEvent>): StreamHandle {
    supportWatchers.set(callbacks, token);
    if (socketOpen) authSupport(false);
    let done = false;
    return {
      unsubscribe() {
        if (done) return;
        done = true;
        supportWatchers.delete(callbacks);
        release(callbacks);
      },
    };
  }

  function setVisibility(next: boolean, force = false): void {
    const was = visible;
    visible = next;
    if (!next) {
      if (was) dispatch({ type: 'hidden' });
    } else {
      if (!was || force) dispatch({ type: 'visible', force });
      for (const d of deliveries) d.resume();
    }
    if (statusKey() !== emittedKey) emitStatus();
  }

  function stop(): void {
    dispatch({ type: 'stop' });
  }

  function start(config: MarketConfig): void {
    const pollMs = config.pollMs ?? POLL_INTERVAL_MS;
    const next: Required<MarketConfig> = {
      flushMs: DEFAULT_FLUSH_MS,
      pollMs,
      heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
      pingMs: HEARTBEAT_MS,
      backoffBaseMs: BACKOFF_BASE_MS,
      backoffMaxMs: BACKOFF_MAX_MS,
      staleAfterMs: staleAfterDefaultMs(pollMs),
      backgroundGraceMs: BACKGROUND_GRACE_MS,
      ...stripUndefined(config),
    };
    if (cfg && state !== 'stopped' && JSON.stringify(cfg) === JSON.stringify(next)) return;
    if (state !== 'stopped') dispatch({ type: 'stop' });
    cfg = next;
    dispatch({ type: 'start' });
  }

  return {
    start,
    subscribe,
    watchStatus,
    watchSupport,
    setVisibility,
    stop,
    stats: () => ({
      state,
      visible,
      wanted: streams.size,
      statusWatchers: statusWatchers.size,
      lastDataAt,
      ...counters,
    }),
  };
}

/**
 * Every level present and numeric. Checked after applyDepthDelta as well: a change beyond the
 * held book's length leaves a sparse hole that `Array.prototype.some` does not visit.
 */
function wholeBook(b: Depth): boolean {
  for (const side of [b.bids, b.asks]) {
    for (let i = 0; i < side.length; i++) {
      const l = side[i];
      if (!l || !Number.isFinite(l.priceMinor) || !Number.isFinite(l.volumeLots)) return false;
    }
  }
  return true;
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
