import { defineConfig } from 'vitest/config';

// Unit, integration and security tests on embedded PGlite; with TEST_DATABASE_URL set, the
// integration and security tests run a second time against that PostgreSQL server (a fresh
// database per test file, copied from a template).
const pg = process.env.TEST_DATABASE_URL;
// Files that assert wall time run alone: `npm test` runs `vitest run` (every other file, two at a
// time) and then `TEST_TIMING=1 vitest run` (these, one file and one project at a time), so no
// other test's load moves their clocks.
const timing = process.env.TEST_TIMING === '1';
const TIMING_FILES = ['tests/security/auth-timing.test.ts', 'tests/security/websocket-load.test.ts'];
// The server's tests (each file its own app on its own database, no module mocks) share their
// worker's module graph (`isolate: false`): the server's modules and PGlite's WebAssembly load once
// per worker instead of once per file (docs/adr/0056-shared-test-workers.md). Screen and unit tests
// (jsdom, module mocks) stay isolated.
const SERVER_FILES = ['tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts'];
// Server files whose subject does not touch the database beyond loading the market (whole replayed
// days of the feed checked against the exchange files, the WebSocket gateway under a hostile
// client) run once: on PostgreSQL when it is configured (faster there), else on PGlite
// (docs/adr/0056-shared-test-workers.md).
const ONCE_FILES = [
  'tests/integration/market-replay-day.test.ts',
  'tests/integration/market-rankings-real-day.test.ts',
  'tests/security/websocket.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['tests/support/vitest-setup.ts'],
    // Migrated (and seeded) template databases each test file's database is copied from
    // (tests/support/db-template.ts, docs/adr/0048-test-database-templates.md).
    globalSetup: ['tests/support/global-setup.ts'],
    // Three workers on two cores: files that wait (idle sessions, locks running out, a socket
    // client sending for seconds) leave their core to a third file (ADR 0056).
    maxWorkers: 3,
    fileParallelism: !timing,
    projects: [
      ...(timing
        ? []
        : [
            {
              extends: true as const,
              test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'] },
            },
          ]),
      {
        extends: true,
        test: {
          name: 'pglite',
          include: timing ? TIMING_FILES : SERVER_FILES,
          // Restarts a killed server on the same database: PostgreSQL only (below).
          exclude: timing
            ? []
            : ['tests/integration/crash-recovery.test.ts', ...TIMING_FILES, ...(pg ? ONCE_FILES : [])],
          isolate: false,
        },
      },
      ...(pg
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: timing ? TIMING_FILES : SERVER_FILES,
                exclude: timing ? [] : TIMING_FILES,
                env: { TEST_DB: 'postgres' },
                isolate: false,
              },
            },
          ]
        : []),
    ],
  },
});
