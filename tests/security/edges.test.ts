/**
 * The server's edges under hostile input, replayed on PGlite and PostgreSQL (server/http/edges.ts,
 * server/modules/identity/uploads.ts, kyc.ts, fx/handlers.ts):
 * - a control character (C0, DEL, C1) or an unpaired surrogate in any string field of every
 *   endpoint of contract/api.ts that has one is 400 `parameterError` with nothing written; tab and
 *   newline pass only in multi-line fields (`reason`);
 * - out-of-range numbers, and a conversion whose result exceeds 2^53 (USD → JPY of 10^15), are
 *   400 with nothing written;
 * - the server log of login, registration, KYC and bank-card requests holds no password, ID
 *   number, name or card number;
 * - unknown routes answer the 404 `notFound` envelope;
 * - helmet's headers (CSP with `frame-ancestors 'none'`, nosniff, DENY) on `/`, `/admin.html`,
 *   the API and `/api/docs`;
 * - a PNG-prefixed script upload is refused; a JPEG with EXIF comes back re-encoded without it,
 *   upright, inline, under a sandboxing CSP;
 * - KYC refuses an ID number another member holds (verified or under review) without naming them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type EndpointName } from '../../contract/api';
import { convertMinorFloor, convertMinorFloorInRange } from '../../contract/money';
import { forbiddenTextPath } from '../../contract/common';
import { SERVER_TIMEOUTS } from '../../server/http/edges';
import { INVITE, OPERATOR, startHarness, type Harness } from '../integration/harness';
import { idem, injectClient, uploadOk, type ApiClient } from '../integration/support/client';
import { PNG_BYTES, png } from '../integration/support/files';
import { ALL_TABLES, filesUnder, fingerprint } from '../integration/support/fingerprint';
import {
  LOGIN_PASSWORD,
  nameFor,
  ok,
  pendingKycId,
  register,
  taiwanId,
  verify,
} from '../integration/support/members';

let h: Harness;
let c: ApiClient;
let dataDir: string;
let clientDir: string;
let op: string;
let member: string;
const log: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tw-edges-'));
  // A stand-in for the built client: the headers are the server's, whatever the pages hold.
  clientDir = mkdtempSync(path.join(os.tmpdir(), 'tw-edges-client-'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(path.join(clientDir, 'admin.html'), '<!doctype html><title>console</title>');
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      log.push(chunk.toString('utf8'));
      done();
    },
  });
  h = await startHarness({ dataDir, clientDir, logLevel: 'info' }, { logStream: stream });
  c = injectClient(h.app);
  op = await h.operatorToken();
  member = await register(c, '0921000001', INVITE);
}, 120_000);

afterAll(async () => {
  await h?.close();
  for (const d of [dataDir, clientDir]) if (d) rmSync(d, { recursive: true, force: true });
});

const tokenFor = (name: EndpointName) =>
  api[name].access === 'operator'
    ? op
    : api[name].access === 'member' || api[name].access === 'any'
      ? member
      : undefined;

/** Paths (key lists) of every string leaf of a zod request schema. */
function stringPaths(schema: unknown, at: string[] = []): string[][] {
  const def = (schema as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'string':
      return [at];
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([k, v]) =>
        stringPaths(v, [...at, k]),
      );
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return stringPaths(def.innerType, at);
    case 'pipe':
      return stringPaths(def.in, at);
    case 'array':
      return stringPaths(def.element, [...at, '0']);
    default:
      return [];
  }
}

const UPLOAD_ID = 'a'.repeat(32);
/**
 * A body each endpoint's schema accepts, for every endpoint with a string field (the test below
 * fails when an endpoint with a string field has none here).
 */
