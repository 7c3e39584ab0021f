/**
 * The market-data service that runs inside the worker: owns the WebSocket to /ws, keeps one RxJS
 * Subject per channel, conflates per subscriber, detects sequence gaps, watches heartbeats,
 * reconnects with backoff + jitter and polls the REST snapshot endpoint while the socket is down.
 *
 * Plain TypeScript with injected WebSocket/fetch so it runs under Node with mock-socket
 * (tests/unit/client-worker.test.ts). workers/market.worker.ts wires it to Comlink.
 *
 * Connection state machine:
 *   stopped --start--> connecting --open--> live
 *   connecting|live --close/error/heartbeat timeout--> reconnecting (+ polling timer, reconnect timer)
 *   reconnecting --poll ok--> polling ;  reconnecting|polling --open--> live (polling stops)
 */
import { Subject, filter, from, map, merge as mergeStreams, type Observable, type Subscription } from 'rxjs';
import type { CandlePeriod, ClockState, Depth, Quote } from '../contract/market';
import type { Channel, ClientMessage } from '../contract/realtime';
import { backoffDelayMs } from './backoff';
import { conflate, mergeBars } from './conflate';
import { HEARTBEAT_MS, streamId } from './protocol';
import type {
  CandleUpdate,
  ConnState,
  MarketConfig,
  MarketWorkerApi,
  StatusSnapshot,
  StreamBatch,
  StreamCallbacks,
  StreamHandle,
  StreamParams,
} from './protocol';

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

/** Everything the service touches outside itself: socket factory, fetch, timers, clock, randomness. */
export interface ServiceDeps {
  WebSocket: WebSocketCtor;
  fetch: FetchLike;
  /** For jitter; injectable for deterministic tests. */
  random?: () => number;
  /** Releases a callbacks object received through Comlink (no-op for plain objects). */
  release?: (callbacks: object) => void;
}

const WS_OPEN = 1;
export const DEFAULT_FLUSH_MS = 16;
export const POLL_INTERVAL_MS = 2_000;
export const HEARTBEAT_TIMEOUT_MS = HEARTBEAT_MS * 3;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 10_000;
/** The protocol's cap on symbols per sub/unsub message (contract/realtime.ts). */
export const MAX_SYMBOLS_PER_MESSAGE = 500;
/** Depth is polled per symbol; only the first few wanted ones while the socket is down. */
export const MAX_POLLED_DEPTH_SYMBOLS = 5;
const SYMBOL_RE = /^[0-9A-Z]{4,6}$/;

type StreamEvent =
  | { channel: 'quotes'; symbol: string; data: Quote }
  | { channel: 'depth'; symbol: string; data: Depth }
  | { channel: 'candles'; symbol: string; period: CandlePeriod; data: CandleUpdate };

interface Wanted {
  channel: Channel;
  symbol: string;
  period?: CandlePeriod;
  count: number;
}

/** Counters for tests and diagnostics (messages, batches, live proxies). */
export interface ServiceStats {
  state: ConnState;
  wanted: number;
  resyncs: number;
  gaps: number;
  connects: number;
  polls: number;
  batchesDelivered: number;
  subscribers: number;
}

/** The worker's API plus test hooks. */
export interface MarketService extends MarketWorkerApi {
  stats(): ServiceStats;
}

type AnyBatchItem = Quote | Depth | CandleUpdate;

function itemKey(channel: Channel, item: AnyBatchItem): string {
  if (channel === 'candles') {
    const c = item as CandleUpdate;
    return `${c.symbol}:${c.period}`;
  }
  return (item as Quote | Depth).symbol;
}

