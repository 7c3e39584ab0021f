/* global process, console */
/**
 * `npm run test:all`: runs the named npm scripts one after another (each with the repository's
 * own environment), prints each one's wall time, stops at the first that fails and exits with its
 * status; at the end a summary line per step, so CI's log says where its minutes went.
 * Usage: node scripts/run-steps.mjs lint typecheck test test:e2e
 */
import { spawnSync } from 'node:child_process';

const steps = process.argv.slice(2);
const done = [];
let status = 0;
for (const step of steps) {
  const start = Date.now();
  const r = spawnSync('npm', ['run', step], { stdio: 'inherit' });
  const seconds = Math.round((Date.now() - start) / 1000);
  status = r.status ?? 1;
  done.push(`${step}: ${seconds} s${status === 0 ? '' : ` (failed, exit ${status})`}`);
  console.log(`step ${step}: ${seconds} s`);
  if (status !== 0) break;
}
console.log(`steps: ${done.join(' · ')}`);
process.exit(status);