const SAMPLES: Partial<Record<EndpointName, Record<string, unknown>>> = {
  'user/register': {
    account: '0921000099',
    password: 'password123',
    confirmPassword: 'password123',
    inviteCode: INVITE,
    agree: true,
  },
  'user/login': { account: '0921000001', password: LOGIN_PASSWORD },
  'user/Optionallist': { type: 'all' },
  'user/addOptional': { symbol: '2330' },
  'user/delOptional': { symbol: '2330' },
  'user/statement': { from: '2026-01-01', to: '2026-01-02' },
  'user/submitKyc': {
    name: '陳大文',
    idNumber: taiwanId(900),
    frontUploadId: UPLOAD_ID,
    backUploadId: UPLOAD_ID,
  },
  'user/loginPassword': {
    oldPassword: LOGIN_PASSWORD,
    password: 'password456',
    confirmPassword: 'password456',
  },
  'user/setPassword': { oldFundsPassword: '135790', fundsPassword: '246810', confirmFundsPassword: '246810' },
  'user/addBankCard': {
    holderName: '陳大文',
    cardNumber: '1234567890123',
    bankCode: '013',
    bankName: 'Cathay United Bank',
    branchName: 'Xinyi',
    branchCode: '0077',
  },
  'user/recharge': {
    channelId: 1,
    amountMinor: 100_000,
    receiptUploadId: UPLOAD_ID,
    channelPassword: 'secret',
  },
  'user/withdraw': { amountMinor: 100_000, fundsPassword: '246810', cardId: 1 },
  'market/list': { sort: 'gainers', market: 'TWSE', industry: '半導體業' },
  'search/query': { q: '台積' },
  'search/addHistory': { symbol: '2330' },
  'market/detail': { symbol: '2330' },
  'market/depth': { symbol: '2330' },
  'market/candles': { symbol: '2330', period: '1d' },
  'market/quotes': { symbols: ['2330'] },
  'market/trades': { symbol: '2330' },
  'trade/placeOrder': { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 5 },
  'dayTrade/placeOrder': { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 5 },
  'admin/rejectDayTrade': { id: 1, reason: 'not eligible' },
  'admin/login': OPERATOR,
  'admin/rejectDeposit': { id: 1, reason: 'no receipt' },
  'admin/users': { q: '0921' },
  'admin/setUserFlags': { id: 1, frozen: true, reason: 'review' },
  'admin/rejectKyc': { id: 1, reason: 'blurred' },
  'admin/rejectWithdrawal': { id: 1, reason: 'wrong card' },
  'admin/saveChannel': {
    name: 'Main',
    accountName: 'TW Trade Ltd',
    accountNumber: '0012345678901',
    bankName: 'Bank of Taiwan',
    branch: 'Taipei',
    minMinor: 1,
    maxMinor: 100,
    password: 'secret',
  },
  'admin/saveConfig': { name: 'title', value: 'TW Trade' },
  'admin/createInvitation': { code: 'EDGES01', maxUses: 1, validDays: 1, ownerAccount: 'admin' },
  'admin/disableInvitation': { code: 'EDGES01' },
  'user/setBlockTradePassword': { oldPassword: '135790', password: '246810', confirmPassword: '246810' },
  'blockTrade/apply': { offeringId: 1, priceMinor: 100_000, lots: 500, password: '246810' },
  'admin/rejectPrimary': { id: 1, reason: 'over the limit' },
  'admin/rejectMentor': { id: 1, reason: 'criteria' },
  'admin/cancelFollow': { id: 1, reason: 'member request' },
  'common/page': { name: 'agreement' },
  'admin/savePage': { name: 'aboutUs', lang: 'en', title: 'About', body: 'One.\n\nTwo.' },
  'user/resetRequest': { account: '0912345678' },
  'user/resetPassword': { account: '0912345678', code: '123456', password: 'newpass123' },
  'user/feedback': { rating: 4, comment: 'clear' },
  'rewards/redeemCode': { code: 'ABCD-EFGH-JKMN-PQRS' },
  'rewards/buyCoupon': { offerId: 'off20' },
  'rewards/coupons': { tab: 'available' },
  'admin/createPointsCodes': {
    kind: 'points',
    amount: 10,
    count: 1,
    perMemberLimit: 1,
    expiresAt: 4_000_000_000_000,
    note: 'launch week',
  },
  'admin/saveLevel': { level: 1, name: 'VIP1', minAssetsMinor: 0, minVolume30dMinor: 0, feeDiscountBps: 100 },
  'admin/grantCoupon': { account: '0921000099', kind: 'amount', offMinor: 1_000, validDays: 1 },
  'admin/coupons': { account: '0921000099' },
  'dividend/calendar': { tab: 'upcoming' },
  'dividend/history': { symbol: '2330' },
  'news/list': { symbol: '2330' },
  'admin/news': { kind: 'operator' },
  'admin/saveNews': {
    titleTw: '公告',
    titleEn: 'Notice',
    bodyTw: '第一行\n第二行',
    bodyEn: 'Line one\nLine two',
    coverUploadId: 'a'.repeat(32),
    symbols: ['2330'],
  },
  'admin/setNewsStatus': { id: 1, status: 'withdrawn' },
  'admin/rejectCreditLoan': { id: 1, reason: 'limit' },
  'admin/saveLendingQuota': { symbol: '2330', quotaShares: 1000 },
  'notice/list': { tab: 'account' },
  'notice/detail': { id: 'a1' },
  'admin/saveNotice': {
    titleTw: '維護',
    titleEn: 'Maintenance',
    bodyTw: '週六\n維護',
    bodyEn: 'Saturday\nmaintenance',
  },
  'support/send': { text: 'hello\nthere', uploadId: UPLOAD_ID },
  'admin/supportConversations': { status: 'open' },
  'admin/supportReply': { conversationId: 1, text: 'hello' },
};

