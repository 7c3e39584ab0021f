/**
 * The confirmation threshold in Chromium at 390×844, in tw and en, on the real server (manual
 * market clock): a funded member with the default threshold (NT$100,000)
 * - places a large leveraged limit order (2 lots of 2330 at 5×, at the day's limit-down price so
 *   it waits as pending): the dialog names it (stock, side, lots, leverage, price, notional, total
 *   required); dismissing it places nothing; confirming places it;
 * - cancels it: asked again (its frozen funds are above the threshold); "keep" keeps it, then
 *   the cancel goes through;
 * - raises the threshold on /user/setting above the order: the same order goes on one tap, and
 *   its cancel too;
 * - sets it back to NT$100,000: an exchange of NT$200,000 into USD asks (its TWD value shown);
 *   one of NT$1,000 goes on one tap.
 * Screens saved to docs/screenshots/confirm-{setting,order,cancel,exchange}-<lang>.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '../support/e2e-test';
import { CONFIRM_ABOVE_DEFAULT_MINOR } from '../../contract/account';
import { minorToDecimal } from '../../contract/money';
import { formatMinor } from '../../src/lib/format';
import { firstRun } from '../support/first-run';
import { depositApproved, httpApi, type HttpCall } from '../support/http-funding';
import { marketToContinuous } from '../support/market-clock';
import { logInPage, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('docs/screenshots');
mkdirSync(shots, { recursive: true });
type Lang = 'tw' | 'en';
const read = (file: string) => JSON.parse(readFileSync(path.resolve(file), 'utf8'));
const MORE: Record<Lang, any> = { tw: read('locales/more/tw.json'), en: read('locales/more/en.json') };
const BASE: Record<Lang, any> = { tw: read('locales/tw.json'), en: read('locales/en.json') };

const CASES: { lang: Lang; account: string }[] = [
  { lang: 'tw', account: '0911002301' },
  { lang: 'en', account: '0911002302' },
];
const SYMBOL = '2330';
const LOTS = 2;
const LEVERAGE = 5;

/** "1,234,567.89" (with any label around it) → minor units, exactly. */
function toMinor(text: string): number {
  const m = /(-)?([\d,]+)\.(\d{2})/.exec(text);
  if (!m) throw new Error(`no money value in ${JSON.stringify(text)}`);
  const v = Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3]);
  return m[1] ? -v : v;
}

/**
 * Waits until the dialog has finished appearing (antd-mobile animates its opacity) and no toast
 * is on screen, so a screenshot shows the dialog as the member reads it.
 */
async function settled(page: Page) {
  await expect(page.locator('.adm-toast-main')).toHaveCount(0);
  await page.waitForFunction(() => {
    const body = document.querySelector<HTMLElement>('.adm-center-popup-wrap > div');
    const mask = document.querySelector<HTMLElement>('.adm-center-popup-mask');
    return (
      !!body && getComputedStyle(body).opacity === '1' && (!mask || getComputedStyle(mask).opacity === '1')
    );
  });
}

/** The open dialog's button labelled `name`. */
const dialogButton = (page: Page, name: string) =>
  page.locator('.adm-dialog-footer').getByRole('button', { name, exact: true });

