/**
 * Whole-market replay smoke and measurement (not a test): imports the market into a PGlite
 * directory (reused across runs), starts the replay feed with its timer at a chosen clock
 * position and speed, and prints the start time, the longest event-loop stall (perf_hooks
 * see STALL_PROBE_MS), RSS, trades per wall second and the feed's CPU share over `seconds`.
 *
 *   npx tsx scripts/replay-smoke.ts [dataDir=/tmp/replay-smoke] [speed=60] [start=0.95] [seconds=120]
 *
 * start: where between 09:00 and 13:30 the clock starts as a fraction (0.95 ≈ 13:16: at speed 60
 * the run crosses 14:30 → the next day's 08:30 after ~74 s and its 09:00 open after ~104 s), or
 * a market time of day HH:MM[:SS] in 08:30–14:30 (e.g. 14:28 at speed 1 crosses the 08:30
 * rollover after 2 min; 08:58 crosses the 09:00 open). Every feed event has a listener (as under
 * the realtime gateway), and the rankings snapshot (server/modules/market/rankings.ts) is
 * computed once a second and timed. Also prints every second whose longest stall exceeds 50 ms,
 * the longest stall of an idle baseline process measured over the same period (the machine is
 * shared) and the load average.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { openDatabase } from '../server/db/client';
import { importMarketData } from '../server/market/import';
import { SESSION_MS } from '../server/market/calendar';
import { createClock, REPLAY_DAY_MS } from '../server/market/clock';
import { createMarketFeed } from '../server/market/feed';
import { createRankings } from '../server/modules/market/rankings';

/** The 1/5/15-minute load averages. */
const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const [dir = '/tmp/replay-smoke', speedArg = '60', fracArg = '0.95', secArg = '120'] = process.argv.slice(2);
const speed = Number(speedArg);
const seconds = Number(secArg);

// Baseline: an idle process with a 100 ms interval on the same machine, same period.
const baseline = spawn(
  process.execPath,
  [
    '-e',
    `let last=performance.now(),max=0;setInterval(()=>{const n=performance.now();max=Math.max(max,n-last);last=n},2);` +
      `process.on('SIGTERM',()=>{console.log(max.toFixed(1));process.exit(0)});`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let baselineOut = '';
baseline.stdout.on('data', (d) => (baselineOut += String(d)));

// RSS high-water mark over the whole run, import and start included (sampled every 100 ms).
let peakRssAll = 0;
const rssSampler = setInterval(() => (peakRssAll = Math.max(peakRssAll, process.memoryUsage.rss())), 100);
const database = await openDatabase(dir);
let t = performance.now();
await importMarketData(database.db);
console.log(`import ${((performance.now() - t) / 1000).toFixed(1)} s`);
// Wall time such that the replay clock (08:30 → 14:30 days) is at session 10, `startFraction` of
// the way from 09:00 to 13:30, now.
const wallStart = Date.now();
/** Market ms after 09:00 where the clock starts. */
const startOffsetMs = fracArg.includes(':')
  ? (() => {
      const [h = 0, m = 0, sec = 0] = fracArg.split(':').map(Number);
      return ((h - 9) * 3600 + m * 60 + sec) * 1000;
    })()
  : Number(fracArg) * SESSION_MS;
const anchorMs = wallStart - (10 * REPLAY_DAY_MS + startOffsetMs) / speed;
const clock = createClock({ mode: 'replay', speed, anchorMs });
const feed = createMarketFeed({ db: database.db, clock, seed: 1 });
let trades = 0;
feed.onTrade(() => trades++);
feed.onQuote(() => {});
feed.onDepth(() => {});
feed.onCandle(() => {});
const rankings = createRankings({ feed, now: Date.now });
let rankingsMax = 0;
/** GC pauses over 20 ms (a stall the feed's own code did not cause directly). */
let gcMax = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMax = Math.max(gcMax, e.duration);
    if (e.duration > 20) console.log(`gc pause ${e.duration.toFixed(1)} ms`);
  }
}).observe({ entryTypes: ['gc'] });
/**
 * Stall probe: the longest gap between the callbacks of a 2 ms interval timer, i.e. the longest
 * task plus up to 2 ms. (perf_hooks monitorEventLoopDelay is not used: on Node 20.20 it recorded
 * a 100 ms busy setImmediate callback as 10.9 ms, resolution 10.)
 */
