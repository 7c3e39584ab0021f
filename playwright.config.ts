import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// The end-to-end tests run the real server (built client, PGlite in a fresh data directory,
// replayed market at 30× speed) and Debian's Chromium; no browser is downloaded.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'tw-trade-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const port = Number(process.env.E2E_PORT ?? 3100);

// Specs named *.fast.spec.ts run against a second server whose replay clock runs at 1200× (a
// replayed day, 08:30–14:30, in 18 wall seconds), for journeys that span replayed days (a public
// subscription's draw and listing). It replays two stocks and the public-subscription
// announcements' own codes only, so its feed costs little beside the main server.
const fastDataDir = process.env.E2E_FAST_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'tw-trade-e2e-fast-'));
process.env.E2E_FAST_DATA_DIR = fastDataDir;
const fastPort = port + 1;
process.env.E2E_FAST_PORT = String(fastPort);
const ipoCodes = readFileSync('server/db/seed-data/corporate-actions/ipo_subscriptions.csv', 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(',')[1]!);
const FAST_SPEC = /\.fast\.spec\.ts$/;

/** What both servers share. */
const serverEnv = {
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  // trading-rules.spec.ts rebuilds the replayed paths (replay.ts buildSession) with seed 1; without
  // it each server would draw its own secret seed (server/market/install-seed.ts).
  MARKET_SEED: '1',
  // trading-rules.spec.ts (b) opens a 10× long a few ticks above maintenance so that the
  // replay liquidates it within the test's minutes; the opening reserve (default 130 %) would
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
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
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
  projects: [
    { name: 'replay-30x', testIgnore: FAST_SPEC },
    { name: 'replay-1200x', testMatch: FAST_SPEC, use: { baseURL: `http://127.0.0.1:${fastPort}` } },
  ],
  webServer: [
    {
      command: 'npx tsx server/main.ts',
      url: `http://127.0.0.1:${port}/api/docs`,
      // A first start imports the whole market (~315k daily rows) and loads the replay: minutes on a
      // loaded machine.
      timeout: 420_000,
      reuseExistingServer: false,
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        MARKET_SPEED: '30',
        ...serverEnv,
      },
    },
    {
      command: 'npx tsx server/main.ts',
      url: `http://127.0.0.1:${fastPort}/api/docs`,
      timeout: 420_000,
      reuseExistingServer: false,
      env: {
        ...serverEnv,
        PORT: String(fastPort),
        DATA_DIR: fastDataDir,
        MARKET_SPEED: '1200',
        IMPORT_SYMBOLS: ['2330', '2317', ...ipoCodes].join(','),
      },
    },
  ],
});