for (const { lang, account } of CASES) {
  test(`orders, cancels and exchanges above the threshold ask first; below it one tap (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const M = MORE[lang];
    const B = BASE[lang];
    const baseUrl = e2eServer().baseURL;
    const call: HttpCall = httpApi(baseUrl);
    const creds = firstRun();
    const op = await call<{ token: string }>('admin/login', {
      account: creds.operator,
      password: creds.password,
    });
    const token = await registerMember(baseUrl, account);
    await depositApproved(baseUrl, token, op.data.token, 500_000_000);
    await logInPage(page, token, account, lang);
    const orders = async (tab: 'orders' | 'holdings') =>
      (
        await call<{ items: Array<{ id: number; status: string }> }>(
          'trade/orders',
          { tab, page: 1, pageSize: 50 },
          token,
        )
      ).data.items;
    const threshold = async () =>
      (await call<{ confirmAboveMinor: number }>('user/preferences', {}, token)).data.confirmAboveMinor;

    // ---- the setting: the default, in words ----
    await page.goto('/#/user/setting');
    const setting = page.getByTestId('setting-confirm-above');
    await expect(setting).toContainText(M.settings.confirmAbove.label);
    const input = page.getByTestId('setting-confirm-above-input');
    await expect(input).toHaveValue(formatMinor(CONFIRM_ABOVE_DEFAULT_MINOR)); // "100,000.00"
    await setting.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, `confirm-setting-${lang}.png`) });
    expect(await threshold()).toBe(CONFIRM_ABOVE_DEFAULT_MINOR);

    // ---- a large leveraged order asks ----
    // Not a day 2330 spends at limit-down: the order at the limit-down price must wait as pending.
    await marketToContinuous(baseUrl, { minutesLeft: 90, moving: SYMBOL });
    const q = (
      await call<{ items: Array<{ limitDownMinor: number }> }>('market/quotes', { symbols: [SYMBOL] })
    ).data.items[0]!;
    const fillTicket = async () => {
      await page.goto(`/#/market/marketDetail?symbol=${SYMBOL}`);
      await expect(page.getByTestId('detail-last')).not.toBeEmpty();
      await page.getByTestId('order-side-long').click();
      await page.getByTestId('order-type-limit').click();
      await page.getByTestId('order-price').fill(minorToDecimal(q.limitDownMinor));
      await page.getByTestId(`leverage-${LEVERAGE}`).click();
      await page.getByTestId('order-lots').fill(String(LOTS));
      await expect(page.getByTestId('order-preview-required')).not.toBeEmpty();
      await expect(page.getByTestId('order-submit')).toBeEnabled();
      return toMinor((await page.getByTestId('order-preview-required').textContent())!);
    };
    const required = await fillTicket();
    expect(required, 'the order is above the default threshold').toBeGreaterThanOrEqual(
      CONFIRM_ABOVE_DEFAULT_MINOR,
    );
    await page.getByTestId('order-submit').click();
    const dialog = page.getByTestId('confirm-above');
    await expect(dialog).toBeVisible();
    await expect(page.locator('.adm-dialog')).toContainText(M.confirm.orderTitle);
    await expect(page.getByTestId('confirm-above-symbol')).toContainText(SYMBOL);
    await expect(page.getByTestId('confirm-above-side')).toHaveText(M.side.long);
    await expect(page.getByTestId('confirm-above-lots')).toHaveText(String(LOTS));
    await expect(page.getByTestId('confirm-above-leverage')).toHaveText(`${LEVERAGE}×`);
    await expect(page.getByTestId('confirm-above-price')).toContainText(M.orderType.limit);
    expect(toMinor((await page.getByTestId('confirm-above-price').textContent())!)).toBe(q.limitDownMinor);
    expect(toMinor((await page.getByTestId('confirm-above-notional').textContent())!)).toBe(
      q.limitDownMinor * LOTS * 1000,
    );
    expect(toMinor((await page.getByTestId('confirm-above-required').textContent())!)).toBe(required);
    await expect(page.getByTestId('confirm-above-note')).toContainText('100,000.00');
    await settled(page);
    await page.screenshot({ path: path.join(shots, `confirm-order-${lang}.png`) });

    // Dismissed: nothing is placed.
    await dialogButton(page, B.common.cancel).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('order-submit')).toBeEnabled();
    expect(await orders('orders')).toEqual([]);
    expect(await orders('holdings')).toEqual([]);

    // Confirmed: placed once, pending at the limit-down price.
    await page.getByTestId('order-submit').click();
    await dialogButton(page, M.order.submitLong).click();
    await expect(page).toHaveURL(/#\/position\/position\?tab=orders/);
    await expect.poll(async () => (await orders('orders')).length).toBe(1);
    const first = (await orders('orders'))[0]!;
    expect(first.status).toBe('pending');

    // ---- its cancel asks too (its frozen funds are above the threshold) ----
    const cancel = page.getByTestId(`order-cancel-${first.id}`);
    await cancel.click();
    await expect(dialog).toBeVisible();
    await expect(page.locator('.adm-dialog')).toContainText(M.confirm.cancelTitle);
    await expect(page.getByTestId('confirm-above-symbol')).toContainText(SYMBOL);
    expect(toMinor((await page.getByTestId('confirm-above-frozen').textContent())!)).toBe(required);
    await settled(page);
    await page.screenshot({ path: path.join(shots, `confirm-cancel-${lang}.png`) });
    await dialogButton(page, M.confirm.keep).click();
    await expect(dialog).toHaveCount(0);
    expect((await orders('orders')).map((o) => o.id)).toEqual([first.id]);
    await cancel.click();
    await dialogButton(page, M.position.cancel).click();
    await expect(page.getByTestId(`position-row-${first.id}`)).toHaveCount(0);
    expect(await orders('orders')).toEqual([]);

    // ---- a higher threshold: the same order and its cancel go on one tap ----
    await page.goto('/#/user/setting');
    await input.fill('100000000');
    await page.getByTestId('setting-confirm-above-save').click();
    await expect.poll(threshold).toBe(10_000_000_000);
    await expect(page.getByTestId('setting-confirm-above')).toHaveAttribute('data-saved', '10000000000');
    await expect(page.getByTestId('setting-confirm-above-save')).toBeDisabled();
    await expect(page.locator('.adm-toast-main')).toHaveCount(0);
    await page.screenshot({ path: path.join(shots, `confirm-setting-saved-${lang}.png`) });

    await marketToContinuous(baseUrl, { minutesLeft: 30, moving: SYMBOL });
    expect(await fillTicket()).toBe(required);
    await page.getByTestId('order-submit').click();
    await expect(page).toHaveURL(/#\/position\/position\?tab=orders/);
    await expect.poll(async () => (await orders('orders')).length).toBe(1);
    const second = (await orders('orders'))[0]!;
    await page.getByTestId(`order-cancel-${second.id}`).click();
    await expect(page.getByTestId(`position-row-${second.id}`)).toHaveCount(0);
    await expect(dialog).toHaveCount(0);
    expect(await orders('orders')).toEqual([]);

    // ---- back to NT$100,000: a large exchange asks, a small one does not ----
    await page.goto('/#/user/setting');
    await input.fill('100000');
    await page.getByTestId('setting-confirm-above-save').click();
    await expect.poll(threshold).toBe(CONFIRM_ABOVE_DEFAULT_MINOR);
    await page.goto('/#/user/exchange');
    await expect(page.getByTestId('exchange-from')).toHaveValue('TWD');
    await expect(page.getByTestId('exchange-to')).toHaveValue('USD');
    await page.getByTestId('exchange-amount').fill('200000');
    await expect(page.getByTestId('exchange-preview')).not.toBeEmpty();
    const usd = (await page.getByTestId('exchange-preview').textContent())!;
    await page.getByTestId('exchange-submit').click();
    await expect(dialog).toBeVisible();
    await expect(page.locator('.adm-dialog')).toContainText(M.confirm.exchangeTitle);
    await expect(page.getByTestId('confirm-above-pay')).toHaveText('200,000.00 TWD');
    await expect(page.getByTestId('confirm-above-receive')).toHaveText(usd);
    await expect(page.getByTestId('confirm-above-twd')).toHaveText('200,000.00 TWD');
    await settled(page);
    await page.screenshot({ path: path.join(shots, `confirm-exchange-${lang}.png`) });
    await dialogButton(page, B.common.cancel).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('exchange-result')).toHaveCount(0);
    await page.getByTestId('exchange-submit').click();
    await dialogButton(page, M.exchange.submit).click();
    await expect(page.getByTestId('exchange-result')).toContainText('200,000.00 TWD');

    await page.getByTestId('exchange-amount').fill('1000');
    await page.getByTestId('exchange-submit').click();
    await expect(page.getByTestId('exchange-result')).toContainText('1,000.00 TWD');
    await expect(dialog).toHaveCount(0);
    const records = await call<{ exchanges: Array<{ fromMinor: number }> }>(
      'user/fundRecords',
      { tab: 'exchange', page: 1, pageSize: 20 },
      token,
    );
    expect(records.data.exchanges.map((x) => x.fromMinor).sort((a, b) => a - b)).toEqual([
      100_000, 20_000_000,
    ]);
  });
}
