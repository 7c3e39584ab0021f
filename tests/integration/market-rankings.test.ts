/**
 * The market screen's server side over the API: market/list ranks the whole
 * market with the filters applied server-side (exchange, security type, ETF category, industry),
 * pages through one snapshot that is refreshed once a second, market/industries and
 * market/breadth. The finished real day against the exchange files (gainers, losers, turnover,
 * volume, estimated references, the exchange by date): market-rankings-real-day.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../contract/market';
import { rankQuotes } from '../../server/modules/market/rankings';
import { startHarness, type Harness } from './harness';

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
