/**
 * Screenshots of the dividend and news screens at 390×844 in Chromium, tw and en, into
 * docs/screenshots/dividend-*.png and news-*.png. Build the client first (`npx vite build`), then
 * `npx tsx scripts/dividends-screenshots.ts` (PORT, default 3404).
 *
 * It starts the server in-process on the integration harness (PGlite in memory, the manual market
 * clock), moves the replay to 10:00 of 2025-06-11, has a member open a long 2330 and a short 3324
 * (雙鴻), moves to 2025-06-12 (2330 goes ex-dividend: NT$4,500.02 credited) and on to 2025-06-16
 * (3324: NT$9,998.65 charged on the short), publishes an operator article and lets the news
 * runner write the generated items (ex-dividend notices, the market summary at the 13:30 close).
 */
import type { Page } from 'playwright';
import { REPLAY_DAY_MS } from '../server/market/clock';
import { HARNESS_SESSION, startHarness, TEST_SYMBOLS } from '../tests/integration/harness';
import { advanceMarket } from '../tests/integration/trading-support';
import { openScreens } from './support/screens';

const OUT = 'docs/screenshots';
const PORT = Number(process.env.PORT ?? 3404);

async function main() {
  const h = await startHarness({ importSymbols: [...TEST_SYMBOLS, '3324', '2454', '2412'] });
  const base = h.wall.now;
  const goTo = async (k: number, minutesAfter0900 = 60) => {
    const target = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS + (minutesAfter0900 - 60) * 60_000;
    const dayStart = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS - 90 * 60_000;
    if (dayStart + 60_000 > h.wall.now) h.wall.now = dayStart + 60_000;
    await advanceMarket(h, target - h.wall.now);
    await h.dividends.run();
    await h.news.run();
  };
  const cal = h.dividends.calendar;
  const d0611 = Array.from({ length: 73 }, (_, k) => k).find((k) => cal.dateOf(k) === '2025-06-11')!;
  const me = '0912345678';
  const token = await h.fundedMember(me, 300_000_000);
  await goTo(d0611);
  for (const [symbol, side] of [
    ['2330', 'long'],
    ['3324', 'short'],
  ] as const) {
    const r = await h.call(
      'trade/placeOrder',
      { symbol, side, orderType: 'market', lots: 1, leverage: 10 },
      token,
    );
    if (r.body.status !== 1) throw new Error(JSON.stringify(r.body));
  }
  await goTo(d0611, 4 * 60 + 31); // 13:31: the day's market summary
  await goTo(d0611 + 1);
  await goTo(d0611 + 2);
  await goTo(d0611 + 3, 4 * 60 + 31);
  const op = await h.operatorToken();
  const saved = await h.call(
    'admin/saveNews',
    {
      titleTw: '除息入帳說明',
      titleEn: 'How ex-dividend credits work',
      bodyTw:
        '除息日前一日收盤時持有的部位，於除息日開盤前依每股現金股利 × 股數入帳（多單收取、空單支付），金額四捨五入至分。\n\n除息參考價採用交易所公告。',
      bodyEn:
        'A position held at the close before an ex-date is credited (long) or charged (short) cash dividend × shares before the ex-date opens, rounded to the cent.\n\nThe ex-date reference price is the exchange’s own.',
      symbols: ['2330', '3324'],
    },
    op,
  );
  if (saved.body.status !== 1) throw new Error(JSON.stringify(saved.body));
  const list = await h.call('news/list', { pageSize: 50 });
  const exItem = (list.body.data.items as Array<{ id: number; kind: string }>).find(
    (i) => i.kind === 'exDividend',
  )!;
  const summary = (list.body.data.items as Array<{ id: number; kind: string }>).find(
    (i) => i.kind === 'marketSummary',
  )!;

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT, settleMs: 1500 });
  const ME = { token, account: me };
  // The dividend screens count as open once their first row shows as well.
  const rows = {
    ready: async (p: Page) => {
      await p.waitForLoadState('networkidle');
      await p.locator('.dividend-row').first().waitFor({ timeout: 30_000 });
    },
  };
  const scrollTo = (testId: string) => async (p: Page) => {
    await p.getByTestId(testId).scrollIntoViewIfNeeded();
    await p.waitForTimeout(300);
  };
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(ME, lang, '/common/dividend', 'dividend-calendar', undefined, rows);
    await screens.shot(ME, lang, '/common/dividend?tab=recent', 'dividend-recent', undefined, rows);
    await screens.shot(ME, lang, '/common/dividend2', 'dividend-stocks', undefined, rows);
    await screens.shot(ME, lang, '/common/dividend3?symbol=2330', 'dividend-history', undefined, rows);
    await screens.shot(ME, lang, '/common/dividend3?symbol=3324', 'dividend-history-short', undefined, rows);
    await screens.shot(ME, lang, '/home/index', 'news-home', scrollTo('home-news'));
    await screens.shot(ME, lang, '/home/moreNews', 'news-list');
    await screens.shot(ME, lang, `/home/DetailsPage?id=${exItem.id}`, 'news-exdividend');
    await screens.shot(ME, lang, `/home/DetailsPage?id=${summary.id}`, 'news-summary');
    await screens.shot(ME, lang, `/home/DetailsPage?id=${saved.body.data.id}`, 'news-article');
    await screens.shot(
      ME,
      lang,
      '/market/marketDetail?symbol=2330',
      'news-stock-detail',
      scrollTo('detail-news'),
    );
  }
  await screens.close();
  await h.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
