/**
 * The worker boundary through REAL Comlink over a Node MessageChannel (Node's MessagePort is an
 * EventTarget with start/close: Comlink's plain `expose`/`wrap` work on it, no adapter needed):
 * the service exposed as in workers/market.worker.ts on one port, the page's bridge
 * (src/live/worker-bridge.ts) wrapping the other. Proves no proxy outlives its subscription
 * (service stats and MessagePorts opened vs closed), that depth books and candle snapshots cross
 * as transferred buffers and arrive decoded, the trades tape store, and visibility forwarding.
 * Real timers: messages cross a real port; tests wait for conditions, never for a fixed time.
 */
import * as Comlink from 'comlink';
import { Server, WebSocket as MockWebSocket, type Client } from 'mock-socket';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Candle, Depth } from '../../contract/market';
import type { ClientMessage } from '../../contract/realtime';
import { tradeTapes } from '../../src/live/hooks';
import {
  marketStatus$,
  marketStream,
  setMarketRemote,
  watchPageVisibility,
} from '../../src/live/worker-bridge';
import { comlinkApi, releaseComlinkProxy } from '../../workers/comlink-api';
import { createMarketService, type MarketService, type WebSocketCtor } from '../../workers/market-service';
import type { MarketWorkerApi, StatusSnapshot, StreamBatch } from '../../workers/protocol';
import { barSeries, trade } from './client-worker-harness';

const waitFor = <T>(fn: () => T, timeout = 5_000) => vi.waitFor(fn, { timeout, interval: 5 });

// ---- MessagePort accounting: every channel a Comlink proxy opens must be closed again ----
// Counted by Node's `close` event on the channel's local end, which fires whichever end closes
// (closing one end of an entangled pair closes both: Comlink's exposing side closes right after
// answering RELEASE, so the wrapping side's own close() may never run, yet its port is closed).
const RealChannel = globalThis.MessageChannel;
const channels = { opened: 0, closed: 0 };

beforeAll(() => {
  globalThis.MessageChannel = class CountingChannel extends RealChannel {
    constructor() {
      super();
      channels.opened++;
      (this.port1 as unknown as NodeJS.EventEmitter).once('close', () => channels.closed++);
    }
  };
});
afterAll(() => {
  globalThis.MessageChannel = RealChannel;
});

let port = 47_000 + Math.floor(Math.random() * 1000);
let server: Server;
let sockets: Client[];
let received: ClientMessage[];
let svc: MarketService;
let remote: Comlink.Remote<MarketWorkerApi>;
let main: MessageChannel;
/** Batches as the worker handed them to Comlink (before transfer). */
let transferred: { value: unknown; buffers: Transferable[] }[];

beforeEach(async () => {
  const url = `ws://localhost:${port++}/ws`;
  server = new Server(url);
  sockets = [];
  received = [];
  server.on('connection', (s) => {
    sockets.push(s);
    s.on('message', (d) => received.push(JSON.parse(String(d)) as ClientMessage));
  });
  transferred = [];
  svc = createMarketService({
    WebSocket: MockWebSocket as unknown as WebSocketCtor,
    fetch: async () => ({ ok: false, json: async () => ({}) }),
    release: releaseComlinkProxy,
    transfer: (value, buffers) => {
      transferred.push({ value, buffers });
      return Comlink.transfer(value, buffers);
    },
  });
  main = new RealChannel(); // the worker's own channel: not counted, closed in afterEach
  Comlink.expose(comlinkApi(svc), main.port1);
  remote = Comlink.wrap<MarketWorkerApi>(main.port2);
  setMarketRemote(remote);
  await remote.start({
    wsUrl: url,
    restBase: 'http://localhost/api/vue/',
    flushMs: 8,
    heartbeatTimeoutMs: 600_000,
  });
  await waitFor(() => expect(svc.stats().state).toBe('live'));
});

afterEach(() => {
  setMarketRemote(null);
  svc.stop();
  server.stop();
  main.port1.close();
  main.port2.close();
});

const frame = (msg: unknown) => sockets[sockets.length - 1]!.send(JSON.stringify(msg));

