/**
 * Credit loans in Chromium at 390×844, in tw and en, on the real server: a funded member opens
 * "credit loan" from home (the score with its factors and the limit), applies on the loan
 * records (/user/jkjl) within the available limit, the operator approves through the API, the
 * record shows "in lending" with what is owed, the member repays it all from the popup and the
 * record shows "completed"; the member centre shows the credit score, limit and debt.
 * Screenshots go to docs/screenshots/credit-*-{tw,en}.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../support/e2e-test';
import { depositApproved, httpApi } from '../support/http-funding';
import { logInPage, operatorToken, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('docs/screenshots');
mkdirSync(shots, { recursive: true });
type Lang = 'tw' | 'en';
const read = (file: string) => JSON.parse(readFileSync(path.resolve(file), 'utf8'));
const STRINGS: Record<Lang, any> = { tw: read('locales/more/tw.json'), en: read('locales/more/en.json') };

const CASES: { lang: Lang; account: string }[] = [
  { lang: 'tw', account: '0911000801' },
  { lang: 'en', account: '0911000802' },
];

for (const { lang, account } of CASES) {
  test(`apply for a credit loan, approved, repaid (${lang})`, async ({ page }) => {
    const S = STRINGS[lang].credit;
    const baseUrl = e2eServer().baseURL;
    const call = httpApi(baseUrl);
    const opToken = await operatorToken(baseUrl);
    const token = await registerMember(baseUrl, account);
    await depositApproved(baseUrl, token, opToken, 20_000_000);
    await logInPage(page, token, account, lang);

    await page.goto('/#/home/index');
    await page.getByTestId('shortcut-credit').click();
    await expect(page).toHaveURL(/#\/user\/credit/);
    // base 300 + verified identity (100; deposits need it) + deposits NT$200,000 (150, capped)
    // = 550 → the 500 band: NT$50,000.
    await expect(page.getByTestId('credit-score')).toHaveText('550');
    await expect(page.getByTestId('credit-points-deposits')).toHaveText('+150');
    await expect(page.getByTestId('credit-limit')).toHaveText('50,000.00');
    await page.screenshot({ path: path.join(shots, `credit-score-${lang}.png`), fullPage: true });

    await page.getByTestId('credit-apply').click();
    await expect(page).toHaveURL(/#\/user\/jkjl/);
    await page.getByTestId('credit-apply-amount').fill('5000');
    await page.getByTestId('credit-apply-submit').click();
    await page.locator('.adm-dialog-footer').getByText(S.apply, { exact: true }).click();
    const loans = page.getByTestId('credit-loans');
    await expect(loans.getByTestId('credit-loan-status').first()).toHaveText(S.status.pending);

    const queue = await call<{ items: Array<{ id: number; account: string }> }>(
      'admin/creditLoans',
      { status: 'pending', pageSize: 200 },
      opToken,
    );
    const mine = queue.data.items.find((i) => i.account === account)!;
    const approved = await call('admin/approveCreditLoan', { id: mine.id }, opToken);
    expect(approved.status, approved.msg).toBe(1);

    await page.reload();
    await expect(loans.getByTestId('credit-loan-status').first()).toHaveText(S.status.lending);
    await expect(page.getByTestId('jkjl-debt')).not.toHaveText('0.00');
    await page.screenshot({ path: path.join(shots, `credit-lending-${lang}.png`), fullPage: true });

    await page.getByTestId(`credit-repay-${mine.id}`).click();
    await page.getByTestId('credit-repay-all').click();
    await page.screenshot({ path: path.join(shots, `credit-repay-${lang}.png`) });
    await page.getByTestId('credit-repay-submit').click();
    await expect(loans.getByTestId('credit-loan-status').first()).toHaveText(S.status.completed);
    await expect(page.getByTestId('jkjl-debt')).toHaveText('0.00');
    await page.screenshot({ path: path.join(shots, `credit-completed-${lang}.png`), fullPage: true });

    await page.goto('/#/user/usercenter');
    // Repaid on time (before its due day): +30, 550 → 580.
    await expect(page.getByTestId('uc-credit-score')).toHaveText('580');
    await expect(page.getByTestId('uc-credit-debt')).toHaveText('0.00');
    await page.getByTestId('uc-credit').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, `credit-usercenter-${lang}.png`) });
  });
}
