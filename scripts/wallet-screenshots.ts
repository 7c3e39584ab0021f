/**
 * Screenshots of the asset overview (/wallet/index) and invite friends (/user/invite) at 390×844
 * in Chromium, tw and en, into docs/screenshots/wallet-*.png and invite-*.png. Build the client
 * first (`npx vite build`), then `PORT=3406 npx tsx scripts/wallet-screenshots.ts`.
 *
 * It starts the server in-process on the integration harness (PGlite in memory, the manual market
 * clock at 10:00 of replayed 2025-04-14): a verified member deposits, exchanges part into USD,
 * opens two positions and closes one, and the clock runs through four trading-day closes (one
 * equity snapshot each); two friends register with the member's invitation code.
 */
import { REPLAY_DAY_MS } from '../server/market/clock';
import { idem, startHarness } from '../tests/integration/harness';
import { openScreens } from './support/screens';

const OUT = 'docs/screenshots';
const PORT = Number(process.env.PORT ?? 3406);

async function main() {
  const h = await startHarness();
  const me = '0912345678';
  const who = await h.withdrawer(me, 300_000_000);
  const unverified = await h.register('0912000009'); // deposits need a verified identity: none here
  const ok = async (name: Parameters<typeof h.call>[0], body: unknown, token = who.token) => {
    const r = await h.call(name, body, token, idem());
    if (r.body.status !== 1) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  await ok('user/exchange', { from: 'TWD', to: 'USD', amountMinor: 20_000_000 });
  const a = await ok('trade/placeOrder', {
    symbol: '2330',
    side: 'long',
    orderType: 'market',
    lots: 1,
    leverage: 5,
  });
  await ok('trade/placeOrder', { symbol: '2317', side: 'long', orderType: 'market', lots: 2, leverage: 2 });
  const step = async (ms: number) => {
    h.wall.now += ms;
    h.feed.tick();
    await h.trading.idle();
    await h.services.snapshots.idle();
  };
  await step(60 * 60_000);
  await ok('trade/closePosition', { orderId: a.id });
  await ok('trade/placeOrder', { symbol: '2330', side: 'short', orderType: 'market', lots: 1, leverage: 5 });
  // 11:00 → 13:30:01 (a close), then half a replayed day at a time: another close every second step.
  await step(2.5 * 60 * 60_000 + 1_000);
  for (let i = 0; i < 6; i++) await step(REPLAY_DAY_MS / 2);
  const invite = await ok('user/invite', {});
  for (const friend of ['0933111222', '0933444555'])
    await h.call('user/register', {
      account: friend,
      password: 'password123',
      confirmPassword: 'password123',
      inviteCode: invite.code,
      agree: true,
    });

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT, settleMs: 800 });
  const ME = { token: who.token, account: me };
  const UNVERIFIED = { token: unverified, account: '0912000009' };
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(ME, lang, '/wallet/index', 'wallet-overview', async (p) => {
      await p.getByTestId('wallet-total').waitFor();
      await p.waitForTimeout(400);
    });
    await screens.shot(ME, lang, '/wallet/index', 'wallet-history', async (p) => {
      await p.getByTestId('wallet-total').waitFor();
      await p.getByTestId('wallet-monthly').scrollIntoViewIfNeeded();
      await p.waitForTimeout(400);
    });
    await screens.shot(ME, lang, '/user/invite', 'invite-code', async (p) => {
      await p.getByTestId('invite-qr').waitFor();
    });
    await screens.shot(ME, lang, '/user/invite', 'invite-list', async (p) => {
      await p.getByTestId('invite-list').scrollIntoViewIfNeeded();
    });
    await screens.shot(UNVERIFIED, lang, '/user/invite', 'invite-unverified');
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
