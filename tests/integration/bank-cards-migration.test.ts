/**
 * Migration 0022 (bank codes) on cards bound before it, on the test's database engine: a fresh
 * database is migrated up to 0021, cards are bound in the old shape (branch code of 3–7 digits,
 * a UPI on every card), then the real migrations folder runs. A 7-digit branch code is split into
 * bank code + branch code, a 3-digit one becomes the bank code, any other stays as typed; every
 * card stays a Taiwan account with its UPI kept, reads back as members see it (bankCardDto), and
 * the new checks hold for it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { asc, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { bankCardDto } from '../../server/modules/identity/cards';

const MIGRATIONS = path.resolve('server/db/migrations');
/** The last migration before bank codes. */
const BEFORE_IDX = 21;

interface Journal {
  entries: { idx: number; tag: string }[];
}

/** A copy of the migrations folder that ends at BEFORE_IDX. */
function foldersUpTo(idx: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as Journal;
  expect(journal.entries.some((e) => e.idx === idx + 1 && e.tag.startsWith('0022_'))).toBe(true);
  journal.entries = journal.entries.filter((e) => e.idx <= idx);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** One database on the test's engine, migrated by `migrate(folder)` on demand. */
interface Engine {
  db: Db;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function openEngine(): Promise<Engine> {
  const base = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (!base) {
    const client = new PGlite();
    await client.waitReady;
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    return {
      db,
      migrate: (folder) => migratePglite(db as never, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    migrate: (folder) => migratePg(db as never, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

let engine: Engine;
let oldFolder: string;

beforeAll(async () => {
  oldFolder = foldersUpTo(BEFORE_IDX);
  engine = await openEngine();
  await engine.migrate(oldFolder);
  const { db } = engine;
  await db.execute(sql`insert into users (account, password_hash) values ('0911002299', 'x')`);
  // Cards as the pre-0022 form stored them: every field required, branch code 3–7 digits.
  await db.execute(sql`
    insert into bank_cards (user_id, holder_name, card_number, bank_name, branch_name, branch_code, upi)
    select id, '王小明', n, b, br, code, u from users,
      (values ('1000000000001', '台灣銀行', '館前分行', '0040037', 'BKTWTWTP004'),
              ('1000000000002', '國泰世華', '信義分行', '013', 'CUBC013'),
              ('1000000000003', '某銀行', '某分行', '12345', 'ABC12345')) as v(n, b, br, code, u)`);
  await engine.migrate(MIGRATIONS);
}, 120_000);

afterAll(async () => {
  await engine?.close();
  if (oldFolder) rmSync(oldFolder, { recursive: true, force: true });
});

describe('migration 0022 on cards bound before it', () => {
  it('splits the 7-digit form, takes a 3-digit code as the bank code, keeps anything else', async () => {
    const rows = await engine.db.select().from(schema.bankCards).orderBy(asc(schema.bankCards.cardNumber));
    expect(rows.map((r) => [r.cardNumber, r.outsideTaiwan, r.bankCode, r.branchCode, r.upi])).toEqual([
      ['1000000000001', false, '004', '0037', 'BKTWTWTP004'],
      ['1000000000002', false, '013', null, 'CUBC013'],
      ['1000000000003', false, null, '12345', 'ABC12345'],
    ]);
    // Members still see each card; the bank names stay as they were bound.
    expect(rows.map((r) => bankCardDto(r))).toEqual([
      expect.objectContaining({
        bankCode: '004',
        bankName: '台灣銀行',
        branchCode: '0037',
        outsideTaiwan: false,
      }),
      expect.objectContaining({ bankCode: '013', bankName: '國泰世華', branchCode: null }),
      expect.objectContaining({ bankCode: null, bankName: '某銀行', branchCode: '12345' }),
    ]);
  });

  it('holds the new rules: a bank code is three digits, an account outside Taiwan has its UPI', async () => {
    const attempt = (q: ReturnType<typeof sql>) =>
      engine.db.execute(q).then(
        () => 'accepted',
        () => 'refused',
      );
    expect(
      await attempt(sql`update bank_cards set bank_code = '0040' where card_number = '1000000000001'`),
    ).toBe('refused');
    expect(
      await attempt(
        sql`update bank_cards set outside_taiwan = true, upi = null where card_number = '1000000000001'`,
      ),
    ).toBe('refused');
    expect(
      await attempt(
        sql`update bank_cards set outside_taiwan = true, bank_code = null, branch_code = null
            where card_number = '1000000000003'`,
      ),
    ).toBe('accepted');
  });
});
