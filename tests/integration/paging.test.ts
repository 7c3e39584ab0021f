/**
 * The paging helper (server/modules/common/paging.ts) on PGlite and PostgreSQL: pages follow the
 * select's order without overlap, the last page is partial, a page past the end is empty, and the
 * total counts every matching row whichever page is asked for, by table and filter or by a query.
 */
import { asc, count, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { siteConfig } from '../../server/db/schema';
import { pageOf, pageOfList } from '../../server/modules/common/paging';
import { freshDatabase } from './harness';

const NAMES = Array.from({ length: 7 }, (_, i) => `paging-${i}`);
const where = like(siteConfig.name, 'paging-%');
let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  await database.db.insert(siteConfig).values(NAMES.map((name) => ({ name, value: '1' })));
});
afterAll(async () => drop());

const names = (page: number, pageSize: number) =>
  pageOf(
    database.db,
    database.db.select({ name: siteConfig.name }).from(siteConfig).where(where).orderBy(asc(siteConfig.name)),
    { table: siteConfig, where },
    { page, pageSize },
  );

describe('pageOf', () => {
  it('slices the ordered rows page by page, the last one partial, and counts them all', async () => {
    const pages = [await names(1, 3), await names(2, 3), await names(3, 3)];
    expect(pages.map((p) => p.items.map((r) => r.name))).toEqual([
      NAMES.slice(0, 3),
      NAMES.slice(3, 6),
      NAMES.slice(6),
    ]);
    expect(pages.map((p) => [p.total, p.page, p.pageSize])).toEqual([
      [7, 1, 3],
      [7, 2, 3],
      [7, 3, 3],
    ]);
  });

  it('answers a page past the end with no items and the same total', async () => {
    expect(await names(4, 3)).toEqual({ items: [], total: 7, page: 4, pageSize: 3 });
  });

  it('takes the total from a count query when one is given', async () => {
    const { db } = database;
    const rows = db.select().from(siteConfig).where(where).orderBy(asc(siteConfig.name));
    const total = db.select({ n: count() }).from(siteConfig).where(where);
    const page = await pageOf(db, rows, { query: total }, { page: 2, pageSize: 5 });
    expect(page.items.map((r) => r.name)).toEqual(NAMES.slice(5));
    expect(page.total).toBe(7);
  });
});

describe('pageOfList', () => {
  it('slices a list in memory, the last page partial', () => {
    expect(pageOfList(NAMES, { page: 3, pageSize: 3 })).toEqual({
      items: [NAMES[6]],
      total: 7,
      page: 3,
      pageSize: 3,
    });
    expect(pageOfList(NAMES, { page: 9, pageSize: 3 }).items).toEqual([]);
  });
});
