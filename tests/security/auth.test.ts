/**
 * Login and registration under brute force, on the whole server (integration harness, PGlite or
 * PostgreSQL): consecutive failures from one client lock the account for that client
 * (`tooFrequent`, the correct password refused too; other clients and known devices are
 * login-guessing.test.ts) while other accounts still log in from it; the lock ends and grows; failures
 * past the free ones wait a growing delay; failed logins and registrations per client address are
 * capped; registration does not reveal an existing account (same answer, same CPU time); legacy scrypt hashes are rehashed to argon2id; invitation codes have
 * an owner, a use limit, an expiry and can be disabled.
 *
 * Each block builds its own app with the limits it exercises; the harness's own config keeps the
 * per-client limits high for the other test files. The unknown-account timing is
 * auth-timing.test.ts (run on its own, after the other files: it asserts wall time).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, invitationCodes, userSecurity, users } from '../../server/db/schema';
import { AUTH_DEFAULTS } from '../../server/modules/auth/config';
import { legacyScryptHash } from '../../server/modules/auth/passwords';
import { verifyFundsPassword } from '../../server/modules/identity/funds-password';
import { INVITE, OPERATOR, startHarness, type Harness } from '../integration/harness';
import { compare, pair, type Sample } from './timing';

const PASSWORD = 'password123';

type Answer = { http: number; body: { status: number; msg: string; data: any } };

/** POST /api/vue/{name} from a given client address. */
async function from(h: Harness, ip: string, name: string, body: object): Promise<Answer> {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/vue/${name}`,
    remoteAddress: ip,
    payload: body,
  });
  return { http: res.statusCode, body: res.json() };
}

const login = (h: Harness, account: string, password = PASSWORD) =>
  h.call('user/login', { account, password }) as Promise<Answer>;

const registration = (account: string, inviteCode = INVITE) => ({
  account,
  password: PASSWORD,
  confirmPassword: PASSWORD,
  inviteCode,
  agree: true,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
describe('an account under a password-guessing run', () => {
  let h: Harness;
  beforeAll(async () => {
    // Real account and client limits, but no wait between failures, so 20 guesses reach the lock.
    h = await startHarness({
      loginFreeFailures: AUTH_DEFAULTS.loginMaxFailures,
      loginIpMaxFailures: AUTH_DEFAULTS.loginIpMaxFailures,
    });
  });
  afterAll(() => h.close());

  it('is locked after 10 failures (tooFrequent, even for the right password) while another account logs in', async () => {
    await h.register('0910000001');
    await h.register('0910000002');
    const answers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await login(h, '0910000001', `wrong-guess-${i}`);
      expect(r.http).toBe(r.body.msg === 'tooFrequent' ? 429 : 401);
      answers.push(r.body.msg);
    }
    expect(answers).toEqual([
      ...Array<string>(AUTH_DEFAULTS.loginMaxFailures).fill('wrongCredentials'),
      ...Array<string>(20 - AUTH_DEFAULTS.loginMaxFailures).fill('tooFrequent'),
    ]);
    expect(await login(h, '0910000001')).toEqual({
      http: 429,
      body: { status: 0, msg: 'tooFrequent', data: null },
    });
    const other = await login(h, '0910000002');
    expect(other.body.status).toBe(1);
    // The operator console's login shares the lock.
    expect((await h.call('admin/login', { account: '0910000001', password: PASSWORD })).body.msg).toBe(
      'tooFrequent',
    );
  });

  it('locks an unknown account name the same way (a lock says nothing about existence)', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 12; i++) answers.push((await login(h, '0919999999', `guess-${i}`)).body.msg);
    expect(answers.slice(0, 10)).toEqual(Array<string>(10).fill('wrongCredentials'));
    expect(answers.slice(10)).toEqual(['tooFrequent', 'tooFrequent']);
  });
});

describe('the lock ends, and the next one lasts longer', () => {
  let h: Harness;
  const LOCK_MS = 2_000;
  beforeAll(async () => {
    h = await startHarness({ loginFreeFailures: AUTH_DEFAULTS.loginMaxFailures, loginLockMs: LOCK_MS });
  });
  afterAll(() => h.close());

  const fail10 = async (account: string) => {
    for (let i = 0; i < 10; i++)
      expect((await login(h, account, `nope-${i}`)).body.msg).toBe('wrongCredentials');
  };

  it('lets the right password in once the lock has run out, and doubles the second lock', async () => {
    await h.register('0920000001');
    await fail10('0920000001');
    expect((await login(h, '0920000001')).body.msg).toBe('tooFrequent');
    await sleep(LOCK_MS + 300);
    // Locked again at once: the failure count started over after the lock, the lock count did not.
    await fail10('0920000001');
    const lockedAt = Date.now();
    expect((await login(h, '0920000001')).body.msg).toBe('tooFrequent');
    await sleep(Math.max(0, lockedAt + LOCK_MS + 300 - Date.now()));
    // Past the first lock's length, inside the second's (2 × LOCK_MS).
    expect((await login(h, '0920000001')).body.msg).toBe('tooFrequent');
    await sleep(Math.max(0, lockedAt + 2 * LOCK_MS + 300 - Date.now()));
    expect((await login(h, '0920000001')).body.status).toBe(1);
  });
});

describe('default limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('answers the free failures at once, then makes the account wait a growing delay; a success resets it', async () => {
    await h.register('0930000001');
    for (let i = 0; i < AUTH_DEFAULTS.loginFreeFailures + 1; i++)
      expect((await login(h, '0930000001', `bad-${i}`)).body.msg).toBe('wrongCredentials');
    // Within the wait after the first failure past the free ones, even the right password waits.
    expect((await login(h, '0930000001')).body.msg).toBe('tooFrequent');
    await sleep(AUTH_DEFAULTS.loginDelayMs + 200);
    expect((await login(h, '0930000001')).body.status).toBe(1);
    for (let i = 0; i < AUTH_DEFAULTS.loginFreeFailures + 1; i++)
      expect((await login(h, '0930000001', `bad-again-${i}`)).body.msg).toBe('wrongCredentials');
  });

  it('refuses an existing account exactly as an unusable invitation code, in the same time', async () => {
    await h.register('0940000001');
    const op = await h.operatorToken();
    const expired = (await h.call('admin/createInvitation', { code: 'OLDCODE1', validDays: 1 }, op)).body
      .data;
    const usedUp = (await h.call('admin/createInvitation', { code: 'ONCE0001', maxUses: 1 }, op)).body.data;
    const disabled = (await h.call('admin/createInvitation', { code: 'STOP0001', maxUses: 5 }, op)).body.data;
    expect([expired.state, usedUp.state, disabled.state]).toEqual(['active', 'active', 'active']);
    expect((await h.call('user/register', registration('0940000002', 'ONCE0001'))).body.status).toBe(1);
    expect((await h.call('admin/disableInvitation', { code: 'STOP0001' }, op)).body.data.state).toBe(
      'disabled',
    );

    const refusal = { http: 400, body: { status: 0, msg: 'registrationRefused', data: null } };
    expect(await h.call('user/register', registration('0940000001'))).toEqual(refusal);
    expect(await h.call('user/register', registration('0940000003', 'NOSUCHCODE'))).toEqual(refusal);
    expect(await h.call('user/register', registration('0940000003', 'ONCE0001'))).toEqual(refusal);
    expect(await h.call('user/register', registration('0940000003', 'STOP0001'))).toEqual(refusal);
    h.wall.now += 2 * 86_400_000;
    try {
      expect(await h.call('user/register', registration('0940000003', 'OLDCODE1'))).toEqual(refusal);
    } finally {
      h.wall.now -= 2 * 86_400_000;
    }
    // Nothing was created or consumed by the refusals.
    expect(await h.database.db.select().from(users).where(eq(users.account, '0940000003'))).toEqual([]);
    const [once] = await h.database.db
      .select()
      .from(invitationCodes)
      .where(eq(invitationCodes.code, 'ONCE0001'));
    expect(once!.uses).toBe(1);
    const [first] = await h.database.db
      .select()
      .from(invitationCodes)
      .where(eq(invitationCodes.code, INVITE));
    const firstUses = first!.uses;

    const N = 21;
    const tExists: Sample[] = [];
    const tBadCode: Sample[] = [];
    await h.call('user/register', registration('0940000001'));
    for (let i = 0; i < N; i++) {
      const [[a, ra], [b, rb]] = await pair(
        () => h.call('user/register', registration('0940000001')),
        () => h.call('user/register', registration('0940000004', 'NOSUCHCODE')),
        i,
      );
      expect(ra).toEqual(refusal);
      expect(rb).toEqual(refusal);
      tExists.push(a);
      tBadCode.push(b);
    }
    // The same work (CPU); the wall time is logged (a loaded machine moves it by tens of ms).
    const diff = compare('register, existing account vs unknown code', tExists, tBadCode);
    expect(Math.abs(diff.cpu)).toBeLessThan(5);
    const [firstAfter] = await h.database.db
      .select()
      .from(invitationCodes)
      .where(eq(invitationCodes.code, INVITE));
    expect(firstAfter!.uses).toBe(firstUses);
  });

  it('rehashes a legacy scrypt login password and funds password to argon2id on a right password', async () => {
    await h.register('0950000001');
    const id = await h.userId('0950000001');
    await h.database.db
      .update(users)
      .set({ passwordHash: await legacyScryptHash(PASSWORD) })
      .where(eq(users.id, id));
    expect((await login(h, '0950000001', 'wrong-one-1')).body.msg).toBe('wrongCredentials');
    const still = await h.database.db.select().from(users).where(eq(users.id, id));
    expect(still[0]!.passwordHash.startsWith('scrypt$')).toBe(true);
    expect((await login(h, '0950000001')).body.status).toBe(1);
    const [after] = await h.database.db.select().from(users).where(eq(users.id, id));
    expect(after!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await login(h, '0950000001')).body.status).toBe(1);

    await h.database.db
      .insert(userSecurity)
      .values({ userId: id, fundsPasswordHash: await legacyScryptHash('fundspass1'), fundsPasswordFails: 0 });
    await verifyFundsPassword(h.database.db, id, 'fundspass1');
    const [sec] = await h.database.db.select().from(userSecurity).where(eq(userSecurity.userId, id));
    expect(sec!.fundsPasswordHash).toMatch(/^\$argon2id\$/);
    await verifyFundsPassword(h.database.db, id, 'fundspass1');
  });

  it('lists, issues and disables invitation codes with an owner, a use limit and an expiry (operators only, audited)', async () => {
    const op = await h.operatorToken();
    const list = (await h.call('admin/invitations', {}, op)).body.data.items as any[];
    const firstRun = list.find((c) => c.code === INVITE);
    expect(firstRun).toMatchObject({ owner: OPERATOR.account, maxUses: AUTH_DEFAULTS.firstRunInviteMaxUses });
    expect(firstRun.state).toBe('active');

    const member = await h.register('0960000001');
    expect((await h.call('admin/createInvitation', {}, member)).body.msg).toBe('forbidden');

    const issued = await h.call('admin/createInvitation', { ownerAccount: '0960000001' }, op);
    expect(issued.body.status).toBe(1);
    expect(issued.body.data).toMatchObject({
      owner: '0960000001',
      maxUses: AUTH_DEFAULTS.inviteDefaultMaxUses,
      uses: 0,
      expiresAt: h.wall.now + AUTH_DEFAULTS.inviteDefaultDays * 86_400_000,
      state: 'active',
    });
    expect(issued.body.data.code).toMatch(/^[A-Z0-9]{8}$/);
    expect((await h.call('admin/createInvitation', { code: issued.body.data.code }, op)).body.msg).toBe(
      'invitationExists',
    );
    expect((await h.call('admin/createInvitation', { ownerAccount: '0969999999' }, op)).body.msg).toBe(
      'accountNotFound',
    );
    expect((await h.call('admin/disableInvitation', { code: 'NOTACODE' }, op)).body.msg).toBe(
      'invitationNotFound',
    );
    const reg = await h.call('user/register', registration('0960000002', issued.body.data.code));
    expect(reg.body.status).toBe(1);
    const [newMember] = await h.database.db.select().from(users).where(eq(users.account, '0960000002'));
    expect(newMember!.inviteCode).toBe(issued.body.data.code);
    const again = (await h.call('admin/invitations', {}, op)).body.data.items as any[];
    expect(again.find((c) => c.code === issued.body.data.code)).toMatchObject({ uses: 1, state: 'usedUp' });

    const actions = (await h.database.db.select().from(auditLog)).map((a) => a.action);
    expect(actions).toContain('invitation.create');
    expect(actions).toContain('invitation.disable');
  });
});

describe('per-client limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ loginIpMaxFailures: 5, registerIpMax: 3 });
  });
  afterAll(() => h.close());

  it('blocks a client address after its failed logins across accounts, not other addresses', async () => {
    await h.register('0970000001');
    for (let i = 0; i < 5; i++)
      expect(
        (await from(h, '10.0.0.7', 'user/login', { account: `097100000${i}`, password: 'guess-1' })).body.msg,
      ).toBe('wrongCredentials');
    const blocked = await from(h, '10.0.0.7', 'user/login', { account: '0970000001', password: PASSWORD });
    expect(blocked).toEqual({ http: 429, body: { status: 0, msg: 'tooFrequent', data: null } });
    expect(
      (await from(h, '10.0.0.8', 'user/login', { account: '0970000001', password: PASSWORD })).body.status,
    ).toBe(1);
  });

  it('throttles registrations per client address', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 4; i++)
      answers.push((await from(h, '10.0.0.9', 'user/register', registration(`098000000${i}`))).body.msg);
    expect(answers).toEqual(['register', 'register', 'register', 'tooFrequent']);
    expect(await h.database.db.select().from(users).where(eq(users.account, '0980000003'))).toEqual([]);
    expect((await from(h, '10.0.0.10', 'user/register', registration('0980000003'))).body.msg).toBe(
      'register',
    );
  });
});
