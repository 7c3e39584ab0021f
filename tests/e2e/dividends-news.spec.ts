/**
 * Dividends and news in Chromium at 390×844, in tw and en, on the real server (whole market,
 * replay clock): a member opens "dividends" from home, sees the ex-dividend calendar of the
 * replayed day (the exchanges' events: a cash dividend and a reference price on every row),
 * switches to the yield list and opens a stock's history; an article the operator publishes
 * (admin/saveNews) is in the home news section, the news list and its detail page, in the
 * member's language.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../support/e2e-test';
import { httpApi } from '../support/http-funding';
import { logInPage, operatorToken, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

type Lang = 'tw' | 'en';
const read = (file: string) => JSON.parse(readFileSync(path.resolve(file), 'utf8'));
const STRINGS: Record<Lang, any> = { tw: read('locales/more/tw.json'), en: read('locales/more/en.json') };

const CASES: { lang: Lang; account: string }[] = [
  { lang: 'tw', account: '0911000821' },
  { lang: 'en', account: '0911000822' },
];

for (const { lang, account } of CASES) {
  test(`dividend calendar, yield list, history and news (${lang})`, async ({ page }) => {
    const S = STRINGS[lang];
    const call = httpApi(e2eServer().baseURL);
    const opToken = await operatorToken(e2eServer().baseURL);
    const token = await registerMember(e2eServer().baseURL, account);
    const title = { titleTw: `測試公告 ${account}`, titleEn: `Test notice ${account}` };
    const saved = await call<{ id: number }>(
      'admin/saveNews',
      { ...title, bodyTw: '第一行\n第二行', bodyEn: 'Line one\nLine two', symbols: ['2330'] },
      opToken,
    );
    expect(saved.status, saved.msg).toBe(1);
    await logInPage(page, token, account, lang);

    await page.goto('/#/home/index');
    const mine = lang === 'en' ? title.titleEn : title.titleTw;
    await expect(page.getByTestId('home-news')).toContainText(mine);
    await page.getByTestId('shortcut-dividend').click();
    await expect(page).toHaveURL(/#\/common\/dividend/);
    const list = page.getByTestId('dividend-calendar-upcoming');
    await expect(list.locator('.dividend-row').first()).toBeVisible();
    await expect(page.getByTestId('dividend-today')).toContainText('2025-');
    await expect(list.getByTestId('dividend-cash').first()).toHaveText(/^\d+(\.\d+)?$/);

    await page.getByTestId('dividend-nav-stocks').click();
    await expect(page).toHaveURL(/#\/common\/dividend2/);
    const first = page.getByTestId('dividend-stocks').locator('[data-testid^="dividend-stock-"]').first();
    await expect(first.getByTestId('dividend-yield')).toHaveText(/%$/);
    await first.click();
    await expect(page).toHaveURL(/#\/common\/dividend3\?symbol=/);
    await expect(page.getByTestId('dividend-credits')).toContainText(S.dividend.myCredits);

    await page.goto('/#/home/moreNews');
    const row = page.getByTestId(`news-row-${saved.data.id}`);
    await expect(row).toContainText(mine);
    await row.click();
    await expect(page).toHaveURL(new RegExp(`DetailsPage\\?id=${saved.data.id}`));
    await expect(page.getByTestId('news-article-title')).toHaveText(mine);
    await expect(page.getByTestId('news-article-body')).toContainText(lang === 'en' ? 'Line two' : '第二行');
  });
}
