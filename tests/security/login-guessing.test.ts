/**
 * Guessing locks the guesser, not the owner (server/modules/auth/throttle.ts, devices.ts), on the
 * whole server (PGlite or PostgreSQL):
 * - ten paced wrong passwords from address A against the operator (and against a member) lock A
 *   out of that account, the right password included, while the right password from address B,
 *   and from A with a device that logged in before, still log in;
 * - guessing spread over many addresses trips the slower per-account guard, which refuses
 *   unknown devices only; a device token does not lift the guessing limit of its own holder;
 * - the first operator has no default name: without OPERATOR_ACCOUNT it is generated;
 * - wrong old passwords on `user/loginPassword` are counted like failed logins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { AUTH_DEFAULTS } from '../../server/modules/auth/config';
import { OPERATOR, startHarness, type Harness } from '../integration/harness';

const PASSWORD = 'password123';
const A = '203.0.113.7';
const B = '198.51.100.20';

type Answer = { http: number; body: { status: number; msg: string; data: any } };

/** POST /api/vue/{name} from client address `ip`, with an optional session token. */
async function from(h: Harness, ip: string, name: string, body: object, token?: string): Promise<Answer> {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/vue/${name}`,
    remoteAddress: ip,
    headers: token ? { token } : {},
    payload: body,
  });
  return { http: res.statusCode, body: res.json() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `n` wrong answers counted by the server, paced as a patient guesser would: a `tooFrequent`
 * (the growing wait) is waited out and tried again, so every counted try is a real failure.
 */
async function pacedFailures(n: number, attempt: (i: number) => Promise<Answer>, wrongKey: string) {
  for (let i = 0, counted = 0; counted < n; i++) {
    const r = await attempt(i);
    if (r.body.msg === 'tooFrequent') {
      await sleep(60);
      continue;
    }
    expect(r.body.msg).toBe(wrongKey);
    counted++;
  }
}

describe('ten paced wrong passwords from one address', () => {
  let h: Harness;
  beforeAll(async () => {
    // Real thresholds (3 free failures, lock at 10); short waits so the pacing takes seconds.
    h = await startHarness({ loginDelayMs: 20, loginIpMaxFailures: AUTH_DEFAULTS.loginIpMaxFailures });
  });
  afterAll(() => h.close());

  for (const who of ['operator', 'member'] as const) {
    it(`lock that address out of the ${who}'s account, not the owner from elsewhere or from a known device`, async () => {
      const account = who === 'operator' ? OPERATOR.account : '0912300001';
      const password = who === 'operator' ? OPERATOR.password : PASSWORD;
      const endpoint = who === 'operator' ? 'admin/login' : 'user/login';
      if (who === 'member') await h.register(account);
      // The owner logged in once from their phone (address B): the phone keeps a device token.
      const earlier = await from(h, B, endpoint, { account, password });
      expect(earlier.body.status).toBe(1);
      const device = earlier.body.data.device as string;
      expect(device).toMatch(/^[\w-]{43}$/);

      await pacedFailures(
        AUTH_DEFAULTS.loginMaxFailures,
        (i) => from(h, A, endpoint, { account, password: `guess-${i}` }),
        'wrongCredentials',
      );
      // From A the account is locked, the right password included …
      expect(await from(h, A, endpoint, { account, password })).toEqual({
        http: 429,
        body: { status: 0, msg: 'tooFrequent', data: null },
      });
      // … from B the owner logs in at once (without the token: B's browser becomes a new device) …
      const fromB = await from(h, B, endpoint, { account, password });
      expect(fromB.body.status).toBe(1);
      expect(fromB.body.data.device).not.toBe(device);
      // … and so does the known device behind A's address (the same office or carrier NAT).
      const deviceAtA = await from(h, A, endpoint, { account, password, device });
      expect(deviceAtA.body.status).toBe(1);
      expect(deviceAtA.body.data.device).toBe(device);
      // A's lock on this account held through the owner's logins.
      expect((await from(h, A, endpoint, { account, password })).body.msg).toBe('tooFrequent');
      // A token of another account is no known device here.
      const other = await from(h, '192.0.2.1', 'user/register', {
        account: who === 'operator' ? '0912300002' : '0912300003',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        inviteCode: 'TESTCODE',
        agree: true,
      });
      expect(other.body.status).toBe(1);
      const otherDevice = (
        await from(h, '192.0.2.1', 'user/login', { account: other.body.data.account, password: PASSWORD })
      ).body.data.device as string;
      expect((await from(h, A, endpoint, { account, password, device: otherDevice })).body.msg).toBe(
        'tooFrequent',
      );
    });
  }

  it('still locks guessing that carries a known device token (its own counter)', async () => {
    const account = '0912300009';
    await h.register(account);
    const device = (await from(h, B, 'user/login', { account, password: PASSWORD })).body.data.device;
    await pacedFailures(
      AUTH_DEFAULTS.loginMaxFailures,
      (i) => from(h, A, 'user/login', { account, password: `stolen-${i}`, device }),
      'wrongCredentials',
    );
    expect((await from(h, A, 'user/login', { account, password: PASSWORD, device })).body.msg).toBe(
      'tooFrequent',
    );
    // The owner's address without the (stolen) token is another guesser's counter.
    expect((await from(h, B, 'user/login', { account, password: PASSWORD })).body.status).toBe(1);
  });
});

