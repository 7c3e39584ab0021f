/**
 * The stock detail screen in Chromium at 390×844 with touch, on the real server (the manual market clock put in
 * continuous trading and run at 30× where a test watches the market move):
 * five levels a side with volume bars, the trade tape, the candle chart (the period switch loads
 * that period; volume bars red up / green down; the chart holds exactly the server's bars), and
 * touch: a vertical swipe that starts on the chart scrolls the page, a horizontal one scrolls
 * the chart and not the page.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '../support/e2e-test';
import { marketToContinuous, moveMarket } from '../support/market-clock';
import { e2eServer } from '../support/e2e-server';

// Tests here run the market at 30×: it stands still again after each.
test.afterEach(async ({ baseURL }) => {
  await moveMarket(baseURL!, { speed: 0 });
});

const shots = path.resolve('tests/e2e/screenshots');
mkdirSync(shots, { recursive: true });

const RED = '#cf1322';
const GREEN = '#0a7d3c';
const SYMBOL = '2330';

/** The chart's bars and settings, read through the test hook on its container (KlineHost). */
async function chartState(page: Page) {
  return page.getByTestId('kline-chart').evaluate((el) => {
    const chart = (el as HTMLElement & { klineChart?: any }).klineChart;
    if (!chart) return null;
    const styles = chart.getStyles();
    return {
      period: chart.getPeriod() as { type: string; span: number } | null,
      bars: (chart.getDataList() as { timestamp: number }[]).map((b) => b.timestamp),
      range: chart.getVisibleRange() as { from: number; to: number },
      volumeUp: styles.indicator.bars[0].upColor as string,
      volumeDown: styles.indicator.bars[0].downColor as string,
      candleUp: styles.candle.bar.upColor as string,
      candleDown: styles.candle.bar.downColor as string,
    };
  });
}

/** A one-finger swipe through CDP touch events (real touch input: touch-action and defaults apply). */
async function swipe(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  const steps = 12;
  for (let i = 1; i <= steps; i++) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: from.x + (dx * i) / steps, y: from.y + (dy * i) / steps }],
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.beforeEach(async ({ page }) => {
  await page.goto(`/#/market/marketDetail?symbol=${SYMBOL}`);
  await expect(page.getByTestId('detail-last')).not.toBeEmpty();
});

test('five levels a side, each with a volume bar', async ({ page }) => {
  // The book has five priced levels a side once the session's matching runs (not in the pre-open,
  // nor while a session just started on the server is still being built), on a day the stock is
  // not locked at a price limit (then the locked side has its one level, as on the exchange).
  await marketToContinuous(e2eServer().baseURL, { minutesLeft: 1, moving: SYMBOL });
  for (const side of ['bid', 'ask']) {
    for (let n = 1; n <= 5; n++) {
      const cell = page.getByTestId(`depth-${side}-${n}`);
      await expect(cell).toBeVisible();
      await expect(cell.locator('.depth-price')).toHaveText(/^[\d,]+\.\d{2}$/);
    }
  }
  const widths = await page
    .locator('.depth-bar')
    .evaluateAll((bars) => bars.map((b) => (b as HTMLElement).getBoundingClientRect().width));
  expect(widths).toHaveLength(10);
  expect(widths.every((w) => w > 0)).toBe(true);
});

test('the trade tape lists prints, newest first, and keeps moving', async ({ page }) => {
  // Prints only in the continuous session, and keeps moving only on a day not locked at a limit.
  await marketToContinuous(e2eServer().baseURL, { minutesLeft: 60, moving: SYMBOL, speed: 30 });
  await page.getByTestId('book-tab-trades').click();
  const rows = page.getByTestId('tape-row');
  await expect(rows.first()).toBeVisible();
  const times = await page.locator('.tape-row:not(.tape-head) .tape-time').allTextContents();
  expect(times.length).toBeGreaterThan(0);
  expect([...times].sort().reverse()).toEqual(times); // newest first (HH:mm:ss)
  // One synchronous read in the page: a locator's evaluateAll queries and evaluates in two steps,
  // and a print arriving between them unmounts the oldest row (its computed colour is then "").
  const readSideColors = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="tape-row"]:not([data-side="none"]) .tape-lots')].map(
        (e) => [e.closest('[data-side]')!.getAttribute('data-side'), getComputedStyle(e).color],
      ),
    );
  await expect.poll(async () => (await readSideColors()).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const sideColors = await readSideColors();
  for (const [side, color] of sideColors)
    expect(color).toBe(side === 'buy' ? 'rgb(207, 19, 34)' : 'rgb(10, 125, 60)');
  const first = await rows.first().textContent();
  await expect.poll(async () => rows.first().textContent(), { timeout: 20_000 }).not.toBe(first);
  await page.getByTestId('trade-tape').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'detail-trades.png') });
});

test('the chart: TWD colours, each period loads its own bars, the server’s bars exactly', async ({
  page,
  request,
}) => {
  await expect.poll(async () => (await chartState(page))?.bars.length ?? 0).toBeGreaterThan(2);
  const s = (await chartState(page))!;
  expect(s.period).toEqual({ type: 'minute', span: 1 });
  expect([s.volumeUp, s.candleUp]).toEqual([RED, RED]);
  expect([s.volumeDown, s.candleDown]).toEqual([GREEN, GREEN]);

  for (const [period, span] of [
    ['3m', 3],
    ['15m', 15],
    ['1m', 1],
  ] as const) {
    await page.getByTestId(`period-${period}`).click();
    await expect.poll(async () => (await chartState(page))?.period?.span).toBe(span);
    // The chart's bars are the server's bars of that period, ts by ts (the newest may be newer).
    await expect
      .poll(
        async () => {
          const bars = (await chartState(page))!.bars;
          const res = await request.post('/api/vue/market/candles', {
            data: { symbol: SYMBOL, period, limit: 2000 },
          });
          const server = ((await res.json()).data.items as { ts: number }[]).map((c) => c.ts);
          const last = bars[bars.length - 1] ?? 0;
          const expected = server.filter((ts) => ts >= (bars[0] ?? 0) && ts <= last);
          return {
            spaced: bars.every((ts) => ts % (span * 60_000) === 0),
            same: expected.join() === bars.join(),
          };
        },
        { timeout: 20_000 },
      )
      .toEqual({ spaced: true, same: true });
  }
});

test('touch: a vertical swipe on the chart scrolls the page, a horizontal one the chart', async ({
  page,
}) => {
  await expect.poll(async () => (await chartState(page))?.bars.length ?? 0).toBeGreaterThan(10);
  const box = (await page.getByTestId('kline-chart').boundingBox())!;
  // The chart's plot area, on screen.
  const at = { x: box.x + box.width / 2, y: Math.min(box.y + 100, 760) };
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  const before = JSON.stringify((await chartState(page))!.range);
  await swipe(page, at, 200, 0); // drag right: the bars move right (older ones come into view)
  await expect.poll(async () => JSON.stringify((await chartState(page))!.range)).not.toBe(before);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await swipe(page, at, 0, -240);
  await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5_000 }).toBeGreaterThan(100);
});
