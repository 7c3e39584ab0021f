/**
 * News through the HTTP API on the harness's manual market clock (PGlite; PostgreSQL with
 * TEST_DB=postgres):
 * - the operator publishes an article (tw + en, a cover uploaded through the upload checks with
 *   purpose newsCover, instruments concerned) → it is listed, readable, listed under its
 *   instrument, and its cover is served publicly; withdrawn → neither listed nor readable;
 * - generated items: the ex-dividend notice of the real ex-date 2025-06-12 (2330, NT$4.50002,
 *   reference 1,060.49) the day before; the public subscription of a real announcement
 *   (3037 欣興, priced on the replay) on its first apply day; the replayed day's market summary at the close,
 *   checked against the feed's own quotes; each written once.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewsArticle, NewsItem } from '../../contract/news';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { ipoOfferings, newsArticles } from '../../server/db/schema';
import { HARNESS_SESSION, TEST_SYMBOLS, startHarness, type Harness } from './harness';
import { multipart } from './support/client';
import { png } from './support/files';
import { advanceMarket } from './trading-support';

let h: Harness;
let base: number;
let op: string;

async function goTo(k: number, minutesAfter0900 = 60): Promise<void> {
  const target = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS + (minutesAfter0900 - 60) * 60_000;
  const dayStart = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS - 90 * 60_000;
  if (dayStart + 60_000 > h.wall.now) h.wall.now = dayStart + 60_000;
  await advanceMarket(h, target - h.wall.now);
  await h.ipo.run();
}
const bySource = async (key: string) =>
  (await h.database.db.select().from(newsArticles).where(eq(newsArticles.sourceKey, key)))[0];

beforeAll(async () => {
  h = await startHarness({ importSymbols: [...TEST_SYMBOLS, '3037'] });
  base = h.wall.now;
  op = await h.operatorToken();
});
afterAll(async () => {
  await h?.close();
});

describe('operator articles', () => {
  let id: number;
  it('publishes with a cover and instruments; lists, reads, filters by instrument', async () => {
    const { body, contentType } = multipart({ purpose: 'newsCover' }, png(7));
    const up = await h.app.inject({
      method: 'POST',
      url: '/api/vue/upload',
      headers: { token: op, 'content-type': contentType },
      payload: body,
    });
    expect(up.json().status).toBe(1);
    const coverUploadId = up.json().data.id as string;

    const saved = await h.call(
      'admin/saveNews',
      {
        titleTw: '平台公告',
        titleEn: 'Platform notice',
        bodyTw: '第一行\n第二行',
        bodyEn: 'Line one\nLine two',
        coverUploadId,
        symbols: ['2330', '2317'],
      },
      op,
    );
    expect(saved.body.status).toBe(1);
    id = saved.body.data.id;
    expect(saved.body.data).toMatchObject({
      kind: 'operator',
      status: 'published',
      symbols: ['2317', '2330'],
    });

    const list = await h.call('news/list', { pageSize: 50 });
    const item = (list.body.data.items as NewsItem[]).find((i) => i.id === id);
    expect(item).toMatchObject({
      titleTw: '平台公告',
      titleEn: 'Platform notice',
      summaryEn: 'Line one Line two',
    });
    expect(item!.coverUrl).toBe(`/api/vue/news/cover/${id}`);
    const detail = await h.call('news/detail', { id });
    expect(detail.body.data as NewsArticle).toMatchObject({
      bodyTw: '第一行\n第二行',
      bodyEn: 'Line one\nLine two',
    });
    const cover = await h.app.inject({ method: 'GET', url: item!.coverUrl! });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/png');

    const for2317 = await h.call('news/list', { symbol: '2317' });
    expect((for2317.body.data.items as NewsItem[]).map((i) => i.id)).toContain(id);
    const for0050 = await h.call('news/list', { symbol: '0050' });
    expect((for0050.body.data.items as NewsItem[]).map((i) => i.id)).not.toContain(id);

    // A member may not upload a news cover.
    const member = await h.register('0941000001');
    const m = multipart({ purpose: 'newsCover' }, png(8));
    const refused = await h.app.inject({
      method: 'POST',
      url: '/api/vue/upload',
      headers: { token: member, 'content-type': m.contentType },
      payload: m.body,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('edits, withdraws (not listed, not readable, no cover) and republishes', async () => {
    const edited = await h.call(
      'admin/saveNews',
      {
        id,
        titleTw: '平台公告（更新）',
        titleEn: 'Platform notice (updated)',
        bodyTw: '內容',
        bodyEn: 'Body',
        symbols: [],
      },
      op,
    );
    expect(edited.body.data).toMatchObject({
      titleEn: 'Platform notice (updated)',
      symbols: [],
      coverUrl: null,
    });
    const w = await h.call('admin/setNewsStatus', { id, status: 'withdrawn' }, op);
    expect(w.body.data.status).toBe('withdrawn');
    const gone = await h.call('news/detail', { id });
    expect(gone.http).toBe(404);
    expect(gone.body.msg).toBe('newsNotFound');
    const list = await h.call('news/list', { pageSize: 200 });
    expect((list.body.data.items as NewsItem[]).map((i) => i.id)).not.toContain(id);
    const all = await h.call('admin/news', { kind: 'operator' }, op);
    expect((all.body.data.items as NewsArticle[]).find((a) => a.id === id)?.status).toBe('withdrawn');
    await h.call('admin/setNewsStatus', { id, status: 'published' }, op);
    expect((await h.call('news/detail', { id })).body.status).toBe(1);
  });
});

describe('generated items', () => {
  it('announces the real ex-date 2025-06-12 the day before, once', async () => {
    const cal = h.dividends.calendar;
    const day = Array.from({ length: 73 }, (_, k) => k).find((k) => cal.dateOf(k) === '2025-06-11')!;
    await goTo(day);
    await h.news.run();
    const a = await bySource(`exDividend:${day + 1}`);
    expect(a).toBeDefined();
    expect(a!.replayDate).toBe('2025-06-12');
    expect(a!.bodyTw).toContain(
      '2330 台積電（TWSE）：每股現金股利 NT$4.50002，除息參考價 1,060.49（前一日收盤 1,065.00）',
    );
    expect(a!.bodyEn).toContain(
      '2330 台積電 (TWSE): cash dividend NT$4.50002 per share, ex-dividend reference price 1,060.49',
    );
    const list = await h.call('news/list', { symbol: '2330', pageSize: 50 });
    expect((list.body.data.items as NewsItem[]).map((i) => i.id)).toContain(a!.id);
    expect(await h.news.run()).toBe(0);
  });

  it('announces a real public subscription (3037 欣興, NT$116) when its apply days come', async () => {
    let found: typeof ipoOfferings.$inferSelect | undefined;
    const today = () => h.dividends.calendar.today();
    for (let tries = 0; tries < 4 && !found; tries++) {
      const rows = await h.database.db.select().from(ipoOfferings).where(eq(ipoOfferings.symbol, '3037'));
      found = rows
        .filter((o) => o.applyStartDay >= today())
        .sort((x, y) => x.applyStartDay - y.applyStartDay)[0];
      if (!found) await goTo(today() + 30);
    }
    expect(found).toBeDefined();
    await goTo(found!.applyStartDay);
    await h.news.run();
    const a = await bySource(`ipo:${found!.id}`);
    // Priced on the replay (ipo-replay.test.ts): the offering's own price, the source once.
    const price = (found!.priceMinor / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(found!.pricing).toBe('announcement');
    expect(a).toMatchObject({ kind: 'ipo', titleTw: `公開申購：欣興（3037）承銷價 NT$${price}` });
    expect(a!.bodyEn).toContain('3,910,000 shares offered');
    // The announcement's market type (上市增資) in English, not as printed.
    expect(a!.bodyEn).toContain('3037 欣興 (TWSE cash capital increase) opens');
    expect(a!.bodyTw).toContain('（3037，上市增資）');
    expect(a!.bodyEn).toContain(
      'Source: the TWSE public subscription announcement of 2026-01-02 (offer price NT$116.00).',
    );
    expect(a!.bodyEn).not.toContain('2026-01-08');
  });

  it("writes the replayed day's market summary at the close from the feed", async () => {
    const day = h.dividends.calendar.today();
    await h.news.run();
    expect(await bySource(`marketSummary:${day}`)).toBeUndefined();
    await goTo(day, 4 * 60 + 31); // 13:31
    await h.news.run();
    const a = await bySource(`marketSummary:${day}`);
    expect(a).toBeDefined();
    const quotes = h.feed.listQuotes().filter((q) => q.traded);
    const turnover = quotes.reduce((s, q) => s + q.turnoverMinor, 0);
    const fmt = (m: number) => (m / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(a!.titleEn).toContain(`turnover NT$${fmt(turnover)}`);
    const up = quotes.filter((q) => q.lastMinor > q.prevCloseMinor).length;
    const down = quotes.filter((q) => q.lastMinor < q.prevCloseMinor).length;
    expect(a!.titleEn).toContain(`${up} up, ${down} down`);
    const best = [...quotes].sort(
      (x, y) =>
        (y.lastMinor - y.prevCloseMinor) / y.prevCloseMinor -
        (x.lastMinor - x.prevCloseMinor) / x.prevCloseMinor,
    )[0]!;
    expect(a!.bodyEn.split('Top gainers:\n')[1]!.startsWith(`${best.symbol} ${best.name} closed`)).toBe(true);
    expect(await h.news.run()).toBe(0);
    const [one] = await h.database.db
      .select()
      .from(newsArticles)
      .where(and(eq(newsArticles.kind, 'marketSummary'), eq(newsArticles.sourceKey, `marketSummary:${day}`)));
    expect(one!.id).toBe(a!.id);
  });
});