describe('market worker over real Comlink', () => {
  it('100 subscribe/unsubscribe cycles leave no live proxies and no open MessagePorts', async () => {
    const before = { ...channels };
    let delivered = 0;
    for (let i = 0; i < 100; i++) {
      const quotes = marketStream('quotes', { symbols: ['2330', '2317'] }).subscribe(() => delivered++);
      const status = marketStatus$().subscribe(() => undefined);
      const depth =
        i % 4 === 0 ? marketStream('depth', { symbols: ['2330'] }).subscribe(() => undefined) : null;
      if (i % 2 === 0) {
        // Half the cycles run to a delivery; the others unsubscribe before the handle is back.
        await waitFor(() => expect(svc.stats().subscribers).toBe(depth ? 2 : 1));
        const seen = delivered;
        frame({ type: 'quote', kind: 'snapshot', symbol: '2330', seq: i, data: { symbol: '2330', ts: i } });
        await waitFor(() => expect(delivered).toBeGreaterThan(seen));
      }
      quotes.unsubscribe();
      status.unsubscribe();
      depth?.unsubscribe();
    }
    await waitFor(() => expect(svc.stats()).toMatchObject({ subscribers: 0, statusWatchers: 0, wanted: 0 }));
    // Per cycle: a callbacks proxy and a handle proxy for each of quotes and status (+ depth).
    await waitFor(() => expect(channels.opened - before.opened).toBe(100 * 2 * 2 + 25 * 2));
    await waitFor(() => expect(channels.closed - before.closed).toBe(channels.opened - before.opened));
    // The server's subscriptions balance out (refcounted: a cycle's subscribe may reach the
    // worker before the previous cycle's unsubscribe, which then sends nothing) and end released.
    await waitFor(() => {
      const quotes = received.filter((m) => m.op !== 'ping' && m.channel === 'quotes');
      expect(quotes.filter((m) => m.op === 'sub').length).toBe(quotes.filter((m) => m.op === 'unsub').length);
      expect(quotes.at(-1)?.op).toBe('unsub');
    });
  });

  it('depth books and candle snapshots cross as transferred buffers and arrive decoded', async () => {
    const depth: StreamBatch[] = [];
    const candles: StreamBatch[] = [];
    const d = marketStream('depth', { symbols: ['2330'] }).subscribe((b) => depth.push(b));
    const c = marketStream('candles', { symbols: ['2330'], period: '1m' }).subscribe((b) => candles.push(b));
    await waitFor(() => expect(svc.stats().subscribers).toBe(2));
    await waitFor(() => expect(received.filter((m) => m.op === 'sub')).toHaveLength(2));
    const book: Depth = {
      symbol: '2330',
      ts: 1_715_823_600_000,
      bids: [
        { priceMinor: 99_950, volumeLots: 12 },
        { priceMinor: 99_900, volumeLots: 3 },
      ],
      asks: [{ priceMinor: 100_000, volumeLots: 7 }],
    };
    const bars: Candle[] = barSeries(300);
    frame([
      { type: 'depth', kind: 'snapshot', symbol: '2330', seq: 1, data: book },
      { type: 'candles', kind: 'snapshot', symbol: '2330', period: '1m', seq: 1, data: bars },
    ]);
    await waitFor(() => expect(depth.length).toBeGreaterThan(0));
    await waitFor(() => expect(candles.length).toBeGreaterThan(0));
    expect(depth[0]).toMatchObject({ channel: 'depth', items: [book] });
    expect(candles[0]).toMatchObject({
      channel: 'candles',
      items: [{ symbol: '2330', period: '1m', snapshot: true, items: bars }],
    });
    // Zero copy: the worker's buffers were moved, not cloned (detached on its side).
    expect(transferred).toHaveLength(2);
    for (const t of transferred) {
      expect(t.buffers).toHaveLength(1);
      expect((t.buffers[0] as ArrayBuffer).byteLength).toBe(0);
    }
    // A candle delta stays a plain object.
    frame({ type: 'candles', kind: 'delta', symbol: '2330', period: '1m', seq: 2, data: [bars[299]] });
    await waitFor(() => expect(candles.length).toBe(2));
    expect(candles[1]).toMatchObject({ items: [{ snapshot: false, items: [bars[299]] }] });
    expect(transferred).toHaveLength(2);
    d.unsubscribe();
    c.unsubscribe();
    await waitFor(() => expect(svc.stats().subscribers).toBe(0));
  });

  it('the trades tape store: one stream per symbol, rebuilt tape, released after the last reader', async () => {
    let changes = 0;
    const offA = tradeTapes.subscribe('2330', () => changes++);
    const offB = tradeTapes.subscribe('2330', () => undefined);
    await waitFor(() => expect(svc.stats().subscribers).toBe(1));
    await waitFor(() =>
      expect(received.filter((m) => m.op === 'sub' && m.channel === 'trades')).toHaveLength(1),
    );
    frame({
      type: 'trades',
      kind: 'snapshot',
      symbol: '2330',
      seq: 1,
      data: [trade(1, 100_000), trade(2, 100_050)],
    });
    await waitFor(() => expect(tradeTapes.get('2330')).toHaveLength(2));
    frame({ type: 'trades', kind: 'delta', symbol: '2330', seq: 2, data: [trade(3, 100_100, 'sell')] });
    await waitFor(() => expect(tradeTapes.get('2330')).toHaveLength(3));
    expect(tradeTapes.get('2330')).toEqual([trade(1, 100_000), trade(2, 100_050), trade(3, 100_100, 'sell')]);
    expect(changes).toBe(2);
    offA();
    offB();
    await waitFor(() => expect(svc.stats()).toMatchObject({ subscribers: 0, wanted: 0 }));
    expect(tradeTapes.get('2330')).toEqual([]);
  });

  it('forwards page visibility: hidden, visible, and a bfcache restore that forces a resync', async () => {
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
    const win = new EventTarget();
    const statuses: StatusSnapshot[] = [];
    const s = marketStatus$().subscribe((x) => statuses.push(x));
    marketStream('quotes', { symbols: ['2330'] }).subscribe(() => undefined);
    await waitFor(() => expect(received.filter((m) => m.op === 'sub')).toHaveLength(1));
    const stop = watchPageVisibility(remote, doc as unknown as Document, win as unknown as Window);

    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => expect(statuses.at(-1)).toMatchObject({ state: 'backgrounded', visible: false }));
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => expect(statuses.at(-1)).toMatchObject({ state: 'live', visible: true }));
    await waitFor(() => expect(received.filter((m) => m.op === 'sub')).toHaveLength(2));

    win.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    await waitFor(() => expect(received.filter((m) => m.op === 'sub')).toHaveLength(3));
    win.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: false })); // first load: no resync
    win.dispatchEvent(Object.assign(new Event('pagehide'), { persisted: true }));
    await waitFor(() => expect(svc.stats().visible).toBe(false));
    expect(received.filter((m) => m.op === 'sub')).toHaveLength(3);
    stop();
    s.unsubscribe();
  });
});
