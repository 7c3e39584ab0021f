/**
 * Auctions (競價拍賣) and block trades (鉅額交易) in Chromium at 390×844, in tw and en, on the real
 * server (manual market clock). Each test's member is funded through a deposit the operator
 * approves (tests/support/http-funding.ts), and the operator opens the offering through
 * admin/saveOffering starting today (auctions and block trades are operator-made, none is seeded).
 *
 * - Auction: the member opens "protocol bidding" from home, bids 2 lots at NT$850 on an auction
 *   in its bidding days (minimum NT$800, deposit 20 %): the deposit NT$340,000 is frozen (the
 *   member centre's frozen figure, the fund records of type auction: available −, frozen +), and the records tab shows the
 *   bid "bidding" with its deposit. Bids are taken 09:00–14:00 market time, so the test first
 *   moves the market clock into those hours (marketToAuctionHours).
 *   Not here: a lost bid's deposit released at allocation. Allocation runs on the business day
 *   after the third bidding day: tests/e2e/primary.spec.ts and tests/integration/auction.test.ts.
 * - Block trade: applying without a block-trade password is refused and links to the password
 *   screen; the member sets it there, comes back to the block-trade tab, applies (the amount held,
 *   "pending review" in the records), and settings then open the screen as "change".
 * Screenshots: docs/screenshots/auction-<lang>-*.png.
 */
