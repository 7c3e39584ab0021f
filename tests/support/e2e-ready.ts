/**
 * Playwright globalSetup: waits until every end-to-end server (tests/support/e2e-server.ts)
 * answers `GET /api/docs`. playwright.config.ts starts them all with one command and Playwright
 * itself waits for server 0 only. Throws after E2E_START_TIMEOUT_MS.
 */
import { E2E_SERVERS, E2E_START_TIMEOUT_MS as TIMEOUT_MS, e2eServer } from './e2e-server';

export default async function waitForServers(): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (let i = 0; i < E2E_SERVERS; i++) {
    const url = `${e2eServer(i).baseURL}/api/docs`;
    for (;;) {
      const ok = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`e2e server ${i} did not answer ${url} in ${TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
