/**
 * Template databases for the test suite (docs/adr/0048-test-database-templates.md): the
 * migrations, and the harness's market data import, run once per vitest run instead of once per
 * test file; every file still gets a database of its own, copied from a template.
 *
 * Two templates per engine:
 * - `schema`: every migration applied, no rows (what `openDatabase` returns on an empty database);
 * - `market`: `schema` plus the bundled seed data for TEMPLATE_SYMBOLS as buildApp imports it
 *   (server/market/import.ts importMarketData for those symbols, then importExRightsEvents). Nothing
 *   that depends on a test's configuration (operator, invitation code, settings, platform
 *   accounts, the market seed) is in it: buildApp creates those per file as before.
 *
 * PGlite: the template is a data directory tarball (`PGlite.dumpDataDir('none')`) under
 * `${os.tmpdir()}/tw-trade-test-templates/`; a copy is a `new PGlite({ loadDataDir })`, which also
 * skips PGlite's initdb. PostgreSQL (TEST_DATABASE_URL): the template is a database
 * `tw_tpl_<key>_<kind>` (datistemplate, no connections allowed) on that server; a copy is
 * `CREATE DATABASE … TEMPLATE`. Both are named by a hash of what shapes their content
 * (TEMPLATE_SOURCES, the PGlite version, TEMPLATE_SYMBOLS), so a change to a migration, a seed
 * file or the import code builds new ones; PostgreSQL templates of other keys older than a day
 * are dropped.
 *
 * vitest's globalSetup (tests/support/global-setup.ts) calls `prepareTemplates` and hands the
 * result to the test processes in the environment variable TEMPLATES_ENV. Without it (scripts and
 * benchmarks that use the harness directly) `templates()` is null and callers build databases the
 * old way.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import pg from 'pg';
import { openDatabase, type Database, type Db } from '../../server/db/client';
import { importExRightsEvents, importMarketData } from '../../server/market/import';
import * as schema from '../../server/db/schema';

/** The instruments of the `market` template (the harness's TEST_SYMBOLS). */
export const TEMPLATE_SYMBOLS = ['2330', '2317', '0050'];

export type TemplateKind = 'schema' | 'market';

/** The environment variable carrying `Templates` (JSON) from globalSetup to the test processes. */
export const TEMPLATES_ENV = 'TW_TEST_DB_TEMPLATES';

