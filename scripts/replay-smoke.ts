/**
 * Whole-market replay smoke and measurement (not a test): imports the market into a PGlite
 * directory (reused across runs), starts the replay feed with its timer at a chosen clock
 * position and speed, and prints the start time, the longest event-loop stall (perf_hooks
 * monitorEventLoopDelay), RSS, trades per wall second and the feed's CPU share over `seconds`.
 *
 *   npx tsx scripts/replay-smoke.ts [dataDir=/tmp/replay-smoke] [speed=60] [startFraction=0.74] [seconds=60]
 *
 * startFraction: where in a session the clock starts (0.74: just before the pre-build window, so
 * the run crosses a session change at speed 60 after ~70 s).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase } from '../server/db/client';
import { importMarketData } from '../server/db/import';
import { SESSION_MS } from '../server/market/calendar';
import { createClock } from '../server/market/clock';
import { createMarketFeed } from '../server/market/feed';

const [dir = '/tmp/replay-smoke', speedArg = '60', fracArg = '0.74', secArg = '60'] = process.argv.slice(2);
const speed = Number(speedArg);
const seconds = Number(secArg);
const database = await openDatabase(dir);
let t = performance.now();
await importMarketData(database.db);
console.log(`import ${((performance.now() - t) / 1000).toFixed(1)} s`);
// Wall time such that the clock is at session 10 + startFraction now.
const marketElapsed = (10 + Number(fracArg)) * SESSION_MS;
const wallStart = Date.now();
const anchorMs = wallStart - marketElapsed / speed;
const clock = createClock({ mode: 'replay', speed, anchorMs });
const feed = createMarketFeed({ db: database.db, clock, seed: 1 });
let trades = 0;
feed.onTrade(() => trades++);
feed.onQuote(() => {});
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
t = performance.now();
await feed.start();
console.log(
  `start() returned after ${(performance.now() - t).toFixed(0)} ms; quotes ${feed.listQuotes().length}`,
);
const cpu0 = process.cpuUsage();
const w0 = performance.now();
let maxStall = 0;
let maxRss = 0;
for (let s = 1; s <= seconds; s++) {
  await new Promise((r) => setTimeout(r, 1000));
  maxStall = Math.max(maxStall, h.max / 1e6);
  maxRss = Math.max(maxRss, process.memoryUsage().rss);
  if (s % 10 === 0 || s === 1) {
    const p = clock.position();
    const q = feed.quote('2330');
    console.log(
      `${s}s session ${p.session} offset ${(p.offsetMs / 60000).toFixed(1)} min · date ${feed.clock().replayDate} · 2330 ${q?.lastMinor} vol ${q?.volumeShares} · trades/s ${(trades / s).toFixed(0)} · loop max ${(h.max / 1e6).toFixed(1)} ms p99 ${(h.percentile(99) / 1e6).toFixed(1)} · rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB · breadth ${JSON.stringify({ ...feed.breadth(), byMarket: undefined })}`,
    );
  }
}
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - w0;
console.log(
  `RESULT speed ${speed}: trades/s ${(trades / seconds).toFixed(0)}, CPU ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(1)} % of a core, max loop stall ${maxStall.toFixed(1)} ms, max RSS ${(maxRss / 2 ** 20).toFixed(0)} MiB, TAIEX ${JSON.stringify(feed.indices())}`,
);
feed.stop();
await database.close();
process.exit(0);
