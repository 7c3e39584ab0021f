/**
 * A hostile client for tests/security/websocket-load.test.ts, run as a child process (its own
 * event loop and memory, as an attacker's machine would be): opens `sockets` anonymous `/ws`
 * connections from one address, each subscribing every stream it may (candles of every period,
 * the daily ones first as the most expensive, then quotes, depth and trades of every symbol),
 * then re-sends the daily-candle `sub`s every second
 * (each answered by fresh snapshots) until told to stop. Frames are not parsed (a real attacker
 * does not spend its CPU either); error keys and close codes are counted.
 *
 * Messages from the parent: {cmd: 'start', url, sockets, symbols, periods} → replies
 * {type: 'started', opened}; {cmd: 'stop'} → {type: 'stats', ...} and exits.
 */
import process from 'node:process';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import WebSocket from 'ws';

const stats = { opened: 0, failed: 0, bytes: 0, frames: 0, errors: {}, closes: {} };
const sockets = [];
let resub = null;

const DAILY = ['1d', '1M', '1y'];
const ERROR_RE = /"type":"error","msg":"([A-Za-z]+)"/g;

function count(map, key) {
  map[key] = (map[key] ?? 0) + 1;
}

function open(url, subs) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    sockets.push(ws);
    ws.on('open', () => {
      stats.opened++;
      for (const m of subs) ws.send(JSON.stringify(m));
      resolve();
    });
    ws.on('message', (raw) => {
      stats.frames++;
      stats.bytes += raw.length;
      if (raw.length < 4096 || raw.includes('"type":"error"')) {
        for (const m of raw.toString().matchAll(ERROR_RE)) count(stats.errors, m[1]);
      }
    });
    ws.on('close', (code) => count(stats.closes, String(code)));
    ws.on('error', () => {
      stats.failed++;
      resolve();
    });
  });
}

process.on('message', async (msg) => {
  if (msg.cmd === 'start') {
    const { url, symbols, periods } = msg;
    const chunks = [];
    for (let i = 0; i < symbols.length; i += 500) chunks.push(symbols.slice(i, i + 500));
    // The most expensive first: daily candles (history from the database), then the rest.
    const subs = [];
    const byCost = [
      ...periods.filter((p) => DAILY.includes(p)),
      ...periods.filter((p) => !DAILY.includes(p)),
    ];
    for (const period of byCost)
      for (const c of chunks) subs.push({ op: 'sub', channel: 'candles', symbols: c, period });
    for (const channel of ['quotes', 'depth', 'trades'])
      for (const c of chunks) subs.push({ op: 'sub', channel, symbols: c });
    const daily = subs.filter((m) => m.channel === 'candles' && DAILY.includes(m.period));
    await Promise.all(Array.from({ length: msg.sockets }, () => open(url, subs)));
    resub = setInterval(() => {
      for (const ws of sockets)
        if (ws.readyState === WebSocket.OPEN) for (const m of daily) ws.send(JSON.stringify(m));
    }, 1_000);
    process.send({ type: 'started', opened: stats.opened });
  } else if (msg.cmd === 'stop') {
    clearInterval(resub);
    // Closes the server started (refused connections) are counted before reporting.
    const settled = () =>
      sockets.every((ws) => ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CLOSED);
    for (let i = 0; i < 150 && !settled(); i++) await new Promise((r) => setTimeout(r, 20));
    const open = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
    for (const ws of sockets) ws.terminate();
    process.send({ type: 'stats', ...stats, open }, () => process.exit(0));
  }
});
