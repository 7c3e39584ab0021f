/**
 * Opens the database: PGlite embedded under `${dataDir}/pglite` (or in memory) by default, a
 * PostgreSQL server when a `postgres://` URL is given. Applies the SQL migrations in
 * server/db/migrations on open. Both drivers expose the same Drizzle PostgreSQL API (`Db`).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The transaction handle passed to `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** An open database: the Drizzle handle, which engine it runs on, and how to close it. */
export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

// node-postgres returns int8 as string by default; our bigints are minor units within 2^53.
pg.types.setTypeParser(20, (v) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 outside the safe range: ${v}`);
  return n;
});

/**
 * @param url `postgres://...` for a server, `memory://` for a throw-away PGlite, otherwise a
 *   directory for a persistent PGlite.
 * @param onIdleError called when the server ends an idle pooled connection (PostgreSQL only).
 */
export async function openDatabase(
  url: string,
  onIdleError: (err: Error) => void = (err) => console.warn(`database: idle connection lost: ${err.message}`),
): Promise<Database> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({ connectionString: url, max: 20 });
    // An idle client whose connection the server ends (a PostgreSQL restart, a terminated
    // backend) emits 'error' on the pool; unhandled, that would crash the process. The pool
    // drops that client and opens a new one on the next query.
    pool.on('error', (err) => onIdleError(err));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(db as never, { migrationsFolder });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  if (url !== 'memory://') mkdirSync(url, { recursive: true });
  const client = url === 'memory://' ? new PGlite() : new PGlite(url);
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return { db, kind: 'pglite', close: () => client.close() };
}

/**
 * Lets queued I/O and timers run (a setImmediate turn). Embedded PGlite executes each query
 * synchronously on this thread, and an awaited query resumes its caller as a microtask, so a loop
 * of queries or transactions awaited back to back never lets a timer, a socket or a request in:
 * a background loop over many rows or offerings (the market load, the calendar runners) yields
 * between iterations so no task grows past a few milliseconds. A no-op cost on PostgreSQL.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