const STALL_PROBE_MS = 2;
const h = (() => {
  let last = performance.now();
  let max = 0;
  setInterval(() => {
    const n = performance.now();
    max = Math.max(max, n - last);
    last = n;
  }, STALL_PROBE_MS).unref();
  return {
    /** Longest gap (ms) since the last reset. */
    get max() {
      return Math.max(max, performance.now() - last);
    },
    reset() {
      max = 0;
    },
  };
})();
t = performance.now();
await feed.start();
const startMs = performance.now() - t;
console.log(
  `start() returned after ${startMs.toFixed(0)} ms; quotes ${feed.listQuotes().length}; ` +
    `loop max during start ${h.max.toFixed(1)} ms; load ${loadAverage()}`,
);
const startStall = h.max;
h.reset();
const cpu0 = process.cpuUsage();
const w0 = performance.now();
let maxStall = 0;
let maxRss = 0;
let peakMem = process.memoryUsage();
/** Longest stall of the seconds within ±3 s of a session change (the 08:30 rollover, the 09:00 open). */
let changeStall = 0;
const perSecond: Array<{ s: number; max: number; session: number; phase: string }> = [];
for (let s = 1; s <= seconds; s++) {
  await new Promise((r) => setTimeout(r, 1000));
  const secMax = h.max;
  h.reset();
  maxStall = Math.max(maxStall, secMax);
  const r0 = performance.now();
  rankings.snapshot();
  rankingsMax = Math.max(rankingsMax, performance.now() - r0);
  const mem = process.memoryUsage();
  if (mem.rss > maxRss) [maxRss, peakMem] = [mem.rss, mem];
  const p = clock.position();
  perSecond.push({ s, max: secMax, session: p.session, phase: p.tradingPhase });
  if (secMax > 50)
    console.log(`${s}s long task: loop max ${secMax.toFixed(1)} ms (session ${p.session} ${p.tradingPhase})`);
  if (s % 10 === 0 || s === 1) {
    const q = feed.quote('2330');
    console.log(
      `${s}s session ${p.session} ${p.tradingPhase} offset ${(p.offsetMs / 60000).toFixed(1)} min · date ${feed.clock().replayDate} · 2330 ${q?.lastMinor} vol ${q?.volumeShares} · trades/s ${(trades / s).toFixed(0)} · loop max (this s) ${secMax.toFixed(1)} ms · rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB · load ${loadAverage()}`,
    );
  }
}
for (let i = 1; i < perSecond.length; i++) {
  const a = perSecond[i - 1]!;
  const b = perSecond[i]!;
  if (a.session !== b.session || (a.phase !== b.phase && b.phase === 'continuous')) {
    for (let j = Math.max(0, i - 3); j <= Math.min(perSecond.length - 1, i + 3); j++)
      changeStall = Math.max(changeStall, perSecond[j]!.max);
    console.log(`change at ${b.s}s: ${a.session}/${a.phase} → ${b.session}/${b.phase}`);
  }
}
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - w0;
baseline.kill('SIGTERM');
await new Promise((r) => baseline.on('exit', r));
console.log(
  `RESULT speed ${speed}: start() ${startMs.toFixed(0)} ms, start stall ${startStall.toFixed(1)} ms, max stall ±3 s of a session change ${changeStall.toFixed(1)} ms, max stall ${maxStall.toFixed(1)} ms (idle baseline process: ${baselineOut.trim()} ms), trades/s ${(trades / seconds).toFixed(0)}, CPU ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(1)} % of a core, max RSS ${(maxRss / 2 ** 20).toFixed(0)} MiB after start, ${(Math.max(peakRssAll, maxRss) / 2 ** 20).toFixed(0)} MiB including import and start (heap ${(peakMem.heapUsed / 2 ** 20).toFixed(0)}, external ${(peakMem.external / 2 ** 20).toFixed(0)} MiB), rankings snapshot max ${rankingsMax.toFixed(1)} ms, longest GC pause ${gcMax.toFixed(1)} ms, load ${loadAverage()}`,
);
clearInterval(rssSampler);
feed.stop();
await database.close();
process.exit(0);