/** Where the templates are: PGlite tarball paths, and PostgreSQL database names when a server is set. */
export interface Templates {
  key: string;
  pglite: Record<TemplateKind, string>;
  postgres?: { url: string; names: Record<TemplateKind, string> };
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Files and folders (repository-relative) whose content the templates depend on. */
export const TEMPLATE_SOURCES = [
  'server/db',
  'server/market/import.ts',
  'server/market/csv.ts',
  'server/market/reference.ts',
  'contract',
  'tests/support/db-template.ts',
];

function listFiles(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (!statSync(abs).isDirectory()) return [rel];
  return readdirSync(abs)
    .sort()
    .flatMap((name) => listFiles(path.join(rel, name)));
}

/** A 12-hex-digit hash of TEMPLATE_SOURCES' files (paths and bytes), the PGlite version and the symbols. */
export function templateKey(): string {
  const hash = createHash('sha256');
  const manifest = path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json');
  const pgliteVersion = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  hash.update(`pglite ${pgliteVersion}\nsymbols ${TEMPLATE_SYMBOLS.join(',')}\n`);
  for (const file of TEMPLATE_SOURCES.flatMap(listFiles)) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(path.join(ROOT, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

/** Fills a migrated database as the `market` template holds it. */
async function seedMarket(db: Db): Promise<void> {
  await importMarketData(db, { symbols: TEMPLATE_SYMBOLS });
  await importExRightsEvents(db);
}

/** The PGlite client behind an open PGlite `Database`. */
function pgliteClient(database: Database): PGlite {
  const client = (database.db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof PGlite)) throw new Error('not a PGlite database');
  return client;
}

/** Writes a file so that readers see either nothing or the whole of it (temporary name, then rename). */
function writeAtomically(file: string, data: Uint8Array): void {
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/**
 * Drops PGlite's `template0` and `template1`: a test's copy only ever uses `postgres`, and the
 * two make up about half of the data directory's files, each one created again in every copy.
 */
async function dropTemplateDatabases(client: PGlite): Promise<void> {
  await client.exec(
    `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
  );
  for (const statement of ['drop database template0', 'drop database template1', 'checkpoint'])
    await client.exec(statement);
}

async function buildPgliteTemplates(key: string): Promise<Record<TemplateKind, string>> {
  const dir = path.join(os.tmpdir(), 'tw-trade-test-templates');
  mkdirSync(dir, { recursive: true });
  const files = {
    schema: path.join(dir, `${key}-schema.tar`),
    market: path.join(dir, `${key}-market.tar`),
  };
  if (!existsSync(files.schema)) {
    const database = await openDatabase('memory://');
    await dropTemplateDatabases(pgliteClient(database));
    const tar = await pgliteClient(database).dumpDataDir('none');
    writeAtomically(files.schema, new Uint8Array(await tar.arrayBuffer()));
    await database.close();
  }
  if (!existsSync(files.market)) {
    const database = await openPgliteCopy(files.schema);
    await seedMarket(database.db);
    const tar = await pgliteClient(database).dumpDataDir('none');
    writeAtomically(files.market, new Uint8Array(await tar.arrayBuffer()));
    await database.close();
  }
  return files;
}

/** Runs `fn` with a connection to the server's maintenance database `base`. */
async function withAdmin<T>(base: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

const PG_PREFIX = 'tw_tpl_';
const STALE_MS = 24 * 60 * 60_000;

async function buildPostgresTemplates(base: string, key: string): Promise<Record<TemplateKind, string>> {
  const names = { schema: `${PG_PREFIX}${key}_schema`, market: `${PG_PREFIX}${key}_market` };
  await withAdmin(base, async (admin) => {
    for (const kind of ['schema', 'market'] as const) {
      const have = await admin.query('select 1 from pg_database where datname = $1', [names[kind]]);
      if (have.rowCount) continue;
      // Built under a temporary name and renamed when complete: a concurrent run either finds
      // the finished template or builds its own and drops it when the rename loses.
      const tmp = `${PG_PREFIX}tmp_${randomBytes(6).toString('hex')}`;
      await admin.query(
        kind === 'market' ? `create database ${tmp} template ${names.schema}` : `create database ${tmp}`,
      );
      try {
        const database = await openDatabase(databaseUrl(base, tmp));
        if (kind === 'market') await seedMarket(database.db);
        await database.close();
        await admin.query(`alter database ${tmp} rename to ${names[kind]}`);
      } catch (err) {
        await admin.query(`drop database if exists ${tmp} with (force)`);
        const again = await admin.query('select 1 from pg_database where datname = $1', [names[kind]]);
        if (!again.rowCount) throw err;
        continue;
      }
      await admin.query(`comment on database ${names[kind]} is '${new Date().toISOString()}'`);
      await admin.query(`alter database ${names[kind]} with is_template true allow_connections false`);
    }
    // Templates of other keys (older migrations or seed data) once they are a day old.
    const stale = await admin.query<{ datname: string; made: string | null }>(
      `select datname, shobj_description(oid, 'pg_database') as made from pg_database
       where datname like '${PG_PREFIX}%' and datname not like '${PG_PREFIX}${key}_%'`,
    );
    for (const { datname, made } of stale.rows) {
      const age = made ? Date.now() - Date.parse(made) : Infinity;
      if (!(age > STALE_MS) || !/^[a-z0-9_]+$/.test(datname)) continue;
      await admin.query(`alter database ${datname} with is_template false`).catch(() => undefined);
      await admin.query(`drop database if exists ${datname}`).catch(() => undefined);
    }
  });
  return names;
}

/**
 * Builds the templates that do not exist yet (PGlite always, PostgreSQL when `postgresUrl` is
 * given) and returns where they are. Called once per vitest run (globalSetup).
 */
export async function prepareTemplates(postgresUrl?: string): Promise<Templates> {
  const key = templateKey();
  const [pglite, names] = await Promise.all([
    buildPgliteTemplates(key),
    postgresUrl ? buildPostgresTemplates(postgresUrl, key) : Promise.resolve(undefined),
  ]);
  return { key, pglite, ...(postgresUrl && names ? { postgres: { url: postgresUrl, names } } : {}) };
}

/** The templates globalSetup prepared for this process, or null outside a vitest run. */
export function templates(): Templates | null {
  const raw = process.env[TEMPLATES_ENV];
  return raw ? (JSON.parse(raw) as Templates) : null;
}

/** An in-memory PGlite started from a template tarball (no initdb, no migrations to run: the key covers them). */
async function openPgliteCopy(tarball: string): Promise<Database> {
  const client = new PGlite({ loadDataDir: new Blob([readFileSync(tarball)]) });
  await client.waitReady;
  return { db: drizzle(client, { schema }) as unknown as Db, kind: 'pglite', close: () => client.close() };
}

/**
 * A throw-away in-memory PGlite with every migration applied: a copy of the template of `kind`
 * when globalSetup prepared one (`market`: the harness's seed data already imported), else
 * `openDatabase('memory://')` (then `seeded` is false and nothing is imported).
 */
export async function memoryDatabase(
  kind: TemplateKind = 'schema',
): Promise<{ database: Database; seeded: boolean }> {
  const t = templates();
  if (!t) return { database: await openDatabase('memory://'), seeded: false };
  return { database: await openPgliteCopy(t.pglite[kind]), seeded: kind === 'market' };
}

/**
 * Creates database `name` on the PostgreSQL server of `base`: a copy of the template of `kind`
 * when globalSetup prepared one for that server (`seeded` true for `market`), else an empty one.
 */
export async function createPostgresDatabase(
  base: string,
  name: string,
  kind: TemplateKind = 'schema',
): Promise<{ url: string; seeded: boolean }> {
  const t = templates()?.postgres;
  const template = t && t.url === base ? t.names[kind] : null;
  await withAdmin(base, (admin) =>
    admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`),
  );
  return { url: databaseUrl(base, name), seeded: template !== null && kind === 'market' };
}
