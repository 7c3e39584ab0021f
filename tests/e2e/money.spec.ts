/**
 * Issue 4 acceptance, in Chromium at 390×844, once in `tw` and once in `en`, on the real server:
 * register → real-name verification with two photos (a PNG and a JPEG drawn on a canvas) → the
 * operator approves it in the console (admin.html) → add a bank card → set the funds password →
 * deposit through a channel with the transfer receipt → the operator approves it (seeing the
 * receipt) → exchange TWD to USD (the preview is exactly what arrives) → withdraw → the operator
 * approves the payout → the fund records list every step with its translated fund-flow type, the
 * CSV statement holds every posting, and the member centre's available, frozen, total and USD
 * figures equal the ledger (admin/ledger postings, user/balances), which reconciles clean.
 *
 * Setup through the operator API: deposit hours opened around the clock (the test may run at any
 * hour on any day) and a deposit channel created.
 */
import { readFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '../support/e2e-test';
import { isValidTaiwanId } from '../../contract/identity-rules';
import { httpApi, prepareDeposits, TEST_CHANNEL } from '../support/http-funding';
import { firstRun } from '../support/first-run';
import { tr, type Lang } from '../support/locales';
import { openConsole } from '../support/member';
import { e2eServer } from '../support/e2e-server';

const shots = path.resolve('tests/e2e/screenshots');
mkdirSync(shots, { recursive: true });

/** "NT$ 1,234,567.89", "312.59 USD", "-20,000.00" → minor units (exact: string arithmetic). */
function toMinor(text: string): number {
  const m = /(-)?([\d,]+)\.(\d{2})/.exec(text);
  if (!m) throw new Error(`no money value in ${JSON.stringify(text)}`);
  const v = Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3]);
  return m[1] ? -v : v;
}

