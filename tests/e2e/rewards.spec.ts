/**
 * Rewards in Chromium at 390×844, in tw and en, on the real server: a funded member signs in from
 * the member centre (+10 points, then "signed in today"), redeems a points code an operator
 * issued (+200 points) on /home/coupons, buys a NT$20 coupon for 100 points (it is listed under
 * "available"), a wrong code is refused with the spec's "points code invalid or expired", and
 * /user/accountLevel shows the level, both figures and the level table. The screens are saved to
 * docs/screenshots/rewards-{level,coupons,redeem}-<lang>.png.
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
  { lang: 'tw', account: '0911000841' },
  { lang: 'en', account: '0911000842' },
];

for (const { lang, account } of CASES) {
  test(`sign in, redeem a points code, buy a coupon, see the account level (${lang})`, async ({ page }) => {
    const R = STRINGS[lang].rewards;
    const E = STRINGS[lang].errors;
    const baseUrl = e2eServer().baseURL;
    const call = httpApi(baseUrl);
    const opToken = await operatorToken(baseUrl);
    const token = await registerMember(baseUrl, account);
    await depositApproved(baseUrl, token, opToken, 50_000_000);
    const batch = await call<{ codes: string[] }>(
      'admin/createPointsCodes',
      { kind: 'points', amount: 200, count: 1, perMemberLimit: 1, expiresAt: Date.now() + 86_400_000 },
      opToken,
    );
    expect(batch.status, batch.msg).toBe(1);
    await logInPage(page, token, account, lang);

    await page.goto('/#/user/usercenter');
    const card = page.getByTestId('uc-rewards');
    await expect(card).toBeVisible();
    await expect(page.getByTestId('uc-points')).toHaveText('0');
    await page.getByTestId('uc-sign-in').click();
    await expect(page.getByTestId('uc-points')).toHaveText('10');
    await expect(page.getByTestId('uc-sign-in')).toHaveText(R.signedInToday);
    await expect(page.getByTestId('uc-sign-in')).toBeDisabled();

    await page.getByTestId('uc-link-coupons').click();
    await expect(page).toHaveURL(/#\/home\/coupons/);
    await page.getByTestId('redeem-code').locator('input').fill('WRONG-CODE-0000-0000');
    await page.getByTestId('redeem-submit').click();
    await expect(page.getByText(E.pointsCodeInvalid)).toBeVisible();
    await page.getByTestId('redeem-code').locator('input').fill(batch.data.codes[0]!.toLowerCase());
    await page.getByTestId('redeem-submit').click();
    await expect(page.getByTestId('shop-points')).toHaveText('210');
    await page.screenshot({ path: path.join(shots, `rewards-redeem-${lang}.png`) });
    await page.getByTestId('buy-off20').click();
    await expect(page.getByTestId('shop-points')).toHaveText('110');
    const list = page.getByTestId('coupons-list');
    await expect(list.locator('[data-testid^="coupon-"]')).toHaveCount(1);
    await expect(list).toContainText(R.couponAmount.replace('{{amount}}', '20.00'));
    await page.screenshot({ path: path.join(shots, `rewards-coupons-${lang}.png`) });

    await page.goto('/#/user/accountLevel');
    await expect(page.getByTestId('level-name')).toHaveText('VIP0');
    await expect(page.getByTestId('level-assets')).toContainText('500,000.00');
    await expect(page.getByTestId('level-table').locator('tbody tr')).toHaveCount(4);
    await expect(page.getByTestId('level-next')).toContainText(R.nextLevel.replace('{{name}}', 'VIP1'));
    await page.screenshot({ path: path.join(shots, `rewards-level-${lang}.png`) });
  });
}
