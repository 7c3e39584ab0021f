/**
 * The market screen over the whole market: the gainers list is the
 * server's ranking, the virtualized list renders and subscribes only the rows around the screen
 * (counted on the worker's WebSocket: `sub`/`unsub` frames of the quotes channel), scrolling far
 * down unsubscribes the rows that left, the volume list has its volume column, and the exchange
 * and kind filters narrow the list to the server's filtered ranking.
 */
import { expect, test, type Page } from '../support/e2e-test';

/** Symbols the page's WebSocket holds on the quotes channel, from the frames it sent. */
function watchQuoteSubs(page: Page): Set<string> {
  const subs = new Set<string>();
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      let m: { op?: string; channel?: string; symbols?: string[] };
      try {
        m = JSON.parse(String(f.payload)) as typeof m;
      } catch {
        return;
      }
      if (m.channel !== 'quotes' || !m.symbols) return;
      for (const s of m.symbols) {
        if (m.op === 'sub') subs.add(s);
        else if (m.op === 'unsub') subs.delete(s);
      }
    }),
  );
  return subs;
}

const rowSymbols = async (page: Page) =>
  (await page
    .locator('[data-testid^="market-row-"]')
    .evaluateAll((els) =>
      els.map((e) => e.getAttribute('data-testid')!.slice('market-row-'.length)),
    )) as string[];

async function apiList(
  page: Page,
  body: object,
): Promise<{ total: number; items: Array<{ symbol: string }> }> {
  const r = await page.request.post('/api/vue/market/list', { data: body });
  return ((await r.json()) as { data: { total: number; items: Array<{ symbol: string }> } }).data;
}

test('gainers over the whole market, visible rows only subscribed, filters', async ({ page }) => {
  const subs = watchQuoteSubs(page);
  // The app's own first pages of the gainers list, as the server answered them.
  type Q = { symbol: string };
  const gainerPages: Q[][] = [];
  page.on('response', async (res) => {
    if (!res.url().endsWith('/api/vue/market/list')) return;
    const req = JSON.parse(res.request().postData() ?? '{}') as { sort?: string; page?: number };
    if (req.sort !== 'gainers' || req.page !== 1) return;
    const body = (await res.json().catch(() => null)) as { data?: { items: Q[] } } | null;
    if (body?.data) gainerPages.push(body.data.items);
  });
  await page.goto('/#/market/market');
  await page.getByTestId('market-sort-gainers').click();
  const list = page.getByTestId('ranking-list');
  await expect(page.locator('[data-testid^="market-row-"]').first()).toBeVisible();
  const total = Number(await list.getAttribute('data-total'));
  expect(total).toBeGreaterThan(2000);

  // The first rows are the server's gainers ranking: the order of the last page the app was sent,
  // or of the one before (the list re-sorts every second; a page may be on its way). Compared
  // with the app's own answers, not with a request of the test's, which on a loaded machine comes
  // from another second's snapshot as often as not (the ranking itself: market-rankings.test.ts).
  await expect
    .poll(async () => {
      const shown = JSON.stringify((await rowSymbols(page)).slice(0, 6));
      return gainerPages.slice(-2).some((p) => JSON.stringify(p.slice(0, 6).map((q) => q.symbol)) === shown);
    })
    .toBe(true);
  await expect(page.getByTestId('row-replay-date').first()).toBeVisible();

  // Only the rows around the screen are rendered and subscribed (the list may re-sort between
  // two reads in continuous trading, and the subscription follows the rows: poll).
  await expect.poll(async () => (await rowSymbols(page)).slice(0, 8).every((s) => subs.has(s))).toBe(true);
  const first = await rowSymbols(page);
  expect(first.length).toBeLessThan(40);
  expect(subs.size).toBeLessThan(40);

  // Scroll ~1,000 rows down: new rows come from their page, the first screen's are unsubscribed.
  await page.evaluate(() => window.scrollTo(0, 60 * 1000));
  await expect.poll(async () => (await rowSymbols(page)).some((s) => !first.includes(s))).toBe(true);
  await expect.poll(() => first.slice(0, 8).every((s) => !subs.has(s)), { timeout: 10_000 }).toBe(true);
  const far = await rowSymbols(page);
  expect(far.length).toBeLessThan(40);
  await expect.poll(() => far.slice(2, 6).every((s) => subs.has(s))).toBe(true);
  expect(subs.size).toBeLessThan(40);

  // The volume list shows volume in lots.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByTestId('market-sort-volume').click();
  await expect(page.getByTestId('ranking-head')).toContainText('成交量');
  await expect(page.locator('[data-testid^="quote-volume-"]').first()).toBeVisible();

  // Filters: TPEx, then ETFs on TPEx; totals are the server's filtered rankings.
  await page.getByTestId('filter-market').click();
  await page.getByTestId('filter-market-TPEx').click();
  const tpex = await apiList(page, { sort: 'volume', market: 'TPEx', pageSize: 1 });
  await expect(list).toHaveAttribute('data-total', String(tpex.total));
  expect(tpex.total).toBeLessThan(total);
  await page.getByTestId('filter-kind').click();
  await page.getByTestId('filter-kind-etf').click();
  const etf = await apiList(page, { sort: 'volume', market: 'TPEx', securityType: 'etf', pageSize: 1 });
  await expect(list).toHaveAttribute('data-total', String(etf.total));
  await expect.poll(async () => (await rowSymbols(page)).every((s) => s.startsWith('00'))).toBe(true);
  expect(page.url()).toContain('market=TPEx');
});

test('index tab: breadth of the replayed day; hot stocks list', async ({ page }) => {
  await page.goto('/#/market/market?tab=index');
  const all = page.getByTestId('breadth-all');
  await expect(all).toBeVisible();
  const n = async (k: string) => Number(await page.getByTestId(`breadth-all-${k}`).textContent());
  const api = await page.request.post('/api/vue/market/breadth', { data: {} });
  const b = ((await api.json()) as { data: { all: Record<string, number> } }).data.all;
  const sum =
    (await n('advancers')) + (await n('decliners')) + (await n('unchanged')) + (await n('notTraded'));
  expect(sum).toBe(b.advancers! + b.decliners! + b.unchanged! + b.notTraded!);
  await page.getByTestId('to-hot-stocks').click();
  await expect(page).toHaveURL(/stockHot\/stockList/);
  await expect(page.locator('[data-testid^="quote-volume-"]').first()).toBeVisible();
});
