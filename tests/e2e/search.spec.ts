/**
 * Search in Chromium at 390×844 on the real server: a member starts from the
 * home screen's search shortcut (/home/searchIndex: no history yet, hot searches shown with what
 * they are based on), types '台積' on /home/search and sees 2330 with a live price and a watchlist
 * star, opens its detail, comes back to the same results, comes back again and finds 2330 in the
 * search history, and clears it. The market screen's header leads to the same place.
 */
import { expect, test } from '../support/e2e-test';
import { httpApi } from '../support/http-funding';
import { marketToContinuous, moveMarket } from '../support/market-clock';
import { e2eServer } from '../support/e2e-server';
import { firstRun } from '../support/first-run';

// Tests here run the market at 30×: it stands still again after each.
test.afterEach(async ({ baseURL }) => {
  await moveMarket(baseURL!, { speed: 0 });
});

const PRICE = /^\d{1,3}(,\d{3})*\.\d{2}$/;

test('search → live results → detail → back → history → clear', async ({ page, baseURL }) => {
  const account = `09${String(Date.now()).slice(-8)}`;
  const reg = await httpApi(baseURL!)<{ token: string }>('user/register', {
    account,
    password: 'password123',
    confirmPassword: 'password123',
    inviteCode: firstRun().invite,
    agree: true,
  });
  expect(reg.status, JSON.stringify(reg)).toBe(1);
  await page.addInitScript(
    ([token, acc]) => {
      if (!localStorage.getItem('tokend')) {
        localStorage.setItem('tokend', token);
        localStorage.setItem('account', acc);
      }
    },
    [reg.data!.token, account] as const,
  );

  // The market screen's header leads to search.
  await page.goto('/#/market/market');
  await page.getByTestId('to-search').click();
  await expect(page).toHaveURL(/#\/home\/searchIndex/);

  // From home: the shortcut; no history yet; hot searches say what they are based on.
  await page.goto('/#/home/index');
  await page.getByTestId('shortcut-search').click();
  await expect(page).toHaveURL(/#\/home\/searchIndex/);
  await expect(page.getByTestId('search-history-empty')).toBeVisible();
  await expect(page.getByTestId('search-hot')).toHaveAttribute('data-basis', /^(searches|turnover)$/);
  await expect(page.getByTestId('search-hot-basis')).not.toBeEmpty();

  // Type: results with live prices and the watchlist star.
  await page.getByTestId('search-entry').click();
  await expect(page).toHaveURL(/#\/home\/search/);
  const input = page.getByTestId('search-input').locator('input');
  await expect(input).toBeFocused();
  await input.pressSequentially('台積');
  const row = page.getByTestId('search-result-2330');
  await expect(row).toBeVisible();
  await expect(page).toHaveURL(/q=%E5%8F%B0%E7%A9%8D/);
  await expect(row.getByTestId('quote-last-2330')).toHaveText(PRICE);
  await expect(row.getByTestId('watch-toggle')).toBeVisible();
  await expect(page.getByTestId('search-count')).toBeVisible();

  // The price keeps moving (the row is subscribed to the stream): the market runs at 30× in the
  // continuous session (the replay prints nothing between 13:30 and the next day's 09:00), on a
  // day 2330 is not locked at a price limit.
  await marketToContinuous(e2eServer().baseURL, { minutesLeft: 60, moving: '2330', speed: 30 });
  const first = await row.getByTestId('quote-last-2330').textContent();
  await expect
    .poll(async () => row.getByTestId('quote-last-2330').textContent(), { timeout: 60_000 })
    .not.toBe(first);

  // Star it from the results: the watchlist has it.
  await row.getByTestId('watch-toggle').click();
  await expect(row.getByTestId('watch-toggle')).toHaveAttribute('aria-pressed', 'true');

  // Open the detail, come back to the same results.
  await row.getByTestId('market-row-2330').click();
  await expect(page).toHaveURL(/#\/market\/marketDetail\?symbol=2330/);
  await expect(page.getByTestId('detail-last')).toHaveText(PRICE);
  await page.goBack();
  await expect(page).toHaveURL(/#\/home\/search\?q=/);
  await expect(input).toHaveValue('台積');
  await expect(page.getByTestId('search-result-2330')).toBeVisible();

  // Back again: 2330 is in the history (kept on the server).
  await page.goBack();
  await expect(page).toHaveURL(/#\/home\/searchIndex/);
  await expect(page.getByTestId('search-history-2330')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('search-history-2330')).toBeVisible();

  // A history entry opens the detail too.
  await page.getByTestId('search-history-2330').click();
  await expect(page).toHaveURL(/#\/market\/marketDetail\?symbol=2330/);
  await page.goBack();

  // Clear it.
  await page.getByTestId('search-history-clear').click();
  await page.locator('.adm-dialog-footer .adm-dialog-button-bold').click();
  await expect(page.getByTestId('search-history-empty')).toBeVisible();
  await expect(page.getByTestId('search-history-2330')).toHaveCount(0);

  // A search with no match says so.
  await page.goto('/#/home/search?q=ZZZZ');
  await expect(page.getByTestId('search-empty')).toBeVisible();
});