/** `body` with `bad` inserted into the string at `at` (arrays: their first element). */
function withText(body: Record<string, unknown>, at: string[], bad: string): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: Record<string, unknown> = copy;
  for (const k of at.slice(0, -1)) node = node[k] as Record<string, unknown>;
  const last = at[at.length - 1]!;
  const was = node[last];
  node[last] = typeof was === 'string' ? `${was.slice(0, 1)}${bad}${was.slice(1)}` : `x${bad}`;
  return copy;
}

const FORBIDDEN: Array<[string, string]> = [
  ['NUL', '\u0000'],
  ['BEL', '\u0007'],
  ['ESC', '\u001b'],
  ['DEL', '\u007f'],
  ['C1 NEL', '\u0085'],
  ['lone high surrogate', '\ud800'],
  ['lone low surrogate', '\udc00'],
];

describe('control characters at the schema edge', () => {
  it('every endpoint with a string field has a sample body its schema accepts', () => {
    for (const name of Object.keys(api) as EndpointName[]) {
      if (!stringPaths(api[name].req).length) continue;
      const sample = SAMPLES[name];
      expect(sample, `no sample body for ${name}`).toBeDefined();
      const parsed = api[name].req.safeParse(sample);
      expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('refuses NUL, C0, DEL, C1 and unpaired surrogates in every string field of every endpoint: 400, nothing written', async () => {
    const before = await fingerprint(h.database.db, ALL_TABLES);
    const filesBefore = filesUnder(dataDir);
    let cases = 0;
    /** Cases the zod schema alone would have let through: only the edge guard refuses them. */
    const guardOnly = new Set<string>();
    for (const name of Object.keys(api) as EndpointName[]) {
      const paths = stringPaths(api[name].req);
      const sample = SAMPLES[name];
      if (!sample) continue;
      for (const at of paths) {
        for (const [label, bad] of FORBIDDEN) {
          const body = withText(sample, at, bad);
          if (api[name].req.safeParse(body).success) guardOnly.add(`${name} ${at.join('.')}`);
          const r = await c.call(name, body, tokenFor(name), api[name].idempotent ? idem() : {});
          expect([name, at.join('.'), label, r.http, r.body]).toEqual([
            name,
            at.join('.'),
            label,
            400,
            { status: 0, msg: 'parameterError', data: null },
          ]);
          cases++;
        }
      }
    }
    // Also in an object key, nested in an array, and in an endpoint without string fields.
    for (const [name, body] of [
      ['user/login', { 'acc\u0000ount': '0921000001', password: LOGIN_PASSWORD }],
      ['market/quotes', { symbols: ['2330', '23\u000030'] }],
      ['user/info', { note: 'a\u0000' }],
      ['trade/cancelOrder', { orderId: 1, memo: '\ud83d' }],
      ['user/savePreferences', { confirmAboveMinor: 1, 'no\u0000te': 'x' }],
    ] as Array<[EndpointName, unknown]>) {
      const r = await c.call(name, body, tokenFor(name));
      expect([name, r.http, r.body.msg]).toEqual([name, 400, 'parameterError']);
      cases++;
    }
    expect(cases).toBeGreaterThan(350);
    // Free-text fields the schemas let through without the guard.
    for (const field of [
      'user/login password',
      'user/register inviteCode',
      'user/submitKyc name',
      'user/addBankCard bankName',
      'admin/rejectKyc reason',
      'admin/saveChannel name',
      'admin/saveConfig value',
    ])
      expect(guardOnly, field).toContain(field);
    expect(await fingerprint(h.database.db, ALL_TABLES)).toEqual(before);
    expect(filesUnder(dataDir)).toEqual(filesBefore);
  });

  it('lets tab and newline through in a multi-line field only', async () => {
    // A reason may span lines: the guard passes it and the handler answers (no such deposit).
    const multi = await c.call('admin/rejectDeposit', { id: 999_999, reason: 'line 1\n\tline 2\r\n' }, op);
    expect([multi.http, multi.body.msg]).toEqual([404, 'notFound']);
    // A password is one line: a newline in it is refused before the credentials are checked.
    const single = await c.call('user/login', { account: '0921000001', password: `${LOGIN_PASSWORD}\n` });
    expect([single.http, single.body.msg]).toEqual([400, 'parameterError']);
    const wrong = await c.call('user/login', { account: '0921000001', password: 'password999' });
    expect(wrong.body.msg).not.toBe('parameterError');
    // Emoji are surrogate pairs: allowed.
    expect(forbiddenTextPath({ reason: '好 👍' })).toBeNull();
    expect(forbiddenTextPath({ a: [{ b: 'x\u0000' }] })).toBe('/a/0/b');
    expect(forbiddenTextPath({ title: 'a\tb' })).toBe('/title');
  });
});

describe('range checks', () => {
  it('USD → JPY of 10^15 is 400 parameterError with nothing written (the result exceeds 2^53)', async () => {
    const rates = ok(await c.call('user/rates', {}, member), 'rates') as Array<{
      currency: string;
      buyPpm: number;
    }>;
    const jpy = rates.find((r) => r.currency === 'JPY');
    expect(jpy, 'the seeded JPY rate').toBeDefined();
    expect(convertMinorFloorInRange(1e15, jpy!.buyPpm, 'fromUsd')).toBeNull();
    expect(() => convertMinorFloor(1e15, jpy!.buyPpm, 'fromUsd')).toThrow(RangeError);
    // A refused keyed request is remembered under its key (a retry gets the same refusal): every
    // other table must stay as it was.
    const tables = ALL_TABLES.filter((t) => t !== 'idempotency_keys');
    const before = await fingerprint(h.database.db, tables);
    const r = await c.call('user/exchange', { from: 'USD', to: 'JPY', amountMinor: 1e15 }, member, idem());
    expect([r.http, r.body]).toEqual([400, { status: 0, msg: 'parameterError', data: null }]);
    // The largest amount the schema takes, both ways.
    for (const [from, to] of [
      ['USD', 'JPY'],
      ['JPY', 'USD'],
      ['USD', 'TWD'],
    ]) {
      const big = await c.call(
        'user/exchange',
        { from, to, amountMinor: Number.MAX_SAFE_INTEGER },
        member,
        idem(),
      );
      expect([from, to, big.http < 500, big.body.status]).toEqual([from, to, true, 0]);
    }
    expect(await fingerprint(h.database.db, tables)).toEqual(before);
  });

  it('refuses out-of-range and unsafe numbers with a 4xx, writing nothing', async () => {
    const tables = ALL_TABLES.filter((t) => t !== 'idempotency_keys');
    const before = await fingerprint(h.database.db, tables);
    const cases: Array<[EndpointName, unknown]> = [
      ['user/exchange', { from: 'USD', to: 'JPY', amountMinor: 2 ** 53 }],
      ['user/exchange', { from: 'USD', to: 'JPY', amountMinor: 1e300 }],
      ['user/recharge', '{"channelId": 1, "amountMinor": 9007199254740993}'],
      ['user/withdraw', { amountMinor: -1, fundsPassword: '246810', cardId: 1 }],
      ['trade/placeOrder', { symbol: '2330', side: 'long', orderType: 'market', lots: 1e21, leverage: 5 }],
      ['trade/cancelOrder', { orderId: 2 ** 31 }],
      ['user/fundRecords', { tab: 'all', page: 1e9, pageSize: 20 }],
      ['admin/saveRate', { currency: 'JPY', buyPpm: 1e16, sellPpm: 1e16 }],
      ['admin/saveChannel', { ...SAMPLES['admin/saveChannel'], maxMinor: 2 ** 60 }],
      ['user/savePreferences', { confirmAboveMinor: 2 ** 53 }],
      ['user/savePreferences', { confirmAboveMinor: 1e300 }],
      ['user/savePreferences', { confirmAboveMinor: -1 }],
      ['user/savePreferences', '{"confirmAboveMinor": 9007199254740993}'],
    ];
    for (const [name, body] of cases) {
      const r = await c.call(name, body, tokenFor(name), idem());
      expect([name, r.http >= 400 && r.http < 500, r.body.status]).toEqual([name, true, 0]);
    }
    expect(await fingerprint(h.database.db, tables)).toEqual(before);
  });
});

describe('server log', () => {
  it('holds no password, funds password, ID number, name, card number or token', async () => {
    const account = '0921000002';
    const password = 'Secretpw7319';
    const name = '林秘密';
    const idNumber = taiwanId(777);
    const card = '4111222233334444';
    const from = log.length;
    const tok = await register(c, account, INVITE, password);
    // Refused and accepted requests alike: a wrong password, a login, a KYC and a card before
    // verification, a funds password too short.
    await c.call('user/login', { account, password: `${password}x` });
    ok(await c.call('user/login', { account, password }), 'login');
    const kyc = await c.call(
      'user/submitKyc',
      { name, idNumber, frontUploadId: UPLOAD_ID, backUploadId: UPLOAD_ID },
      tok,
    );
    expect(kyc.body.msg).toBe('idImagesMissing');
    const cardR = await c.call(
      'user/addBankCard',
      {
        holderName: name,
        cardNumber: card,
        bankCode: '013',
        bankName: 'Cathay',
        branchName: 'Xinyi',
        branchCode: '0077',
      },
      tok,
    );
    expect(cardR.http).toBeGreaterThanOrEqual(400);
    await c.call('user/setPassword', { fundsPassword: '97531', confirmFundsPassword: '97531' }, tok);
    const text = log.slice(from).join('');
    // The refusals were logged, with their bodies censored.
    expect(text).toContain('request refused');
    expect(text).toContain('idImagesMissing');
    expect(text).toContain('[redacted]');
    for (const secret of [password, name, idNumber, card, '97531', tok])
      expect(text.includes(secret), `log holds ${secret}`).toBe(false);
  });
});

describe('unknown routes', () => {
  it('answer the 404 notFound envelope, under /api and elsewhere', async () => {
    for (const [method, url] of [
      ['POST', '/api/vue/nope'],
      ['GET', '/api/vue/nope'],
      ['POST', '/api/vue/user/nope'],
      ['GET', '/api/nope'],
      ['GET', '/no/such/page'],
      ['DELETE', '/api/vue/user/login'],
    ] as const) {
      const res = await h.app.inject({ method, url, headers: { token: member } });
      expect([method, url, res.statusCode, res.json()]).toEqual([
        method,
        url,
        404,
        { status: 0, msg: 'notFound', data: null },
      ]);
    }
  });
});

describe('timeouts', () => {
  it('are set on the HTTP server from SERVER_TIMEOUTS', () => {
    const server = h.app.server;
    expect(server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeoutMs);
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeoutMs);
    expect(server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeoutMs);
    expect(server.timeout).toBe(SERVER_TIMEOUTS.connectionTimeoutMs);
    // Node requires the head to be due before the whole request.
    expect(SERVER_TIMEOUTS.headersTimeoutMs).toBeLessThan(SERVER_TIMEOUTS.requestTimeoutMs);
  });
});

describe('security headers', () => {
  const csp = (v: unknown) =>
    new Map(
      String(v)
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...rest]) => [k!, rest.join(' ')]),
    );

  it('are on the app, the console, the API, unknown routes and the API docs', async () => {
    for (const url of ['/', '/index.html', '/admin.html', '/api/vue/common/config', '/nope', '/api/docs']) {
      const res = await h.app.inject({
        method: url === '/api/vue/common/config' ? 'POST' : 'GET',
        url,
        ...(url === '/api/vue/common/config' ? { payload: {} } : {}),
      });
      const policy = csp(res.headers['content-security-policy']);
      expect([url, policy.get('frame-ancestors')]).toEqual([url, "'none'"]);
      expect([url, policy.get('script-src')]).toEqual([url, "'self'"]);
      expect([url, policy.get('object-src')]).toEqual([url, "'none'"]);
      expect(policy.has('upgrade-insecure-requests')).toBe(false);
      expect([url, res.headers['x-content-type-options']]).toEqual([url, 'nosniff']);
      expect([url, res.headers['x-frame-options']]).toEqual([url, 'DENY']);
      expect([url, res.headers['referrer-policy']]).toEqual([url, 'no-referrer']);
      expect([url, res.headers['cross-origin-opener-policy']]).toEqual([url, 'same-origin']);
    }
    const app = await h.app.inject({ method: 'GET', url: '/' });
    expect(app.statusCode).toBe(200);
    const policy = csp(app.headers['content-security-policy']);
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('worker-src')).toBe("'self' blob:");
    expect(policy.get('connect-src')).toBe("'self'");
    expect(policy.get('img-src')).toBe("'self' data: blob:");
    expect(policy.get('style-src')).toBe("'self'");
    const admin = await h.app.inject({ method: 'GET', url: '/admin.html' });
    expect(admin.statusCode).toBe(200);
    expect(csp(admin.headers['content-security-policy'])).toEqual(policy);
    // Swagger UI injects a <style> element: inline styles on the docs only.
    const docs = await h.app.inject({ method: 'GET', url: '/api/docs/static/index.html' });
    expect(csp(docs.headers['content-security-policy']).get('style-src')).toBe("'self' 'unsafe-inline'");
  });
});

