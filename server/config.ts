/**
 * Server configuration from the environment (documented in README "Configuration").
 *
 * PORT (3000) · HOST (0.0.0.0) · DATA_DIR (./data: embedded database and uploads) ·
 * DATABASE_URL (postgres://… to use a PostgreSQL server instead of embedded PGlite) ·
 * MARKET_SOURCE (replay | stress) · STRESS_SYMBOLS (2000) · STRESS_RATE (20000 updates/s) ·
 * MARKET_CLOCK (replay | exchange | manual: test builds only, NODE_ENV=test required; market time
 * stands at 10:00 of replayed session 5 until POST /api/test/clock moves it, http/test-clock.ts;
 * MARKET_SPEED is ignored) · MARKET_SPEED (1: market ms per wall ms) · MARKET_SEED (unset:
 * the install's own random secret, kept in the database, market/install-seed.ts; set: pins the
 * intraday paths, for tests and benchmarks) · REPLAY_WITHDRAWALS (unset: a replayed market is a
 * practice venue and a member withdraws at most their net deposits, modules/funds/practice.ts;
 * `all`: the operator opts in to paying out replay gains) ·
 * LEVERAGES (1,2,5,10) · SESSION_TTL_HOURS (168) · OPERATOR_ACCOUNT / OPERATOR_PASSWORD /
 * INVITE_CODE (first-run credentials; random when unset, the account name too) · TRUST_PROXY
 * (addresses of the reverse proxies whose X-Forwarded-For is honoured; none) · IMPORT_SYMBOLS (comma list: import only
 * these instruments, for tests) · LOG_LEVEL (info) · DAY_TRADE_MIN_ACCOUNT_DAYS (90) ·
 * DAY_TRADE_MIN_TRADES (10) · DAY_TRADE_AUTO_CLOSE (true) (modules/day-trading/config.ts) ·
 * TRADE_T1_SELL (false) · TRADE_LOCKUP_MINUTES (0) · TRADE_DAILY_ORDER_LIMIT (0 = none) ·
 * TRADE_MAX_LOTS (499) · TRADE_CLOSED (none; `all` or symbols) (modules/trading/config.ts) ·
 * MARGIN_CALL_BPS (13000 = 130 %: margin call below it) · MAINTENANCE_BPS (11000 = 110 %: forced
 * liquidation below it), both of equity ÷ used margin · OPENING_MARGIN_BPS (MARGIN_CALL_BPS: an
 * opening order leaves margin × (it − 100 %) available) (modules/risk/config.ts, contract/risk.ts) ·
 * LOGIN_* / REGISTER_IP_* / *_INVITE_* throttling and invitation-code limits (modules/auth/config.ts) ·
 * MENTOR_MIN_ACCOUNT_DAYS (30: account age before applying as a mentor) (modules/copy-trading/config.ts) ·
 * WS_MAX_CONNECTIONS_PER_ADDRESS / WS_MAX_COST_PER_* / WS_SNAPSHOT_* limits of the `/ws` gateway per
 * client address (realtime/limits.ts).
 */
import path from 'node:path';
import { DEFAULT_LEVERAGES } from '../contract/market-rules';
import { loadDayTradeConfig, type DayTradeConfig } from './modules/day-trading/config';
import { loadTradingConfig, type TradingConfig } from './modules/trading/config';
import { loadRiskConfig, type RiskConfig } from './modules/risk/config';
import { loadAuthConfig, type AuthConfig } from './modules/auth/config';
import { loadCopyTradingConfig, type CopyTradingConfig } from './modules/copy-trading/config';
import { loadWsLimits, type WsLimits } from './realtime/limits';

