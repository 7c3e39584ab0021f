/**
 * The exchange's English short names (seed-data/reference/instrument_names_en.csv, migration
 * 0034) arrive end to end, on PGlite and PostgreSQL:
 * - the import stores them in instruments.name_en (2330 'TSMC', 2317 'HON HAI'; 0050, an ETF,
 *   has none: null);
 * - market/detail carries `nameEn`, a market/list page carries `namesEn` for its instruments
 *   only (no key for 0050), search/query finds 2330 by 'tsmc' with its `nameEn`, and a member's
 *   watchlist (user/Optionallist) names each entry in both languages;
 * - a second import fills in a name_en that is null (rows imported before the migration) and
 *   never changes one that is set.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMarketData } from '../../server/market/import';
import { instruments } from '../../server/db/schema';
import { startHarness, type Harness } from './harness';

const SYMBOLS = ['2330', '2317', '0050'];

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ importSymbols: SYMBOLS });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const ok = (r: { http: number; body: { status: number; msg: string; data: any } }) => {
  expect(r.http, JSON.stringify(r.body)).toBe(200);
  expect(r.body.status).toBe(1);
  return r.body.data;
};
const namesEn = async () =>
  Object.fromEntries(
    (await h.database.db.select({ s: instruments.symbol, n: instruments.nameEn }).from(instruments)).map(
      (r) => [r.s, r.n],
    ),
  );

describe('English short names', () => {
  it('are imported: TSMC, HON HAI, none for the ETF 0050', async () => {
    expect(await namesEn()).toMatchObject({ '2330': 'TSMC', '2317': 'HON HAI', '0050': null });
  });

  it('market/detail carries nameEn', async () => {
    expect(ok(await h.call('market/detail', { symbol: '2330' })).nameEn).toBe('TSMC');
    expect(ok(await h.call('market/detail', { symbol: '0050' })).nameEn).toBeNull();
  });

  it("a market/list page carries its instruments' English names only", async () => {
    const page = ok(await h.call('market/list', { sort: 'all', page: 1, pageSize: 50 }));
    expect(page.items.map((q: { symbol: string }) => q.symbol).sort()).toEqual([...SYMBOLS].sort());
    expect(page.namesEn).toEqual({ '2330': 'TSMC', '2317': 'HON HAI' });
  });

  it("search/query 'tsmc' finds 2330 with its English name", async () => {
    const r = ok(await h.call('search/query', { q: 'tsmc' }));
    expect(r.total).toBe(1);
    expect(r.items[0]).toMatchObject({ symbol: '2330', name: '台積電', nameEn: 'TSMC', match: 'namePrefix' });
  });

  it('user/Optionallist carries nameEn, null for 0050', async () => {
    const token = await h.fundedMember('0921340001', 100_000);
    for (const symbol of ['2330', '0050']) ok(await h.call('user/addOptional', { symbol }, token));
    const list = ok(await h.call('user/Optionallist', {}, token));
    expect(list).toEqual([
      { symbol: '2330', name: '台積電', nameEn: 'TSMC' },
      { symbol: '0050', name: expect.any(String), nameEn: null },
    ]);
  });

  it('a re-import fills a null name_en and keeps a set one', async () => {
    const db = h.database.db;
    await db.update(instruments).set({ nameEn: null }).where(eq(instruments.symbol, '2330'));
    await db.update(instruments).set({ nameEn: 'Hon Hai (operator)' }).where(eq(instruments.symbol, '2317'));
    await importMarketData(db, { symbols: SYMBOLS });
    expect(await namesEn()).toMatchObject({ '2330': 'TSMC', '2317': 'Hon Hai (operator)', '0050': null });
  });
});