/** Minor units → "1,234.56" (string arithmetic, as the app formats money). */
function fmt(minor: number): string {
  const int = String(Math.floor(minor / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${int}.${String(minor % 100).padStart(2, '0')}`;
}

/** A valid national ID number (the check digit completed), different for each seed. */
function taiwanId(seed: number): string {
  const body = `B1${String(seed).padStart(7, '0').slice(-7)}`;
  for (let d = 0; d <= 9; d++) if (isValidTaiwanId(`${body}${d}`)) return `${body}${d}`;
  throw new Error('no check digit');
}

/** A real image file drawn on a canvas in the browser (image/png or image/jpeg). */
async function canvasImage(page: Page, type: 'image/png' | 'image/jpeg', color: string): Promise<Buffer> {
  const b64 = await page.evaluate(
    ([t, c]) => {
      const canvas = document.createElement('canvas');
      canvas.width = 240;
      canvas.height = 150;
      const g = canvas.getContext('2d')!;
      g.fillStyle = c;
      g.fillRect(0, 0, 240, 150);
      g.fillStyle = '#fff';
      g.fillRect(20, 20, 60, 80);
      return canvas.toDataURL(t).split(',')[1]!;
    },
    [type, color] as const,
  );
  return Buffer.from(b64, 'base64');
}

/** The day in Asia/Taipei as YYYY-MM-DD, `offsetDays` from now. */
function taipeiDay(offsetDays = 0): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(
    new Date(Date.now() + offsetDays * 86_400_000),
  );
}

async function opCall(request: APIRequestContext, token: string, name: string, data: unknown = {}) {
  const res = await request.post(`/api/vue/${name}`, { headers: { token }, data });
  const body = await res.json();
  expect(body.status, `${name}: ${body.msg}`).toBe(1);
  return body.data;
}

const CHANNEL = TEST_CHANNEL.name;

const CASES: { lang: Lang; account: string; seed: number }[] = [
  { lang: 'tw', account: '0911000401', seed: 4001 },
  { lang: 'en', account: '0911000402', seed: 4002 },
];

for (const { lang, account, seed } of CASES) {
  test(`KYC → card → deposit → exchange → withdraw, every step in the records and the ledger (${lang})`, async ({
    page,
    browser,
    request,
  }) => {
    const L = (key: string) => tr(lang, key);
    const shot = (p: Page, name: string) =>
      p.screenshot({ path: path.join(shots, `money-${lang}-${name}.png`), fullPage: false });
    const creds = firstRun();
    const opToken: string = (
      await (
        await request.post('/api/vue/admin/login', {
          data: { account: creds.operator, password: creds.password },
        })
      ).json()
    ).data.token;
    await prepareDeposits(httpApi(e2eServer().baseURL), opToken);

    await page.addInitScript((l) => localStorage.setItem('lang', l), lang);

    // ---- register ----
    const PASSWORD = 'abcd1234';
    await page.goto('/#/login/register');
    await page.getByTestId('register-account').fill(account);
    await page.getByTestId('register-password').fill(PASSWORD);
    await page.getByTestId('register-confirm').fill(PASSWORD);
    await page.getByTestId('register-invite').fill(creds.invite);
    await page.getByTestId('register-agree').click();
    await page.getByTestId('register-submit').click();
    await expect(page).toHaveURL(/#\/home\/index/);

    await page.goto('/#/user/usercenter');
    await expect(page.getByTestId('uc-kyc')).toHaveAttribute('data-status', 'unverified');
    await expect(page.getByTestId('uc-kyc')).toHaveText(L('kyc.unverified'));
    await expect(page.getByTestId('uc-no-funds-password')).toBeVisible();
    await shot(page, '01-usercenter');

    // ---- real-name verification with two photos ----
    const name = lang === 'tw' ? '王小明' : 'Lin Mei-hua';
    const idNumber = taiwanId(seed);
    await page.getByTestId('uc-link-kyc').click();
    await expect(page).toHaveURL(/#\/user\/bandCard/);
    await page.getByTestId('kyc-name').fill(name);
    await page.getByTestId('kyc-id').fill(idNumber.slice(0, -1) + ((Number(idNumber.slice(-1)) + 1) % 10));
    await page.getByTestId('kyc-name').click();
    await expect(page.getByText(L('identity.idInvalid'))).toBeVisible();
    await page.getByTestId('kyc-id').fill(idNumber.toLowerCase());
    await page.getByTestId('kyc-front').setInputFiles({
      name: 'front.png',
      mimeType: 'image/png',
      buffer: await canvasImage(page, 'image/png', '#2f6fd6'),
    });
    await page.getByTestId('kyc-back').setInputFiles({
      name: 'back.jpg',
      mimeType: 'image/jpeg',
      buffer: await canvasImage(page, 'image/jpeg', '#d6822f'),
    });
    await expect(page.getByTestId('kyc-front-status')).toHaveAttribute('data-status', 'done');
    await expect(page.getByTestId('kyc-back-status')).toHaveAttribute('data-status', 'done');
    await shot(page, '02-kyc-form');
    await page.getByTestId('kyc-submit').click();
    await expect(page.getByTestId('kyc-review')).toBeVisible();
    await expect(page.getByTestId('kyc-status')).toHaveAttribute('data-status', 'review');
    await shot(page, '03-kyc-review');

    // ---- the operator approves it in the console ----
    const op = await openConsole(browser, lang);
    /** Opens a review queue and approves this member's pending row there; returns its id. */
    const approveIn = async (tab: string, kind: string, shotName: string): Promise<number> => {
      await op.getByTestId(`admin-tab-${tab}`).click();
      const row = op.locator(`[data-testid^="${kind}-row-"]`, { hasText: account });
      await expect(row).toHaveCount(1);
      const id = Number((await row.getAttribute('data-testid'))!.replace(`${kind}-row-`, ''));
      if (kind === 'kyc') {
        await expect(op.getByTestId(`kyc-front-${id}`)).toHaveAttribute('data-state', 'loaded');
        await expect(op.getByTestId(`kyc-back-${id}`)).toHaveAttribute('data-state', 'loaded');
        await expect(op.getByTestId(`kyc-id-number-${id}`)).toHaveText(idNumber);
        // The full-size viewer opens and its Close button closes it.
        await op.getByTestId(`kyc-front-${id}`).click();
        await expect(op.getByTestId(`kyc-front-${id}-close`)).toBeVisible();
        await shot(op, '04-admin-kyc-viewer');
        await op.getByTestId(`kyc-front-${id}-close`).click();
        await expect(op.getByTestId(`kyc-front-${id}-close`)).toHaveCount(0);
      }
      if (kind === 'deposit')
        await expect(op.getByTestId(`deposit-receipt-${id}`)).toHaveAttribute('data-state', 'loaded');
      await shot(op, shotName);
      await op.getByTestId(`${kind}-approve-${id}`).click();
      await expect(op.getByTestId(`${kind}-approve-${id}`)).toHaveCount(0);
      return id;
    };
    await approveIn('kyc', 'kyc', '04-admin-kyc');

    await page.reload();
    await expect(page.getByTestId('kyc-status')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('kyc-verified-name')).toHaveText(name);
    await expect(page.getByTestId('kyc-verified-id')).toHaveText(
      `${idNumber.slice(0, 2)}******${idNumber.slice(-2)}`,
    );
    await shot(page, '05-kyc-verified');

    // ---- a bank card ----
    await page.goto('/#/user/WithCard');
    await expect(page.getByTestId('cards-empty')).toBeVisible();
    await page.getByTestId('card-add').click();
    await expect(page).toHaveURL(/#\/user\/BankCard/);
    await expect(page.getByTestId('card-holder')).toHaveValue(name);
    await page.getByTestId('card-number').fill(`8221 0000 1234 ${seed}`);
    // A Taiwan account: the bank code fills the bank name; no UPI / IFSC.
    await page.getByTestId('card-bank-code').fill('004');
    await expect(page.getByTestId('card-bank')).toHaveValue(lang === 'tw' ? '臺灣銀行' : 'Bank of Taiwan');
    await page.getByTestId('card-branch-code').fill('0037');
    await page.getByTestId('card-branch').fill(lang === 'tw' ? '館前分行' : 'Guanqian Branch');
    await shot(page, '06-card-form');
    await page.getByTestId('card-submit').click();
    await expect(page).toHaveURL(/#\/user\/WithCard/);
    const card = page.locator('[data-testid^="bank-card-number-"]');
    await expect(card).toHaveText(`**** ${seed}`);
    await shot(page, '07-cards');

    // ---- the funds password ----
    await page.goto('/#/user/setPassword');
    await expect(page.getByTestId('funds-password-not-set')).toBeVisible();
    await page.getByTestId('funds-password-new').fill('246810');
    await page.getByTestId('funds-password-confirm').fill('246810');
    await page.getByTestId('funds-password-submit').click();
    await expect(page).not.toHaveURL(/setPassword/);

    // ---- a deposit with its receipt ----
    const DEPOSIT = 10_000_000; // NT$100,000
    await page.goto('/#/user/recharge');
    await expect(page.getByTestId('deposit-open-now')).toHaveText(L('recharge.openNow'));
    await page.getByText(CHANNEL).click();
    await expect(page).toHaveURL(/#\/user\/rechargeChannel/);
    await expect(page.getByTestId('channel-account-number')).toHaveText(TEST_CHANNEL.accountNumber);
    await page.getByTestId('recharge-amount').fill('100000');
    await expect(page.getByTestId('recharge-submit')).toBeDisabled();
    await page.getByTestId('recharge-receipt').setInputFiles({
      name: 'receipt.jpg',
      mimeType: 'image/jpeg',
      buffer: await canvasImage(page, 'image/jpeg', '#3a3'),
    });
    await expect(page.getByTestId('recharge-submit')).toBeEnabled();
    await shot(page, '08-deposit-form');
    await page.getByTestId('recharge-submit').click();
    await expect(page.getByTestId('recharge-result')).toHaveAttribute('data-status', 'pending');
    await shot(page, '09-deposit-pending');

    await approveIn('deposits', 'deposit', '10-admin-deposit');

    // ---- exchange TWD → USD ----
    const EXCHANGE = 3_199_000; // NT$31,990
    await page.goto('/#/user/exchange');
    await expect(page.getByTestId('balance-TWD')).toHaveText('100,000.00');
    await expect(page.getByTestId('exchange-from')).toHaveValue('TWD');
    await expect(page.getByTestId('exchange-to')).toHaveValue('USD');
    await page.getByTestId('exchange-to').selectOption('TWD');
    await expect(page.getByTestId('exchange-error')).toHaveText(L('errors.sameCurrency'));
    await expect(page.getByTestId('exchange-submit')).toBeDisabled();
    await page.getByTestId('exchange-to').selectOption('USD');
    await page.getByTestId('exchange-amount').fill('31990');
    const ratePpm = Number(await page.getByTestId('exchange-rate').getAttribute('data-ppm'));
    expect(ratePpm).toBeGreaterThan(0);
    const usd = Number((BigInt(EXCHANGE) * 1_000_000n) / BigInt(ratePpm)); // rounded down
    await expect(page.getByTestId('exchange-preview')).toHaveText(`${fmt(usd)} USD`);
    await shot(page, '11-exchange');
    await page.getByTestId('exchange-submit').click();
    await expect(page.getByTestId('exchange-result')).toBeVisible();
    await expect(page.getByTestId('balance-USD')).toHaveText(fmt(usd));
    await expect(page.getByTestId('balance-TWD')).toHaveText('68,010.00');
    await shot(page, '12-exchanged');

    // ---- withdraw ----
    const WITHDRAW = 2_000_000; // NT$20,000
    await page.goto('/#/user/withdraw');
    await expect(page.getByTestId('withdraw-available')).toContainText('68,010.00');
    await expect(page.getByTestId('withdraw-no-funds-password')).toHaveCount(0);
    await page.getByTestId('withdraw-amount').fill('20000');
    await page.getByTestId('withdraw-funds-password').fill('246810');
    await shot(page, '13-withdraw');
    await page.getByTestId('withdraw-submit').click();
    await expect(page.getByTestId('withdraw-result')).toHaveAttribute('data-status', 'pending');
    await expect(page.getByTestId('withdraw-result')).toContainText(String(seed));
    await page.goto('/#/user/usercenter');
    await expect(page.getByTestId('uc-frozen')).toHaveText('20,000.00');
    await approveIn('withdrawals', 'withdrawal', '14-admin-withdrawal');
    await op.context().close();

    // ---- the fund records show every step ----
    const label = (type: string) => L(`fundFlow.${type}`);
    await page.goto('/#/user/FundingDetails?tab=deposit');
    await expect(page.getByTestId('deposit-request')).toHaveAttribute('data-status', 'approved');
    await expect(page.getByTestId('deposit-request')).toContainText(L('depositStatus.approved'));
    const depositRow = page.locator('[data-testid="fund-row"][data-type="deposit"]');
    await expect(depositRow).toHaveCount(1);
    await expect(depositRow).toContainText(label('deposit'));
    await expect(depositRow).toContainText('+100,000.00');
    await shot(page, '15-records-deposit');

    await page.getByTestId('fund-tab-exchange').click();
    await expect(page.getByTestId('exchange-request')).toContainText('31,990.00 TWD');
    const fx = page.locator('[data-testid="fund-row"][data-type="exchange"]');
    await expect(fx).toHaveCount(2);
    await expect(fx.filter({ hasText: '-31,990.00' })).toHaveAttribute('data-currency', 'TWD');
    await expect(fx.filter({ hasText: 'USD' })).toHaveAttribute('data-amount', String(usd));
    await expect(fx.first()).toContainText(label('exchange'));
    await shot(page, '16-records-exchange');

    await page.getByTestId('fund-tab-withdrawal').click();
    await expect(page.getByTestId('withdraw-request')).toHaveAttribute('data-status', 'approved');
    await expect(page.getByTestId('withdraw-request')).toContainText(L('withdrawStatus.approved'));
    await expect(page.locator('[data-testid="fund-row"][data-type="withdrawal"]')).toHaveCount(2);
    const paid = page.locator('[data-testid="fund-row"][data-type="withdrawalPaid"]');
    await expect(paid).toHaveCount(1);
    await expect(paid).toContainText(label('withdrawalPaid'));
    await expect(paid).toContainText('-20,000.00');
    await shot(page, '17-records-withdrawal');

    // ---- the CSV statement holds every posting ----
    await page.getByTestId('statement-open').click();
    await page.getByTestId('statement-from').fill(taipeiDay(-1));
    await page.getByTestId('statement-to').fill(taipeiDay(0));
    await shot(page, '18-statement');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('statement-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const [head, ...lines] = csv.trim().split(/\r?\n/);
    const cols = head!.split(',');
    const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
    const rowsOf = (type: string) =>
      rows.filter((r) => r.type === type).map((r) => `${r.account} ${r.currency} ${r.amount}`);
    expect(rowsOf('deposit')).toEqual(['available TWD 100000.00']);
    expect(rowsOf('exchange').sort()).toEqual(
      ['available TWD -31990.00', `available USD ${fmt(usd).replace(/,/g, '')}`].sort(),
    );
    expect(rowsOf('withdrawal').sort()).toEqual(['available TWD -20000.00', 'frozen TWD 20000.00'].sort());
    expect(rowsOf('withdrawalPaid')).toEqual(['frozen TWD -20000.00']);
    expect(rows).toHaveLength(6);

    // ---- the member centre equals the ledger ----
    const AVAILABLE = DEPOSIT - EXCHANGE - WITHDRAW;
    await page.goto('/#/user/usercenter');
    await expect(page.getByTestId('uc-kyc')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('uc-no-funds-password')).toHaveCount(0);
    await expect(page.getByTestId('uc-available')).not.toBeEmpty();
    await shot(page, '19-usercenter');
    const shown = {
      available: toMinor((await page.getByTestId('uc-available').textContent())!),
      frozen: toMinor((await page.getByTestId('uc-frozen').textContent())!),
      total: toMinor((await page.getByTestId('uc-total').textContent())!),
      usd: toMinor((await page.getByTestId('uc-usd').textContent())!),
    };
    const memberToken = (await page.evaluate(() => localStorage.getItem('tokend')))!;
    // Total assets count the USD at the operator's rate (wallet/overview, the same server function).
    const overview = (
      await (
        await request.post('/api/vue/wallet/overview', { headers: { token: memberToken }, data: {} })
      ).json()
    ).data as { totalTwdMinor: number };
    expect(overview.totalTwdMinor).toBeGreaterThan(AVAILABLE);
    expect(shown).toEqual({ available: AVAILABLE, frozen: 0, total: overview.totalTwdMinor, usd });

    const balances: { currency: string; availableMinor: number; frozenMinor: number }[] = (
      await (
        await request.post('/api/vue/user/balances', { headers: { token: memberToken }, data: {} })
      ).json()
    ).data;
    const bal = Object.fromEntries(balances.map((b) => [b.currency, b]));
    expect(bal.TWD).toMatchObject({ availableMinor: AVAILABLE, frozenMinor: 0 });
    expect(bal.USD).toMatchObject({ availableMinor: usd, frozenMinor: 0 });

    const users = await opCall(request, opToken, 'admin/users', { q: account });
    const userId: number = users.items[0].id;
    const ledger = await opCall(request, opToken, 'admin/ledger', { userId, pageSize: 200 });
    const sums = new Map<string, number>();
    for (const tx of ledger.items)
      for (const p of tx.postings) sums.set(p.account, (sums.get(p.account) ?? 0) + p.amountMinor);
    expect(sums.get(`user ${userId} available TWD`)).toBe(shown.available);
    expect(sums.get(`user ${userId} frozen TWD`) ?? 0).toBe(shown.frozen);
    expect(sums.get(`user ${userId} available USD`)).toBe(shown.usd);
    expect(ledger.items.map((tx: { type: string }) => tx.type).sort()).toEqual(
      ['deposit', 'exchange', 'withdrawal', 'withdrawalPaid'].sort(),
    );

    const rec = await opCall(request, opToken, 'admin/reconcile');
    expect(rec.balanceDifferences).toEqual([]);
    expect(rec.unbalancedTransactions).toEqual([]);
    expect(rec.negativeBalances).toEqual([]);
    expect(rec.clean).toBe(true);
  });
}
