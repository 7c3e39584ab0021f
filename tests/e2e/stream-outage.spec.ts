/**
 * The market socket is cut mid-session while HTTP keeps working, in Chromium at 390×844, on the
 * real server (the manual market clock put in continuous trading and run at 30×: one 1-minute
 * candle every 2 s of wall time).
 *
 * Between the page and the server sits a small proxy (node `http` + `net`, a mock at the edge of
 * the network only): it forwards plain HTTP, pipes `Upgrade: websocket` requests to the server,
 * and on demand destroys every upgraded socket, answers new upgrades with 503, holds them
 * unanswered, or answers /api/ with 503. The page uses the proxy's origin.
 *
 * Asserted: the badge shows connecting → live → reconnecting/polling when the socket is cut;
 * prices keep moving by polling while it is; with the API down too the badge goes stale and says
 * how old the data is; the socket comes back live when upgrades pass again; the 1-minute chart
 * then holds every candle the server has over the outage, ts by ts; a hidden page shows
 * backgrounded and comes back live. A screenshot of the badge in each state.
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { expect, test, type Page } from '../support/e2e-test';
import { marketToContinuous, moveMarket } from '../support/market-clock';
import { e2eServer } from '../support/e2e-server';

// Tests here run the market at 30×: it stands still again after each.
test.afterEach(async ({ baseURL }) => {
  await moveMarket(baseURL!, { speed: 0 });
});

const shots = path.resolve('tests/e2e/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: false });

const SYMBOL = '2330';

type UpgradeMode = 'pass' | 'refuse' | 'hold';

interface EdgeProxy {
  origin: string;
  /** What happens to new WebSocket upgrades; `pass` also completes the held ones. */
  upgrades(mode: UpgradeMode): void;
  /** Destroys every upgraded socket (both sides) at once. */
  cutSockets(): void;
  /** Answers /api/ requests with 503 while on. */
  refuseApi(on: boolean): void;
  openSockets(): number;
  close(): Promise<void>;
}

