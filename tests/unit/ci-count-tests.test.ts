/**
 * The CI scripts tell the truth: `.ci/count-tests` turns captured `npm run test:all` logs (ANSI
 * colours kept, tests/fixtures/ci) into the closing line from vitest's and Playwright's own
 * summaries, failures included; `.ci/postgres` fails when PostgreSQL cannot be reached.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sample = (name: string) => path.join(root, 'tests/fixtures/ci', name);
const count = (name: string) =>
  execFileSync('bash', [path.join(root, '.ci/count-tests'), sample(name)], { encoding: 'utf8' });

describe('.ci/count-tests', () => {
  it('all green: vitest and Playwright passes added up', () => {
    expect(count('all-pass.txt')).toBe('tests: 1416 passed, 0 failed\n');
  });

  it('a vitest failure is counted, skipped tests reported apart, a stray "N passed" line ignored', () => {
    expect(count('vitest-fail.txt')).toBe(
      'tests not run: 2 (skipped, todo or not reached)\ntests: 1399 passed, 1 failed\n',
    );
  });

  it('Playwright: failed counted, flaky counted as passed, did-not-run reported apart', () => {
    expect(count('e2e-fail.txt')).toBe(
      'tests not run: 2 (skipped, todo or not reached)\ntests: 1413 passed, 1 failed\n',
    );
  });

  it('every vitest run is added up (npm test runs the timing file on its own after the rest)', () => {
    expect(count('two-vitest-runs.txt')).toBe('tests: 1417 passed, 1 failed\n');
  });

  it("vitest's unhandled errors count as failures", () => {
    expect(count('vitest-errors.txt')).toBe('tests: 25 passed, 2 failed\n');
  });

  it('a run stopped before any test (lint) counts nothing', () => {
    expect(count('lint-fail.txt')).toBe('tests: 0 passed, 0 failed\n');
  });
});

describe('.ci/postgres', () => {
  it('exits 1 with the reason when nothing answers on the port', () => {
    const r = spawnSync('bash', [path.join(root, '.ci/postgres')], {
      encoding: 'utf8',
      env: { ...process.env, PG_NO_START: '1', PG_PORT: '5999', PG_WAIT_S: '1' },
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('PostgreSQL not reachable at postgres://postgres@127.0.0.1:5999/postgres');
  });
});
