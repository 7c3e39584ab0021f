/**
 * buildApp's modules (server/app-modules.ts): a subset starts only the named modules and what
 * they need, serves only their routes, runs no other background job, and closes cleanly; every
 * module together (the default) starts the background jobs whose start-up catch-up writes rows.
 */
import { count } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { MODULE_NAMES, MODULE_ROLES, selectModules } from '../../server/app-modules';
import { ipoOfferings, newsArticles } from '../../server/db/schema';
import { startHarness, type Harness } from './harness';

/** Rows the public-subscription and news runners write on start (their catch-up run). */
async function startupRows(h: Harness): Promise<{ offerings: number; news: number }> {
  const [o] = await h.database.db.select({ n: count() }).from(ipoOfferings);
  const [n] = await h.database.db.select({ n: count() }).from(newsArticles);
  return { offerings: Number(o!.n), news: Number(n!.n) };
}

describe('selectModules', () => {
  it('adds what a module needs, in start order; default is every module', () => {
    expect(selectModules(['api']).map((m) => m.name)).toEqual([
      'market',
      'corporate-actions',
      'trading',
      'api',
    ]);
    expect(selectModules(['realtime', 'dividends']).map((m) => m.name)).toEqual([
      'market',
      'dividends',
      'support-hub',
      'realtime',
    ]);
    expect(selectModules().map((m) => m.name)).toEqual([...MODULE_NAMES]);
    const roles = new Set([...MODULE_ROLES.api, ...MODULE_ROLES.worker].flatMap((n) => selectModules([n])));
    expect(roles.size).toBe(MODULE_NAMES.length);
  });

  it('refuses an unknown module name', () => {
    expect(() => selectModules(['api', 'nope'])).toThrow(/unknown app module "nope"/);
  });
});

/** Each test starts a whole harness (import, first run, feed), as a beforeAll hook would. */
const START_TIMEOUT_MS = 180_000;

describe('buildApp with a subset of modules', () => {
  /** Harnesses a failed test left open. */
  const open = new Set<Harness>();
  afterAll(async () => {
    for (const h of open) await h.close();
  });
  /** Closes the harness (stops its modules in reverse start order, then drops its database). */
  async function close(h: Harness): Promise<void> {
    await h.close();
    open.delete(h);
  }

  it(
    'api only: REST answers, no /ws, no background job ran, closes cleanly',
    async () => {
      const h = await startHarness({}, { modules: ['api'] });
      open.add(h);
      expect(h.modules).toEqual(['market', 'corporate-actions', 'trading', 'api']);
      expect(h.gateway).toBeNull();
      expect((await h.call('common/config', {})).body.status).toBe(1);
      const token = await h.register('0953000001');
      expect((await h.call('user/info', {}, token)).body.status).toBe(1);
      expect((await h.app.inject({ method: 'GET', url: '/ws' })).statusCode).toBe(404);
      expect(await startupRows(h)).toEqual({ offerings: 0, news: 0 });
      await close(h);
    },
    START_TIMEOUT_MS,
  );

  it(
    'every module (the default) runs the start-up catch-ups the api-only app did not',
    async () => {
      const h = await startHarness();
      open.add(h);
      expect(h.modules).toEqual([...MODULE_NAMES]);
      expect(h.gateway).not.toBeNull();
      const rows = await startupRows(h);
      expect(rows.offerings + rows.news).toBeGreaterThan(0);
      await close(h);
    },
    START_TIMEOUT_MS,
  );
});
