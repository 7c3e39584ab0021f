/**
 * The market screen's server side over the API: market/list ranks the whole
 * market with the filters applied server-side (exchange, security type, ETF category, industry),
 * pages through one snapshot that is refreshed once a second, market/industries and
 * market/breadth. Then the acceptance "the gainers list of a finished session equals the ranking
 * computed from the real file for that day": the whole market imported, the feed's clock placed
 * after a session's close, the gainers order compared with the one computed directly from
 * server/db/seed-data/full-market/tw_daily_2025-04-02_2025-07-18.csv.gz (change % = (close −
 * reference) / reference; reference = the previous real close, or the exchange's ex-rights
 * reference price on an ex-rights day).
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '../../contract/money';
import type { Quote } from '../../contract/market';
import { importMarketData } from '../../server/db/import';
import { parseCsv, readCsvRecordsSync, seedDataPath, toRecords } from '../../server/market/csv';
import { createClock } from '../../server/market/clock';
import { createMarketFeed, type MarketFeed } from '../../server/market/feed';
import { createRankings, rankQuotes } from '../../server/modules/market/rankings';
import { freshDatabase, startHarness, type Harness } from './harness';

/** TWSE and TPEx stocks of two industries, and ETFs of both exchanges (equity and bond). */
const SYMBOLS = ['2330', '2454', '2317', '6488', '6547', '8069', '0050', '00878', '00679B'];
const SEMIS = ['2330', '2454', '6488'];

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ importSymbols: SYMBOLS });
});
afterAll(async () => {
  await h?.close();
});

interface ListData {
  items: Quote[];
  total: number;
  rankedAt: number;
  replayDate: string | null;
}
const list = async (body: object): Promise<ListData> => {
  const r = await h.call('market/list', body);
  expect(r.http, JSON.stringify(r.body)).toBe(200);
  return r.body.data as ListData;
};
const symbolsOf = (d: ListData) => d.items.map((q) => q.symbol);

describe('market/list over the whole market', () => {
  it('ranks gainers, losers, volume and turnover as rankQuotes does over the feed', async () => {
    const quotes = h.feed.listQuotes();
    for (const sort of ['all', 'gainers', 'losers', 'volume', 'turnover'] as const) {
      const d = await list({ sort, pageSize: 200 });
      expect(symbolsOf(d), sort).toEqual(rankQuotes(quotes, sort));
      expect(d.total).toBe(quotes.length);
    }
  });

  it('pages through one order', async () => {
    const whole = symbolsOf(await list({ sort: 'gainers', pageSize: 200 }));
    const pages: string[] = [];
    for (let page = 1; page <= 3; page++)
      pages.push(...symbolsOf(await list({ sort: 'gainers', page, pageSize: 4 })));
    expect(pages).toEqual(whole);
  });

  it('filters narrow server-side', async () => {
    const dir = new Map(h.feed.instruments().map((i) => [i.symbol, i]));
    const tpex = await list({ sort: 'gainers', market: 'TPEx', pageSize: 200 });
    expect(new Set(symbolsOf(tpex))).toEqual(new Set(['6488', '6547', '8069', '00679B']));
    expect(tpex.total).toBe(4);
    const etfs = symbolsOf(await list({ sort: 'volume', securityType: 'etf', pageSize: 200 }));
    expect(new Set(etfs)).toEqual(new Set(['0050', '00878', '00679B']));
    expect(symbolsOf(await list({ etfCategory: 'bond' }))).toEqual(['00679B']);
    expect(symbolsOf(await list({ securityType: 'etf', market: 'TWSE' }))).toEqual(['0050', '00878']);
    const semis = await list({ sort: 'losers', industry: '半導體業', pageSize: 200 });
    expect(new Set(symbolsOf(semis))).toEqual(new Set(SEMIS));
    expect(symbolsOf(semis)).toEqual(
      rankQuotes(h.feed.listQuotes(), 'losers').filter((s) => SEMIS.includes(s)),
    );
    expect(symbolsOf(await list({ industry: '半導體業', market: 'TPEx' }))).toEqual(['6488']);
    const none = await list({ industry: '不存在業' });
    expect(none.items).toEqual([]);
    expect(none.total).toBe(0);
    for (const s of symbolsOf(tpex)) expect(dir.get(s)?.market).toBe('TPEx');
  });

  it('serves one snapshot for a second, then a fresh one', async () => {
    const a = await list({ sort: 'gainers' });
    h.wall.now += 400;
    h.feed.tick();
    expect((await list({ sort: 'losers', market: 'TWSE' })).rankedAt).toBe(a.rankedAt);
    h.wall.now += 600;
    h.feed.tick();
    const b = await list({ sort: 'gainers' });
    expect(b.rankedAt).toBe(a.rankedAt + 1000);
    expect(symbolsOf(b)).toEqual(rankQuotes(h.feed.listQuotes(), 'gainers'));
  });

  it('market/industries lists the directory industries with their counts', async () => {
    const r = await h.call('market/industries', {});
    expect(r.http).toBe(200);
    const items = r.body.data.items as Array<{ name: string; count: number }>;
    expect(items.find((i) => i.name === '半導體業')?.count).toBe(3);
    expect(items.find((i) => i.name === '生技醫療業')?.count).toBe(1);
    expect(items.reduce((n, i) => n + i.count, 0)).toBe(
      h.feed.instruments().filter((i) => i.industry).length,
    );
  });

  it('market/breadth counts every quote once, per exchange too', async () => {
    const r = await h.call('market/breadth', {});
    expect(r.http).toBe(200);
    const b = r.body.data;
    const quotes = h.feed.listQuotes();
    const n = (c: { advancers: number; decliners: number; unchanged: number; notTraded: number }) =>
      c.advancers + c.decliners + c.unchanged + c.notTraded;
    expect(n(b.all)).toBe(quotes.length);
    expect(n(b.byMarket.TPEx)).toBe(4);
    expect(n(b.byMarket.TWSE)).toBe(quotes.length - 4);
    expect(b.all.turnoverMinor).toBe(quotes.reduce((s, q) => s + q.turnoverMinor, 0));
    expect(b.all.advancers).toBe(
      quotes.filter((q) => q.volumeShares > 0 && q.lastMinor > q.prevCloseMinor).length,
    );
  });
});

