/**
 * The e2e server's first-run credentials (the operator account and password and the invitation
 * code it printed and wrote to `first-run.txt` in its data directory, tests/support/e2e-server.ts;
 * server/modules/auth/first-run.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { e2eServer } from './e2e-server';

/** The credentials of the current test's server (its worker's). */
export function firstRun(): { operator: string; password: string; invite: string } {
  const file = path.join(e2eServer().dataDir, 'first-run.txt');
  expect(existsSync(file), 'the server writes first-run.txt on first start').toBe(true);
  const text = readFileSync(file, 'utf8');
  const get = (label: string) => new RegExp(`${label}: (\\S+)`).exec(text)![1]!;
  return {
    operator: get('operator account'),
    password: get('operator password'),
    invite: get('invitation code'),
  };
}
