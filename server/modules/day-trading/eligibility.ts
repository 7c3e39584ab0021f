/**
 * Day-trading eligibility (TW-MARKET-RULES "Day trading", TWSE Day Trade Rules Arts. 1–2: an
 * account at least 3 months old with at least 10 trades in the last year). The thresholds are
 * configuration (modules/day-trading/config.ts: DAY_TRADE_MIN_ACCOUNT_DAYS, default 90 days ⚠;
 * DAY_TRADE_MIN_TRADES, default 10).
 *
 * - Account age: whole 24-hour days from registration to now, never negative.
 * - Trades: executions in the 365 days before now, each fill counted once: a position's opening
 *   fill (opened_at) and its closing fill (closed_at, status closed) are two trades, as a broker
 *   counts a buy and a sell as two executed orders. Cancelled orders never filled: not counted.
 */
import { eq, sql } from 'drizzle-orm';
import type { DayTradeEligibility } from '../../../contract/day-trading';
import type { Db, Tx } from '../../db/client';
import { orders, users } from '../../db/schema';
import type { DayTradeConfig } from './config';

export const DAY_MS = 86_400_000;
/** The trade-count window: the last year, as 365 days. */
export const TRADE_WINDOW_DAYS = 365;

/** Whole days from `createdMs` to `nowMs` (floor; 0 when the account is newer than now). */
export function accountAgeDays(createdMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - createdMs) / DAY_MS));
}

/**
 * The rule itself: eligible when accountDays ≥ minAccountDays **and** tradesLastYear ≥ minTrades
 * (both thresholds inclusive: exactly 90 days and exactly 10 trades qualify).
 */
export function evaluateEligibility(args: {
  accountDays: number;
  tradesLastYear: number;
  minAccountDays: number;
  minTrades: number;
}): DayTradeEligibility {
  return {
    accountDays: args.accountDays,
    minAccountDays: args.minAccountDays,
    tradesLastYear: args.tradesLastYear,
    minTrades: args.minTrades,
    eligible: args.accountDays >= args.minAccountDays && args.tradesLastYear >= args.minTrades,
  };
}

/** Executions of `userId` after `nowMs − 365 days` (see the module docstring). */
export async function tradesLastYear(db: Db | Tx, userId: number, nowMs: number): Promise<number> {
  const from = new Date(nowMs - TRADE_WINDOW_DAYS * DAY_MS);
  const [row] = await db
    .select({
      opens: sql<number>`count(*) filter (where ${orders.openedAt} > ${from})`.mapWith(Number),
      closes:
        sql<number>`count(*) filter (where ${orders.status} = 'closed' and ${orders.closedAt} > ${from})`.mapWith(
          Number,
        ),
    })
    .from(orders)
    .where(eq(orders.userId, userId));
  return (row?.opens ?? 0) + (row?.closes ?? 0);
}

/**
 * Where `userId` stands against the rule at `nowMs` with the configured thresholds.
 * @throws Error when the user does not exist (callers pass an authenticated user's id)
 */
export async function eligibilityOf(
  db: Db | Tx,
  cfg: DayTradeConfig,
  userId: number,
  nowMs: number,
): Promise<DayTradeEligibility> {
  const [u] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId));
  if (!u) throw new Error(`no user ${userId}`);
  return evaluateEligibility({
    accountDays: accountAgeDays(u.createdAt.getTime(), nowMs),
    tradesLastYear: await tradesLastYear(db, userId, nowMs),
    minAccountDays: cfg.dayTradeMinAccountDays,
    minTrades: cfg.dayTradeMinTrades,
  });
}
