/**
 * What a new member tripped over, through the HTTP API (PGlite, and PostgreSQL with
 * TEST_DATABASE_URL) and the client's own form checks, which share their rules with the server
 * through contract/:
 * - registration accepted 0812345678 (Taiwan mobiles are 09 and eight digits), and its empty
 *   field's message named the account where the form asks for the mobile number;
 * - the funds password took 123456 (one repeated digit or a run of digits is refused);
 * - a new login password could equal the old one;
 * - an unverified member could deposit (deposits need real-name verification first).
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTrivialDigitPassword } from '../../contract/identity-rules';
import { deposits, users } from '../../server/db/schema';
import { registerAccountError } from '../../src/features/auth/validation';
import { fundsPasswordError, newLoginPasswordError } from '../../src/features/identity/validation';
import { idem, INVITE, startHarness, type Harness } from './harness';
import { injectClient, uploadOk } from './support/client';
import { png } from './support/files';
import { ensureVerified } from './support/members';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const registration = (account: string) => ({
  account,
  password: 'password123',
  confirmPassword: 'password123',
  inviteCode: INVITE,
  agree: true,
});

describe('registration: a Taiwan mobile number', () => {
  it('refuses 0812345678 and other non-09 numbers, naming the mobile number', async () => {
    for (const account of ['0812345678', '0212345678', '1912345678', '091234567', '09123456789']) {
      const r = await h.call('user/register', registration(account));
      expect([account, r.http, r.body.msg]).toEqual([account, 400, 'mobileInvalid']);
      expect(registerAccountError(account)).toBe('validation.mobile');
    }
    const empty = await h.call('user/register', registration(''));
    expect([empty.http, empty.body.msg]).toEqual([400, 'mobileRequired']);
    expect(registerAccountError('')).toBe('validation.mobileRequired');
    const [{ n }] = (await h.database.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.account, '0812345678'))) as [{ n: number }];
    expect(Number(n)).toBe(0);
  });

  it('takes 0912345678', async () => {
    expect(registerAccountError('0912345678')).toBeNull();
    expect((await h.call('user/register', registration('0912345678'))).body.status).toBe(1);
  });
});

describe('funds password', () => {
  it('refuses one repeated digit and runs of digits, with their own message', async () => {
    const token = await h.register('0972000001');
    for (const pin of ['123456', '654321', '111111', '000000', '012345', '987654']) {
      expect(isTrivialDigitPassword(pin)).toBe(true);
      expect(fundsPasswordError(pin)).toBe('password.fundsTrivial');
      const r = await h.call('user/setPassword', { fundsPassword: pin, confirmFundsPassword: pin }, token);
      expect([pin, r.http, r.body.msg]).toEqual([pin, 422, 'fundsPasswordTrivial']);
    }
    expect((await h.call('user/security', {}, token)).body.data.fundsPasswordSet).toBe(false);
    for (const pin of ['246810', '135790', '112233']) expect(fundsPasswordError(pin)).toBeNull();
    const fine = await h.call(
      'user/setPassword',
      { fundsPassword: '246810', confirmFundsPassword: '246810' },
      token,
    );
    expect(fine.body.status).toBe(1);
    // A change to a trivial one is refused as well.
    const change = await h.call(
      'user/setPassword',
      { oldFundsPassword: '246810', fundsPassword: '123456', confirmFundsPassword: '123456' },
      token,
    );
    expect([change.http, change.body.msg]).toEqual([422, 'fundsPasswordTrivial']);
  });
});

describe('login password', () => {
  it('refuses a new password equal to the current one', async () => {
    const token = await h.register('0972000002', 'password123');
    const same = { oldPassword: 'password123', password: 'password123', confirmPassword: 'password123' };
    const r = await h.call('user/loginPassword', same, token);
    expect([r.http, r.body.msg]).toEqual([422, 'passwordUnchanged']);
    expect(newLoginPasswordError('password123', 'password123')).toBe('validation.passwordUnchanged');
    expect(newLoginPasswordError('password123', 'password124')).toBeNull();
    const login = await h.call('user/login', { account: '0972000002', password: 'password123' });
    expect(login.body.status).toBe(1);
    const changed = await h.call(
      'user/loginPassword',
      { oldPassword: 'password123', password: 'password456', confirmPassword: 'password456' },
      token,
    );
    expect(changed.body.status).toBe(1);
  });
});

describe('deposits need a verified identity', () => {
  it('refuses an unverified member’s deposit with a translated key, then takes it once verified', async () => {
    const token = await h.register('0972000003');
    const userId = await h.userId('0972000003');
    const channelId = await h.depositChannel();
    await h.saveSettings({
      depositOpen: '00:00',
      depositClose: '24:00',
      depositWeekdaysOnly: 'false',
      depositHolidaysClosed: 'false',
    });
    const c = injectClient(h.app);
    const body = async () => ({
      channelId,
      amountMinor: 1_000_000,
      receiptUploadId: await uploadOk(c, token, 'receipt', png(9_100)),
    });
    const refused = await h.call('user/recharge', await body(), token, idem());
    expect([refused.http, refused.body.msg]).toEqual([422, 'depositNeedsVerification']);
    const rows = async () =>
      Number(
        (await h.database.db.select({ n: count() }).from(deposits).where(eq(deposits.userId, userId)))[0]!.n,
      );
    expect(await rows()).toBe(0);
    await ensureVerified(c, await h.operatorToken(), token);
    const taken = await h.call('user/recharge', await body(), token, idem());
    expect(taken.body.status).toBe(1);
    expect(await rows()).toBe(1);
  });
});
