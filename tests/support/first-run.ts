/**
 * An e2e server's first-run credentials (the operator account and password and the invitation
 * code it printed and wrote to `first-run.txt` in its data directory,
 * server/modules/auth/first-run.ts): the main server's (`$E2E_DATA_DIR`), or with `baseUrl` on
 * the fast-clock server's port (`$E2E_FAST_PORT`) that server's (`$E2E_FAST_DATA_DIR`);
 * playwright.config.ts sets all three.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

/** The data directory of the server at `baseUrl` (default: the main server). */
function dataDirOf(baseUrl?: string): string {
  const fast = process.env.E2E_FAST_PORT;
  if (baseUrl && fast && new URL(baseUrl).port === fast) return process.env.E2E_FAST_DATA_DIR!;
  return process.env.E2E_DATA_DIR!;
}

export function firstRun(baseUrl?: string): { operator: string; password: string; invite: string } {
  const file = path.join(dataDirOf(baseUrl), 'first-run.txt');
  expect(existsSync(file), 'the server writes first-run.txt on first start').toBe(true);
  const text = readFileSync(file, 'utf8');
  const get = (label: string) => new RegExp(`${label}: (\\S+)`).exec(text)![1]!;
  return {
    operator: get('operator account'),
    password: get('operator password'),
    invite: get('invitation code'),
  };
}
