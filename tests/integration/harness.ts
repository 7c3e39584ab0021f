/**
 * Starts the whole server in-process for a test file: buildApp() on a fresh in-memory PGlite
 * (or, with TEST_DATABASE_URL, a fresh schema-less PostgreSQL database created for this file),
 * a few real instruments, a manual clock the test advances, and helpers to call the API.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import type { EndpointName, ReqOf } from '../../contract/api';

export const TEST_SYMBOLS = ['2330', '2317', '0050'];
export const INVITE = 'TESTCODE';
export const OPERATOR = { account: 'admin', password: 'operator-pass-1' };

export interface Harness extends BuiltApp {
  config: Config;
  /** Wall clock the market clock reads; advance it then call feed.tick(). */
  wall: { now: number };
  call<N extends EndpointName>(
    name: N,
    body: ReqOf<N> | unknown,
    token?: string,
  ): Promise<{ http: number; body: { status: number; msg: string; data: any } }>;
  raw(name: string, payload: string, headers?: Record<string, string>): Promise<{ http: number; body: any }>;
  register(account: string, password?: string): Promise<string>;
  operatorToken(): Promise<string>;
  /** Creates a member with `amountMinor` deposited and approved; returns the member's token. */
  fundedMember(account: string, amountMinor: number): Promise<string>;
  close(): Promise<void>;
}

/** A fresh PostgreSQL database on TEST_DATABASE_URL's server, dropped on close; or in-memory PGlite. */
async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const base = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (!base) {
    const database = await openDatabase('memory://');
    return { database, drop: async () => database.close() };
  }
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  // The drop below terminates any connection still closing: expected, not a failure.
  const database = await openDatabase(url.toString(), () => undefined);
  return {
    database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * @param overrides config fields to change
 * @param opts.realClock run the market on the wall clock with its timer (realtime tests) instead
 *   of the manual clock the test advances
 */
export async function startHarness(
  overrides: Partial<Config> = {},
  opts: { realClock?: boolean } = {},
): Promise<Harness> {
  const config: Config = {
    ...loadConfig({
      DATA_DIR: '/tmp/tw-trade-test-unused',
      OPERATOR_PASSWORD: OPERATOR.password,
      INVITE_CODE: INVITE,
      LOG_LEVEL: 'silent',
    } as NodeJS.ProcessEnv),
    databaseUrl: 'memory://',
    importSymbols: TEST_SYMBOLS,
    ...overrides,
  };
  const { database, drop } = await freshDatabase();
  // 10:00 market time into the first replayed session (replay anchor 2026-01-01T00:00+08:00).
  const wall = { now: Date.UTC(2025, 11, 31, 16, 0, 0) + 60 * 60_000 };
  const built = opts.realClock
    ? await buildApp(config, { database, logger: false })
    : await buildApp(config, { database, now: () => wall.now, feedTimer: false, logger: false });
  if (!opts.realClock) built.feed.tick();

  const call: Harness['call'] = async (name, body, token) => {
    const res = await built.app.inject({
      method: 'POST',
      url: `/api/vue/${name}`,
      headers: token ? { token } : {},
      payload: body as object,
    });
    return { http: res.statusCode, body: res.json() };
  };
  const raw: Harness['raw'] = async (name, payload, headers = {}) => {
    const res = await built.app.inject({
      method: 'POST',
      url: `/api/vue/${name}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload,
    });
    return { http: res.statusCode, body: res.json() };
  };
  const register = async (account: string, password = 'password123') => {
    const r = await call('user/register', {
      account,
      password,
      confirmPassword: password,
      inviteCode: INVITE,
      agree: true,
    });
    if (r.body.status !== 1) throw new Error(`register failed: ${JSON.stringify(r.body)}`);
    return r.body.data.token as string;
  };
  let opToken: string | null = null;
  const operatorToken = async () => {
    if (opToken) return opToken;
    const r = await call('admin/login', OPERATOR);
    if (r.body.status !== 1) throw new Error(`operator login failed: ${JSON.stringify(r.body)}`);
    return (opToken = r.body.data.token as string);
  };
  const fundedMember = async (account: string, amountMinor: number) => {
    const token = await register(account);
    const dep = await call('user/recharge', { amountMinor }, token);
    if (dep.body.status !== 1) throw new Error(`deposit failed: ${JSON.stringify(dep.body)}`);
    const ok = await call('admin/approveDeposit', { id: dep.body.data.id }, await operatorToken());
    if (ok.body.status !== 1) throw new Error(`approve failed: ${JSON.stringify(ok.body)}`);
    return token;
  };
  return {
    ...built,
    config,
    wall,
    call,
    raw,
    register,
    operatorToken,
    fundedMember,
    async close() {
      await built.app.close();
      await drop();
    },
  };
}
