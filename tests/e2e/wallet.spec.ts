/**
 * Asset overview and invite friends in Chromium at 390×844, in tw and en, on the real server: a
 * funded member exchanges part into USD, opens the asset overview from the home shortcut and sees
 * the total equal to user/info's total assets (the member centre's figure, USD included) and each
 * currency's cash equal to the API's; after real-name verification the member opens "invite
 * friends" from the member centre, sees the code, the link and a 256 × 256 QR image; a friend
 * opening the link lands on the register screen with the code filled in, registers, and appears
 * masked in the inviter's list.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '../support/e2e-test';
import { formatMinor } from '../../src/lib/format';
import { maskAccount } from '../../contract/wallet';
import { depositApproved, httpApi, uploadFile, solidPng } from '../support/http-funding';
import { logInPage, operatorToken, registerMember } from '../support/member';
import { e2eServer } from '../support/e2e-server';

type Lang = 'tw' | 'en';

const CASES: { lang: Lang; account: string; friend: string; id: string; shade: number }[] = [
  { lang: 'tw', account: '0911000851', friend: '0911000811', id: 'A100088014', shade: 40 },
  { lang: 'en', account: '0911000852', friend: '0911000812', id: 'A100088023', shade: 90 },
];

for (const { lang, account, friend, id, shade } of CASES) {
  test(`asset overview and invite friends (${lang})`, async ({ page, browser }) => {
    const baseUrl = e2eServer().baseURL;
    const call = httpApi(baseUrl);
    const op = await operatorToken(baseUrl);
    const token = await registerMember(baseUrl, account);
    // Real-name verification through the API (photos, submission, the operator's approval): deposits
    // need it, and it makes the member eligible for an invitation code.
    const front = await uploadFile(baseUrl, token, 'kycFront', solidPng(8, [shade, 20, 30]));
    const back = await uploadFile(baseUrl, token, 'kycBack', solidPng(8, [30, 20, shade]));
    const kyc = await call(
      'user/submitKyc',
      { name: '王小明', idNumber: id, frontUploadId: front, backUploadId: back },
      token,
    );
    expect(kyc.status, kyc.msg).toBe(1);
    const pending = await call<{ items: { id: number; account: string }[] }>(
      'admin/kyc',
      { status: 'pending', page: 1, pageSize: 200 },
      op,
    );
    const mine = pending.data.items.find((k) => k.account === account)!;
    expect((await call('admin/approveKyc', { id: mine.id }, op)).status).toBe(1);
    await depositApproved(baseUrl, token, op, 100_000_000);
    const ex = await call('user/exchange', { from: 'TWD', to: 'USD', amountMinor: 3_200_000 }, token, {
      'idempotency-key': randomUUID(),
    });
    expect(ex.status, ex.msg).toBe(1);
    await logInPage(page, token, account, lang);

    await page.goto('/#/home/index');
    await page.getByTestId('shortcut-assets').click();
    await expect(page).toHaveURL(/#\/wallet\/index/);
    const info = (await call<{ totalAssetsMinor: number; usdMinor: number }>('user/info', {}, token)).data;
    const ov = (
      await call<{ totalTwdMinor: number; currencies: { currency: string; availableMinor: number }[] }>(
        'wallet/overview',
        {},
        token,
      )
    ).data;
    expect(info.totalAssetsMinor).toBe(ov.totalTwdMinor);
    expect(info.usdMinor).toBeGreaterThan(0);
    await expect(page.getByTestId('wallet-total')).toHaveText(formatMinor(ov.totalTwdMinor));
    for (const c of ov.currencies)
      await expect(page.getByTestId(`wallet-cash-${c.currency.toLowerCase()}`)).toHaveText(
        formatMinor(c.availableMinor),
      );
    await expect(page.getByTestId('wallet-rate-twd')).toBeVisible();

    await page.goto('/#/user/usercenter');
    await page.getByTestId('uc-link-invite').click();
    await expect(page).toHaveURL(/#\/user\/invite/);
    const code = (await page.getByTestId('invite-code').textContent())!.trim();
    expect(code).toMatch(/^[2-9A-Z]{8}$/);
    const link = `${baseUrl}/#/login/register?code=${code}`;
    await expect(page.getByTestId('invite-link')).toHaveText(link);
    const qr = page.getByTestId('invite-qr');
    await expect(qr).toBeVisible();
    expect(await qr.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([
      256, 256,
    ]);

    // The friend opens the link: the code is filled in; registering lists them with the inviter.
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const other = await ctx.newPage();
    await other.addInitScript((l) => localStorage.setItem('lang', l), lang);
    await other.goto(link);
    await expect(other.getByTestId('register-invite')).toHaveValue(code);
    await ctx.close();
    const joined = await call('user/register', {
      account: friend,
      password: 'abcd1234',
      confirmPassword: 'abcd1234',
      inviteCode: code,
      agree: true,
    });
    expect(joined.status, joined.msg).toBe(1);
    await page.reload();
    await expect(page.getByTestId('invite-row')).toHaveCount(1);
    await expect(page.getByTestId('invite-row').first()).toContainText(maskAccount(friend));
  });
}
