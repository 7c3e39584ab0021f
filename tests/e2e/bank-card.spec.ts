/**
 * What a new member tripped over (issue 18 item 7), in Chromium at 390×844, in tw and en, on the
 * real server:
 * - binding a Taiwan bank card by its 3-digit bank code (typed in tw, chosen from the bank list in
 *   en; the bank name is filled in) and 4-digit branch code, with no UPI / IFSC asked unless the
 *   "account outside Taiwan" switch is on; the card list shows the bank and "bank-branch" codes;
 * - setting the funds password the first time from the withdraw screen: the screen, its button
 *   and the toast say "set", and the member is back on the withdraw screen; a later change says
 *   "changed" and, opened by its address, returns to the member centre;
 * - a deposit channel with a password says customer service gives it, with a link there; the
 *   console's channel form tells the operator the same.
 * Screens go to tests/e2e/screenshots/bank-card-<lang>-*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '../support/e2e-test';
import { isValidTaiwanId } from '../../contract/identity-rules';
import { firstRun } from '../support/first-run';
import { httpApi, prepareDeposits, solidPng, TEST_CHANNEL, uploadFile } from '../support/http-funding';
import { tr, type Lang } from '../support/locales';
import { logInPage, openConsole, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('tests/e2e/screenshots');
mkdirSync(shots, { recursive: true });

/** A valid national ID number (the check digit completed), different for each seed. */
function taiwanId(seed: number): string {
  const body = `C2${String(seed).padStart(7, '0').slice(-7)}`;
  for (let d = 0; d <= 9; d++) if (isValidTaiwanId(`${body}${d}`)) return `${body}${d}`;
  throw new Error('no check digit');
}

/** A deposit channel with a channel password (the operator sets it; members get it from service). */
const LOCKED_CHANNEL = { ...TEST_CHANNEL, name: 'E2E Locked transfer', password: 'chan-e2e-1' };

const CASES: { lang: Lang; account: string; seed: number; name: string }[] = [
  { lang: 'tw', account: '0911002201', seed: 2201, name: '林小華' },
  { lang: 'en', account: '0911002202', seed: 2202, name: 'Chen Ya-ting' },
];

