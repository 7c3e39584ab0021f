/* global process, console, Buffer */
/**
 * `npm run test:all`: runs the named npm scripts one after another (each with the repository's
 * own environment), prints each one's wall time, stops at the first that fails and exits with its
 * status; at the end a summary line per step, so CI's log says where its minutes went.
 *
 * A step `a+b` runs the scripts `a` and `b` at the same time (eslint and tsc beside vitest, whose
 * workers leave a core idle about a quarter of the time, or the benchmarks' smoke runs beside the
 * end-to-end tests); each one's output is printed whole when it ends, and the step fails when
 * any does.
 * Usage: node scripts/run-steps.mjs lint+typecheck+test test:e2e+bench:smoke
 */
import { spawn } from 'node:child_process';

/** Runs `npm run <name>`; resolves with its exit status and, when `buffered`, its output. */
function run(name, buffered) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', name], { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const out = [];
    if (buffered) {
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => out.push(d));
    }
    child.on('close', (code) => resolve({ status: code ?? 1, output: Buffer.concat(out).toString() }));
  });
}

const steps = process.argv.slice(2);
const done = [];
let status = 0;
for (const step of steps) {
  const start = Date.now();
  const names = step.split('+');
  const results = await Promise.all(
    names.map(async (name) => {
      const r = await run(name, names.length > 1);
      if (names.length > 1) process.stdout.write(r.output);
      return r;
    }),
  );
  const seconds = Math.round((Date.now() - start) / 1000);
  status = results.find((r) => r.status !== 0)?.status ?? 0;
  done.push(`${step}: ${seconds} s${status === 0 ? '' : ` (failed, exit ${status})`}`);
  console.log(`step ${step}: ${seconds} s`);
  if (status !== 0) break;
}
console.log(`steps: ${done.join(' · ')}`);
process.exit(status);