describe('guessing spread over many addresses', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ loginAccountMaxFailures: 5, loginFreeFailures: 10 });
  });
  afterAll(() => h.close());

  it('trips the per-account guard for unknown devices while a known device logs in', async () => {
    const account = '0912400001';
    await h.register(account);
    const device = (await from(h, B, 'user/login', { account, password: PASSWORD })).body.data.device;
    for (let i = 0; i < 5; i++)
      expect((await from(h, `10.9.0.${i + 1}`, 'user/login', { account, password: 'nope-1' })).body.msg).toBe(
        'wrongCredentials',
      );
    // The sixth guess, and the owner on a new device, are refused from any address …
    expect((await from(h, '10.9.0.99', 'user/login', { account, password: 'nope-1' })).body.msg).toBe(
      'tooFrequent',
    );
    expect((await from(h, '10.9.1.1', 'user/login', { account, password: PASSWORD })).body.msg).toBe(
      'tooFrequent',
    );
    // … the known device is not, from any address.
    expect(
      (await from(h, '10.9.0.1', 'user/login', { account, password: PASSWORD, device })).body.status,
    ).toBe(1);
    // Another account is untouched.
    await h.register('0912400002');
    expect(
      (await from(h, '10.9.1.1', 'user/login', { account: '0912400002', password: PASSWORD })).body.status,
    ).toBe(1);
  });
});

describe('the first operator', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ operatorAccount: undefined });
  });
  afterAll(() => h.close());

  it('gets a generated name when OPERATOR_ACCOUNT is unset, never admin', async () => {
    const name = h.firstRun.operatorAccount!;
    expect(h.firstRun.created).toBe(true);
    expect(name).toMatch(/^op-[a-z0-9]{8}$/);
    const op = await from(h, B, 'admin/login', { account: name, password: OPERATOR.password });
    expect(op.body.status).toBe(1);
    expect(
      (await from(h, B, 'admin/login', { account: 'admin', password: OPERATOR.password })).body.msg,
    ).toBe('wrongCredentials');
  });
});

describe('an install from before generated names', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ operatorAccount: 'admin' });
  });
  afterAll(() => h.close());

  it('warns about an operator still named admin, and renames it when OPERATOR_ACCOUNT is set', async () => {
    const restart = async (operatorAccount: string | undefined) => {
      const again = await buildApp(
        { ...h.config, operatorAccount },
        { database: h.database, feedTimer: false, logger: false },
      );
      await again.app.close();
      return again.firstRun;
    };
    expect(await restart(undefined)).toEqual({ created: false, defaultOperatorName: 'admin' });
    expect(await restart('op-renamed')).toEqual({
      created: false,
      operatorAccount: 'op-renamed',
      renamedFrom: 'admin',
    });
    expect(
      (await from(h, B, 'admin/login', { account: 'admin', password: OPERATOR.password })).body.msg,
    ).toBe('wrongCredentials');
    expect(
      (await from(h, B, 'admin/login', { account: 'op-renamed', password: OPERATOR.password })).body.status,
    ).toBe(1);
    expect(await restart('op-renamed')).toEqual({ created: false });
  });
});

describe('user/loginPassword', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ loginDelayMs: 20 });
  });
  afterAll(() => h.close());

  it('counts wrong old passwords like failed logins: the guessing session is locked out', async () => {
    const account = '0912500001';
    await h.register(account);
    const session = (await from(h, A, 'user/login', { account, password: PASSWORD })).body.data.token;
    const change = (oldPassword: string) =>
      from(
        h,
        A,
        'user/loginPassword',
        { oldPassword, password: 'newpass123', confirmPassword: 'newpass123' },
        session,
      );
    await pacedFailures(
      AUTH_DEFAULTS.loginMaxFailures,
      (i) => change(`old-guess-${i}`),
      'wrongOriginalPassword',
    );
    expect(await change(PASSWORD)).toEqual({
      http: 429,
      body: { status: 0, msg: 'tooFrequent', data: null },
    });
    // Nothing changed, and the owner still logs in from elsewhere.
    expect((await from(h, B, 'user/login', { account, password: PASSWORD })).body.status).toBe(1);
  });
});