for (const { lang, account, seed, name } of CASES) {
  test(`Taiwan bank card by bank and branch code, first funds password "set", channel password from service (${lang})`, async ({
    page,
    browser,
  }) => {
    const L = (key: string) => tr(lang, key);
    /** A screenshot; `calm`: once the last toast has gone (it would hide the form). */
    const shot = async (p: Page, file: string, calm = false) => {
      if (calm) await expect(p.locator('.adm-toast-main')).toHaveCount(0, { timeout: 5_000 });
      await p.screenshot({ path: path.join(shots, `bank-card-${lang}-${file}.png`), fullPage: false });
    };
    const baseUrl = e2eServer().baseURL;
    const call = httpApi(baseUrl);
    const creds = firstRun();

    // ---- setup over the API: a verified member, deposit hours open, a channel with a password ----
    const op = await call<{ token: string }>('admin/login', {
      account: creds.operator,
      password: creds.password,
    });
    expect(op.status, op.msg).toBe(1);
    await prepareDeposits(call, op.data.token);
    const channels = await call<Array<{ id: number; name: string }>>('admin/channels', {}, op.data.token);
    let lockedId = channels.data.find((c) => c.name === LOCKED_CHANNEL.name)?.id;
    if (!lockedId) {
      const made = await call<{ id: number }>('admin/saveChannel', LOCKED_CHANNEL, op.data.token);
      expect(made.status, made.msg).toBe(1);
      lockedId = made.data.id;
    }
    const token = await registerMember(baseUrl, account);
    const front = await uploadFile(baseUrl, token, 'kycFront', solidPng(64, [40, 90, 200]), 'front.png');
    const back = await uploadFile(baseUrl, token, 'kycBack', solidPng(64, [200, 120, 40]), 'back.png');
    const kyc = await call(
      'user/submitKyc',
      { name, idNumber: taiwanId(seed), frontUploadId: front, backUploadId: back },
      token,
    );
    expect(kyc.status, kyc.msg).toBe(1);
    const queue = await call<{ items: Array<{ id: number; account: string }> }>(
      'admin/kyc',
      { status: 'pending', page: 1, pageSize: 100 },
      op.data.token,
    );
    const kycId = queue.data.items.find((r) => r.account === account)!.id;
    expect((await call('admin/approveKyc', { id: kycId }, op.data.token)).status).toBe(1);

    await logInPage(page, token, account, lang);

    // ---- a Taiwan card: bank code and branch code, no UPI / IFSC ----
    await page.goto('/#/user/usercenter');
    await page.getByTestId('uc-link-cards').click();
    await expect(page).toHaveURL(/#\/user\/WithCard/);
    await expect(page.getByTestId('cards-empty')).toBeVisible();
    await page.getByTestId('card-add').click();
    await expect(page).toHaveURL(/#\/user\/BankCard/);
    await expect(page.getByTestId('card-holder')).toHaveValue(name);
    await expect(page.getByTestId('card-upi')).toHaveCount(0);
    await expect(page.getByText(L('card.upi'), { exact: true })).toHaveCount(0);

    // The switch reveals UPI / IFSC in place of the codes, and hides it again.
    await page.getByTestId('card-outside-taiwan').click();
    await expect(page.getByTestId('card-upi')).toBeVisible();
    await expect(page.getByTestId('card-bank-code')).toHaveCount(0);
    await expect(page.getByTestId('card-branch-code')).toHaveCount(0);
    await shot(page, '02-outside-taiwan');
    await page.getByTestId('card-outside-taiwan').click();
    await expect(page.getByTestId('card-upi')).toHaveCount(0);

    await page.getByTestId('card-number').fill(lang === 'tw' ? '0040 1234 5678' : '8220 9876 5432 10');
    const bankName = page.getByTestId('card-bank');
    if (lang === 'tw') {
      // Typed: an unlisted code asks for the name; a listed one fills it in.
      await page.getByTestId('card-bank-code').fill('999');
      await expect(page.getByText(L('card.bankUnlisted'))).toBeVisible();
      await expect(bankName).toBeEditable();
      await page.getByTestId('card-bank-code').fill('004');
      await expect(bankName).toHaveValue('臺灣銀行');
      await expect(page.getByText(L('card.bankFromCode'))).toBeVisible();
    } else {
      // Chosen from the list, found by name.
      await page.getByTestId('card-bank-pick').click();
      await expect(page.getByTestId('bank-picker')).toBeVisible();
      await page.getByTestId('bank-picker').locator('input').fill('ctbc');
      await expect(page.getByTestId('bank-option-004')).toHaveCount(0);
      await shot(page, '01-bank-picker');
      await page.getByTestId('bank-option-822').click();
      await expect(page.getByTestId('bank-picker')).toBeHidden();
      await expect(page.getByTestId('card-bank-code')).toHaveValue('822');
      await expect(bankName).toHaveValue('CTBC Bank');
    }
    await expect(bankName).not.toBeEditable();
    // The branch code is four digits.
    await page.getByTestId('card-branch-code').fill('003');
    await page.getByTestId('card-submit').click();
    await expect(page.getByText(L('card.branchCodeInvalid'))).toBeVisible();
    await page.getByTestId('card-branch-code').fill(lang === 'tw' ? '0037' : '0901');
    await page.getByTestId('card-branch').fill(lang === 'tw' ? '館前分行' : 'Minsheng Branch');
    await expect(page.getByText(L('card.branchCodeInvalid'))).toHaveCount(0);
    await page.locator('.adm-nav-bar').scrollIntoViewIfNeeded();
    await shot(page, '03-card-form');
    await page.getByTestId('card-submit').click();
    await expect(page).toHaveURL(/#\/user\/WithCard/);
    const codes = page.locator('[data-testid^="bank-card-codes-"]');
    await expect(codes).toHaveText(
      lang === 'tw' ? `${name} · ${L('card.codes')} 004-0037` : `${name} · ${L('card.codes')} 822-0901`,
    );
    await expect(page.locator('.bank-card-bank')).toHaveText(lang === 'tw' ? '臺灣銀行' : 'CTBC Bank');
    await shot(page, '04-cards');

    // ---- the first funds password, from the withdraw screen: "set", and back there ----
    await page.goto('/#/user/usercenter');
    await page.getByTestId('uc-withdraw').click();
    await expect(page).toHaveURL(/#\/user\/withdraw/);
    await page.getByTestId('withdraw-no-funds-password').getByText(L('withdraw.setFundsPassword')).click();
    await expect(page).toHaveURL(/#\/user\/setPassword/);
    await expect(page.locator('.adm-nav-bar-title')).toHaveText(L('password.set'));
    await expect(page.getByTestId('funds-password-submit')).toHaveText(L('password.set'));
    await page.getByTestId('funds-password-new').fill('246810');
    await page.getByTestId('funds-password-confirm').fill('246810');
    await shot(page, '05-funds-password-set');
    await page.getByTestId('funds-password-submit').click();
    await expect(page.getByText(L('success.fundsPasswordSet'))).toBeVisible();
    await expect(page.getByText(L('success.passwordChanged'))).toHaveCount(0);
    await expect(page).toHaveURL(/#\/user\/withdraw/);
    await expect(page.getByTestId('withdraw-no-funds-password')).toHaveCount(0);
    await shot(page, '06-back-on-withdraw');

    // A change later (opened by its address) says "changed" and goes to the member centre.
    await page.goto('/#/user/setPassword');
    await expect(page.locator('.adm-nav-bar-title')).toHaveText(L('password.change'));
    await page.getByTestId('funds-password-old').fill('246810');
    await page.getByTestId('funds-password-new').fill('135790');
    await page.getByTestId('funds-password-confirm').fill('135790');
    await page.getByTestId('funds-password-submit').click();
    await expect(page.getByText(L('success.passwordChanged'))).toBeVisible();
    await expect(page).toHaveURL(/#\/user\/usercenter/);

    // ---- a channel with a password: customer service gives it ----
    await page.goto(`/#/user/rechargeChannel?id=${lockedId}`);
    await expect(page.getByTestId('recharge-channel-password')).toBeVisible();
    await expect(page.getByTestId('recharge-channel-password-hint')).toContainText(
      L('recharge.channelPasswordHint'),
    );
    await page.getByTestId('recharge-channel-password').scrollIntoViewIfNeeded();
    await shot(page, '07-channel-password', true);
    await page.getByTestId('recharge-ask-service').click();
    await expect(page).toHaveURL(/#\/user\/service/);

    // ---- the console's channel form says the same to the operator ----
    const console_ = await openConsole(browser, lang);
    await console_.getByTestId('admin-tab-channels').click();
    await console_.getByTestId('channel-new').click();
    await expect(console_.getByText(L('admin.channelPasswordHint'))).toBeVisible();
    await console_.getByText(L('admin.channelPasswordHint')).scrollIntoViewIfNeeded();
    await shot(console_, '08-console-channel-form', true);
    await console_.context().close();
  });
}
