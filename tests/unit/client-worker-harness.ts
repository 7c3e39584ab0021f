/**
 * Test harness for the market worker service (workers/market-service.ts): a mock-socket server
 * that records what the worker sends and lets a test push frames (one message or an array, as
 * protocol v2 allows), a routed fetch mock for the REST fallback, status and batch collectors.
 * Meant for fake timers (`vi.useFakeTimers()`, see useHarnessTimers): mock-socket and the service
 * both use the global timers, so `await h.advance(ms)` drives sockets, conflation, backoff and
 * polling. Also builders of server messages (qmsg, cmsg) and of test data.
 */
import { Server, WebSocket as MockWebSocket, type Client } from 'mock-socket';
import { afterEach, beforeEach, vi } from 'vitest';
import type { Candle, CandlePeriod, Depth, Quote, Trade } from '../../contract/market';
import type { Channel, ClientMessage } from '../../contract/realtime';
import {
  createMarketService,
  type FetchLike,
  type MarketService,
  type WebSocketCtor,
} from '../../workers/market-service';
import type { MarketConfig, StatusSnapshot, StreamBatch, StreamParams } from '../../workers/protocol';
import { createBatchDecoder } from '../../workers/transfer';

let port = 42_000 + Math.floor(Math.random() * 1000) * 10;
/** Harnesses created and not stopped yet (useHarnessTimers stops them after each test). */
const running = new Set<Harness>();

export function quote(symbol: string, lastMinor: number, ts = 1): Quote {
  return {
    symbol,
    name: symbol,
    kind: 'stock',
    lastMinor,
    openMinor: 100_000,
    highMinor: 101_000,
    lowMinor: 99_000,
    prevCloseMinor: 100_000,
    limitUpMinor: 110_000,
    limitDownMinor: 90_000,
    bidMinor: lastMinor - 100,
    askMinor: lastMinor,
    volumeShares: 1000,
    turnoverMinor: lastMinor * 1000,
    ts,
    replayDate: '2024-05-16',
    phase: 'open',
    traded: true,
  };
}

/**
 * A server `quote` message (protocol v2) carrying `q`: a snapshot carries the quote, a delta
 * every field but the symbol (contract/quote-delta.ts; all fields count as changed).
 */
export const qmsg = (kind: 'snapshot' | 'delta', seq: number, q: Quote) => {
  const { symbol, ...fields } = q;
  return { type: 'quote', kind, symbol, seq, data: kind === 'snapshot' ? q : fields };
};

/** A server `candles` message (protocol v2), by default for 2330's 1m bars. */
export const cmsg = (
  kind: 'snapshot' | 'delta',
  seq: number,
  data: readonly Candle[],
  symbol = '2330',
  period: CandlePeriod = '1m',
) => ({ type: 'candles', kind, symbol, period, seq, data });

/** A REST handler: returns the envelope's `data`, or throws to fail the call. */
export type RestHandler = (body: any) => unknown;

export interface Harness {
  url: string;
  server: Server;
  /** Every client message the mock server got, across reconnects. */
  received: ClientMessage[];
  sockets: Client[];
  svc: MarketService;
  fetchMock: ReturnType<typeof vi.fn<FetchLike>>;
  /** REST routes by name (`market/quotes`, ...); a missing route answers HTTP 404. */
  rest: Record<string, RestHandler>;
  /** While true every REST call fails (server unreachable). */
  restDown: boolean;
  release: ReturnType<typeof vi.fn>;
  statuses: StatusSnapshot[];
  /** The last socket the server accepted. */
  sock(): Client;
  /** Sends one frame (a message object or an array of them) on the last socket. */
  frame(msg: unknown): void;
  /** Advances fake time, running timers and the promises they resolve. */
  advance(ms: number): Promise<void>;
  /** The server stops: open sockets close, new ones are refused. */
  down(): void;
  /** The server is back at the same URL. */
  up(): void;
  /** `op` messages for one stream the worker sent. */
  subs(op: 'sub' | 'unsub', channel: Channel, symbol: string): ClientMessage[];
  /** Subscribes and collects decoded batches. */
  collect<C extends Channel>(
    channel: C,
    params: StreamParams,
  ): { batches: Extract<StreamBatch, { channel: C }>[]; unsubscribe(): void };
  stop(): void;
}