describe('uploads', () => {
  it('refuses a PNG-prefixed script, writing nothing', async () => {
    const before = await fingerprint(h.database.db, ALL_TABLES);
    const filesBefore = filesUnder(dataDir);
    const script = Buffer.from('<html><body><script>fetch("/api/vue/user/info")</script></body></html>');
    for (const bytes of [
      Buffer.concat([PNG_BYTES.subarray(0, 8), script]), // the PNG signature, then HTML
      Buffer.concat([PNG_BYTES.subarray(0, 33), script]), // signature and IHDR, then HTML
    ]) {
      const r = await c.upload(
        member,
        { purpose: 'receipt' },
        { bytes, filename: 'r.png', contentType: 'image/png' },
      );
      expect([r.http, r.body]).toEqual([400, { status: 0, msg: 'unsupportedFileType', data: null }]);
    }
    expect(await fingerprint(h.database.db, ALL_TABLES)).toEqual(before);
    expect(filesUnder(dataDir)).toEqual(filesBefore);
  });

  it('stores a real PNG with a script after it without the script', async () => {
    const bytes = Buffer.concat([PNG_BYTES, Buffer.from('<script>alert(1)</script>')]);
    const id = await uploadOk(c, member, 'receipt', { bytes, filename: 'r.png', contentType: 'image/png' });
    const stored = readFileSync(path.join(dataDir, 'uploads', id));
    expect(stored.includes(Buffer.from('<script>'))).toBe(false);
    expect((await sharp(stored).metadata()).format).toBe('png');
  });

  it('stores a JPEG with EXIF re-encoded without it, upright, and serves it inline under a sandbox', async () => {
    // 40×20 pixels, EXIF orientation 6 (rotate 90° clockwise to view), camera and owner tags.
    const original = await sharp({
      create: { width: 40, height: 20, channels: 3, background: { r: 200, g: 30, b: 30 } },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'SecretCam', Artist: 'Jane Member' } })
      .toBuffer();
    expect(original.includes(Buffer.from('SecretCam'))).toBe(true);
    expect(await sharp(original).metadata()).toMatchObject({ orientation: 6, width: 40, height: 20 });

    const id = await uploadOk(c, member, 'kycFront', {
      bytes: original,
      filename: 'IMG_0001.jpg',
      contentType: 'image/jpeg',
    });
    const res = await c.fetchUpload(id, member);
    expect(res.http).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-disposition']).toBe(`inline; filename="${id}.jpg"`);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.bytes.equals(original)).toBe(false);
    for (const tag of ['SecretCam', 'Jane Member', 'Exif'])
      expect(res.bytes.includes(Buffer.from(tag)), tag).toBe(false);
    const meta = await sharp(res.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 20, height: 40 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });
});