// ---- the real day ----

const DAILY = seedDataPath('full-market', 'tw_daily_2025-04-02_2025-07-18.csv.gz');
const EX_RIGHTS = seedDataPath('full-market', 'ex_rights_2025-04-01_2025-07-22.csv');

/** The gainers order of `day` from the file: traded codes with a reference, change % desc, ties by code. */
function gainersFromFile(day: string): string[] {
  const rows = toRecords(parseCsv(gunzipSync(readFileSync(DAILY)).toString('utf8')), DAILY);
  const prevClose = new Map<string, number>();
  const closeOn = new Map<string, number>();
  for (const r of [...rows].sort((a, b) => (a.date! < b.date! ? -1 : a.date! > b.date! ? 1 : 0))) {
    if (r.date! < day) prevClose.set(r.code!, toMinor(r.close!));
    else if (r.date === day && Number(r.volume_shares) > 0) closeOn.set(r.code!, toMinor(r.close!));
  }
  for (const x of readCsvRecordsSync(EX_RIGHTS))
    if (x.ex_date === day && x.reference_price) prevClose.set(x.code!, toMinor(x.reference_price));
  const ranked: Array<{ code: string; r: number }> = [];
  for (const [code, close] of closeOn) {
    const ref = prevClose.get(code);
    if (ref && ref > 0) ranked.push({ code, r: (close - ref) / ref });
  }
  ranked.sort((a, b) => b.r - a.r || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return ranked.map((x) => x.code);
}

describe('a finished session over the whole market', () => {
  let feed: MarketFeed | null = null;
  let drop: (() => Promise<void>) | null = null;
  afterAll(async () => {
    feed?.stop();
    await drop?.();
  });

  it('ranks gainers as the real file does for the replayed day', async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    await importMarketData(fresh.database.db);
    // Exchange clock at 15:00 Taipei on a trading day: the session shown is complete.
    const clock = createClock({ mode: 'exchange', now: () => Date.parse('2026-01-06T15:00:00+08:00') });
    feed = createMarketFeed({
      db: fresh.database.db,
      clock,
      seed: 1,
      buildTradesPerTick: Number.MAX_SAFE_INTEGER,
    });
    await feed.start({ timer: false });
    feed.tick();
    const quotes = feed.listQuotes();
    expect(quotes.length).toBeGreaterThan(2000);
    const days = new Set(quotes.map((q) => q.replayDate));
    expect([...days], 'every instrument replays the same real day').toHaveLength(1);
    const day = [...days][0]!;
    const expected = gainersFromFile(day);
    const have = new Set(quotes.map((q) => q.symbol));
    const ranked = createRankings({ feed, now: () => 0 }).list('gainers', {}).symbols;
    const expectedHere = expected.filter((s) => have.has(s));
    expect(expectedHere.length).toBeGreaterThan(1500);
    // Instruments with no earlier close in the file (first day of the window, new listings) have
    // no real reference to rank by: the feed ranks them on their opening price; they are left
    // out of the comparison, every other traded instrument keeps the file's exact order.
    const comparable = new Set(expectedHere);
    expect(ranked.filter((s) => comparable.has(s))).toEqual(expectedHere);
    expect(ranked.length - expectedHere.length).toBeLessThan(100);
  }, 600_000);
});
