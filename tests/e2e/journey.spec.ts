/**
 * The whole first-slice journey in Chromium at 390×844, as a new user would do it, on the real
 * server (the manual market clock put in continuous trading, running at 30×): prices move on /market/market → register with the
 * printed invitation code → request a NT$1,000,000 deposit (channel, receipt) → the operator approves it in the
 * console → open 2330 → buy 1 lot long at market with leverage (confirmed in the dialog when it is
 * above the default confirmation threshold) → the position's P&L changes →
 * close → fund records list deposit, margin, fee, tax and realised P&L → the member centre
 * equals the ledger → the ledger reconciles with zero differences. A screenshot of every screen.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '../support/e2e-test';
import { ensureVerifiedHttp, httpApi, prepareDeposits, solidPng } from '../support/http-funding';
import { firstRun } from '../support/first-run';
import { marketToContinuous, moveMarket } from '../support/market-clock';
import { submitOrder } from '../support/confirm-above';
import { openConsole } from '../support/member';
import { e2eServer } from '../support/e2e-server';

// Tests here run the market at 30×: it stands still again after each.
test.afterEach(async ({ baseURL }) => {
  await moveMarket(baseURL!, { speed: 0 });
});

const shots = path.resolve('tests/e2e/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: false });

/** "1,234,567.89" (with any currency label) → minor units. */
const toMinor = (text: string) => Math.round(Number(text.replace(/[^0-9.-]/g, '')) * 100);

const ACCOUNT = '0987654321';
const PASSWORD = 'abcd1234';

