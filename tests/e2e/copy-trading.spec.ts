/**
 * Copy trading in Chromium at 390×844, in tw and en, on the real server (manual market clock,
 * the copy trader's pass every second):
 * - a mentor is made as a member becomes one: funded, five round trips through the API, an
 *   application (mentor/apply) and the operator's approval in the console's mentor queue (the
 *   e2e server sets MENTOR_MIN_ACCOUNT_DAYS=0: a fresh account cannot be 30 days old);
 * - a funded member opens Follow orders, the mentor's card and info, follows with NT$500,000;
 * - the mentor buys 10 lots; the follower's records show the copy (2 lots: floor(10 × 500,000 ÷
 *   the mentor's ~NT$2,000,000 equity)), and the copy is a position in the follower's holdings;
 * - the follower stops: the follow shows ended with the equity returned, and the wallet has it.
 * Screens saved to docs/screenshots/copy-{mentors,mentor,form,follows,records,holding,stopped}-<lang>.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '../support/e2e-test';
import { depositApproved, httpApi } from '../support/http-funding';
import { tr, type Lang } from '../support/locales';
import { marketToContinuous } from '../support/market-clock';
import { logInPage, openConsole, operatorToken, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('docs/screenshots');
mkdirSync(shots, { recursive: true });

const CASES: { lang: Lang; mentor: string; follower: string }[] = [
  { lang: 'tw', mentor: '0911003001', follower: '0911003002' },
  { lang: 'en', mentor: '0911003003', follower: '0911003004' },
];
const NT = 100;
const key = () => ({ 'idempotency-key': crypto.randomUUID() });
/** Minor units as the screens show them: "496,190.00". */
const money = (minor: number) =>
  (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A screenshot once no toast or dialog is left on screen (both fade out). */
async function shot(page: Page, name: string, fullPage = false) {
  await expect(page.locator('.adm-toast-main')).toHaveCount(0);
  await expect(page.locator('.adm-dialog-body')).toHaveCount(0);
  await page.screenshot({ path: path.join(shots, name), fullPage });
}

for (const { lang, mentor, follower } of CASES) {
  test(`a member follows a mentor, sees the copied order, stops and gets the equity back (${lang})`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const baseUrl = e2eServer().baseURL;
    const call = httpApi(baseUrl);
    const op = await operatorToken(baseUrl);
    const mentorToken = await registerMember(baseUrl, mentor);
    await depositApproved(baseUrl, mentorToken, op, 2_000_000 * NT);
    const followerToken = await registerMember(baseUrl, follower);
    await depositApproved(baseUrl, followerToken, op, 600_000 * NT);
    await marketToContinuous(baseUrl, { minutesLeft: 45 });

    // The mentor: five round trips, then the application.
    const order = (lots: number) =>
      call<{ id: number }>(
        'trade/placeOrder',
        { symbol: '2317', side: 'long', orderType: 'market', lots, leverage: 10 },
        mentorToken,
        key(),
      );
    for (let i = 0; i < 5; i++) {
      const o = await order(1);
      expect(o.status, o.msg).toBe(1);
      const c = await call('trade/closePosition', { orderId: o.data.id }, mentorToken, key());
      expect(c.status, c.msg).toBe(1);
    }
    const applied = await call<{ id: number; status: string }>('mentor/apply', {}, mentorToken);
    expect(applied.status, applied.msg).toBe(1);
    const mentorId = applied.data.id;

    // The operator approves it in the console's mentor queue.
    const consolePage = await openConsole(browser, lang);
    await consolePage.getByTestId('admin-tab-mentors').click();
    await consolePage.getByTestId(`mentor-approve-${mentorId}`).click();
    await expect(consolePage.getByTestId(`mentor-approve-${mentorId}`)).toHaveCount(0);
    await consolePage.context().close();

    // The follower finds the mentor and follows with NT$500,000.
    await logInPage(page, followerToken, follower, lang);
    await page.goto('/#/gdindex/gdindex');
    const card = page.getByTestId(`gd-mentor-${mentorId}`);
    await expect(card).toBeVisible();
    await shot(page, `copy-mentors-${lang}.png`);
    await card.click();
    await expect(page.getByTestId('gd-info')).toContainText(tr(lang, 'follow.closedTrades'));
    await shot(page, `copy-mentor-${lang}.png`, true);
    await page.getByTestId('gd-follow').click();
    await page.getByTestId('ds-amount').locator('input').fill('500000');
    await expect(page.getByTestId('ds-submit')).toBeEnabled();
    await shot(page, `copy-form-${lang}.png`);
    await page.getByTestId('ds-submit').click();
    await expect(page).toHaveURL(/#\/gdindex\/dsFllowInfo/);
    const follow = page.locator('[data-testid^="ds-follow-"]').first();
    await expect(follow).toContainText(tr(lang, 'follow.state.following'));
    const followId = Number((await follow.getAttribute('data-testid'))!.replace('ds-follow-', ''));

    // The mentor buys; the copy trader copies 2 lots within a pass or two.
    const bought = await order(10);
    expect(bought.status, bought.msg).toBe(1);
    await expect
      .poll(
        async () =>
          (
            await call<{ items: { status: string; lots: number }[] }>(
              'follow/records',
              { followId },
              followerToken,
            )
          ).data.items.map((c) => `${c.status}/${c.lots}`),
        { timeout: 20_000 },
      )
      .toEqual(['open/2']);
    await follow.getByTestId('ds-records').click();
    const record = page.locator('[data-testid^="ds-record-"][data-status="open"]');
    await expect(record).toContainText('2317');
    await expect(record).toContainText(tr(lang, 'follow.copy.open'));
    await shot(page, `copy-records-${lang}.png`);
    // The copy is the follower's own position: in holdings, 2 lots of 2317 at the mentor's leverage.
    const copyId = (
      await call<{ items: { status: string; orderId: number | null }[] }>(
        'follow/records',
        { followId },
        followerToken,
      )
    ).data.items[0]!.orderId;
    await page.goto('/#/position/position');
    const held = page.getByTestId(`position-row-${copyId}`);
    await expect(held).toContainText('2317');
    await shot(page, `copy-holding-${lang}.png`);

    // Stop: the copy closes at market and the equity returns to the wallet.
    await page.goto('/#/gdindex/dsFllowInfo');
    // The list is read again when it opens: the follow's cash is less the copy's cost now.
    const running = await call<{ items: { id: number; cashMinor: number }[] }>(
      'follow/list',
      {},
      followerToken,
    );
    const cash = running.data.items.find((f) => f.id === followId)!.cashMinor;
    expect(cash).toBeLessThan(500_000 * NT);
    await expect(follow).toContainText(money(cash));
    await shot(page, `copy-follows-${lang}.png`, true);
    const available = async () =>
      (await call<{ availableMinor: number }>('user/info', {}, followerToken)).data.availableMinor;
    const before = await available();
    await follow.getByTestId('ds-stop').click();
    await page.locator('.adm-dialog-footer').getByText(tr(lang, 'follow.stop'), { exact: true }).click();
    await expect(follow).toContainText(tr(lang, 'follow.state.ended'));
    await expect(follow).toContainText(tr(lang, 'follow.returned'));
    const list = await call<{ items: { id: number; status: string; returnedMinor: number }[] }>(
      'follow/list',
      {},
      followerToken,
    );
    const ended = list.data.items.find((f) => f.id === followId)!;
    expect(ended.status).toBe('ended');
    expect(ended.returnedMinor).toBeGreaterThan(400_000 * NT);
    expect(await available()).toBe(before + ended.returnedMinor);
    await shot(page, `copy-stopped-${lang}.png`, true);
  });
}