describe('duplicate ID numbers', () => {
  it('answers a submission of another member’s ID number as any other, and never approves it', async () => {
    const holder = '0921000011';
    const holderToken = await register(c, holder, INVITE);
    const verifiedId = taiwanId(501);
    await verify(c, op, holderToken, holder, nameFor(holder), verifiedId);
    const pendingOwner = await register(c, '0921000012', INVITE);
    const pendingId = taiwanId(502);
    ok(
      await c.call(
        'user/submitKyc',
        {
          name: nameFor('0921000012'),
          idNumber: pendingId,
          frontUploadId: await uploadOk(c, pendingOwner, 'kycFront', png(91)),
          backUploadId: await uploadOk(c, pendingOwner, 'kycBack', png(92)),
        },
        pendingOwner,
      ),
      'pending submission',
    );

    const answers: Array<{
      http: number;
      body: { status: number; msg: string; data: Record<string, unknown> };
    }> = [];
    const claimants = ['0921000013', '0921000014', '0921000015'];
    const ids = [verifiedId, pendingId, taiwanId(503)];
    for (const [i, claimant] of claimants.entries()) {
      const token = await register(c, claimant, INVITE);
      const r = await c.call(
        'user/submitKyc',
        {
          name: '王小明',
          idNumber: ids[i]!,
          frontUploadId: await uploadOk(c, token, 'kycFront', png(93 + 2 * i)),
          backUploadId: await uploadOk(c, token, 'kycBack', png(94 + 2 * i)),
        },
        token,
      );
      answers.push(r as never);
      const raw = JSON.stringify(r.body);
      for (const other of [holder, nameFor(holder), '0921000012', nameFor('0921000012')])
        expect(raw.includes(other)).toBe(false);
    }
    // The holder's number, the pending number and a fresh one: one answer shape, one status.
    const shape = (a: (typeof answers)[number]) => [a.http, a.body.status, a.body.msg, a.body.data.status];
    expect(shape(answers[2]!)).toEqual([200, 1, answers[2]!.body.msg, 'review']);
    expect(answers.map(shape)).toEqual(Array(3).fill(shape(answers[2]!)));
    expect(new Set(answers.map((a) => Object.keys(a.body.data).sort().join()))).toHaveProperty('size', 1);
    // The duplicate of a verified number is never approved.
    const dup = await c.call('admin/approveKyc', { id: await pendingKycId(c, op, claimants[0]!) }, op);
    expect([dup.http, dup.body.msg]).toEqual([409, 'alreadyVerified']);
  });
});
