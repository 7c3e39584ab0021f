/**
 * Order entry's rules as pure functions of the request, the quote and the session (no database):
 * the member and instrument checks every entry makes, the price checks with their fixes, and how
 * a regular-session order executes on arrival (fills now at a price, is killed, or rests).
 * Refusals are AppErrors carrying the fix in `data.fix` (contract/trading.ts OrderFix); engine.ts
 * module docstring lists the rules and their sources.
 */
import type { Quote } from '../../../contract/market';
import { priceRejection, type InstrumentKind, type PriceLimits } from '../../../contract/market-rules';
import type { OrderFix, PlaceOrderReq } from '../../../contract/trading';
import { nextOpen, type IsTradingDay } from '../../../contract/trading-session';
import type { MarketFeed } from '../../market/feed';
import type { AuthUser } from '../common/context';
import { fail } from '../common/errors';
import type { TradingConfig } from './config';
import { dayTimes, marketDate, type SessionView } from './market-session';

/** Refusal with a fix (the key's status from contract/errors.ts ERROR_STATUS). */
export const refuse = (key: Parameters<typeof fail>[0], fix: OrderFix) => fail(key, { fix });

/**
 * The checks every entry makes before the session's: the member may trade, the leverage is
 * offered, the lots are within the most per order, the instrument is listed, traded today and
 * not closed to trading. @throws AppError cannotWithdrawOrTrade, invalidLeverage,
 * exceedsOrderShares (fix maxLots), productNotFound, notTradedToday, tradeClosed.
 */
export function checkEntry(
  user: AuthUser,
  req: Pick<PlaceOrderReq, 'symbol' | 'leverage' | 'lots'>,
  env: { leverages: number[]; rules: TradingConfig; feed: MarketFeed },
): void {
  const { rules, feed } = env;
  if (user.tradeBanned) throw fail('cannotWithdrawOrTrade');
  if (!env.leverages.includes(req.leverage)) throw fail('invalidLeverage');
  if (req.lots > rules.tradeMaxLots)
    throw refuse('exceedsOrderShares', { rule: 'maxLots', maxLots: rules.tradeMaxLots });
  if (!feed.isTradable(req.symbol)) throw fail('productNotFound');
  if (feed.quote(req.symbol)?.traded === false) throw fail('notTradedToday');
  if (rules.tradeClosed === 'all' || rules.tradeClosed.includes(req.symbol)) throw fail('tradeClosed');
}

/** Start of the next continuous session on the exchange calendar (epoch ms). */
export function nextContinuous(nowMs: number, isTradingDay: IsTradingDay): number {
  const preOpen = nextOpen(nowMs, isTradingDay, 'regular');
  return dayTimes(marketDate(preOpen)).continuousMs;
}

/** The fix of an order type a call phase does not take: a limit ROD, or wait for continuous trading. */
export function continuousFix(v: SessionView, q: Quote | undefined, isTradingDay: IsTradingDay): OrderFix {
  const t = dayTimes(marketDate(v.nowMs));
  return {
    rule: 'continuousOnly',
    phase: v.phase,
    orderType: 'limit',
    timeInForce: 'ROD',
    priceMinor: q && q.lastMinor > 0 ? q.lastMinor : null,
    continuousAtMs:
      v.phase === 'preOpen' ? t.continuousMs : v.fullDay ? nextContinuous(v.nowMs, isTradingDay) : null,
  };
}

/**
 * Why a limit price is refused (off the tick table, outside the day's limits), with its fix, or
 * null when it is valid. `band`: the feed's own limits of the day, else ±10 % of the reference.
 */
export function priceFix(
  priceMinor: number,
  kind: InstrumentKind,
  referenceMinor: number,
  limits: boolean,
  band?: PriceLimits,
): { key: 'priceOffTick' | 'exceedsPriceLimit' | 'parameterError'; fix: OrderFix | null } | null {
  const r = priceRejection(priceMinor, { kind, referenceMinor, hasPriceLimits: limits, limits: band });
  if (!r) return null;
  switch (r.rule) {
    case 'offTick':
      return { key: 'priceOffTick', fix: { rule: 'offTick', nearestMinor: r.nearestMinor } };
    case 'aboveLimitUp':
      return { key: 'exceedsPriceLimit', fix: { rule: 'aboveLimitUp', limitUpMinor: r.limitUpMinor } };
    case 'belowLimitDown':
      return {
        key: 'exceedsPriceLimit',
        fix: { rule: 'belowLimitDown', limitDownMinor: r.limitDownMinor },
      };
    default:
      return { key: 'parameterError', fix: null };
  }
}

/** How a regular-session order executes on arrival: fills now at `fillPrice`, is killed, or rests. */
export interface Execution {
  /** The price it fills at now (minor units), null when it does not fill now. */
  fillPrice: number | null;
  /** An IOC / FOK order that cannot fill at once: recorded as cancelled. */
  kill: boolean;
}

/**
 * How `req` executes on arrival against `q` (a regular-session order, entry already open):
 * market orders fill at the best opposite price within the day's limits (`limits`: whether they
 * apply); a limit order's price is checked against the tick table and the limits around the
 * day's reference, and outside a call (`isCall`) it fills at the best opposite price when that
 * crosses its limit. A non-ROD order that does not fill is killed. In pre-open, the reference is
 * the last close the feed shows when it shows the finished previous day.
 * @throws AppError priceUnavailable, exceedsPriceLimit, priceOffTick (fix), parameterError.
 */
export function regularExecution(
  req: PlaceOrderReq,
  q: Quote,
  v: SessionView,
  opts: { kind: InstrumentKind; limits: boolean },
): Execution {
  const isCall = v.phase === 'preOpen' || v.phase === 'closingCall';
  const { limits } = opts;
  if (req.orderType === 'market') {
    const best = req.side === 'long' ? q.askMinor : q.bidMinor;
    const inLimits = !limits || (best >= q.limitDownMinor && best <= q.limitUpMinor);
    if (best > 0 && inLimits) return { fillPrice: best, kill: false };
    if (req.timeInForce === 'ROD') throw fail(best > 0 ? 'exceedsPriceLimit' : 'priceUnavailable');
    return { fillPrice: null, kill: true };
  }
  // Pre-open: today's reference is the last close the feed shows (the exchange clock shows the
  // finished previous day), or the new day's own reference price when the feed already shows it.
  const finished = q.ts >= dayTimes(marketDate(q.ts)).regularCloseMs;
  const reference = v.phase === 'preOpen' && finished ? q.lastMinor : q.prevCloseMinor;
  // The day's own band from the feed (its class's band: ±20 % on a domestic 2× ETF,
  // server/market/reference.ts) unless the reference is the finished previous day's close.
  const band =
    reference === q.prevCloseMinor && q.limitUpMinor > 0 && q.limitDownMinor > 0
      ? { upMinor: q.limitUpMinor, downMinor: q.limitDownMinor }
      : undefined;
  const bad = priceFix(req.priceMinor!, opts.kind, reference, limits, band);
  if (bad) throw bad.fix ? refuse(bad.key, bad.fix) : fail(bad.key);
  if (isCall) return { fillPrice: null, kill: false };
  const limit = req.priceMinor!;
  const crosses =
    req.side === 'long' ? q.askMinor > 0 && q.askMinor <= limit : q.bidMinor > 0 && q.bidMinor >= limit;
  if (crosses) return { fillPrice: req.side === 'long' ? q.askMinor : q.bidMinor, kill: false };
  return { fillPrice: null, kill: req.timeInForce !== 'ROD' };
}
