/**
 * Starts the whole server in-process for a test file: buildApp() on a fresh in-memory PGlite
 * (or, with TEST_DATABASE_URL, a fresh PostgreSQL database created for this file), each a copy
 * of a migrated template that already holds TEST_SYMBOLS' market data (freshDatabase), a few real
 * instruments, a manual clock the test advances, and helpers to call the API.
 *
 * Money fixtures (`fundedMember`, `deposit`): the wall clock starts at 2026-01-01 01:00
 * Asia/Taipei (the market clock maps it to 10:00 of the first replayed session), a TWSE holiday
 * (New Year's Day) at night, so deposits would be closed under the default hours (weekdays
 * 09:30–19:30, closed on exchange holidays). The first money fixture therefore opens deposit
 * hours for the rest of the file (`openDepositHours`: 00:00–24:00 every day, weekends and
 * holidays included, saved through admin/saveConfig) and creates one TWD deposit channel through
 * the operator's admin/saveChannel; tests about deposit hours set the hours they need themselves
 * (and reopen them afterwards). Receipts are real PNGs uploaded through POST /api/vue/upload;
 * every money-moving call carries an idempotency key (`idem()`); `call` adds a fresh one to
 * order calls that come without (ORDER_ENDPOINTS).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../../server/app';
import type { ModuleName } from '../../server/app-modules';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { users } from '../../server/db/schema';
import type { EndpointName, ReqOf } from '../../contract/api';
import { injectClient, multipart } from './support/client';
import {
  FUNDS_PASSWORD,
  addCard,
  cardNumberFor,
  ensureVerified,
  nameFor,
  setFundsPassword,
  taiwanId,
  verify,
} from './support/members';
import { png } from './support/files';
import {
  TEMPLATE_SYMBOLS,
  createPostgresDatabase,
  memoryDatabase,
  type TemplateKind,
} from '../support/db-template';

/** The instruments every harness imports unless `importSymbols` says otherwise (the `market` template's). */
export const TEST_SYMBOLS = TEMPLATE_SYMBOLS;
/** The replay clock session the harness starts in (10:00 of 2025-04-14, see startHarness). */
export const HARNESS_SESSION = 5;
export { FUNDS_PASSWORD };

/** Headers carrying an idempotency key (a fresh UUID unless given). */
export const idem = (key: string = randomUUID()): Record<string, string> => ({ 'idempotency-key': key });

/** Order endpoints (placing, cancelling, closing): `call` gives each a fresh key unless one is passed. */
export const ORDER_ENDPOINTS: ReadonlySet<string> = new Set([
  'trade/placeOrder',
  'trade/cancelOrder',
  'trade/closePosition',
  'dayTrade/placeOrder',
]);

/**
 * A fresh idempotency key for an order endpoint called without an `idempotency-key` header, as
 * the client sends one per tap; tests of the key itself pass their own (or use `raw` for none).
 */
const orderKey = (name: string, headers: Record<string, string>): Record<string, string> =>
  ORDER_ENDPOINTS.has(name) && !('idempotency-key' in headers) ? idem() : {};

/** Tables a refused money operation must leave untouched (rows counted and hashed by `moneyState`). */
export const MONEY_TABLES = [
  'deposits',
  'withdrawals',
  'exchanges',
  'ledger_accounts',
  'ledger_transactions',
  'ledger_postings',
  'audit_log',
  'fx_rates',
  'deposit_channels',
] as const;
export const INVITE = 'TESTCODE';
/** The test operator: named explicitly (OPERATOR_ACCOUNT), as no install has a default name. */
export const OPERATOR = { account: 'op-harness', password: 'operator-pass-1' };

/**
 * The harness's configuration: MARKET_SEED pinned (1 unless overridden), so every test file replays
 * the same intraday paths and can rebuild them (replay.ts buildSession with this seed).
 */
export type HarnessConfig = Config & { marketSeed: number };

