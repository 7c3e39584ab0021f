/**
 * Bench-only probe of the benchmark's own server process, loaded with `node --import` through
 * NODE_OPTIONS (the server's code is unchanged). Every second it appends one JSON line to the
 * file named by BENCH_SERVER_PROBE:
 *   { "t": wall epoch ms at the end of that second,
 *     "stallMs": the longest gap between two runs of a 2 ms timer in that second (the event
 *                loop's longest block, ms; ≈ 2 when nothing blocked it),
 *     "rssMiB": resident set size (MiB),
 *     "gcMs", "gcKind": the longest garbage-collection pause in that second and its kind }
 * A timer probe, not perf_hooks' monitorEventLoopDelay: on Node 20 the latter reports a 100 ms
 * block as ≈ 11 ms (see scripts/replay-smoke.ts). Inert without BENCH_SERVER_PROBE, and in tsx's
 * launcher process (which only spawns the server and would otherwise write lines of its own).
 */
import { appendFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import process from 'node:process';
import { setInterval } from 'node:timers';

const out = process.env.BENCH_SERVER_PROBE;
const launcher = /tsx[\\/]dist[\\/]cli\.m?js$/.test(process.argv[1] ?? '');
if (out && !launcher) {
  let last = performance.now();
  let worst = 0;
  let gcWorst = 0;
  let gcKind = '';
  // Garbage-collection pauses on the main thread (kind 1 minor, 2 major, 4 incremental, 8 weak).
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration > gcWorst) {
        gcWorst = e.duration;
        gcKind = String(e.detail?.kind ?? '');
      }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 2).unref();
  setInterval(() => {
    const line = {
      t: Date.now(),
      stallMs: Math.round(worst * 10) / 10,
      rssMiB: Math.round(process.memoryUsage.rss() / 1048576),
      gcMs: Math.round(gcWorst * 10) / 10,
      gcKind,
    };
    worst = 0;
    gcWorst = 0;
    gcKind = '';
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  }, 1000).unref();
}