async function startEdgeProxy(target: URL): Promise<EdgeProxy> {
  const host = target.hostname;
  const port = Number(target.port);
  const agent = new http.Agent({ keepAlive: true });
  const pairs = new Set<[net.Socket, net.Socket]>();
  const held: { socket: net.Socket; go: () => void }[] = [];
  let mode: UpgradeMode = 'pass';
  let apiDown = false;

  const server = http.createServer((req, res) => {
    if (apiDown && req.url?.startsWith('/api/')) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('cut by the test proxy');
      return;
    }
    const up = http.request(
      { host, port, method: req.method, path: req.url, headers: req.headers, agent },
      (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });

  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const go = () => {
      if (socket.destroyed) return;
      const up = net.connect(port, host, () => {
        let raw = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          raw += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
        up.write(`${raw}\r\n`);
        if (head.length) up.write(head);
        up.pipe(socket);
        socket.pipe(up);
      });
      const pair: [net.Socket, net.Socket] = [socket, up];
      pairs.add(pair);
      const drop = () => {
        pairs.delete(pair);
        socket.destroy();
        up.destroy();
      };
      up.on('error', drop);
      up.on('close', drop);
      socket.on('close', drop);
    };
    if (mode === 'refuse') {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    } else if (mode === 'hold') held.push({ socket, go });
    else go();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${proxyPort}`,
    upgrades(next) {
      mode = next;
      if (next === 'pass') for (const h of held.splice(0)) h.go();
    },
    cutSockets() {
      for (const [a, b] of [...pairs]) {
        a.destroy();
        b.destroy();
      }
      pairs.clear();
    },
    refuseApi(on) {
      apiDown = on;
    },
    openSockets: () => pairs.size,
    async close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      for (const h of held) h.socket.destroy();
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The 1-minute chart's bars (timestamp and OHLCV) through the test hook on its container. */
function chartBars(page: Page) {
  return page.getByTestId('kline-chart').evaluate((el) => {
    const chart = (el as HTMLElement & { klineChart?: any }).klineChart;
    const list = (chart?.getDataList() ?? []) as Record<string, number>[];
    return list.map((b) => [b.timestamp, b.open, b.high, b.low, b.close, b.volume] as number[]);
  });
}

let proxy: EdgeProxy;

test.beforeEach(async () => {
  proxy = await startEdgeProxy(new URL(e2eServer().baseURL));
});
test.afterEach(async () => {
  await proxy.close();
});

test('socket cut: reconnecting → polling (prices move) → stale → live, no candle missing, backgrounded', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  // Prices must move while the socket is down: the replay's continuous session running at 30×, on a
  // day the stock is not locked at a price limit.
  await marketToContinuous(e2eServer().baseURL, { minutesLeft: 120, moving: SYMBOL, speed: 30 });
  const badge = page.getByTestId('conn-badge');
  const age = page.getByTestId('conn-age');
  const last = page.getByTestId('detail-last');

  // Connecting: the first handshake is held unanswered.
  proxy.upgrades('hold');
  await page.goto(`${proxy.origin}/#/market/marketDetail?symbol=${SYMBOL}`);
  await expect(last).not.toBeEmpty();
  await expect(badge).toHaveAttribute('data-state', 'connecting');
  await shot(page, 'conn-connecting');

  // Live once the handshake goes through.
  proxy.upgrades('pass');
  await expect(badge).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
  await expect(age).toHaveCount(0);
  await expect.poll(async () => (await chartBars(page)).length, { timeout: 20_000 }).toBeGreaterThan(2);
  await shot(page, 'conn-live');
  const lastBarBefore = (await chartBars(page)).at(-1)![0]!;

  // Cut the socket; new upgrades are refused. For a moment the API is down too, so the badge
  // stays on reconnecting (no poll can succeed); then HTTP works again and polling takes over.
  proxy.upgrades('refuse');
  proxy.refuseApi(true);
  proxy.cutSockets();
  await expect(badge).toHaveAttribute('data-state', 'reconnecting', { timeout: 15_000 });
  await expect(age).toHaveText(/^更新於 \d+ 秒前$/);
  await shot(page, 'conn-reconnecting');
  proxy.refuseApi(false);
  await expect(badge).toHaveAttribute('data-state', 'polling', { timeout: 15_000 });
  await expect(age).toHaveText(/^更新於 \d+ 秒前$/);
  await shot(page, 'conn-polling');

  // Prices keep moving by polling while the socket is down.
  const priceAtCut = await last.textContent();
  await expect
    .poll(async () => last.textContent(), { timeout: 30_000, intervals: [250] })
    .not.toBe(priceAtCut);
  await expect(badge).toHaveAttribute('data-state', 'polling');
  expect(proxy.openSockets()).toBe(0);

  // The API goes down too: no data at all → stale, with the age of the data on screen ticking.
  proxy.refuseApi(true);
  await expect(badge).toHaveAttribute('data-state', 'stale', { timeout: 30_000 });
  await expect(age).toHaveText(/^更新於 \d+ 秒前$/);
  const ageText = await age.textContent();
  await expect.poll(async () => age.textContent(), { timeout: 5_000 }).not.toBe(ageText);
  await expect(page.getByTestId('detail-quote-age')).toHaveText(/^報價更新於 \d+ 秒前$/);
  await shot(page, 'conn-stale');

  // The API comes back: polling; then upgrades pass again: live.
  proxy.refuseApi(false);
  await expect(badge).toHaveAttribute('data-state', 'polling', { timeout: 15_000 });
  proxy.upgrades('pass');
  await expect(badge).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
  await expect(age).toHaveCount(0);
  await expect(page.getByTestId('detail-quote-age')).toHaveCount(0);

  // The chart holds every candle the server has over the outage, ts by ts, with the same
  // figures for every closed bar (the newest may still be moving).
  await expect
    .poll(
      async () => {
        const bars = await chartBars(page);
        const res = await request.post('/api/vue/market/candles', {
          data: { symbol: SYMBOL, period: '1m', limit: 2000 },
        });
        const server = (
          (await res.json()).data.items as {
            ts: number;
            openMinor: number;
            highMinor: number;
            lowMinor: number;
            closeMinor: number;
            volumeShares: number;
          }[]
        ).map((c) => [
          c.ts,
          c.openMinor / 100,
          c.highMinor / 100,
          c.lowMinor / 100,
          c.closeMinor / 100,
          c.volumeShares / 1000,
        ]);
        const newest = bars.at(-1)?.[0] ?? 0;
        const first = bars[0]?.[0] ?? 0;
        const chartTs = new Set(bars.map((b) => b[0]));
        const byTs = new Map(bars.map((b) => [b[0], b.join()]));
        return {
          outageCovered: newest > lastBarBefore,
          missing: server
            .filter((c) => c[0]! >= first && c[0]! <= newest && !chartTs.has(c[0]!))
            .map((c) => c[0]),
          // Bars older than the server's first are an earlier replay session the chart keeps
          // after a session change (the server's 1m series holds the current session only).
          extra: bars
            .filter((b) => b[0]! >= (server[0]?.[0] ?? 0) && !server.some((c) => c[0] === b[0]))
            .map((b) => b[0]),
          differing: server
            .filter((c) => c[0]! >= first && c[0]! < newest && byTs.get(c[0]!) !== c.join())
            .map((c) => c[0]),
        };
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toEqual({ outageCovered: true, missing: [], extra: [], differing: [] });
  // The outage spanned several candles (the replay makes one every 2 s).
  expect(((await chartBars(page)).at(-1)![0]! - lastBarBefore) / 60_000).toBeGreaterThanOrEqual(5);

  // Hidden page → backgrounded; visible again → live.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(badge).toHaveAttribute('data-state', 'backgrounded', { timeout: 10_000 });
  await expect(age).toHaveText(/^更新於 \d+ 秒前$/);
  await shot(page, 'conn-backgrounded');
  await page.evaluate(() => {
    delete (document as { visibilityState?: unknown }).visibilityState;
    delete (document as { hidden?: unknown }).hidden;
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(badge).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
});
