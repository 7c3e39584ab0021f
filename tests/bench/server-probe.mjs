/**
 * Bench-only probe of the benchmark's own server process, loaded with `node --import` through
 * NODE_OPTIONS (the server's code is unchanged). Every second it appends one JSON line to the
 * file named by BENCH_SERVER_PROBE:
 *   { "t": wall epoch ms at the end of that second,
 *     "stallMs": the longest gap between two runs of a 2 ms timer in that second (the event
 *                loop's longest block, ms; ≈ 2 when nothing blocked it),
 *     "cpuMs", "waitMs": within that longest gap, the main thread's time on a CPU and its time
 *                runnable but waiting for one (Linux /proc/self/task/<pid>/schedstat, ns): a gap
 *                the thread spent waiting was the machine's doing (other processes on the cores),
 *                a gap spent on a CPU was one task of ours (or a GC pause),
 *     "taskMs": the most CPU time the main thread spent within any one gap of that second: the
 *                longest task (GC included) whatever the other processes did,
 *     "rssMiB": resident set size (MiB),
 *     "gcMs", "gcKind": the longest garbage-collection pause in that second and its kind }
 * A timer probe, not perf_hooks' monitorEventLoopDelay: on Node 20 the latter reports a 100 ms
 * block as ≈ 11 ms (see scripts/replay-smoke.ts). Inert without BENCH_SERVER_PROBE, and in tsx's
 * launcher process (which only spawns the server and would otherwise write lines of its own).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import process from 'node:process';
import { setInterval } from 'node:timers';

const out = process.env.BENCH_SERVER_PROBE;
const launcher = /tsx[\\/]dist[\\/]cli\.m?js$/.test(process.argv[1] ?? '');
if (out && !launcher) {
  // The main thread's scheduler statistics: [ns on a CPU, ns runnable waiting for one]; null
  // where /proc is missing (then cpuMs/waitMs are null).
  const schedFile = `/proc/self/task/${process.pid}/schedstat`;
  const sched = () => {
    try {
      const [run, wait] = readFileSync(schedFile, 'utf8').split(' ').map(Number);
      return [run, wait];
    } catch {
      return null;
    }
  };
  let last = performance.now();
  let lastSched = sched();
  let worst = 0;
  let worstCpu = null;
  let worstWait = null;
  let task = null;
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
    const nowSched = sched();
    const cpu = nowSched && lastSched ? (nowSched[0] - lastSched[0]) / 1e6 : null;
    if (cpu !== null && (task === null || cpu > task)) task = cpu;
    if (now - last > worst) {
      worst = now - last;
      worstCpu = cpu;
      worstWait = nowSched && lastSched ? (nowSched[1] - lastSched[1]) / 1e6 : null;
    }
    last = now;
    lastSched = nowSched;
  }, 2).unref();
  setInterval(() => {
    const line = {
      t: Date.now(),
      stallMs: Math.round(worst * 10) / 10,
      cpuMs: worstCpu === null ? null : Math.round(worstCpu * 10) / 10,
      waitMs: worstWait === null ? null : Math.round(worstWait * 10) / 10,
      taskMs: task === null ? null : Math.round(task * 10) / 10,
      rssMiB: Math.round(process.memoryUsage.rss() / 1048576),
      gcMs: Math.round(gcWorst * 10) / 10,
      gcKind,
    };
    worst = 0;
    worstCpu = null;
    worstWait = null;
    task = null;
    gcWorst = 0;
    gcKind = '';
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  }, 1000).unref();
}
