/**
 * Playwright's `test` with `baseURL` set to the worker's own server (tests/support/e2e-server.ts):
 * every end-to-end spec imports `test` and `expect` from here, so `page.goto('/#/…')` and the
 * `baseURL` fixture reach the server whose market clock that worker alone moves.
 */
import { test as base } from '@playwright/test';
import { e2eServer } from './e2e-server';

export const test = base.extend({
  // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => use(e2eServer(testInfo.parallelIndex).baseURL),
});
export {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
