/**
 * Stock lending and the margin loan / short selling view in Chromium at 390×844, in tw and en, on
 * the real server: the operator opens a quota on 2330; a funded member holding a fully paid 2330
 * long and a 5× 2317 short opens "stock lending" from home, lends 500 shares at the default rate
 * (the order shows "in loan"), cannot sell the holding while it is in loan (the refusal's text),
 * recalls it ("finished"); then opens "margin loan and short selling" and sees the short as a short
 * sale with its margin. Screenshots go to docs/screenshots (lending-*, margin-*).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../support/e2e-test';
import { depositApproved, httpApi } from '../support/http-funding';
import { marketToContinuous } from '../support/market-clock';
import { logInPage, operatorToken, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('docs/screenshots');
mkdirSync(shots, { recursive: true });
type Lang = 'tw' | 'en';
const read = (file: string) => JSON.parse(readFileSync(path.resolve(file), 'utf8'));
const STRINGS: Record<Lang, any> = { tw: read('locales/more/tw.json'), en: read('locales/more/en.json') };

const CASES: { lang: Lang; account: string }[] = [
  { lang: 'tw', account: '0911000831' },
  { lang: 'en', account: '0911000832' },
];

for (const { lang, account } of CASES) {
  test(`lend a holding, refuse its sale, recall; see the margin view (${lang})`, async ({ page }) => {
    const S = STRINGS[lang];
    const baseUrl = e2eServer().baseURL;
    const call = httpApi(baseUrl);
    const opToken = await operatorToken(baseUrl);
    const quota = await call('admin/saveLendingQuota', { symbol: '2330', quotaShares: 100_000 }, opToken);
    expect(quota.status, quota.msg).toBe(1);
    const token = await registerMember(baseUrl, account);
    await depositApproved(baseUrl, token, opToken, 500_000_000);
    await marketToContinuous(baseUrl, { minutesLeft: 30 });
    const order = (body: object) =>
      call<{ id: number; status: string }>('trade/placeOrder', body, token, {
        'idempotency-key': crypto.randomUUID(),
      });
    const long = await order({ symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 1 });
    expect(long.status, long.msg).toBe(1);
    const short = await order({ symbol: '2317', side: 'short', orderType: 'market', lots: 1, leverage: 5 });
    expect(short.status, short.msg).toBe(1);

    await logInPage(page, token, account, lang);
    await page.goto('/#/home/index');
    await page.getByTestId('shortcut-lending').click();
    await expect(page).toHaveURL(/#\/common\/lending/);
    const holding = page.getByTestId('lending-holding').first();
    await expect(holding).toContainText('2330');
    await page.screenshot({ path: path.join(shots, `lending-holdings-${lang}.png`) });
    await holding.getByTestId('lending-pick').click();
    await page.getByTestId('lending-shares').locator('input').fill('500');
    await expect(page.getByTestId('lending-estimate')).not.toHaveText('--');
    await page.getByTestId('lending-form').screenshot({ path: path.join(shots, `lending-form-${lang}.png`) });
    await page.getByTestId('lending-submit').click();
    const loan = page.getByTestId('lending-order').first();
    await expect(loan.getByTestId('lending-status')).toHaveText(S.lending.status.inLoan);
    await page.screenshot({ path: path.join(shots, `lending-in-loan-${lang}.png`), fullPage: true });

    // The holding cannot be sold while in loan.
    const refused = await call('trade/closePosition', { orderId: long.data.id }, token, {
      'idempotency-key': crypto.randomUUID(),
    });
    expect(refused.msg).toBe('lendingSharesInLoan');
    expect(S.errors.lendingSharesInLoan).toBeTruthy();

    await loan.getByTestId('lending-recall').click();
    await page.locator('.adm-dialog-footer').getByText(S.lending.recall, { exact: true }).click();
    await expect(loan.getByTestId('lending-status')).toHaveText(S.lending.status.finished);
    await page.screenshot({ path: path.join(shots, `lending-recalled-${lang}.png`), fullPage: true });

    await page.goto('/#/home/index');
    await page.getByTestId('shortcut-margin').click();
    await expect(page).toHaveURL(/#\/common\/margin/);
    const shortRow = page.getByTestId('margin-shorts').getByTestId('margin-position');
    await expect(shortRow.first()).toContainText('2317');
    await expect(page.getByTestId('margin-used')).not.toHaveText('--');
    await page.screenshot({ path: path.join(shots, `margin-view-${lang}.png`), fullPage: true });
  });
}
