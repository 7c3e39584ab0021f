/**
 * Public subscription in Chromium at 390×844, in tw and en, on the real server with the seeded
 * real announcements: a funded member opens "new share subscription" from home, applies to an
 * open offering (NT$ price × shares + 70 held: the member centre's frozen figure grows by it), a
 * second tap is not offered, the record shows "waiting for draw"; on an ended offering whose draw
 * has run, "verify" re-runs the published draw with the browser's Web Crypto and confirms it.
 *
 * The whole path to a delivered holding (about seven replayed days, the test moving the market
 * clock) is tests/e2e/primary.spec.ts.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../support/e2e-test';
import { depositApproved, httpApi } from '../support/http-funding';
import { logInPage, operatorToken, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('tests/e2e/screenshots');
mkdirSync(shots, { recursive: true });
type Lang = 'tw' | 'en';
const read = (file: string) => JSON.parse(readFileSync(path.resolve(file), 'utf8'));
const STRINGS: Record<Lang, any> = { tw: read('locales/more/tw.json'), en: read('locales/more/en.json') };

const CASES: { lang: Lang; account: string }[] = [
  { lang: 'tw', account: '0911000701' },
  { lang: 'en', account: '0911000702' },
];

for (const { lang, account } of CASES) {
  test(`apply to a public subscription and verify a published draw (${lang})`, async ({ page }) => {
    const S = STRINGS[lang].ipo;
    const baseUrl = e2eServer().baseURL;
    const call = httpApi(baseUrl);
    const opToken = await operatorToken(baseUrl);
    const token = await registerMember(baseUrl, account);
    await depositApproved(baseUrl, token, opToken, 500_000_000);
    await logInPage(page, token, account, lang);

    await page.goto('/#/home/index');
    await page.getByTestId('shortcut-subscribe').click();
    await expect(page).toHaveURL(/#\/market\/subscribe/);
    const open = page.getByTestId('ipo-list-open');
    await expect(open).toBeVisible();
    // An offering without an application of this member (the other language's member is another).
    const row = open.locator('[data-testid^="ipo-row-"]').first();
    await row.click();
    await expect(page).toHaveURL(/subscribeDetail\?id=\d+/);
    const payable = (await page.getByTestId('ipo-payable').textContent())!.trim();
    await page.getByTestId('ipo-apply').click();
    await page.locator('.adm-dialog-footer').getByText(S.apply, { exact: true }).click();
    await expect(page.getByTestId('ipo-mine').getByTestId('ipo-status')).toHaveText(S.status.waitingDraw);
    await expect(page.getByTestId('ipo-paid')).toHaveText(payable);
    await expect(page.getByTestId('ipo-apply')).toHaveCount(0);
    await page.screenshot({ path: path.join(shots, `ipo-${lang}-applied.png`) });

    await page.goto('/#/market/subscribeRecord');
    await expect(page.getByTestId('ipo-records').getByTestId('ipo-status').first()).toHaveText(
      S.status.waitingDraw,
    );

    // A seeded offering whose steps have all run: its draw is published with the seed.
    const ended = await call<{ items: Array<{ id: number; stage: string }> }>(
      'ipo/list',
      { tab: 'ended', pageSize: 50 },
      token,
    );
    const drawn = ended.data.items.find((o) => ['drawn', 'refunded', 'listed'].includes(o.stage))!;
    expect(drawn, 'an ended offering whose draw has run').toBeTruthy();
    await page.goto(`/#/market/subscribeDetail?id=${drawn.id}`);
    await page.getByTestId('ipo-verify').click();
    await expect(page.getByTestId('ipo-verdict')).toContainText(S.draw.commitmentOk);
    await expect(page.getByTestId('ipo-verdict')).toContainText(S.draw.winnersOk);
    await page.screenshot({ path: path.join(shots, `ipo-${lang}-verified.png`) });
  });
}
