/**
 * Anonymous WebSocket load does not stall the API, on PGlite and PostgreSQL: the whole server
 * in-process (integration harness, the replayed market on the wall clock, the instruments with
 * ten years of daily history), and a hostile client in a child process (ws-flood-client.mjs)
 * opening 400 anonymous `/ws` connections from one address, each subscribing every stream it may
 * (quotes, depth, trades of every instrument, candles of every period) and re-subscribing the
 * daily candles every second, so that it runs into every limit (server/realtime/limits.ts).
 *
 * Meanwhile a member calls the REST API one request after another. Asserted: the member's p99
 * latency stays under 200 ms, the server's RSS grows by less than 256 MiB, and the limits
 * answered clearly: connections beyond the address's limit got `tooManyConnections` and the
 * close code WS_CLOSE_TOO_MANY_CONNECTIONS, subscriptions beyond the cost limits
 * `tooManySubscriptions`. The figures are printed (quiet and loaded p50/p99, RSS growth, what the
 * client received).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDLE_PERIODS } from '../../contract/constants';
import { WS_CLOSE_TOO_MANY_CONNECTIONS } from '../../contract/realtime';
import { DEFAULT_WS_LIMITS } from '../../server/realtime/limits';
import { startHarness, type Harness } from '../integration/harness';

const SOCKETS = 400;
const LOAD_MS = 10_000;
const MiB = 1024 * 1024;

/** Every instrument of the recent OHLCV seed file (each with years of daily history). */
function deepHistorySymbols(): string[] {
  const file = path.join(__dirname, '../../server/db/seed-data/daily/recent_ohlcv_2024_2026.csv');
  const codes = readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[1])
    .filter((c): c is string => !!c);
  return [...new Set(codes)].sort();
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

interface FloodStats {
  opened: number;
  open: number;
  failed: number;
  bytes: number;
  frames: number;
  errors: Record<string, number>;
  closes: Record<string, number>;
}

let h: Harness;
let base: string;
let symbols: string[];
let child: ChildProcess | null = null;

beforeAll(async () => {
  h = await startHarness({ importSymbols: deepHistorySymbols() }, { realClock: true });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address();
  base = `127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const list = (await h.call('market/list', { page: 1, pageSize: 200 })).body.data;
  symbols = list.items.map((q: { symbol: string }) => q.symbol);
}, 180_000);
afterAll(async () => {
  child?.kill();
  await h?.close();
});

/** One member REST call over real HTTP; its wall time in ms. */
async function timedCall(token: string, name: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`http://${base}/api/vue/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: '{}',
  });
  const body = (await res.json()) as { status: number };
  const ms = performance.now() - t0;
  expect(body.status, name).toBe(1);
  return ms;
}

const ENDPOINTS = ['user/info', 'wallet/overview', 'market/indices'];

/** Calls ENDPOINTS in turn, one at a time, until `done()`; the latencies. */
async function memberLoop(token: string, done: () => boolean): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; !done(); i++) out.push(await timedCall(token, ENDPOINTS[i % ENDPOINTS.length]!));
  return out;
}
const forMs = (ms: number) => {
  const end = Date.now() + ms;
  return () => Date.now() >= end;
};

function ask<T>(c: ChildProcess, msg: object, reply: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMsg = (m: { type: string }) => {
      if (m.type !== reply) return;
      c.off('message', onMsg);
      resolve(m as T);
    };
    c.on('message', onMsg);
    c.once('exit', (code) => reject(new Error(`flood client exited with ${code}`)));
    c.send(msg);
  });
}

describe('400 anonymous sockets from one address', () => {
  it('a member keeps REST p99 < 200 ms; RSS grows < 256 MiB; every limit answers clearly', async () => {
    expect(symbols.length).toBeGreaterThan(40);
    const member = await h.register('0961000001');
    await memberLoop(member, forMs(1_000)); // warm: JIT, caches
    const quiet = await memberLoop(member, forMs(2_000));

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const rssBefore = process.memoryUsage().rss;
    let rssMax = rssBefore;
    const sampler = setInterval(() => {
      rssMax = Math.max(rssMax, process.memoryUsage().rss);
    }, 50);
    child = fork(path.join(__dirname, 'ws-flood-client.mjs'), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const connectStarted = Date.now();
    // From the first connection until LOAD_MS after the last one opened and subscribed.
    let loadEnd = Infinity;
    const loaded = memberLoop(member, () => Date.now() >= loadEnd);
    const started = await ask<{ opened: number }>(
      child,
      { cmd: 'start', url: `ws://${base}/ws`, sockets: SOCKETS, symbols, periods: CANDLE_PERIODS },
      'started',
    );
    const connectMs = Date.now() - connectStarted;
    loadEnd = Date.now() + LOAD_MS;
    const latencies = await loaded;
    const flood = await ask<FloodStats>(child, { cmd: 'stop' }, 'stats');
    child = null;
    clearInterval(sampler);
    loop.disable();
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
    const stats = h.gateway!.stats();

    const rssGrowthMiB = (rssMax - rssBefore) / MiB;
    const fmt = (xs: number[]) =>
      `p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms`;
    console.info(
      `[websocket load] ${process.env.TEST_DB ?? 'pglite'}: ${symbols.length} instruments; quiet ${fmt(quiet)} ` +
        `(${quiet.length} calls); under ${SOCKETS} sockets ${fmt(latencies)} (${latencies.length} calls, ` +
        `max ${Math.max(...latencies).toFixed(1)} ms); RSS growth ${rssGrowthMiB.toFixed(1)} MiB ` +
        `(max ${(rssMax / MiB).toFixed(0)} MiB); event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, ` +
        `max ${(loop.max / 1e6).toFixed(0)} ms; sockets opened in ${connectMs} ms; client: ` +
        `${JSON.stringify({ ...flood, bytesMiB: +(flood.bytes / MiB).toFixed(1) })}; gateway: ${JSON.stringify(stats)}`,
    );

    expect(started.opened).toBe(SOCKETS);
    // Beyond the address's limit: told why, then closed with the code.
    const limit = DEFAULT_WS_LIMITS.connectionsPerAddress;
    expect(flood.errors.tooManyConnections).toBe(SOCKETS - limit);
    expect(flood.closes[String(WS_CLOSE_TOO_MANY_CONNECTIONS)]).toBe(SOCKETS - limit);
    expect(flood.open).toBe(limit);
    expect(stats.refusedConnections).toBe(SOCKETS - limit);
    // The admitted ones ran into the cost limits, and were told per stream.
    expect(flood.errors.tooManySubscriptions).toBeGreaterThan(0);
    expect(stats.refusedSubscriptions).toBeGreaterThanOrEqual(flood.errors.tooManySubscriptions!);
    expect(flood.bytes).toBeGreaterThan(0);

    expect(latencies.length).toBeGreaterThan(20);
    expect(percentile(latencies, 99)).toBeLessThan(200);
    expect(rssGrowthMiB).toBeLessThan(256);
    // Nothing of the flood is left once it has gone.
    const gone = Date.now() + 5_000;
    while (h.gateway!.stats().sockets > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 25));
    expect(h.gateway!.stats()).toMatchObject({ sockets: 0, streams: 0 });
  }, 60_000);
});