/** The server's settings; see the module docstring for the variable behind each field. */
export interface Config extends DayTradeConfig, TradingConfig, RiskConfig, AuthConfig, CopyTradingConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…`, a PGlite directory, or `memory://`. */
  databaseUrl: string;
  /** `replay` (replayed real days, market/feed.ts) or `stress` (synthetic load, market/stress.ts). */
  marketSource: 'replay' | 'stress';
  /** Stress source: instruments streamed. */
  stressSymbols: number;
  /** Stress source: trades per second across all its instruments. */
  stressRate: number;
  /** `manual` only with NODE_ENV=test (see the module docstring). */
  marketClock: 'replay' | 'exchange' | 'manual';
  marketSpeed: number;
  /**
   * MARKET_SEED when set; null: the install's own random seed, created on first start and kept in
   * the database (market/install-seed.ts), so the replay's intraday paths are not public.
   */
  marketSeed: number | null;
  /**
   * REPLAY_WITHDRAWALS: `netDeposits` (default) caps a member's withdrawals at their net deposits
   * while MARKET_SOURCE is replay; `all` lets replay gains be withdrawn (the operator's explicit
   * choice, README "Configuration").
   */
  replayWithdrawals: 'netDeposits' | 'all';
  leverages: number[];
  sessionTtlMs: number;
  /** OPERATOR_ACCOUNT; unset: the first start generates one (modules/auth/first-run.ts). */
  operatorAccount: string | undefined;
  operatorPassword: string | undefined;
  inviteCode: string | undefined;
  importSymbols: string[] | undefined;
  logLevel: string;
  /**
   * TRUST_PROXY: addresses or CIDR ranges of the reverse proxies in front of the server (comma
   * list; empty: none). Only a request from one of them has its `X-Forwarded-For` honoured for
   * the client's address (server/http/client-address.ts).
   */
  trustProxy: string[];
  /** Directory of the built client (vite build); served when present. */
  clientDir: string;
  /** What one client address may hold on the `/ws` gateway (realtime/limits.ts). */
  wsLimits: WsLimits;
}

function int(v: string | undefined, dflt: number, name: string): number {
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${v}`);
  return n;
}

/** Reads the configuration; throws with the variable's name on an invalid value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const source = env.MARKET_SOURCE || 'replay';
  if (source !== 'replay' && source !== 'stress')
    throw new Error(`MARKET_SOURCE must be replay or stress, got ${source}`);
  const clock = env.MARKET_CLOCK || 'replay';
  if (clock !== 'replay' && clock !== 'exchange' && clock !== 'manual')
    throw new Error(`MARKET_CLOCK must be replay or exchange, got ${clock}`);
  if (clock === 'manual' && env.NODE_ENV !== 'test')
    throw new Error('MARKET_CLOCK=manual is for tests only: it needs NODE_ENV=test');
  const leverages = (env.LEVERAGES || DEFAULT_LEVERAGES.join(','))
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n >= 1 && n <= 100);
  if (leverages.length === 0) throw new Error('LEVERAGES must list integers between 1 and 100');
  const replayWithdrawals = env.REPLAY_WITHDRAWALS || 'netDeposits';
  if (replayWithdrawals !== 'netDeposits' && replayWithdrawals !== 'all')
    throw new Error(`REPLAY_WITHDRAWALS must be all (or unset), got ${replayWithdrawals}`);
  const seed = env.MARKET_SEED ? int(env.MARKET_SEED, 1, 'MARKET_SEED') : null;
  if (seed !== null && !Number.isSafeInteger(seed))
    throw new Error(`MARKET_SEED must be a whole number, got ${env.MARKET_SEED}`);
  return {
    port: int(env.PORT, 3000, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || path.join(dataDir, 'pglite'),
    marketSource: source,
    stressSymbols: Math.floor(int(env.STRESS_SYMBOLS, 2000, 'STRESS_SYMBOLS')),
    stressRate: int(env.STRESS_RATE, 20_000, 'STRESS_RATE'),
    marketClock: clock,
    marketSpeed: int(env.MARKET_SPEED, 1, 'MARKET_SPEED'),
    marketSeed: seed,
    replayWithdrawals,
    leverages: [...new Set(leverages)].sort((a, b) => a - b),
    sessionTtlMs: int(env.SESSION_TTL_HOURS, 168, 'SESSION_TTL_HOURS') * 3_600_000,
    operatorAccount: env.OPERATOR_ACCOUNT || undefined,
    operatorPassword: env.OPERATOR_PASSWORD || undefined,
    inviteCode: env.INVITE_CODE || undefined,
    importSymbols: env.IMPORT_SYMBOLS ? env.IMPORT_SYMBOLS.split(',').map((s) => s.trim()) : undefined,
    logLevel: env.LOG_LEVEL || 'info',
    clientDir: path.resolve(env.CLIENT_DIR || './dist'),
    trustProxy: (env.TRUST_PROXY ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    ...loadDayTradeConfig(env),
    ...loadTradingConfig(env),
    ...loadRiskConfig(env),
    ...loadAuthConfig(env),
    ...loadCopyTradingConfig(env),
    wsLimits: loadWsLimits(env),
  };
}