function mergeItem(channel: Channel, prev: AnyBatchItem, next: AnyBatchItem): AnyBatchItem {
  if (channel !== 'candles') return next; // quotes and depth carry the full latest value
  const p = prev as CandleUpdate;
  const n = next as CandleUpdate;
  if (n.snapshot) return n;
  return { ...p, items: mergeBars(p.items, n.items) };
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

/** Creates the market service (socket, streams, conflation, fallbacks); the worker exposes it through Comlink. */
export function createMarketService(deps: ServiceDeps): MarketService {
  const random = deps.random ?? Math.random;
  const release = deps.release ?? (() => undefined);

  let cfg: Required<MarketConfig> | null = null;
  let state: ConnState = 'stopped';
  let clock: ClockState | null = null;
  let lastError: string | null = null;
  let attempt = 0;

  let socket: WebSocketLike | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let watchdogTimer: ReturnType<typeof setTimeout> | null = null;
  let pingTimer: ReturnType<typeof setInterval> | null = null;
  let pollTimer: ReturnType<typeof setInterval> | null = null;
  let pollInFlight = false;

  const subjects: Record<Channel, Subject<StreamEvent>> = {
    quotes: new Subject<StreamEvent>(),
    depth: new Subject<StreamEvent>(),
    candles: new Subject<StreamEvent>(),
  };
  /** Refcounted streams the page wants, by streamId. */
  const wanted = new Map<string, Wanted>();
  /** Last sequence number per stream on the current connection. */
  const seqs = new Map<string, number>();
  /** Streams whose fresh snapshot was requested after a gap. */
  const resyncing = new Set<string>();
  /** Latest value per stream, so a late subscriber to an already-live stream gets data at once. */
  const latest = new Map<string, StreamEvent>();
  const statusWatchers = new Set<StreamCallbacks<StatusSnapshot>>();
  const counters = { resyncs: 0, gaps: 0, connects: 0, polls: 0, batchesDelivered: 0, subscribers: 0 };

  // ---- status ----

  function snapshot(): StatusSnapshot {
    return { state, clock, attempt, lastError };
  }
  function emitStatus(): void {
    const s = snapshot();
    for (const w of statusWatchers) void safeCall(() => w.next(s));
  }
  function setState(next: ConnState): void {
    if (state === next) return;
    state = next;
    emitStatus();
  }

  // ---- socket output ----

  function send(msg: ClientMessage): void {
    if (!socket || socket.readyState !== WS_OPEN) return;
    try {
      socket.send(JSON.stringify(msg));
    } catch {
      // The close handler deals with a broken socket.
    }
  }

  /** Sends sub/unsub grouped by channel and period, in chunks the protocol accepts. */
  function sendGrouped(op: 'sub' | 'unsub', items: readonly Wanted[]): void {
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

  // ---- socket input ----

  function publish(ev: StreamEvent): void {
    const id = streamId(ev.channel, ev.symbol, ev.channel === 'candles' ? ev.period : undefined);
    if (!wanted.has(id)) return;
    if (ev.channel === 'candles') {
      const prev = latest.get(id);
      const bars =
        ev.data.snapshot || !prev || prev.channel !== 'candles'
          ? ev.data.items
          : mergeBars(prev.data.items, ev.data.items);
      latest.set(id, { ...ev, data: { ...ev.data, snapshot: true, items: bars } });
    } else {
      latest.set(id, ev);
    }
    subjects[ev.channel].next(ev);
  }

  function requestResync(id: string): void {
    if (resyncing.has(id)) return;
    const w = wanted.get(id);
    if (!w) return;
    resyncing.add(id);
    counters.resyncs++;
    sendGrouped('sub', [w]);
  }

  function onStreamMessage(msg: {
    type: 'quote' | 'depth' | 'candles';
    kind: 'snapshot' | 'delta';
    symbol: string;
    seq: number;
    period?: CandlePeriod;
    data: unknown;
  }): void {
    const channel: Channel = msg.type === 'quote' ? 'quotes' : msg.type;
    const period = channel === 'candles' ? msg.period : undefined;
    const id = streamId(channel, msg.symbol, period);
    if (!wanted.has(id)) return;
    if (msg.kind === 'snapshot') {
      seqs.set(id, msg.seq);
      resyncing.delete(id);
    } else {
      const last = seqs.get(id);
      if (last === undefined) {
        // A delta with no snapshot on this connection: we cannot apply it safely.
        requestResync(id);
        return;
      }
      if (msg.seq <= last) return; // duplicate or stale
      if (msg.seq !== last + 1) {
        counters.gaps++;
        seqs.delete(id);
        requestResync(id);
        return;
      }
      seqs.set(id, msg.seq);
    }
    if (channel === 'quotes') publish({ channel, symbol: msg.symbol, data: msg.data as Quote });
    else if (channel === 'depth') publish({ channel, symbol: msg.symbol, data: msg.data as Depth });
    else if (period)
      publish({
        channel,
        symbol: msg.symbol,
        period,
        data: {
          symbol: msg.symbol,
          period,
          snapshot: msg.kind === 'snapshot',
          items: Array.isArray(msg.data) ? (msg.data as CandleUpdate['items']) : [],
        },
      });
  }

  function onMessage(raw: unknown): void {
    armWatchdog();
    if (typeof raw !== 'string') return;
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object') return;
    const m = msg as { type?: unknown };
    switch (m.type) {
      case 'hb': {
        const hb = msg as { clock?: ClockState };
        if (hb.clock) clock = hb.clock;
        emitStatus();
        return;
      }
      case 'error':
        lastError = String((msg as { msg?: unknown }).msg ?? 'generic');
        emitStatus();
        return;
      case 'quote':
      case 'depth':
      case 'candles': {
        const s = msg as Parameters<typeof onStreamMessage>[0];
        if (typeof s.symbol !== 'string' || typeof s.seq !== 'number') return;
        onStreamMessage(s);
        return;
      }
      default:
        return;
    }
  }

  // ---- connection lifecycle ----

  function clearTimer(t: ReturnType<typeof setTimeout> | null): null {
    if (t !== null) clearTimeout(t);
    return null;
  }

  function armWatchdog(): void {
    if (!cfg) return;
    watchdogTimer = clearTimer(watchdogTimer);
    const ws = socket;
    watchdogTimer = setTimeout(() => {
      watchdogTimer = null;
      if (socket !== ws || !ws) return;
      // No heartbeat in time: treat the socket as dead even if the OS has not noticed.
      socket = null;
      detach(ws);
      try {
        ws.close();
      } catch {
        // already closed
      }
      onDown();
    }, cfg.heartbeatTimeoutMs);
  }

  function detach(ws: WebSocketLike): void {
    ws.onopen = null;
    ws.onclose = null;
    ws.onerror = null;
    ws.onmessage = null;
  }

  function connect(): void {
    if (!cfg || state === 'stopped') return;
    reconnectTimer = clearTimer(reconnectTimer);
    let ws: WebSocketLike;
    try {
      ws = new deps.WebSocket(cfg.wsUrl);
    } catch {
      onDown();
      return;
    }
    socket = ws;
    counters.connects++;
    ws.onopen = () => {
      if (socket !== ws) return;
      attempt = 0;
      stopPolling();
      seqs.clear();
      resyncing.clear();
      setState('live');
      sendGrouped('sub', Array.from(wanted.values()));
      startPing();
      armWatchdog();
    };
    ws.onmessage = (ev) => {
      if (socket !== ws) return;
      onMessage(ev.data);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      detach(ws);
      onDown();
    };
    ws.onerror = () => {
      // Browsers follow an error with close; some environments do not, so act on a dead socket.
      if (socket !== ws) return;
      if (ws.readyState >= 2) {
        socket = null;
        detach(ws);
        onDown();
      }
    };
  }

  function onDown(): void {
    stopPing();
    watchdogTimer = clearTimer(watchdogTimer);
    seqs.clear();
    resyncing.clear();
    if (!cfg || state === 'stopped') return;
    if (state !== 'polling') setState('reconnecting');
    startPolling();
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (!cfg || reconnectTimer !== null) return;
    const delay = backoffDelayMs(attempt, cfg.backoffBaseMs, cfg.backoffMaxMs, random);
    attempt++;
    emitStatus();
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, delay);
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

  // ---- polling fallback ----

  function startPolling(): void {
    if (pollTimer !== null || !cfg) return;
    void pollOnce();
    pollTimer = setInterval(() => void pollOnce(), cfg.pollMs);
  }
  function stopPolling(): void {
    if (pollTimer !== null) clearInterval(pollTimer);
    pollTimer = null;
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

  /** Read through a function: `state` changes across the awaits below. */
  const pollingPointless = (): boolean => state === 'live' || state === 'stopped';

  async function pollOnce(): Promise<void> {
    if (pollInFlight || pollingPointless()) return;
    const quoteSymbols: string[] = [];
    const depthSymbols: string[] = [];
    for (const w of wanted.values()) {
      if (w.channel === 'quotes') quoteSymbols.push(w.symbol);
      else if (w.channel === 'depth' && depthSymbols.length < MAX_POLLED_DEPTH_SYMBOLS)
        depthSymbols.push(w.symbol);
    }
    if (quoteSymbols.length === 0 && depthSymbols.length === 0) return;
    pollInFlight = true;
    try {
      for (let i = 0; i < quoteSymbols.length; i += MAX_SYMBOLS_PER_MESSAGE) {
        const data = (await postJson('market/quotes', {
          symbols: quoteSymbols.slice(i, i + MAX_SYMBOLS_PER_MESSAGE),
        })) as {
          items?: Quote[];
        } | null;
        if (pollingPointless()) return; // the socket came back meanwhile
        for (const q of data?.items ?? []) publish({ channel: 'quotes', symbol: q.symbol, data: q });
      }
      for (const symbol of depthSymbols) {
        const d = (await postJson('market/depth', { symbol })) as Depth | null;
        if (pollingPointless()) return;
        if (d) publish({ channel: 'depth', symbol, data: d });
      }
      counters.polls++;
      if (state === 'reconnecting') setState('polling');
    } catch {
      // Stay in `reconnecting`; the next tick tries again.
    } finally {
      pollInFlight = false;
    }
  }

  // ---- subscriptions ----

  function addWanted(items: Omit<Wanted, 'count'>[]): { fresh: Wanted[]; existingIds: string[] } {
    const fresh: Wanted[] = [];
    const existingIds: string[] = [];
    for (const it of items) {
      const id = streamId(it.channel, it.symbol, it.period);
      const w = wanted.get(id);
      if (w) {
        w.count++;
        existingIds.push(id);
      } else {
        const nw = { ...it, count: 1 };
        wanted.set(id, nw);
        fresh.push(nw);
      }
    }
    return { fresh, existingIds };
  }

  function dropWanted(items: Omit<Wanted, 'count'>[]): void {
    const gone: Wanted[] = [];
    for (const it of items) {
      const id = streamId(it.channel, it.symbol, it.period);
      const w = wanted.get(id);
      if (!w) continue;
      w.count--;
      if (w.count <= 0) {
        wanted.delete(id);
        seqs.delete(id);
        resyncing.delete(id);
        latest.delete(id);
        gone.push(w);
      }
    }
    if (gone.length) sendGrouped('unsub', gone);
  }

  /**
   * Hands batches to the page one at a time: while the previous `next` has not resolved (the
   * page is busy), newer batches are merged by key into one held batch instead of queuing.
   */
  function createDelivery(channel: Channel, callbacks: StreamCallbacks) {
    let inFlight = false;
    let held: Map<string, AnyBatchItem> | null = null;
    let closed = false;
    const deliver = (items: AnyBatchItem[]): void => {
      if (closed || items.length === 0) return;
      if (inFlight) {
        held ??= new Map();
        for (const it of items) {
          const k = itemKey(channel, it);
          const prev = held.get(k);
          held.set(k, prev ? mergeItem(channel, prev, it) : it);
        }
        return;
      }
      inFlight = true;
      counters.batchesDelivered++;
      const batch = { channel, items } as StreamBatch;
      void safeCall(() => callbacks.next(batch)).then(() => {
        inFlight = false;
        if (held) {
          const next = Array.from(held.values());
          held = null;
          deliver(next);
        }
      });
    };
    return {
      deliver,
      close() {
        closed = true;
        held = null;
      },
    };
  }

  function subscribe(channel: Channel, params: StreamParams, callbacks: StreamCallbacks): StreamHandle {
    if (!subjects[channel]) throw new Error(`unknown channel ${String(channel)}`);
    const period: CandlePeriod | undefined = channel === 'candles' ? (params.period ?? '1m') : undefined;
    const symbols = Array.from(new Set((params.symbols ?? []).filter((s) => SYMBOL_RE.test(s))));
    const items = symbols.map((symbol) => ({ channel, symbol, period }));
    const symbolSet = new Set(symbols);
    const flushMs = cfg?.flushMs ?? DEFAULT_FLUSH_MS;

    const { fresh, existingIds } = addWanted(items);
    if (fresh.length) sendGrouped('sub', fresh);

    const cached = existingIds.map((id) => latest.get(id)).filter((e): e is StreamEvent => e !== undefined);
    const live$: Observable<StreamEvent> = subjects[channel].pipe(
      filter((ev) => symbolSet.has(ev.symbol) && (ev.channel !== 'candles' || ev.period === period)),
    );
    const delivery = createDelivery(channel, callbacks);
    const rxSub: Subscription = mergeStreams(from(cached), live$)
      .pipe(
        map((ev) => ev.data as AnyBatchItem),
        conflate<AnyBatchItem, string>(
          (it) => itemKey(channel, it),
          flushMs,
          (a, b) => mergeItem(channel, a, b),
        ),
      )
      .subscribe((batch) => delivery.deliver(batch));
    counters.subscribers++;

    let done = false;
    return {
      unsubscribe() {
        if (done) return;
        done = true;
        counters.subscribers--;
        rxSub.unsubscribe();
        delivery.close();
        dropWanted(items);
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

  function stop(): void {
    state = 'stopped';
    reconnectTimer = clearTimer(reconnectTimer);
    watchdogTimer = clearTimer(watchdogTimer);
    stopPing();
    stopPolling();
    const ws = socket;
    socket = null;
    if (ws) {
      detach(ws);
      try {
        ws.close();
      } catch {
        // ignore
      }
    }
    seqs.clear();
    resyncing.clear();
    emitStatus();
  }

  function start(config: MarketConfig): void {
    const next: Required<MarketConfig> = {
      flushMs: DEFAULT_FLUSH_MS,
      pollMs: POLL_INTERVAL_MS,
      heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
      pingMs: HEARTBEAT_MS,
      backoffBaseMs: BACKOFF_BASE_MS,
      backoffMaxMs: BACKOFF_MAX_MS,
      ...config,
    };
    if (cfg && state !== 'stopped' && JSON.stringify(cfg) === JSON.stringify(next)) return;
    if (state !== 'stopped') stop();
    cfg = next;
    attempt = 0;
    state = 'connecting';
    emitStatus();
    connect();
  }

  return {
    start,
    subscribe,
    watchStatus,
    stop,
    stats: () => ({ state, wanted: wanted.size, ...counters }),
  };
}