export function createHarness(
  opts: { config?: Partial<MarketConfig>; random?: () => number; start?: boolean } = {},
): Harness {
  const url = `ws://localhost:${port++}/ws`;
  const received: ClientMessage[] = [];
  const sockets: Client[] = [];
  const listen = (server: Server) =>
    server.on('connection', (socket) => {
      sockets.push(socket);
      socket.on('message', (data) => received.push(JSON.parse(String(data)) as ClientMessage));
    });
  let server = new Server(url);
  listen(server);

  const h = {} as Harness;
  h.rest = {};
  h.restDown = false;
  const fetchMock = vi.fn<FetchLike>(async (u, init) => {
    if (h.restDown) throw new TypeError('fetch failed');
    const name = u.replace('http://localhost/api/vue/', '');
    const route = h.rest[name];
    if (!route) return { ok: false, json: async () => ({}) };
    const data = route(JSON.parse(init.body));
    return { ok: true, json: async () => ({ status: 1, msg: 'ok', data }) };
  });
  const release = vi.fn();
  const svc = createMarketService({
    WebSocket: MockWebSocket as unknown as WebSocketCtor,
    fetch: fetchMock,
    random: opts.random ?? (() => 0),
    release,
  });
  const statuses: StatusSnapshot[] = [];
  svc.watchStatus({ next: (s) => void statuses.push(s) });

  Object.defineProperty(h, 'server', { get: () => server });
  Object.assign(h, {
    url,
    received,
    sockets,
    svc,
    fetchMock,
    release,
    statuses,
    sock: () => sockets[sockets.length - 1]!,
    frame: (msg: unknown) => sockets[sockets.length - 1]!.send(JSON.stringify(msg)),
    advance: (ms: number) => vi.advanceTimersByTimeAsync(ms),
    down: () => server.close(),
    up: () => {
      server.stop();
      server = new Server(url);
      listen(server);
    },
    subs: (op: 'sub' | 'unsub', channel: Channel, symbol: string) =>
      received.filter((m) => m.op === op && m.channel === channel && m.symbols.includes(symbol)),
    collect: (channel: Channel, params: StreamParams) => {
      const batches: StreamBatch[] = [];
      const decode = createBatchDecoder();
      const handle = svc.subscribe(channel, params, { next: (w) => void batches.push(decode(w)) });
      return { batches, unsubscribe: () => handle.unsubscribe() };
    },
    stop: () => {
      running.delete(h);
      svc.stop();
      server.stop();
    },
  });
  running.add(h);
  if (opts.start !== false) svc.start(config(url, opts.config));
  return h;
}

/**
 * Registers the per-test setup of a service test file (call it at the top level): fake timers
 * before each test; after it, every harness the test created and did not stop itself is stopped,
 * then real timers come back.
 */
export function useHarnessTimers(): void {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    for (const h of running) h.stop();
    vi.useRealTimers();
  });
}

/** Test timings: fast flushes and polls, a heartbeat timeout that never fires unless asked. */
export function config(url: string, over: Partial<MarketConfig> = {}): MarketConfig {
  return {
    wsUrl: url,
    restBase: 'http://localhost/api/vue/',
    flushMs: 16,
    pollMs: 1_000,
    heartbeatTimeoutMs: 600_000,
    pingMs: 600_000,
    backoffBaseMs: 100,
    backoffMaxMs: 1_600,
    staleAfterMs: 600_000,
    backgroundGraceMs: 30_000,
    ...over,
  };
}

/** Opens the socket (mock-socket connects on a timer) and returns once live. */
export async function goLive(h: Harness): Promise<Client> {
  for (let i = 0; i < 50 && h.svc.stats().state !== 'live'; i++) await h.advance(5);
  if (h.svc.stats().state !== 'live') throw new Error(`not live: ${h.svc.stats().state}`);
  return h.sock();
}

export const last = <T>(xs: readonly T[]): T | undefined => xs[xs.length - 1];

/** Every quote delivered, in order. */
export const quotesOf = (batches: readonly StreamBatch[]): Quote[] =>
  batches.flatMap((b) => (b.channel === 'quotes' ? b.items : []));
export const depthsOf = (batches: readonly StreamBatch[]): Depth[] =>
  batches.flatMap((b) => (b.channel === 'depth' ? b.items : []));

/** A full 1-minute bar series starting at `t0` (deterministic). */
export function barSeries(n: number, t0 = Date.UTC(2024, 4, 16, 1, 0)): Candle[] {
  const out: Candle[] = [];
  let px = 100_000;
  for (let i = 0; i < n; i++) {
    const open = px;
    px += ((i * 7919) % 11) * 50 - 250;
    out.push({
      ts: t0 + i * 60_000,
      openMinor: open,
      highMinor: Math.max(open, px) + 50,
      lowMinor: Math.min(open, px) - 50,
      closeMinor: px,
      volumeShares: 1000 * (1 + (i % 7)),
      turnoverMinor: i % 5 === 0 ? null : px * 1000,
    });
  }
  return out;
}

export function trade(ts: number, priceMinor: number, side: Trade['side'] = 'buy'): Trade {
  return { ts, priceMinor, volumeShares: 1000, side };
}