import path from 'node:path';
import { expect, test, type Page } from '../support/e2e-test';
import { depositApproved, httpApi, type HttpCall } from '../support/http-funding';
import { tr, type Lang } from '../support/locales';
import { marketToAuctionHours } from '../support/market-clock';
import { logInPage, operatorToken, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('docs/screenshots');
/** The journey (the market clock moves at once). */
const TEST_TIMEOUT_MS = 120_000;

/** The operator's new offering of `kind` starting today (the console's "today" business day). */
async function openOffering(call: HttpCall, opToken: string, body: Record<string, unknown>) {
  const list = await call<{ today: number }>('admin/offerings', { pageSize: 1 }, opToken);
  expect(list.status, list.msg).toBe(1);
  const today = list.data.today;
  const saved = await call<{ id: number }>(
    'admin/saveOffering',
    {
      ...body,
      startDay: today,
      ...(body.kind === 'auction' ? {} : { endDay: today + 1 }),
      listingDay: today + 5,
    },
    opToken,
  );
  expect(saved.status, saved.msg).toBe(1);
  return saved.data.id;
}

/** "NT$340,000.00" as the app writes minor units. */
const money = (minor: number) =>
  (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function member(page: Page, lang: Lang, account: string, depositMinor: number) {
  const baseUrl = e2eServer().baseURL;
  const call = httpApi(baseUrl);
  const opToken = await operatorToken(baseUrl);
  const token = await registerMember(baseUrl, account);
  await depositApproved(baseUrl, token, opToken, depositMinor);
  await logInPage(page, token, account, lang);
  return { baseUrl, call, opToken, token };
}

/** A toast saying `text`, then gone (so it covers nothing in the next screenshot). */
async function expectToast(page: Page, text: string) {
  const toast = page.locator('.adm-toast-main').getByText(text);
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden();
}

async function expectFrozen(page: Page, minor: number) {
  await page.goto('/#/user/usercenter');
  await expect(page.getByTestId('uc-frozen')).toContainText(money(minor));
}

const CASES: { lang: Lang; bidder: string; blockTrader: string }[] = [
  { lang: 'tw', bidder: '0911003101', blockTrader: '0911003103' },
  { lang: 'en', bidder: '0911003102', blockTrader: '0911003104' },
];

for (const { lang, bidder, blockTrader } of CASES) {
  test(`bid in an auction: the deposit frozen, the bid in the records (${lang})`, async ({ page }) => {
    test.setTimeout(TEST_TIMEOUT_MS);
    const { baseUrl, call, opToken } = await member(page, lang, bidder, 100_000_000);
    const id = await openOffering(call, opToken, {
      kind: 'auction',
      symbol: '2330',
      name: '台積電',
      priceMinor: 80_000,
      lots: 100,
      depositBps: 2_000,
    });
    const deposit = 85_000 * 2 * 1_000 * 0.2;
    await marketToAuctionHours(baseUrl);

    await page.goto('/#/home/index');
    await page.getByTestId('shortcut-bidding').click();
    await expect(page).toHaveURL(/#\/market\/bidding/);
    const card = page.getByTestId(`auction-${id}`);
    await expect(card).toContainText(tr(lang, 'primary.phase.inProgress'));
    await page.getByTestId(`auction-price-${id}`).fill('850');
    await page.getByTestId(`auction-lots-${id}`).fill('2');
    await page.getByTestId(`auction-bid-${id}`).click();
    await expectToast(page, tr(lang, 'primary.bidPlaced').replace('{{deposit}}', money(deposit)));
    await expect(card).toContainText(tr(lang, 'primary.auctionNote').replace('{{mine}}', '1'));
    await page.screenshot({ path: path.join(shots, `auction-${lang}-bid.png`) });

    await page.getByTestId('bidding-tab-records').click();
    const bid = page.locator('[data-testid^="bid-"]').first();
    await expect(bid).toContainText(tr(lang, 'primary.bidStatus.bidding'));
    await expect(bid).toContainText('850.00');
    await expect(bid).toContainText('0 / 2');
    await expect(bid).toContainText(money(deposit));
    await page.screenshot({ path: path.join(shots, `auction-${lang}-records.png`) });

    await expectFrozen(page, deposit);
    await page.screenshot({ path: path.join(shots, `auction-${lang}-frozen.png`) });
    await page.goto('/#/user/FundingDetails?tab=trade');
    // One ledger move, two records: available −deposit, frozen +deposit.
    const rows = page.locator('[data-testid="fund-row"][data-type="auction"]');
    await expect(rows).toHaveCount(2);
    await expect(rows.and(page.locator(`[data-amount="${-deposit}"]`))).toContainText(
      tr(lang, 'ledgerAccount.available'),
    );
    await expect(rows.and(page.locator(`[data-amount="${deposit}"]`))).toContainText(
      tr(lang, 'ledgerAccount.frozen'),
    );
    await page.screenshot({ path: path.join(shots, `auction-${lang}-fund-records.png`) });
  });

  test(`apply for a block trade after setting its password (${lang})`, async ({ page }) => {
    test.setTimeout(TEST_TIMEOUT_MS);
    const { baseUrl, call, opToken } = await member(page, lang, blockTrader, 2_000_000_000);
    const quote = await call<{ items: { lastMinor: number }[] }>('market/quotes', { symbols: ['2330'] });
    const price = quote.data.items[0]!.lastMinor;
    const id = await openOffering(call, opToken, {
      kind: 'blockTrade',
      symbol: '2330',
      name: '台積電',
      priceMinor: price,
      lots: 2_000,
    });
    // The fewest lots worth NT$15,000,000 (the block-trade minimum by value).
    const lots = Math.ceil(1_500_000_000 / (price * 1_000));
    const amount = price * lots * 1_000;
    await marketToAuctionHours(baseUrl);

    await page.goto('/#/market/bidding?tab=blockTrade');
    const apply = async () => {
      await page.getByTestId(`offering-lots-${id}`).fill(String(lots));
      await page.getByTestId(`offering-password-${id}`).fill('246810');
      await page.getByTestId(`offering-apply-${id}`).click();
    };
    await apply();
    const notSet = page.getByTestId(`offering-no-password-${id}`);
    await expect(notSet).toContainText(tr(lang, 'primary.passwordNotSet'));
    await page.screenshot({ path: path.join(shots, `auction-${lang}-block-no-password.png`) });
    await notSet.getByText(tr(lang, 'primary.setPassword')).click();

    await expect(page).toHaveURL(/#\/user\/blockTradePassword/);
    await expect(page.getByTestId('block-password-not-set')).toBeVisible();
    await expect(page.getByTestId('block-password-old')).toHaveCount(0);
    await page.getByTestId('block-password-new').fill('246810');
    await page.getByTestId('block-password-confirm').fill('246810');
    await expect(page.locator('.adm-toast-main')).toBeHidden();
    await page.screenshot({ path: path.join(shots, `auction-${lang}-block-password.png`) });
    await page.getByTestId('block-password-submit').click();
    await expectToast(page, tr(lang, 'success.blockTradePasswordSet'));
    await expect(page).toHaveURL(/#\/market\/bidding\?tab=blockTrade/);

    await apply();
    await expectToast(page, tr(lang, 'primary.applied').replace('{{amount}}', money(amount)));
    await page.getByTestId('bidding-tab-records').click();
    const application = page.locator('[data-testid^="application-"]').first();
    await expect(application).toContainText(tr(lang, 'primary.appStatus.pendingReview'));
    await expect(application).toContainText(money(amount));
    await page.screenshot({ path: path.join(shots, `auction-${lang}-block-applied.png`) });
    await expectFrozen(page, amount);

    await page.goto('/#/user/setting');
    await page.getByTestId('setting-blockTradePassword').click();
    await expect(page.getByTestId('block-password-old')).toBeVisible();
    await expect(page.getByTestId('block-password-submit')).toHaveText(
      tr(lang, 'primary.passwordScreen.change'),
    );
  });
}
