/**
 * Bad input at every endpoint of the slice: malformed JSON, missing and mistyped fields, zero or
 * negative lots, prices off the tick table, unknown symbols, another user's order, expired and
 * missing tokens, a member on an operator endpoint. Each answer is a 4xx envelope with a message
 * key from the catalogue, and the database is byte-for-byte unchanged afterwards.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { api, type EndpointName } from '../../contract/api';
import { ERROR_KEYS } from '../../contract/errors';
import { hashToken } from '../../server/modules/auth/sessions';
import { startHarness, type Harness } from './harness';

let h: Harness;
let member: string;
let other: string;
let op: string;
let expired: string;
let otherOrderId: number;

const TABLES = [
  'users',
  'sessions',
  'invitation_codes',
  'site_config',
  'instruments',
  'daily_candles',
  'watchlist',
  'ledger_accounts',
  'ledger_transactions',
  'ledger_postings',
  'deposits',
  'orders',
];

async function fingerprint(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of TABLES) {
    const r = (await h.database.db.execute(
      sql.raw(
        `select count(*)::text || ':' || coalesce(md5(string_agg(x::text, ',' order by x::text)), '') as f from ${t} x`,
      ),
    )) as unknown as { rows?: Array<{ f: string }> } & Array<{ f: string }>;
    out[t] = (r.rows ?? r)[0]!.f;
  }
  return out;
}

beforeAll(async () => {
  h = await startHarness();
  member = await h.fundedMember('0922222222', 10_000_000);
  other = await h.fundedMember('0933333333', 100_000_000);
  op = await h.operatorToken();
  const placed = await h.call(
    'trade/placeOrder',
    { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 10 },
    other,
  );
  expect(placed.body.status).toBe(1);
  otherOrderId = placed.body.data.id;
  // A session that has expired.
  const r = await h.call('user/login', { account: '0922222222', password: 'password123' });
  expired = r.body.data.token;
  await h.database.db.execute(
    sql`update sessions set expires_at = now() - interval '1 day' where token_hash = ${hashToken(expired)}`,
  );
});
afterAll(async () => h?.close());

const tokenFor = (name: EndpointName) =>
  api[name].access === 'operator' ? op : api[name].access === 'member' ? member : undefined;

interface Case {
  name: EndpointName;
  label: string;
  payload?: string;
  body?: unknown;
  token?: () => string | undefined;
  headers?: Record<string, string>;
  http: number;
  msg?: string;
}

function schemaCases(): Case[] {
  const cases: Case[] = [];
  for (const name of Object.keys(api) as EndpointName[]) {
    const token = () => tokenFor(name);
    cases.push({
      name,
      label: 'malformed JSON',
      payload: '{"account": ',
      token,
      http: 400,
      msg: 'parameterError',
    });
    cases.push({ name, label: 'array body', payload: '[1,2]', token, http: 400, msg: 'parameterError' });
    const shape = (api[name].req as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
    for (const [key, field] of Object.entries(shape)) {
      if (!field.safeParse(undefined).success)
        cases.push({ name, label: `missing ${key}`, body: {}, token, http: 400 });
      cases.push({ name, label: `mistyped ${key}`, body: { [key]: { nested: ['x'] } }, token, http: 400 });
    }
    if (api[name].access !== 'public') {
      cases.push({ name, label: 'no token', body: {}, http: 401, msg: 'notLoggedIn' });
      cases.push({
        name,
        label: 'expired token',
        body: {},
        token: () => expired,
        http: 401,
        msg: 'sessionExpired',
      });
      cases.push({
        name,
        label: 'forged token',
        body: {},
        token: () => 'x'.repeat(43),
        http: 401,
        msg: 'notLoggedIn',
      });
    }
    if (api[name].access === 'operator') {
      cases.push({
        name,
        label: 'member on operator endpoint',
        body: {},
        token: () => member,
        http: 403,
        msg: 'forbidden',
      });
      cases.push({
        name,
        label: 'is-admin header grants nothing',
        body: {},
        token: () => member,
        headers: { 'is-admin': '1' },
        http: 403,
        msg: 'forbidden',
      });
    }
  }
  return cases;
}

const order = (o: object) => ({
  symbol: '2330',
  side: 'long',
  orderType: 'market',
  lots: 1,
  leverage: 5,
  ...o,
});

const businessCases = (): Case[] => [
  {
    name: 'trade/placeOrder',
    label: 'zero lots',
    body: order({ lots: 0 }),
    token: () => member,
    http: 400,
    msg: 'parameterError',
  },
  {
    name: 'trade/placeOrder',
    label: 'negative lots',
    body: order({ lots: -3 }),
    token: () => member,
    http: 400,
    msg: 'parameterError',
  },
  {
    name: 'trade/placeOrder',
    label: 'fractional lots',
    body: order({ lots: 1.5 }),
    token: () => member,
    http: 400,
    msg: 'parameterError',
  },
  {
    name: 'trade/placeOrder',
    label: 'leverage not offered',
    body: order({ leverage: 3 }),
    token: () => member,
    http: 400,
    msg: 'invalidLeverage',
  },
  {
    name: 'trade/placeOrder',
    label: 'limit without price',
    body: order({ orderType: 'limit' }),
    token: () => member,
    http: 400,
    msg: 'parameterError',
  },
  {
    name: 'trade/placeOrder',
    label: 'zero price',
    body: order({ orderType: 'limit', priceMinor: 0 }),
    token: () => member,
    http: 400,
  },
  {
    name: 'trade/placeOrder',
    label: 'price off the tick table',
    body: order({ orderType: 'limit', priceMinor: h.feed.quote('2330')!.lastMinor + 1 }),
    token: () => member,
    http: 400,
    msg: 'priceOffTick',
  },
  {
    name: 'trade/placeOrder',
    label: 'price above limit-up',
    body: order({ orderType: 'limit', priceMinor: h.feed.quote('2330')!.limitUpMinor + 500 }),
    token: () => member,
    http: 400,
    msg: 'exceedsPriceLimit',
  },
  {
    name: 'trade/placeOrder',
    label: 'unknown symbol',
    body: order({ symbol: '9999' }),
    token: () => member,
    http: 404,
    msg: 'productNotFound',
  },
  {
    name: 'trade/placeOrder',
    label: 'malformed symbol',
    body: order({ symbol: '23;30' }),
    token: () => member,
    http: 400,
  },
  {
    name: 'trade/placeOrder',
    label: 'more than the balance',
    body: order({ lots: 400, leverage: 1 }),
    token: () => member,
    http: 422,
    msg: 'insufficientBalance',
  },
  {
    name: 'trade/cancelOrder',
    label: "another user's order",
    body: {},
    token: () => member,
    http: 404,
    msg: 'orderNotFound',
  },
  {
    name: 'trade/closePosition',
    label: "another user's order",
    body: {},
    token: () => member,
    http: 404,
    msg: 'orderNotFound',
  },
  {
    name: 'trade/orderDetail',
    label: "another user's order",
    body: {},
    token: () => member,
    http: 404,
    msg: 'orderNotFound',
  },
  {
    name: 'trade/orderDetail',
    label: 'unknown order',
    body: { orderId: 987654 },
    token: () => member,
    http: 404,
    msg: 'orderNotFound',
  },
  {
    name: 'market/detail',
    label: 'unknown symbol',
    body: { symbol: '9999' },
    http: 404,
    msg: 'productNotFound',
  },
  {
    name: 'market/candles',
    label: 'unknown period',
    body: { symbol: '2330', period: '2h' },
    http: 400,
    msg: 'parameterError',
  },
  {
    name: 'user/addOptional',
    label: 'unknown symbol',
    body: { symbol: '9999' },
    token: () => member,
    http: 404,
    msg: 'productNotFound',
  },
  { name: 'user/recharge', label: 'zero amount', body: { amountMinor: 0 }, token: () => member, http: 400 },
  {
    name: 'user/recharge',
    label: 'below minimum',
    body: { amountMinor: 100 },
    token: () => member,
    http: 400,
    msg: 'belowMinDeposit',
  },
  {
    name: 'user/recharge',
    label: 'fractional minor units',
    body: { amountMinor: 10.5 },
    token: () => member,
    http: 400,
  },
  {
    name: 'user/login',
    label: 'wrong password',
    body: { account: '0922222222', password: 'nope-nope' },
    http: 401,
    msg: 'wrongCredentials',
  },
  { name: 'user/login', label: 'capital letters', body: { account: 'ADMIN', password: 'x' }, http: 400 },
  {
    name: 'user/register',
    label: 'passwords differ',
    body: {
      account: '0944444444',
      password: 'password123',
      confirmPassword: 'password124',
      inviteCode: 'TESTCODE',
      agree: true,
    },
    http: 400,
    msg: 'passwordsDiffer',
  },
  {
    name: 'user/register',
    label: 'nine-digit account',
    body: {
      account: '094444444',
      password: 'password123',
      confirmPassword: 'password123',
      inviteCode: 'TESTCODE',
      agree: true,
    },
    http: 400,
  },
  {
    name: 'user/register',
    label: 'unknown invitation code',
    body: {
      account: '0944444444',
      password: 'password123',
      confirmPassword: 'password123',
      inviteCode: 'NOPE',
      agree: true,
    },
    http: 400,
    msg: 'inviterNotFound',
  },
  {
    name: 'user/register',
    label: 'already registered',
    body: {
      account: '0922222222',
      password: 'password123',
      confirmPassword: 'password123',
      inviteCode: 'TESTCODE',
      agree: true,
    },
    http: 409,
    msg: 'accountExists',
  },
  {
    name: 'user/register',
    label: 'agreement not accepted',
    body: {
      account: '0944444444',
      password: 'password123',
      confirmPassword: 'password123',
      inviteCode: 'TESTCODE',
      agree: false,
    },
    http: 400,
  },
  {
    name: 'user/register',
    label: 'short password',
    body: {
      account: '0944444444',
      password: 'abc',
      confirmPassword: 'abc',
      inviteCode: 'TESTCODE',
      agree: true,
    },
    http: 400,
  },
  {
    name: 'admin/approveDeposit',
    label: 'unknown deposit',
    body: { id: 99999 },
    token: () => op,
    http: 404,
    msg: 'notFound',
  },
  {
    name: 'admin/rejectDeposit',
    label: 'empty reason',
    body: { id: 1, reason: '' },
    token: () => op,
    http: 400,
  },
  {
    name: 'admin/login',
    label: 'member is not an operator',
    body: { account: '0922222222', password: 'password123' },
    http: 403,
    msg: 'forbidden',
  },
];

describe('bad input gets a 4xx envelope with a message key and changes nothing', () => {
  it('answers every case and leaves the database unchanged', async () => {
    const cases = [...schemaCases(), ...businessCases()];
    const before = await fingerprint();
    const failures: string[] = [];
    for (const c of cases) {
      const headers: Record<string, string> = { ...(c.headers ?? {}) };
      const t = c.token?.();
      if (t) headers.token = t;
      let body = c.body;
      if (body && typeof body === 'object' && c.label.includes("another user's order"))
        body = { orderId: otherOrderId };
      const res = await h.raw(c.name, c.payload ?? JSON.stringify(body ?? {}), headers);
      const ok =
        res.http === c.http &&
        res.body?.status === 0 &&
        res.body?.data === null &&
        (ERROR_KEYS as readonly string[]).includes(res.body?.msg) &&
        (c.msg === undefined || res.body.msg === c.msg);
      if (!ok) failures.push(`${c.name} — ${c.label}: got ${res.http} ${JSON.stringify(res.body)}`);
    }
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThan(150);
    expect(await fingerprint()).toEqual(before);
  });
});
