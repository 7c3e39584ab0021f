/**
 * The market worker's stream logic (workers/market-service.ts) against a mocked socket:
 * conflation, sequence gaps, refcounted unsubscribe with proxy release, polling fallback,
 * heartbeat timeout. Runs in Node (no DOM).
 */
import { Server, WebSocket as MockWebSocket, type Client } from 'mock-socket';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Quote } from '../../contract/market';
import type { ClientMessage } from '../../contract/realtime';
import {
  createMarketService,
  type FetchLike,
  type MarketService,
  type WebSocketCtor,
} from '../../workers/market-service';
import type { StatusSnapshot, StreamBatch } from '../../workers/protocol';

let port = 41_000;

/** vi.waitFor with a short poll interval: the mock socket delivers within milliseconds. */
const waitFor = <T>(fn: () => T, opts: { timeout?: number } = {}) =>
  vi.waitFor(fn, { timeout: opts.timeout ?? 2000, interval: 5 });

function quote(symbol: string, lastMinor: number, ts = 1): Quote {
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
  };
}

interface Harness {
  url: string;
  server: Server;
  received: ClientMessage[];
  sockets: Client[];
  svc: MarketService;
  fetchMock: ReturnType<typeof vi.fn>;
  release: ReturnType<typeof vi.fn>;
  statuses: StatusSnapshot[];
}

function sendQuote(sock: Client, kind: 'snapshot' | 'delta', seq: number, q: Quote): void {
  sock.send(JSON.stringify({ type: 'quote', kind, symbol: q.symbol, seq, data: q }));
}

function setup(opts: { heartbeatTimeoutMs?: number } = {}): Harness {
  const url = `ws://localhost:${port++}/ws`;
  const server = new Server(url);
  const received: ClientMessage[] = [];
  const sockets: Client[] = [];
  server.on('connection', (socket) => {
    sockets.push(socket);
    socket.on('message', (data) => received.push(JSON.parse(String(data)) as ClientMessage));
  });
  const fetchMock = vi.fn<FetchLike>(async (_url, init) => {
    const body = JSON.parse(init.body) as { symbols: string[] };
    return {
      ok: true,
      json: async () => ({
        status: 1,
        msg: 'ok',
        data: { items: body.symbols.map((s) => quote(s, 55_500)) },
      }),
    };
  });
  const release = vi.fn();
  const svc = createMarketService({
    WebSocket: MockWebSocket as unknown as WebSocketCtor,
    fetch: fetchMock,
    random: () => 0,
    release,
  });
  const statuses: StatusSnapshot[] = [];
  svc.watchStatus({ next: (s) => void statuses.push(s) });
  svc.start({
    wsUrl: url,
    restBase: 'http://localhost/api/vue/',
    flushMs: 16,
    pollMs: 40,
    heartbeatTimeoutMs: opts.heartbeatTimeoutMs ?? 60_000,
    pingMs: 60_000,
    backoffBaseMs: 30,
    backoffMaxMs: 60,
  });
  return { url, server, received, sockets, svc, fetchMock, release, statuses };
}

const subsFor = (h: Harness, op: 'sub' | 'unsub', symbol: string) =>
  h.received.filter((m) => m.op === op && 'symbols' in m && m.symbols.includes(symbol));

let h: Harness;

beforeEach(() => {
  h = setup();
});
afterEach(() => {
  h.svc.stop();
  h.server.stop();
});

async function live(hh: Harness): Promise<Client> {
  await waitFor(() => expect(hh.svc.stats().state).toBe('live'));
  await waitFor(() => expect(hh.sockets.length).toBeGreaterThan(0));
  return hh.sockets[hh.sockets.length - 1]!;
}

