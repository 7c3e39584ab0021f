import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_BASE_PORT, E2E_SERVERS, E2E_START_TIMEOUT_MS, e2eServer } from './tests/support/e2e-server';

// The end-to-end tests run the real server (built client, PGlite in a fresh data directory) on a
// manual market clock (MARKET_CLOCK=manual, NODE_ENV=test: market time stands still until a test
// moves it through POST /api/test/clock, tests/support/market-clock.ts) and Debian's Chromium;
// no browser is downloaded. One server per worker (E2E_SERVERS, 2 by default; server i on port
// E2E_PORT + i, data directory $E2E_DATA_DIR/server-i, tests/support/e2e-server.ts), as a test
// moves its server's clock.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'tw-trade-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

/** The server's environment beside its port and data directory. */
const serverEnv = {
  NODE_ENV: 'test',
  MARKET_CLOCK: 'manual',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  // trading-rules.spec.ts rebuilds the replayed paths (replay.ts buildSession) with seed 1; without
  // it the server would draw its own secret seed (server/market/install-seed.ts).
  MARKET_SEED: '1',
  // trading-rules.spec.ts (b) opens a 10× long a few ticks above maintenance so that the
  // replay liquidates it within the next market minutes; the opening reserve (default 130 %) would
  // refuse that opening. The reserve is tested in tests/integration/trading-execution.test.ts.
  OPENING_MARGIN_BPS: '10000',
  // Every spec registers its members from 127.0.0.1 against one server; the per-address
  // registration limit (default 10 an hour) is tested in tests/security/auth.test.ts.
  REGISTER_IP_MAX: '1000',
  // copy-trading.spec.ts makes a mentor through the API and the console; a fresh account
  // cannot be 30 days old. The age criterion is tested in tests/integration/copy-trading.test.ts.
  MENTOR_MIN_ACCOUNT_DAYS: '0',
};

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 180_000,
  expect: { timeout: 15_000 },
  workers: E2E_SERVERS,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_BASE_PORT}`,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-TW',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  // One command starts every server at once (each imports the whole market on its first start:
  // about 30 s of one core); Playwright starts the entries of a webServer list one after another.
  // It waits for server 0 here and for the others in tests/support/e2e-ready.ts.
  webServer: {
    command: Array.from(
      { length: E2E_SERVERS },
      // A server that exits takes the others with it (`kill 0`: the command's process group), so a
      // failed start fails the run at once.
      (_, i) =>
        `(PORT=${E2E_BASE_PORT + i} DATA_DIR='${e2eServer(i).dataDir}' npx tsx server/main.ts; kill 0) &`,
    )
      .concat('wait')
      .join(' '),
    url: `${e2eServer(0).baseURL}/api/docs`,
    timeout: E2E_START_TIMEOUT_MS,
    // E2E_REUSE_SERVER=1 (with E2E_SERVERS=1): run against a server already listening on E2E_PORT
    // (started with this environment and DATA_DIR=$E2E_DATA_DIR/server-0), to iterate on one spec
    // without a new import.
    reuseExistingServer: process.env.E2E_REUSE_SERVER === '1',
    env: serverEnv,
  },
  globalSetup: './tests/support/e2e-ready.ts',
});
