/**
 * Screenshots of the order ticket, input messages, KYC hint, login, dividends, home, coupons,
 * deposit channel and day-trading lists at 390×844 in Chromium, tw and en, into OUT
 * (default /tmp/ux-trading-shots). Build the client first (`npx vite build`), then
 * `PORT=3305 npx tsx scripts/trading-ux-screenshots.ts`.
 *
 * Runs the server in-process on the integration harness (PGlite in memory, manual market clock at
 * 10:00 of a replayed day: the continuous session).
 */
import type { Page } from 'playwright';
import { idem, startHarness } from '../tests/integration/harness';
import { openScreens } from './support/screens';

const OUT = process.env.OUT ?? '/tmp/ux-trading-shots';
const PORT = Number(process.env.PORT ?? 3305);

async function main() {
  const h = await startHarness();
  const op = await h.operatorToken();
  const call = async (name: string, body: unknown, token?: string) => {
    const r = await h.call(name as never, body, token, idem());
    if (r.body.status !== 1) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const me = '0912345678';
  const token = await h.fundedMember(me, 300_000_000);

  // A holding with shares in loan (close is refused: shown before the confirm).
  await call('admin/saveLendingQuota', { symbol: '2317', quotaShares: 100_000 }, op);
  const pos = await call(
    'trade/placeOrder',
    { symbol: '2317', side: 'long', orderType: 'market', lots: 1, leverage: 1 },
    token,
  );
  await call('lending/lend', { orderId: pos.id, shares: 1000, rateBps: 100, days: 5 }, token);

  // Points for a coupon (a points code), so the shop can sell one and the ticket shows a discount.
  const batch = await call(
    'admin/createPointsCodes',
    { kind: 'points', amount: 1000, expiresAt: h.wall.now + 86_400_000 * 30, count: 1, perMemberLimit: 1 },
    op,
  );
  await call('rewards/redeemCode', { code: batch.codes[0] }, token);

  // A deposit channel at a listed bank.
  await call(
    'admin/saveChannel',
    {
      name: '臺灣銀行 台北分行',
      accountName: 'TW Trade Ltd',
      accountNumber: '00123456789012',
      bankName: '臺灣銀行',
      branch: '館前分行',
      currency: 'TWD',
      minMinor: 100_000,
      maxMinor: 100_000_000,
    },
    op,
  );
  const channels = await call('user/depositChannels', {}, token);
  const channel = channels.channels[0];

  // A day trader with a holding day trade.
  const app = await call('dayTrade/apply', {}, token);
  if (app.status === 'pending') await call('admin/approveDayTrade', { id: app.id }, op);
  await call(
    'dayTrade/placeOrder',
    { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 5 },
    token,
  );

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT, settleMs: 1500 });
  const ME = { token, account: me };
  const ticket = async (p: Page, lots: string) => {
    await p.getByTestId('order-lots').fill(lots);
    await p.getByTestId('order-lots').evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await p.waitForTimeout(400);
  };
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(
      ME,
      lang,
      '/market/marketDetail?symbol=2330',
      'ticket-lots-600',
      (p) => ticket(p, '600'),
      {
        ready: 'order-lots',
      },
    );
    await screens.shot(ME, lang, '/market/marketDetail?symbol=2330', 'ticket-lots-0', (p) => ticket(p, '0'), {
      ready: 'order-lots',
    });
    await screens.shot(
      ME,
      lang,
      '/market/marketDetail?symbol=2330',
      'ticket-session',
      async (p) => {
        await p.getByTestId('order-phase-note').scrollIntoViewIfNeeded();
        await p.evaluate(() => window.scrollBy(0, -80));
      },
      { ready: 'order-lots' },
    );
    await screens.shot(
      ME,
      lang,
      '/position/position?tab=holdings',
      'close-lent',
      async (p) => {
        await p.getByTestId(`position-close-${pos.id}`).click();
        await p.getByTestId('close-refusal').waitFor();
        await p.waitForTimeout(400);
      },
      { ready: `position-close-${pos.id}` },
    );
    await screens.shot(ME, lang, '/user/exchange', 'exchange-zero', async (p) => {
      const input = p.locator('input[inputmode="decimal"]').first();
      await input.fill('0');
      await input.blur();
      await p.waitForTimeout(400);
    });
    await screens.shot(ME, lang, '/user/jkjl?apply=1', 'loan-decimals', async (p) => {
      await p.getByTestId('credit-apply-amount').fill('10000.555');
      await p.getByTestId('credit-apply-submit').click();
      await p.waitForTimeout(300);
    });
    await screens.shot(ME, lang, '/user/bandCard', 'kyc-hint');
    await screens.shot(null, lang, '/login/login', 'login-remembered', undefined, {
      ready: async (p) => {
        await p.evaluate(() => localStorage.setItem('agreement_accepted', 'shipped'));
        await p.reload();
        await p.getByTestId('login-agree').waitFor();
        await p.waitForTimeout(800);
      },
    });
    await screens.shot(ME, lang, '/common/dividend2', 'dividends', undefined, {
      ready: async (p) => p.locator('.dividend-row').first().waitFor({ timeout: 30_000 }),
    });
    await screens.shot(ME, lang, '/home/index', 'home-shortcuts', async (p) => {
      await p.getByTestId('shortcut-holdings').scrollIntoViewIfNeeded();
    });
    await screens.shot(ME, lang, '/home/coupons', 'coupon-bought', async (p) => {
      await p.getByTestId('redeem-code').locator('input').fill('abcd2345wxyz6789');
      await p.getByTestId('buy-off20').click();
      await p.waitForTimeout(500);
    });
    await screens.shot(
      ME,
      lang,
      '/market/marketDetail?symbol=2330',
      'ticket-fee-discount',
      async (p) => {
        const opt = p.locator('[data-testid^="order-coupon-"]:not([data-testid="order-coupon-none"])');
        await opt.first().waitFor({ timeout: 10_000 });
        await opt.first().click();
        await p.getByTestId('order-preview-fee').scrollIntoViewIfNeeded();
        await p.waitForTimeout(400);
      },
      { ready: 'order-lots' },
    );
    await screens.shot(
      ME,
      lang,
      '/market/marketDetail?symbol=2317',
      'watch-toast',
      async (p) => {
        await p.getByTestId('watch-toggle').click();
        await p.waitForTimeout(300);
      },
      { ready: 'watch-toggle' },
    );
    await screens.shot(ME, lang, `/user/rechargeChannel?id=${channel.id}`, 'deposit-channel', async (p) => {
      await p.getByTestId('channel-account-number-copy').click();
      await p.waitForTimeout(300);
    });
    await screens.shot(
      ME,
      lang,
      '/common/dayTrading?tab=transactions',
      'day-trading-transactions',
      undefined,
      {
        ready: async (p) => p.locator('[data-testid^="dt-tx-pnl-"]').first().waitFor({ timeout: 30_000 }),
      },
    );
  }
  await screens.close();
  await h.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
