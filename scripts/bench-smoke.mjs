/* global process, console, URL, setTimeout, clearTimeout */
/**
 * `npm run bench:smoke`: every `bench:*` script of package.json (but this one) once in its short
 * mode (BENCH_SMOKE=1: tiny sizes, seconds each, correctness checks kept, performance targets not
 * judged), one after another, so a benchmark that no longer runs fails CI instead of rotting.
 * Prints each one's wall time and exit status, then a summary line; exits non-zero when any failed
 * or ran past its time limit (BENCH_SMOKE_TIMEOUT_S, 300 s each; its process group is killed).
 *
 * bench:orders needs PostgreSQL and pgbench: BENCH_PG, else TEST_DATABASE_URL (CI's server), else
 * the machine's server (orders-bench.ts). bench:stream needs Chromium (CHROMIUM_PATH).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const names = Object.keys(pkg.scripts).filter((n) => n.startsWith('bench:') && n !== 'bench:smoke');
const timeoutS = Number(process.env.BENCH_SMOKE_TIMEOUT_S ?? 300);
const env = {
  ...process.env,
  BENCH_SMOKE: '1',
  ...(process.env.BENCH_PG || !process.env.TEST_DATABASE_URL
    ? {}
    : { BENCH_PG: process.env.TEST_DATABASE_URL }),
};

/**
 * Runs `npm run <name>` in its own process group; past the time limit the whole group is killed
 * (the benches start servers and browsers of their own). Resolves with the exit code (null: killed).
 */
function run(name) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: 'inherit', env, detached: true });
    const timer = setTimeout(() => {
      console.log(`bench smoke ${name}: past ${timeoutS} s, stopping it`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutS * 1_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

const done = [];
let failed = 0;
for (const name of names) {
  const start = Date.now();
  console.log(`\n== ${name} (BENCH_SMOKE=1) ==`);
  const code = await run(name);
  const seconds = Math.round((Date.now() - start) / 1000);
  if (code !== 0) failed++;
  const why = code === 0 ? '' : code === null ? ' (killed: time limit)' : ` (failed, exit ${code})`;
  done.push(`${name}: ${seconds} s${why}`);
  console.log(`bench smoke ${name}: ${seconds} s${why}`);
}
console.log(`\nbench smoke: ${done.join(' · ')}`);
process.exit(failed ? 1 : 0);