describe('market worker service', () => {
  it('subscribes, then conflates a burst to the latest value per symbol', async () => {
    const sock = await live(h);
    const batches: StreamBatch[] = [];
    h.svc.subscribe('quotes', { symbols: ['2330', '2317'] }, { next: (b) => void batches.push(b) });
    await waitFor(() => expect(subsFor(h, 'sub', '2330')).toHaveLength(1));
    expect(subsFor(h, 'sub', '2330')[0]).toEqual({ op: 'sub', channel: 'quotes', symbols: ['2330', '2317'] });

    sendQuote(sock, 'snapshot', 1, quote('2330', 100_000));
    sendQuote(sock, 'snapshot', 1, quote('2317', 20_000));
    for (let i = 2; i <= 200; i++) sendQuote(sock, 'delta', i, quote('2330', 100_000 + i * 50));

    await waitFor(() => {
      const last = batches.flatMap((b) => b.items as Quote[]).filter((q) => q.symbol === '2330');
      expect(last[last.length - 1]?.lastMinor).toBe(100_000 + 200 * 50);
    });
    // Far fewer batches than messages, and never two values of one symbol in one batch.
    expect(batches.length).toBeLessThan(50);
    for (const b of batches) {
      const syms = (b.items as Quote[]).map((q) => q.symbol);
      expect(new Set(syms).size).toBe(syms.length);
    }
    expect(batches.flatMap((b) => b.items as Quote[]).some((q) => q.symbol === '2317')).toBe(true);
  });

  it('re-subscribes for a fresh snapshot on a sequence gap and drops the out-of-order delta', async () => {
    const sock = await live(h);
    const seen: number[] = [];
    h.svc.subscribe(
      'quotes',
      { symbols: ['2330'] },
      {
        next: (b) => {
          for (const q of b.items as Quote[]) seen.push(q.lastMinor);
        },
      },
    );
    await waitFor(() => expect(subsFor(h, 'sub', '2330')).toHaveLength(1));
    sendQuote(sock, 'snapshot', 10, quote('2330', 100_000));
    await waitFor(() => expect(seen).toContain(100_000));
    sendQuote(sock, 'delta', 11, quote('2330', 100_500));
    await waitFor(() => expect(seen).toContain(100_500));
    sendQuote(sock, 'delta', 13, quote('2330', 999_900)); // 12 was lost
    await waitFor(() => expect(subsFor(h, 'sub', '2330')).toHaveLength(2));
    expect(h.svc.stats().gaps).toBe(1);
    // Further deltas before the snapshot are not applied either.
    sendQuote(sock, 'delta', 14, quote('2330', 888_800));
    sendQuote(sock, 'snapshot', 15, quote('2330', 101_000));
    sendQuote(sock, 'delta', 16, quote('2330', 101_500));
    await waitFor(() => expect(seen).toContain(101_500));
    expect(seen).not.toContain(999_900);
    expect(seen).not.toContain(888_800);
    // Only one re-sub for the one gap.
    expect(subsFor(h, 'sub', '2330')).toHaveLength(2);
  });

  it('unsubscribe sends unsub only when the last subscriber leaves, and releases the callbacks', async () => {
    const sock = await live(h);
    const a: StreamBatch[] = [];
    const b: StreamBatch[] = [];
    const cbA = { next: (x: StreamBatch) => void a.push(x) };
    const cbB = { next: (x: StreamBatch) => void b.push(x) };
    const ha = h.svc.subscribe('quotes', { symbols: ['2330'] }, cbA);
    await waitFor(() => expect(subsFor(h, 'sub', '2330')).toHaveLength(1));
    sendQuote(sock, 'snapshot', 1, quote('2330', 100_000));
    await waitFor(() => expect(a.length).toBe(1));

    // A second subscriber to a live stream gets the latest value at once, without a new `sub`.
    const hb = h.svc.subscribe('quotes', { symbols: ['2330'] }, cbB);
    await waitFor(() => expect(b.length).toBe(1));
    expect(subsFor(h, 'sub', '2330')).toHaveLength(1);

    ha.unsubscribe();
    expect(h.release).toHaveBeenCalledTimes(0); // released after complete() settles
    await waitFor(() => expect(h.release).toHaveBeenCalledWith(cbA));
    await new Promise((r) => setTimeout(r, 30));
    expect(subsFor(h, 'unsub', '2330')).toHaveLength(0);

    sendQuote(sock, 'delta', 2, quote('2330', 100_500));
    await waitFor(() => expect(b.length).toBe(2));
    expect(a.length).toBe(1); // A no longer receives

    hb.unsubscribe();
    await waitFor(() => expect(subsFor(h, 'unsub', '2330')).toHaveLength(1));
    expect(subsFor(h, 'unsub', '2330')[0]).toEqual({ op: 'unsub', channel: 'quotes', symbols: ['2330'] });
    await waitFor(() => expect(h.release).toHaveBeenCalledWith(cbB));
    expect(h.svc.stats().wanted).toBe(0);
  });

  it('polls market/quotes while the socket is down, then goes live again and re-subscribes', async () => {
    const sock = await live(h);
    const seen: Quote[] = [];
    h.svc.subscribe(
      'quotes',
      { symbols: ['2454'] },
      { next: (b) => void seen.push(...(b.items as Quote[])) },
    );
    await waitFor(() => expect(subsFor(h, 'sub', '2454')).toHaveLength(1));

    // The server goes away: no more sockets accepted until it is back.
    h.server.close();
    void sock;
    await waitFor(() => expect(h.statuses.some((s) => s.state === 'reconnecting')).toBe(true));
    await waitFor(() => expect(h.svc.stats().state).toBe('polling'));
    const [url, init] = h.fetchMock.mock.calls[0]!;
    expect(url).toBe('http://localhost/api/vue/market/quotes');
    expect(JSON.parse(init.body)).toEqual({ symbols: ['2454'] });
    await waitFor(() => expect(seen.some((q) => q.symbol === '2454' && q.lastMinor === 55_500)).toBe(true));

    // Back up: the reconnect loop finds it, goes live, stops polling and re-subscribes.
    const received2: ClientMessage[] = [];
    const server2 = new Server(h.url);
    server2.on('connection', (s) =>
      s.on('message', (d) => received2.push(JSON.parse(String(d)) as ClientMessage)),
    );
    await waitFor(() => expect(h.svc.stats().state).toBe('live'), { timeout: 3000 });
    await waitFor(() =>
      expect(received2).toContainEqual({ op: 'sub', channel: 'quotes', symbols: ['2454'] }),
    );
    const polls = h.fetchMock.mock.calls.length;
    await new Promise((r) => setTimeout(r, 120));
    expect(h.fetchMock.mock.calls.length).toBe(polls);
    server2.stop();
  });

  it('treats a silent socket as dead after the heartbeat timeout', async () => {
    h.svc.stop();
    h.server.stop();
    h = setup({ heartbeatTimeoutMs: 80 });
    await live(h);
    await waitFor(() => expect(h.statuses.some((s) => s.state === 'reconnecting')).toBe(true), {
      timeout: 2000,
    });
    // And it reconnects (the mock server is still up).
    await waitFor(() => expect(h.svc.stats().connects).toBeGreaterThan(1), { timeout: 2000 });
  });

  it('passes the heartbeat clock to status watchers', async () => {
    const sock = await live(h);
    sock.send(
      JSON.stringify({
        type: 'hb',
        ts: 1,
        clock: { source: 'replay', mode: 'replay', phase: 'open', speed: 1, now: 5 },
      }),
    );
    await waitFor(() => expect(h.statuses[h.statuses.length - 1]?.clock?.mode).toBe('replay'));
  });
});
