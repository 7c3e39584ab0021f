/**
 * The end-to-end server a test talks to. playwright.config.ts starts E2E_SERVERS servers (2 by
 * default, one per Playwright worker), server `i` on port E2E_PORT + i with data directory
 * `$E2E_DATA_DIR/server-i`: tests move their server's market clock (tests/support/market-clock.ts),
 * so two tests running at once must not share one. A test uses the server of its worker's
 * `parallelIndex` (0 … workers − 1, unique among the workers running at a time).
 */
import path from 'node:path';
import { test } from '@playwright/test';

/** How many servers (and workers) the end-to-end run has. */
export const E2E_SERVERS = Number(process.env.E2E_SERVERS ?? 2);
/** The first server's port; server `i` listens on E2E_BASE_PORT + i. */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
/** How long the servers may take to start: a first start imports the whole market (~315k daily rows) and loads the replay, minutes on a loaded machine. */
export const E2E_START_TIMEOUT_MS = 420_000;

/** Server `index`'s origin and data directory (where it writes first-run.txt). */
export function e2eServer(index: number = test.info().parallelIndex): { baseURL: string; dataDir: string } {
  return {
    baseURL: `http://127.0.0.1:${E2E_BASE_PORT + index}`,
    dataDir: path.join(process.env.E2E_DATA_DIR!, `server-${index}`),
  };
}
