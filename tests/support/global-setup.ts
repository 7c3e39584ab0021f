/**
 * vitest globalSetup: prepares the template databases (tests/support/db-template.ts) once per run,
 * before any test file starts, and hands their names to the test processes through the
 * environment (vitest starts them with this process's environment).
 */
import { TEMPLATES_ENV, prepareTemplates } from './db-template';

export default async function setup(): Promise<void> {
  const found = await prepareTemplates(process.env.TEST_DATABASE_URL || undefined);
  process.env[TEMPLATES_ENV] = JSON.stringify(found);
}
