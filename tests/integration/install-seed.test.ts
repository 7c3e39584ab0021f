/**
 * The replay's intraday seed (server/market/install-seed.ts), on PGlite and PostgreSQL: with
 * MARKET_SEED unset each install draws its own secret on first start and keeps it in the
 * database, so two fresh installs replay different intraday paths of the same real day and a
 * restart replays its own again; MARKET_SEED set still pins the paths (and stores nothing); no
 * server code but the seed's own module reads the secret, so no endpoint can serve it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { installSecrets } from '../../server/db/schema';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { MARKET_SEED_SECRET, randomSeed } from '../../server/market/install-seed';
import { HARNESS_SESSION, freshDatabase } from './harness';

/** 10:00 of replayed session 5 (2025-04-14), as the harness starts. */
const WALL = Date.UTC(2025, 11, 31, 16, 0, 0) + HARNESS_SESSION * REPLAY_DAY_MS + 60 * 60_000;
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

async function database(): Promise<Database> {
  const { database, drop } = await freshDatabase();
  drops.push(drop);
  return database;
}

/** Starts the server on `db` (MARKET_SEED as given, unset by default) and returns its built app. */
async function boot(db: Database, marketSeed: number | null = null): Promise<BuiltApp> {
  const config = {
    ...loadConfig({ DATA_DIR: '/tmp/tw-trade-test-unused', LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv),
    databaseUrl: 'memory://',
    importSymbols: ['2330'],
    marketSeed,
  };
  const built = await buildApp(config, { database: db, now: () => WALL, feedTimer: false, logger: false });
  built.feed.tick();
  return built;
}

/** The session's prints so far (time, price, volume) and stops the app. */
async function pathOf(built: BuiltApp): Promise<string[]> {
  const prints = built.feed.trades('2330', 500).map((t) => `${t.ts}:${t.priceMinor}:${t.volumeShares}`);
  await built.app.close();
  expect(prints.length).toBeGreaterThan(20);
  return prints;
}

const secretOf = async (db: Database) => (await db.db.select().from(installSecrets))[0]?.value ?? null;

describe('the intraday seed of an install', () => {
  it('two fresh installs draw different secrets and replay different paths; a restart keeps its own', async () => {
    const a = await database();
    const b = await database();
    const pathA = await pathOf(await boot(a));
    const pathB = await pathOf(await boot(b));
    const secretA = await secretOf(a);
    const secretB = await secretOf(b);
    expect(secretA).toMatch(/^\d+$/);
    expect(secretB).toMatch(/^\d+$/);
    expect(secretA).not.toBe(secretB);
    expect(pathA).not.toEqual(pathB);
    const restarted = await pathOf(await boot(a));
    expect(restarted).toEqual(pathA);
    expect(await secretOf(a)).toBe(secretA);
    expect(await a.db.select().from(installSecrets)).toHaveLength(1);
  });

  it('MARKET_SEED set pins the paths and stores no secret', async () => {
    const c = await database();
    const d = await database();
    const pinnedC = await pathOf(await boot(c, 1));
    const pinnedD = await pathOf(await boot(d, 1));
    expect(pinnedC).toEqual(pinnedD);
    expect(await secretOf(c)).toBeNull();
    // The same database without MARKET_SEED draws its own secret and leaves seed 1's path.
    const own = await pathOf(await boot(c));
    expect(await secretOf(c)).not.toBeNull();
    expect(own).not.toEqual(pinnedC);
  });

  it('draws 53-bit secrets', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const s = randomSeed();
      expect(Number.isSafeInteger(s) && s >= 1).toBe(true);
      seen.add(s);
    }
    expect(seen.size).toBe(1000);
    expect(Math.max(...seen)).toBeGreaterThan(2 ** 50);
  });

  it('no server code but the seed module reads the secret', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = path.join(dir, f);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
      });
    const readers = files('server')
      .filter((f) => /installSecrets|install_secrets/.test(readFileSync(f, 'utf8')))
      .sort();
    expect(readers).toEqual(['server/db/schema/market.ts', 'server/market/install-seed.ts']);
    expect(MARKET_SEED_SECRET).toBe('marketSeed');
  });
});
