import { defineConfig } from 'vitest/config';

// Unit, integration and security tests on embedded PGlite; with TEST_DATABASE_URL set, the
// integration and security tests run a second time against that PostgreSQL server (a fresh
// database per test file).
const pg = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['tests/support/vitest-setup.ts'],
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'pglite',
          include: [
            'tests/unit/**/*.test.{ts,tsx}',
            'tests/integration/**/*.test.ts',
            'tests/security/**/*.test.ts',
          ],
          // Restarts a killed server on the same database: PostgreSQL only (below).
          exclude: ['tests/integration/crash-recovery.test.ts'],
        },
      },
      ...(pg
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts'],
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
