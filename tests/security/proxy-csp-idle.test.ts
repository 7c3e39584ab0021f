/**
 * Three edges of the server (PGlite or PostgreSQL):
 * - per-address limits behind a reverse proxy: `X-Forwarded-For` is honoured only on requests
 *   from a TRUST_PROXY address (server/http/client-address.ts); from anyone else it is ignored,
 *   so a client cannot spread its guesses over made-up addresses;
 * - the Content-Security-Policy lets pages connect to their own origin only (`connect-src 'self'`,
 *   no `ws:`/`wss:` to any host);
 * - idle sessions end: a member's after SESSION_IDLE_MINUTES, an operator's after
 *   OPERATOR_SESSION_IDLE_MINUTES without a request (401 `sessionExpired`, the session is gone),
 *   while requests keep a session alive past its idle time.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { sessions } from '../../server/db/schema';
import { hashToken } from '../../server/modules/auth/sessions';
import { OPERATOR, startHarness, type Harness } from '../integration/harness';

const PASSWORD = 'password123';
const PROXY = '10.0.0.1';

type Answer = { http: number; body: { status: number; msg: string; data: any } };

async function post(
  h: Harness,
  name: string,
  body: object,
  opts: { ip?: string; forwardedFor?: string; token?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.forwardedFor) headers['x-forwarded-for'] = opts.forwardedFor;
  if (opts.token) headers.token = opts.token;
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/vue/${name}`,
    remoteAddress: opts.ip ?? '127.0.0.1',
    headers,
    payload: body,
  });
  return { http: res.statusCode, body: res.json() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('per-address limits behind a reverse proxy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ trustProxy: [PROXY], loginIpMaxFailures: 3, loginFreeFailures: 10 });
    await h.register('0914100001');
  });
  afterAll(() => h.close());

  const guess = (i: number, opts: { ip: string; forwardedFor?: string }) =>
    post(h, 'user/login', { account: `091419000${i}`, password: 'guess-1' }, opts);
  const owner = (opts: { ip: string; forwardedFor?: string }) =>
    post(h, 'user/login', { account: '0914100001', password: PASSWORD }, opts);

  it('counts each forwarded client on its own when the request comes from the trusted proxy', async () => {
    for (let i = 0; i < 3; i++)
      expect((await guess(i, { ip: PROXY, forwardedFor: '203.0.113.5' })).body.msg).toBe('wrongCredentials');
    // The guessing client is blocked …
    expect((await owner({ ip: PROXY, forwardedFor: '203.0.113.5' })).body.msg).toBe('tooFrequent');
    // … the proxy's other clients are not.
    expect((await owner({ ip: PROXY, forwardedFor: '203.0.113.6' })).body.status).toBe(1);
  });

  it('ignores X-Forwarded-For from anyone else (no made-up addresses)', async () => {
    for (let i = 0; i < 3; i++)
      expect((await guess(i, { ip: '198.51.100.9', forwardedFor: `192.0.2.${i + 1}` })).body.msg).toBe(
        'wrongCredentials',
      );
    // All three were counted on the real peer, whatever address it claimed.
    expect((await owner({ ip: '198.51.100.9', forwardedFor: '192.0.2.200' })).body.msg).toBe('tooFrequent');
    expect((await owner({ ip: '198.51.100.10' })).body.status).toBe(1);
  });

  it('reads TRUST_PROXY as a comma list (none by default)', () => {
    expect(loadConfig({} as NodeJS.ProcessEnv).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 172.16.0.0/12' } as NodeJS.ProcessEnv).trustProxy).toEqual([
      '10.0.0.1',
      '172.16.0.0/12',
    ]);
  });
});

describe('the Content-Security-Policy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("lets pages connect to their own origin only: connect-src 'self'", async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/vue/no-such-route' });
    const header = String(res.headers['content-security-policy']);
    const connect = header
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('connect-src'));
    expect(connect).toBe("connect-src 'self'");
  });
});

describe('idle sessions', () => {
  let h: Harness;
  const MEMBER_IDLE = 5_000;
  const OPERATOR_IDLE = 2_500;
  beforeAll(async () => {
    h = await startHarness({ memberIdleMs: MEMBER_IDLE, operatorIdleMs: OPERATOR_IDLE });
  });
  afterAll(() => h.close());

  it('defaults to 30 minutes for members and 15 for operators, set by the environment', () => {
    const d = loadConfig({} as NodeJS.ProcessEnv);
    expect([d.memberIdleMs, d.operatorIdleMs]).toEqual([30 * 60_000, 15 * 60_000]);
    const c = loadConfig({
      SESSION_IDLE_MINUTES: '10',
      OPERATOR_SESSION_IDLE_MINUTES: '5',
    } as NodeJS.ProcessEnv);
    expect([c.memberIdleMs, c.operatorIdleMs]).toEqual([10 * 60_000, 5 * 60_000]);
  });

  it('end after their idle time (401 sessionExpired) and live on while used', async () => {
    const member = await h.register('0914200001');
    const op = (await post(h, 'admin/login', OPERATOR)).body.data.token as string;
    expect((await post(h, 'user/security', {}, { token: member })).body.status).toBe(1);
    expect((await post(h, 'admin/invitations', {}, { token: op })).body.status).toBe(1);

    await sleep(OPERATOR_IDLE + 500);
    expect(await post(h, 'admin/invitations', {}, { token: op })).toEqual({
      http: 401,
      body: { status: 0, msg: 'sessionExpired', data: null },
    });
    const gone = await h.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(op)));
    expect(gone).toEqual([]);
    // The member used theirs within its idle time: it lives past MEMBER_IDLE from login.
    expect((await post(h, 'user/security', {}, { token: member })).body.status).toBe(1);
    await sleep(MEMBER_IDLE - 2_000);
    expect((await post(h, 'user/security', {}, { token: member })).body.status).toBe(1);

    await sleep(MEMBER_IDLE + 500);
    expect(await post(h, 'user/security', {}, { token: member })).toEqual({
      http: 401,
      body: { status: 0, msg: 'sessionExpired', data: null },
    });
    // A new login works at once.
    expect((await post(h, 'user/login', { account: '0914200001', password: PASSWORD })).body.status).toBe(1);
  });
});
