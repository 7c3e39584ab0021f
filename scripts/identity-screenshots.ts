/**
 * Screens of the identity rules a new member meets, at 390×844 in tw and en (the operator's KYC
 * queue at desktop width): deposits asking for verification first, registration with a non-09
 * number and with the mobile field empty, a trivial funds password, an unchanged login password,
 * a used-up invitation code, and a duplicate ID number marked in the KYC queue. Build the client
 * first (`npx vite build`), then `PORT=3303 OUT=/tmp/shots npx tsx scripts/identity-screenshots.ts`.
 */
import type { Page } from 'playwright';
import { startHarness } from '../tests/integration/harness';
import { injectClient, uploadOk } from '../tests/integration/support/client';
import { png } from '../tests/integration/support/files';
import { idNumberFor } from '../tests/support/taiwan-id';
import { openScreens } from './support/screens';

const OUT = process.env.OUT ?? '/tmp/sec-identity-shots';
const PORT = Number(process.env.PORT ?? 3303);

async function main() {
  const h = await startHarness({ inviteMemberMaxUses: 1 });
  const op = await h.operatorToken();
  await h.depositChannel();
  await h.saveSettings({
    depositOpen: '00:00',
    depositClose: '24:00',
    depositWeekdaysOnly: 'false',
    depositHolidaysClosed: 'false',
  });
  const channelId = await h.depositChannel();
  const newcomer = { account: '0912000101', token: await h.register('0912000101') };
  // A verified member whose one-use invitation code is used up.
  const inviter = { account: '0912000102', token: await h.fundedMember('0912000102', 1_000_000) };
  const code = (await h.call('user/invite', {}, inviter.token)).body.data.code as string;
  await h.call('user/register', {
    account: '0912000103',
    password: 'password123',
    confirmPassword: 'password123',
    inviteCode: code,
    agree: true,
  });
  // Another member submits the inviter's ID number: the queue marks it.
  const dupToken = await h.register('0912000104');
  const c = injectClient(h.app);
  await h.call(
    'user/submitKyc',
    {
      name: 'Lin Duplicate',
      idNumber: idNumberFor('0912000102'),
      frontUploadId: await uploadOk(c, dupToken, 'kycFront', png(901)),
      backUploadId: await uploadOk(c, dupToken, 'kycBack', png(902)),
    },
    dupToken,
  );

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT, settleMs: 600 });
  const tap = (id: string) => async (p: Page) => {
    await p.getByTestId(id).click();
    await p.waitForTimeout(400);
  };
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(newcomer, lang, '/user/recharge', 'deposit-verify-first', undefined, {
      ready: 'deposit-verify-first',
    });
    await screens.shot(
      newcomer,
      lang,
      `/user/rechargeChannel?id=${channelId}`,
      'deposit-channel-verify-first',
      undefined,
      { ready: 'deposit-verify-first' },
    );
    await screens.shot(null, lang, '/login/register', 'register-empty', tap('register-submit'));
    await screens.shot(null, lang, '/login/register', 'register-0812345678', async (p) => {
      await p.getByTestId('register-account').fill('0812345678');
      await tap('register-submit')(p);
    });
    await screens.shot(newcomer, lang, '/user/setPassword', 'funds-password-trivial', async (p) => {
      await p.getByTestId('funds-password-new').fill('123456');
      await p.getByTestId('funds-password-confirm').fill('123456');
      await tap('funds-password-submit')(p);
    });
    await screens.shot(newcomer, lang, '/user/loginPassword', 'login-password-unchanged', async (p) => {
      await p.getByTestId('login-password-old').fill('password123');
      await p.getByTestId('login-password-new').fill('password123');
      await p.getByTestId('login-password-confirm').fill('password123');
      await tap('login-password-submit')(p);
    });
    await screens.shot(inviter, lang, '/user/invite', 'invite-used-up', undefined, {
      ready: 'invite-used-up',
    });
    await screens.shot({ token: op, account: 'admin' }, lang, 'kyc', 'admin-kyc-duplicate', undefined, {
      console: true,
      viewport: { width: 1280, height: 720 },
      ready: /^kyc-duplicate-/,
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