export interface Harness extends BuiltApp {
  config: HarnessConfig;
  /** Wall clock the market clock reads; advance it then call feed.tick(). */
  wall: { now: number };
  /** POST /api/vue/{name} with a JSON body, the session token and optional extra headers. */
  call<N extends EndpointName>(
    name: N,
    body: ReqOf<N> | unknown,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<{ http: number; body: { status: number; msg: string; data: any } }>;
  raw(name: string, payload: string, headers?: Record<string, string>): Promise<{ http: number; body: any }>;
  register(account: string, password?: string): Promise<string>;
  operatorToken(): Promise<string>;
  /** The user id behind an account. */
  userId(account: string): Promise<number>;
  /** Saves site settings as the operator (admin/saveConfig), e.g. deposit hours. */
  saveSettings(settings: Record<string, string>): Promise<void>;
  /** Opens deposits 00:00–24:00 every day, holidays included; see the module docstring. */
  openDepositHours(): Promise<void>;
  /** The harness's TWD deposit channel (no password, NT$0.01 … NT$100,000,000,000), created once. */
  depositChannel(): Promise<number>;
  /** Uploads a tiny real PNG (POST /api/vue/upload, multipart) as the member's transfer receipt; returns its id. */
  uploadReceipt(token: string): Promise<string>;
  /**
   * Requests a deposit through the harness channel with a fresh receipt and idempotency key
   * (the member's identity verified first when it is not, as deposits need it: support/members.ts
   * ensureVerified; deposit hours opened first); returns the pending deposit's id.
   */
  deposit(token: string, amountMinor: number): Promise<number>;
  /** Creates a verified member with `amountMinor` deposited and approved; returns the member's token. */
  fundedMember(account: string, amountMinor: number): Promise<string>;
  /**
   * A member who can withdraw: registered, `amountMinor` deposited and approved, real name verified
   * (KYC photos uploaded, operator approval), one bank card and the funds password FUNDS_PASSWORD,
   * all through the API.
   */
  withdrawer(
    account: string,
    amountMinor: number,
  ): Promise<{ token: string; userId: number; cardId: number }>;
  /** A fingerprint (row count + md5 of the rows) of each MONEY_TABLES table. */
  moneyState(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * A fresh PostgreSQL database on TEST_DATABASE_URL's server, dropped on close; or in-memory PGlite.
 * Either is a copy of the template of `kind` (tests/support/db-template.ts) when vitest's
 * globalSetup prepared one: `schema` has every migration applied; `market` also holds the seed
 * data for TEST_SYMBOLS (then `seeded` is true). Without templates (scripts, benchmarks) the
 * database is created and migrated here, empty, and `seeded` is false.
 */
export async function freshDatabase(
  kind: TemplateKind = 'schema',
): Promise<{ database: Database; drop: () => Promise<void>; seeded: boolean }> {
  const base = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (!base) {
    const { database, seeded } = await memoryDatabase(kind);
    return { database, drop: async () => database.close(), seeded };
  }
  const name = `t_${randomBytes(6).toString('hex')}`;
  const { url, seeded } = await createPostgresDatabase(base, name, kind);
  // The drop below terminates any connection still closing: expected, not a failure.
  const database = await openDatabase(url, () => undefined);
  return {
    database,
    seeded,
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
 * @param opts.logStream receives the server log (at `overrides.logLevel`, else silent)
 * @param opts.modules start only these app modules (server/app-modules.ts), with what they need
 */
export async function startHarness(
  overrides: Partial<HarnessConfig> = {},
  opts: { realClock?: boolean; logStream?: NodeJS.WritableStream; modules?: readonly ModuleName[] } = {},
): Promise<Harness> {
  const config: HarnessConfig = {
    ...loadConfig({
      DATA_DIR: '/tmp/tw-trade-test-unused',
      OPERATOR_ACCOUNT: OPERATOR.account,
      OPERATOR_PASSWORD: OPERATOR.password,
      INVITE_CODE: INVITE,
      LOG_LEVEL: 'silent',
    } as NodeJS.ProcessEnv),
    databaseUrl: 'memory://',
    importSymbols: TEST_SYMBOLS,
    // Every member of a test file registers and logs in from 127.0.0.1 (app.inject): per-client
    // limits this high never bite here; tests/security/auth.test.ts sets low ones.
    loginIpMaxFailures: 1_000_000,
    registerIpMax: 1_000_000,
    marketSeed: 1,
    ...overrides,
  };
  // The harness's own instruments come with the `market` template (migrated, seed data
  // imported); any other set is imported by buildApp into a `schema` copy.
  const symbols = config.importSymbols;
  const standard =
    symbols !== undefined &&
    symbols.length === TEST_SYMBOLS.length &&
    TEST_SYMBOLS.every((s) => symbols.includes(s));
  const { database, drop, seeded } = await freshDatabase(standard ? 'market' : 'schema');
  // 10:00 market time of replayed session 5 = 2025-04-14 (replay anchor 2026-01-01T00:00+08:00,
  // 08:30 → 14:30 days): an ordinary day for 2330 (895 → 865, inside its limits) — sessions 0–3
  // (2025-04-07 … 04-10, the tariff crash and rebound) sit at the limits all day.
  const wall = { now: Date.UTC(2025, 11, 31, 16, 0, 0) + HARNESS_SESSION * REPLAY_DAY_MS + 60 * 60_000 };
  const log = { logger: false, logStream: opts.logStream, modules: opts.modules };
  // realClock: market time runs with the wall clock from that same 10:00, so a streaming test
  // never lands in a phase without prints (pre-open, intermission, after-hours) at the hour CI runs.
  const startedAt = Date.now();
  const built = opts.realClock
    ? await buildApp(config, {
        database,
        seedDataImported: seeded,
        now: () => wall.now + (Date.now() - startedAt),
        ...log,
      })
    : await buildApp(config, {
        database,
        seedDataImported: seeded,
        now: () => wall.now,
        feedTimer: false,
        ...log,
      });
  if (!opts.realClock) built.feed.tick();

  const call: Harness['call'] = async (name, body, token, headers = {}) => {
    const res = await built.app.inject({
      method: 'POST',
      url: `/api/vue/${name}`,
      headers: { ...(token ? { token } : {}), ...orderKey(name, headers), ...headers },
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
  const userId = async (account: string) => {
    const [u] = await built.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.account, account));
    if (!u) throw new Error(`no user ${account}`);
    return u.id;
  };
  const saveSettings = async (settings: Record<string, string>) => {
    const op = await operatorToken();
    for (const [name, value] of Object.entries(settings)) {
      const r = await call('admin/saveConfig', { name, value }, op);
      if (r.body.status !== 1)
        throw new Error(`saveConfig ${name}=${value} failed: ${JSON.stringify(r.body)}`);
    }
  };
  let hoursOpened = false;
  const openDepositHours = async () => {
    if (hoursOpened) return;
    await saveSettings({
      depositOpen: '00:00',
      depositClose: '24:00',
      depositWeekdaysOnly: 'false',
      depositHolidaysClosed: 'false',
    });
    hoursOpened = true;
  };
  let channelId: number | null = null;
  const depositChannel = async () => {
    if (channelId !== null) return channelId;
    const r = await call(
      'admin/saveChannel',
      {
        name: 'Harness bank',
        accountName: 'TW Trade Ltd',
        accountNumber: '0012345678901',
        bankName: 'Bank of Taiwan',
        branch: 'Taipei Main',
        currency: 'TWD',
        minMinor: 1,
        maxMinor: 10_000_000_000_000,
        enabled: true,
      },
      await operatorToken(),
    );
    if (r.body.status !== 1) throw new Error(`saveChannel failed: ${JSON.stringify(r.body)}`);
    return (channelId = r.body.data.id as number);
  };
  let receipts = 0;
  const uploadReceipt = async (token: string) => {
    const { body, contentType } = multipart({ purpose: 'receipt' }, png(++receipts));
    const res = await built.app.inject({
      method: 'POST',
      url: '/api/vue/upload',
      headers: { token, 'content-type': contentType },
      payload: body,
    });
    const env = res.json();
    if (env.status !== 1) throw new Error(`receipt upload failed: ${res.statusCode} ${res.body}`);
    return env.data.id as string;
  };
  const client = injectClient(built.app);
  const deposit = async (token: string, amountMinor: number) => {
    await ensureVerified(client, await operatorToken(), token);
    await openDepositHours();
    const body = {
      channelId: await depositChannel(),
      amountMinor,
      receiptUploadId: await uploadReceipt(token),
    };
    const dep = await call('user/recharge', body, token, { 'idempotency-key': randomUUID() });
    if (dep.body.status !== 1) throw new Error(`deposit failed: ${JSON.stringify(dep.body)}`);
    return dep.body.data.id as number;
  };
  const fundedMember = async (account: string, amountMinor: number) => {
    const token = await register(account);
    const id = await deposit(token, amountMinor);
    const ok = await call('admin/approveDeposit', { id }, await operatorToken());
    if (ok.body.status !== 1) throw new Error(`approve failed: ${JSON.stringify(ok.body)}`);
    return token;
  };
  let idSeed = 0;
  const withdrawer = async (account: string, amountMinor: number) => {
    const token = await register(account);
    const op = await operatorToken();
    const name = nameFor(account);
    await verify(client, op, token, account, name, taiwanId(++idSeed));
    const id = await deposit(token, amountMinor);
    const approved = await call('admin/approveDeposit', { id }, op);
    if (approved.body.status !== 1) throw new Error(`approve failed: ${JSON.stringify(approved.body)}`);
    const cardId = await addCard(client, token, name, cardNumberFor(account));
    await setFundsPassword(client, token, FUNDS_PASSWORD);
    return { token, userId: await userId(account), cardId };
  };
  const moneyState = async () => {
    const out: Record<string, string> = {};
    for (const t of MONEY_TABLES) {
      const r = (await built.database.db.execute(
        sql.raw(
          `select count(*)::text || ':' || coalesce(md5(string_agg(x::text, ',' order by x::text)), '') as f from ${t} x`,
        ),
      )) as unknown as { rows?: Array<{ f: string }> } & Array<{ f: string }>;
      out[t] = (r.rows ?? r)[0]!.f;
    }
    return out;
  };
  return {
    ...built,
    config,
    wall,
    call,
    raw,
    register,
    operatorToken,
    userId,
    saveSettings,
    openDepositHours,
    depositChannel,
    uploadReceipt,
    deposit,
    fundedMember,
    withdrawer,
    moneyState,
    async close() {
      await built.app.close();
      await drop();
    },
  };
}
