/**
 * The trading engine and the risk monitor on a real database (in-memory PGlite, or a fresh
 * PostgreSQL database with TEST_DB=postgres: harness.ts freshDatabase) against a stub quote
 * source the test sets price by price: the market is the outside edge here, so a scenario's
 * numbers can be the exact ones of a report. The source is always in continuous trading (the
 * stress source's session shape: no calls, no expiry); the trading session number that margin
 * calls count their deadline in is `session.n`, moved by the test.
 *
 * Units: prices and money in minor units (1 NT$ = 100), shares.
 */
import { eq } from 'drizzle-orm';
import type { Quote } from '../../../contract/market';
import { priceLimitsMinor, type InstrumentKind } from '../../../contract/market-rules';
import { DEFAULT_RISK_THRESHOLDS, type RiskThresholds } from '../../../contract/risk';
import type { Db } from '../../../server/db/client';
import { importMarketData } from '../../../server/market/import';
import { users } from '../../../server/db/schema';
import type { MarketFeed } from '../../../server/market/feed';
import type { AuthUser } from '../../../server/modules/common/context';
import {
  ensureMemberAccounts,
  ensurePlatformAccounts,
  move,
  post,
} from '../../../server/modules/ledger/ledger';
import { createRiskMonitor, type RiskMonitor } from '../../../server/modules/risk/monitor';
import { createTradingEngine, type TradingEngine } from '../../../server/modules/trading/engine';
import { freshDatabase } from '../harness';

/** Wall and market time of the stub: 10:00 Asia/Taipei on a weekday (continuous trading). */
const MARKET_NOW = Date.UTC(2026, 6, 31, 2);

export interface StubMarket {
  db: Db;
  engine: TradingEngine;
  risk: RiskMonitor;
  feed: MarketFeed;
  /** The trading session number margin calls count in. */
  session: { n: number };
  /**
   * Publishes a quote for `symbol` (last = `lastMinor`, bid/ask default to it, the day's reference
   * `refMinor` default the previous quote's or the last) and waits for the engine and the monitor.
   */
  quote(
    symbol: string,
    lastMinor: number,
    opts?: { bidMinor?: number; askMinor?: number; refMinor?: number },
  ): Promise<void>;
  /** A member with `depositMinor` deposited into `available` (a ledger deposit from bank clearing). */
  member(account: string, depositMinor?: number): Promise<AuthUser>;
  /** Deposits more (a top-up answering a margin call). */
  deposit(userId: number, amountMinor: number): Promise<void>;
  /** Waits for every fill and evaluation queued so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the engine and the monitor over `symbols` (imported from the seed data, so orders can
 * reference them). `openingBps`: OPENING_MARGIN_BPS (default 13,000); `leverages` default 1, 2, 5, 10.
 */
export async function startStubMarket(opts: {
  symbols: string[];
  kinds?: Record<string, InstrumentKind>;
  openingBps?: number;
  thresholds?: RiskThresholds;
  graceDays?: number;
}): Promise<StubMarket> {
  const { database, drop } = await freshDatabase();
  const db = database.db;
  await importMarketData(db, { symbols: opts.symbols });
  await ensurePlatformAccounts(db);
  const quotes = new Map<string, Quote>();
  const listeners = new Set<(q: Quote) => void>();
  const session = { n: 100 };
  let wall = MARKET_NOW;
  const kindOf = (s: string): InstrumentKind => opts.kinds?.[s] ?? 'stock';
  const feed = {
    isTradable: (s: string) => quotes.has(s),
    quote: (s: string) => quotes.get(s),
    kind: (s: string) => kindOf(s),
    onQuote: (fn: (q: Quote) => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    clock: () => ({
      source: 'stress',
      mode: 'replay',
      phase: 'open',
      tradingPhase: 'continuous',
      speed: 1,
      now: MARKET_NOW,
      replayDate: null,
    }),
  } as unknown as MarketFeed;
  const thresholds = opts.thresholds ?? DEFAULT_RISK_THRESHOLDS;
  const engine = createTradingEngine({
    db,
    feed,
    leverages: [1, 2, 5, 10],
    openingMarginBps: opts.openingBps ?? thresholds.marginCallBps,
    timer: false,
    now: () => wall,
  });
  await engine.start();
  const risk = createRiskMonitor({
    db,
    feed,
    closer: engine,
    thresholds,
    now: () => wall,
    session: () => session.n,
    sessionDate: (k) => `session ${k}`,
    graceDays: opts.graceDays ?? 2,
  });
  await risk.start();
  // As the next quote would in a live market: after the engine's fills, the index sync marks the
  // accounts they changed and a flush evaluates them (a drain the quote caused may have run first).
  const settle = async () => {
    await engine.idle();
    await risk.sync();
    await risk.flush();
    await risk.idle();
    await engine.idle();
  };
  let accounts = 0;
  const deposit = async (userId: number, amountMinor: number) => {
    await db.transaction((tx) =>
      post(tx, {
        type: 'deposit',
        postings: move({ platform: 'bank_clearing' }, { userId, purpose: 'available' }, amountMinor),
      }),
    );
  };
  return {
    db,
    engine,
    risk,
    feed,
    session,
    async quote(symbol, lastMinor, o = {}) {
      const ref = o.refMinor ?? quotes.get(symbol)?.prevCloseMinor ?? lastMinor;
      const band = priceLimitsMinor(ref, kindOf(symbol), 1);
      const q: Quote = {
        symbol,
        name: symbol,
        kind: kindOf(symbol),
        lastMinor,
        openMinor: lastMinor,
        highMinor: lastMinor,
        lowMinor: lastMinor,
        prevCloseMinor: ref,
        limitUpMinor: band.upMinor,
        limitDownMinor: band.downMinor,
        bidMinor: o.bidMinor ?? lastMinor,
        askMinor: o.askMinor ?? lastMinor,
        volumeShares: 1_000,
        turnoverMinor: lastMinor * 1_000,
        ts: MARKET_NOW,
        replayDate: null,
        phase: 'open',
        traded: true,
      } as Quote;
      quotes.set(symbol, q);
      wall += 1_000; // past the monitor's per-account throttle
      for (const fn of listeners) fn(q);
      await settle();
    },
    async member(account, depositMinor = 0) {
      const [u] = await db
        .insert(users)
        .values({ account: account || `0978${String(++accounts).padStart(6, '0')}`, passwordHash: 'x' })
        .returning();
      await ensureMemberAccounts(db, u!.id);
      const user: AuthUser = {
        id: u!.id,
        account: u!.account,
        role: 'member',
        tradeBanned: false,
        withdrawBanned: false,
        frozen: false,
      };
      if (depositMinor > 0) await deposit(user.id, depositMinor);
      return user;
    },
    deposit,
    settle,
    async close() {
      risk.stop();
      engine.stop();
      await drop();
    },
  };
}

/** The user's row id by account (for tests that only kept the account). */
export async function userIdOf(db: Db, account: string): Promise<number> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.account, account)))[0]!.id;
}
