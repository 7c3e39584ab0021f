/**
 * Screenshots of the practice venue at 390×844 in Chromium, tw and en, into OUT (default
 * /tmp/practice-shots): the withdraw screen (withdrawable and why; an amount above the net
 * deposits refused in the form), the asset overview (practice notice, net assets with assets and
 * a NT$10,000 credit loan as debt) and the market screen's status bar reading 模擬 / Practice.
 * Build the client first (`npx vite build`), then `PORT=3204 npx tsx scripts/practice-screenshots.ts`.
 *
 * It starts the server in-process on the integration harness (PGlite in memory, the manual market
 * clock at 10:00 of replayed 2025-04-14): a verified member deposits NT$100,000, gains on a 2317
 * short closed at 12:00, and borrows NT$10,000 on credit.
 */
import { mkdirSync } from 'node:fs';
import { idem, startHarness } from '../tests/integration/harness';
import { replayTo } from '../tests/integration/trading-support';
import { openScreens } from './support/screens';

const OUT = process.env.OUT ?? '/tmp/practice-shots';
const PORT = Number(process.env.PORT ?? 3204);

async function main() {
  mkdirSync(OUT, { recursive: true });
  const h = await startHarness();
  const op = await h.operatorToken();
  const me = '0912345678';
  const who = await h.withdrawer(me, 10_000_000);
  const ok = async (name: Parameters<typeof h.call>[0], body: unknown, token = who.token) => {
    const r = await h.call(name, body, token, idem());
    if (r.body.status !== 1) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const short = await ok('trade/placeOrder', {
    symbol: '2317',
    side: 'short',
    orderType: 'market',
    lots: 1,
    leverage: 5,
  });
  await replayTo(h, 12, 0);
  await ok('trade/closePosition', { orderId: short.id });
  const loan = await ok('credit/apply', { amountMinor: 1_000_000 });
  await ok('admin/approveCreditLoan', { id: loan.id }, op);

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT, settleMs: 800 });
  const ME = { token: who.token, account: me };
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(ME, lang, '/user/withdraw', 'withdraw', async (p) => {
      await p.getByTestId('withdraw-withdrawable').waitFor();
    });
    await screens.shot(ME, lang, '/user/withdraw', 'withdraw-above', async (p) => {
      await p.getByTestId('withdraw-amount').fill('100000.01');
      await p.getByTestId('withdraw-funds-password').fill('246810');
      await p.getByTestId('withdraw-submit').click();
      await p.waitForTimeout(500);
    });
    await screens.shot(ME, lang, '/wallet/index', 'wallet', async (p) => {
      await p.getByTestId('wallet-debt-total').waitFor();
      await p.waitForTimeout(400);
    });
    await screens.shot(ME, lang, '/market/market', 'status-bar', async (p) => {
      await p.getByTestId('replay-label').waitFor();
    });
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
