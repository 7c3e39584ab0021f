/**
 * Day-trading settings from the environment (documented in README "Configuration"):
 *
 * - DAY_TRADE_MIN_ACCOUNT_DAYS (90): whole days since registration before an application is
 *   approved by itself. TW-MARKET-RULES "Day trading" (TWSE Day Trade Rules Arts. 1–2): the
 *   account must be at least 3 months old; 3 months is read as 90 days ⚠ (a calendar quarter is
 *   89–92 days).
 * - DAY_TRADE_MIN_TRADES (10): executions in the last 365 days (same row: "≥ 10 trades in the
 *   last year").
 * - DAY_TRADE_AUTO_CLOSE (true): positions entered as day trades and not offset by the closing
 *   call are closed there ⚠ product choice (the exchange does not close them; a Taiwan broker
 *   settles them instead, which this product does not model).
 *
 * 0 is a valid threshold (no requirement). The "or a margin account" path of the rule is not
 * modelled: operators grant such members by hand.
 */

/** The day-trading part of the server's Config (server/config.ts). */
export interface DayTradeConfig {
  dayTradeMinAccountDays: number;
  dayTradeMinTrades: number;
  dayTradeAutoClose: boolean;
}

/** Defaults from TW-MARKET-RULES "Day trading" (see the module docstring). */
export const DAY_TRADE_DEFAULTS: DayTradeConfig = {
  dayTradeMinAccountDays: 90,
  dayTradeMinTrades: 10,
  dayTradeAutoClose: true,
};

/** A whole number ≥ 0 from `v`, `dflt` when unset; throws naming the variable otherwise. */
export function nonNegativeInt(v: string | undefined, dflt: number, name: string): number {
  if (v === undefined || v.trim() === '') return dflt;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, got ${v}`);
  return n;
}

function bool(v: string | undefined, dflt: boolean, name: string): boolean {
  if (v === undefined || v.trim() === '') return dflt;
  const s = v.trim().toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(s)) return true;
  if (['0', 'false', 'off', 'no'].includes(s)) return false;
  throw new Error(`${name} must be true or false, got ${v}`);
}

/** Reads the day-trading settings; throws naming the variable on an invalid value. */
export function loadDayTradeConfig(env: NodeJS.ProcessEnv): DayTradeConfig {
  return {
    dayTradeMinAccountDays: nonNegativeInt(
      env.DAY_TRADE_MIN_ACCOUNT_DAYS,
      DAY_TRADE_DEFAULTS.dayTradeMinAccountDays,
      'DAY_TRADE_MIN_ACCOUNT_DAYS',
    ),
    dayTradeMinTrades: nonNegativeInt(
      env.DAY_TRADE_MIN_TRADES,
      DAY_TRADE_DEFAULTS.dayTradeMinTrades,
      'DAY_TRADE_MIN_TRADES',
    ),
    dayTradeAutoClose: bool(
      env.DAY_TRADE_AUTO_CLOSE,
      DAY_TRADE_DEFAULTS.dayTradeAutoClose,
      'DAY_TRADE_AUTO_CLOSE',
    ),
  };
}
