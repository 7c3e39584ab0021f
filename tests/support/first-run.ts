/**
 * The e2e server's first-start credentials (first-run.txt in E2E_DATA_DIR): operator account and
 * password and the invitation code, for specs that set up members through the API.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function firstRun(): { operator: string; password: string; invite: string } {
  const file = path.join(process.env.E2E_DATA_DIR!, 'first-run.txt');
  if (!existsSync(file)) throw new Error('the server writes first-run.txt on first start');
  const text = readFileSync(file, 'utf8');
  const get = (label: string) => new RegExp(`${label}: (\\S+)`).exec(text)![1]!;
  return {
    operator: get('operator account'),
    password: get('operator password'),
    invite: get('invitation code'),
  };
}