test('register → deposit → approve → trade 2330 with leverage → close → everything reconciles', async ({
  page,
  browser,
}) => {
  // Up to 5 trades, each watching its P&L move for up to 90 s.
  test.setTimeout(600_000);
  const creds = firstRun();

  // Market list: prices move within 5 seconds in the replay's continuous session running at 30×
  // (on a day 2330 is not locked at a limit: on those days most of the market is, 1,605 of 2,221
  // securities on 2025-04-07).
  await marketToContinuous(e2eServer().baseURL, { minutesLeft: 60, moving: '2330', speed: 30 });
  await page.goto('/#/market/market');
  await expect(page.getByTestId('replay-label')).toBeVisible();
  const rows = page.locator('[data-testid^="quote-last-"]');
  await expect(rows.first()).toBeVisible();
  const before = await rows.allTextContents();
  await expect
    .poll(
      async () =>
        (await rows.allTextContents()).some((t, i) => t !== before[i]) ||
        (await rows.count()) !== before.length,
      {
        timeout: 5_000,
        intervals: [250],
      },
    )
    .toBe(true);
  await shot(page, '01-market');

  // Register with the printed invitation code.
  await page.goto('/#/login/register');
  await page.getByTestId('register-account').fill(ACCOUNT);
  await page.getByTestId('register-password').fill(PASSWORD);
  await page.getByTestId('register-confirm').fill(PASSWORD);
  await page.getByTestId('register-invite').fill(creds.invite);
  await page.getByTestId('register-agree').click();
  await shot(page, '02-register');
  await page.getByTestId('register-submit').click();
  await page.waitForURL(/#\/home\/index/);
  await shot(page, '03-home');

  // Request a deposit of NT$1,000,000 through the operator's channel, with the transfer receipt.
  // (Deposit hours are opened around the clock first: the test runs at any hour.)
  const baseURL = e2eServer().baseURL;
  const opLogin = await httpApi(baseURL)<{ token: string }>('admin/login', {
    account: creds.operator,
    password: creds.password,
  });
  const channelId = await prepareDeposits(httpApi(baseURL), opLogin.data.token);
  // Deposits need a verified identity: the member's KYC, approved by the operator, over the API
  // (the KYC screens have their own journey in money.spec.ts).
  const registered = await page.evaluate(() => localStorage.getItem('tokend'));
  await ensureVerifiedHttp(baseURL, registered!, opLogin.data.token);
  await page.goto('/#/user/recharge');
  await page.getByTestId(`channel-${channelId}`).click();
  await page.waitForURL(/#\/user\/rechargeChannel/);
  await page.getByTestId('recharge-amount').fill('1000000');
  await page.getByTestId('recharge-receipt').setInputFiles({
    name: 'receipt.png',
    mimeType: 'image/png',
    buffer: solidPng(64),
  });
  await expect(page.getByTestId('recharge-submit')).toBeEnabled();
  await page.getByTestId('recharge-submit').click();
  await expect(page.getByTestId('recharge-result')).toHaveAttribute('data-status', 'pending');
  await shot(page, '04-recharge');

  // The operator approves it in the console.
  const op = await openConsole(browser);
  const approve = op.locator('[data-testid^="deposit-approve-"]').first();
  await expect(approve).toBeVisible();
  await shot(op, '05-admin-deposits');
  await approve.click();
  await expect(op.locator('[data-testid^="deposit-approve-"]')).toHaveCount(0);
  await shot(op, '06-admin-approved');

  // Open 2330, buy 1 lot long at market with leverage 5, watch the P&L move, close. A close at
  // exactly the opening price realises no P&L (and so writes no P&L posting): trade again then.
  const memberToken = async () => (await page.evaluate(() => localStorage.getItem('tokend')))!;
  let realisedPnl = 0;
  for (let attempt = 1; attempt <= 5 && realisedPnl === 0; attempt++) {
    // Not in the replay's closing call, and on a day 2330 moves (its P&L is watched below).
    await marketToContinuous(baseURL, { minutesLeft: 60, moving: '2330', speed: 30 });
    await page.goto('/#/market/marketDetail?symbol=2330');
    await expect(page.getByTestId('detail-last')).not.toBeEmpty();
    await page.getByTestId('order-side-long').click();
    await page.getByTestId('order-type-market').click();
    await page.getByTestId('leverage-5').click();
    await page.getByTestId('order-lots').fill('1');
    await expect(page.getByTestId('order-preview-margin')).not.toBeEmpty();
    await expect(page.getByTestId('order-preview-break-even')).not.toBeEmpty();
    await expect(page.getByTestId('order-preview-close-costs')).not.toBeEmpty();
    if (attempt === 1) await shot(page, '07-detail');
    await submitOrder(page);

    await page.goto('/#/position/position');
    await page.getByTestId('tab-holdings').click();
    const pnl = page.locator('[data-testid^="position-pnl-"]').first();
    await expect(pnl).toBeVisible();
    const id = (await pnl.getAttribute('data-testid'))!.replace('position-pnl-', '');
    const firstPnl = await pnl.textContent();
    if (attempt === 1) await shot(page, '08-holdings');
    await expect
      .poll(async () => pnl.textContent(), { timeout: 90_000, intervals: [500] })
      .not.toBe(firstPnl);
    if (attempt === 1) await shot(page, '09-holdings-moved');

    await page.getByTestId(`position-close-${id}`).click();
    await page
      .getByRole('button', { name: /確認|確定|Confirm|OK/i })
      .last()
      .click();
    await expect(page.getByTestId(`position-row-${id}`)).toHaveCount(0);
    await page.getByTestId('tab-terminated').click();
    await expect(page.getByTestId(`position-row-${id}`)).toBeVisible();
    if (attempt === 1) await shot(page, '10-terminated');
    const detail = await page.request.post('/api/vue/trade/orderDetail', {
      headers: { token: await memberToken() },
      data: { orderId: Number(id) },
    });
    realisedPnl = (await detail.json()).data.pnlMinor;
  }
  expect(realisedPnl).not.toBe(0);

  // Fund records: deposit, margin, fee, tax and realised P&L.
  await page.goto('/#/user/FundingDetails');
  await page.getByTestId('fund-tab-trade').click();
  for (const type of ['stockPurchase', 'tradeFee', 'transactionTax', 'stockSale', 'realisedPnl']) {
    await expect(page.locator(`[data-testid="fund-row"][data-type="${type}"]`).first()).toBeVisible();
  }
  await shot(page, '11-fund-trade');
  await page.getByTestId('fund-tab-deposit').click();
  await expect(page.locator('[data-testid="fund-row"][data-type="deposit"]').first()).toBeVisible();
  await shot(page, '12-fund-deposit');

  // The member centre equals the ledger.
  await page.goto('/#/user/usercenter');
  await expect(page.getByTestId('uc-available')).not.toBeEmpty();
  await shot(page, '13-usercenter');
  const opToken = await op.evaluate(() => localStorage.getItem('admin_tokend'));
  const users = await op.request.post('/api/vue/admin/users', {
    headers: { token: opToken! },
    data: { q: ACCOUNT },
  });
  const ledgerAvailable = (await users.json()).data.items[0].availableMinor as number;
  expect(toMinor((await page.getByTestId('uc-available').textContent())!)).toBe(ledgerAvailable);
  expect(toMinor((await page.getByTestId('uc-total').textContent())!)).toBe(ledgerAvailable);
  expect(toMinor((await page.getByTestId('uc-frozen').textContent())!)).toBe(0);
  expect(toMinor((await page.getByTestId('uc-margin').textContent())!)).toBe(0);
  expect(ledgerAvailable).not.toBe(100_000_000); // fees and P&L moved money

  // Reconciliation: zero differences.
  const rec = await op.request.post('/api/vue/admin/reconcile', { headers: { token: opToken! }, data: {} });
  const result = (await rec.json()).data;
  expect(result.clean).toBe(true);
  expect(result.balanceDifferences).toEqual([]);
  await op.context().close();
});
