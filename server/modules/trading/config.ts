/**
 * Trading-rule settings from the environment (documented in README "Configuration" and in
 * server/config.ts). The spec names these errors (product-spec §8 "Trading") without giving a
 * value, so every rule is off by default and is switched on by configuration:
 *
 * - TRADE_T1_SELL (false): "T+1 cannot sell". A long position opened on a trading day cannot be
 *   closed by the member on that same trading day (a sale of shares bought today), unless the
 *   member may day trade (the day-trading module's eligibility). Forced closes are exempt.
 * - TRADE_LOCKUP_MINUTES (0): "lock-up period, cannot sell for some minutes". Wall-clock minutes
 *   after a position opens during which the member cannot close it. Forced closes are exempt.
 * - TRADE_DAILY_ORDER_LIMIT (0 = none): "daily purchase limit". Orders a member may enter per
 *   trading day (all entered orders count, filled or not, except refused ones).
 * - TRADE_MAX_LOTS (499 = MAX_LOTS_PER_ORDER): "exceeds order shares". Largest order in lots,
 *   at most the platform's sanity cap MAX_LOTS_PER_ORDER.
 * - TRADE_CLOSED (empty): "trade closed". `all`, or a comma list of symbols, whose new orders are
 *   refused (closing existing positions stays possible).
 *
 * "Product delisted" needs no setting: it is the instruments table's `delisted` flag.
 */
import { MAX_LOTS_PER_ORDER } from '../../../contract/market-rules';

/** The trading part of the server's Config (server/config.ts). */
export interface TradingConfig {
  tradeT1Sell: boolean;
  tradeLockupMinutes: number;
  /** 0: no limit. */
  tradeDailyOrderLimit: number;
  tradeMaxLots: number;
  /** 'all', or the symbols closed to new orders. */
  tradeClosed: 'all' | string[];
}

/** Defaults: every rule off (see the module docstring). */
export const TRADING_DEFAULTS: TradingConfig = {
  tradeT1Sell: false,
  tradeLockupMinutes: 0,
  tradeDailyOrderLimit: 0,
  tradeMaxLots: MAX_LOTS_PER_ORDER,
  tradeClosed: [],
};

function wholeNumber(v: string | undefined, dflt: number, name: string, max = Number.MAX_SAFE_INTEGER) {
  if (v === undefined || v.trim() === '') return dflt;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0 || n > max)
    throw new Error(`${name} must be a whole number 0–${max}, got ${v}`);
  return n;
}

function flag(v: string | undefined, dflt: boolean, name: string): boolean {
  if (v === undefined || v.trim() === '') return dflt;
  const s = v.trim().toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(s)) return true;
  if (['0', 'false', 'off', 'no'].includes(s)) return false;
  throw new Error(`${name} must be true or false, got ${v}`);
}

/** Reads the trading-rule settings; throws naming the variable on an invalid value. */
export function loadTradingConfig(env: NodeJS.ProcessEnv): TradingConfig {
  const maxLots = wholeNumber(env.TRADE_MAX_LOTS, MAX_LOTS_PER_ORDER, 'TRADE_MAX_LOTS', MAX_LOTS_PER_ORDER);
  if (maxLots < 1) throw new Error(`TRADE_MAX_LOTS must be at least 1, got ${env.TRADE_MAX_LOTS}`);
  const closed = (env.TRADE_CLOSED ?? '').trim();
  return {
    tradeT1Sell: flag(env.TRADE_T1_SELL, TRADING_DEFAULTS.tradeT1Sell, 'TRADE_T1_SELL'),
    tradeLockupMinutes: wholeNumber(env.TRADE_LOCKUP_MINUTES, 0, 'TRADE_LOCKUP_MINUTES', 24 * 60),
    tradeDailyOrderLimit: wholeNumber(env.TRADE_DAILY_ORDER_LIMIT, 0, 'TRADE_DAILY_ORDER_LIMIT'),
    tradeMaxLots: maxLots,
    tradeClosed:
      closed.toLowerCase() === 'all'
        ? 'all'
        : closed
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
  };
}
