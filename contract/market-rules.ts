/**
 * Taiwan market rules shared by the server's execution and the client's order preview, so both
 * compute the same figures to the cent. Every rule cites its row (`TW-MARKET-RULES "<row>"`) in
 * docs/tw-market-rules.md, which gives each row's original source.
 *
 * Units: prices and amounts in TWD minor units (1 NT$ = 100), quantities in shares, rates in
 * parts per million. Rounding goes through contract/money.ts only.
 */
import {
  BOND_ETF_TAX_SUSPENDED,
  DAY_TRADE_REDUCED_RATE,
  inForce,
  NEW_LISTING_DAYS,
  type TaxKind,
} from './dated-rules';
import type { ErrorKey } from './errors';
import { divCeil, notionalMinor, ppmFloorToMajor, type Minor } from './money';

export type { TaxKind } from './dated-rules';

/** Instrument kinds whose tick tables differ (TW-MARKET-RULES "Tick size, stocks" / "Tick size, ETFs"). */
export type InstrumentKind = 'stock' | 'etf';

/** 1 lot = 1,000 shares (TW-MARKET-RULES "Trading unit", TWSE Operating Rules Art. 60). */
export const SHARES_PER_LOT = 1000;

/** Largest order in lots accepted by this platform (a sanity cap, not an exchange rule). */
export const MAX_LOTS_PER_ORDER = 499;

/**
 * Time in force of an order: ROD (rest of day), IOC (immediate or cancel: fill what can be filled
 * at once, cancel the rest), FOK (fill or kill: all at once or nothing). TW-MARKET-RULES
 * "Order types" (limit or market × ROD / IOC / FOK; TWSE Art. 58-8).
 */
export const TIME_IN_FORCE = ['ROD', 'IOC', 'FOK'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];

/** Leverage multiples offered when the operator has not configured others. */
export const DEFAULT_LEVERAGES = [1, 2, 5, 10] as const;

/**
 * Tick size in minor units for a price in minor units.
 * Stocks (TWSE Art. 62): < 10: 0.01 · 10–< 50: 0.05 · 50–< 100: 0.1 · 100–< 500: 0.5 ·
 * 500–< 1000: 1 · ≥ 1000: 5. ETFs: < 50: 0.01 · ≥ 50: 0.05. Band edges use `>=` (a known
 * pitfall in public code is `> 1000`).
 */
export function tickSizeMinor(priceMinor: Minor, kind: InstrumentKind = 'stock'): Minor {
  if (kind === 'etf') return priceMinor >= 5_000 ? 5 : 1;
  if (priceMinor >= 100_000) return 500;
  if (priceMinor >= 50_000) return 100;
  if (priceMinor >= 10_000) return 50;
  if (priceMinor >= 5_000) return 10;
  if (priceMinor >= 1_000) return 5;
  return 1;
}

/** True when the price is a positive multiple of its band's tick. */
export function isOnTick(priceMinor: Minor, kind: InstrumentKind = 'stock'): boolean {
  return (
    Number.isSafeInteger(priceMinor) && priceMinor > 0 && priceMinor % tickSizeMinor(priceMinor, kind) === 0
  );
}

/** Largest valid price ≤ the given one. Band boundaries are multiples of the lower band's tick. */
export function floorToTick(priceMinor: Minor, kind: InstrumentKind = 'stock'): Minor {
  const tick = tickSizeMinor(priceMinor, kind);
  return priceMinor - (priceMinor % tick);
}

/** Smallest valid price ≥ the given one. */
export function ceilToTick(priceMinor: Minor, kind: InstrumentKind = 'stock'): Minor {
  const tick = tickSizeMinor(priceMinor, kind);
  const rem = priceMinor % tick;
  return rem === 0 ? priceMinor : priceMinor + tick - rem;
}

/** The valid price `steps` ticks away (positive up, negative down), walking band by band. */
export function stepTicks(priceMinor: Minor, steps: number, kind: InstrumentKind = 'stock'): Minor {
  let p = priceMinor;
  for (let i = 0; i < Math.abs(steps); i++) {
    if (steps > 0) p += tickSizeMinor(p, kind);
    else p -= tickSizeMinor(p - 1, kind);
  }
  return p;
}

/** The two valid prices around an off-tick price: what the order ticket offers as the fix. */
export function nearestValidPrices(priceMinor: Minor, kind: InstrumentKind = 'stock'): [Minor, Minor] {
  return [floorToTick(priceMinor, kind), ceilToTick(priceMinor, kind)];
}

/**
 * Daily limit-up: reference × 1.10 rounded **down** to a valid tick; limit-down: reference × 0.90
 * rounded **up** (TW-MARKET-RULES "Daily price limit", "Limit price rounding"; fon9 FmktTools).
 */
export function limitUpMinor(referenceMinor: Minor, kind: InstrumentKind = 'stock'): Minor {
  return floorToTick(Math.floor((referenceMinor * 110) / 100), kind);
}
export function limitDownMinor(referenceMinor: Minor, kind: InstrumentKind = 'stock'): Minor {
  return ceilToTick(Math.ceil((referenceMinor * 90) / 100), kind);
}

/** Daily limit band: the highest and lowest prices an order may carry today. */
export interface PriceLimits {
  upMinor: Minor;
  downMinor: Minor;
}

/**
 * Daily limits for a limit width of 10 % × `multiple` (TW-MARKET-RULES "Daily price limit":
 * ±10 % of the reference price; "Daily price limit, ETFs and ETNs": leveraged/inverse ETFs on a
 * domestic index 10 % × multiple), rounded as limitUpMinor/limitDownMinor ("Limit price
 * rounding": up rounded down to a tick, down rounded up). `multiple` is the absolute leverage of
 * a leveraged/inverse ETF (2 for a 2× ETF, 1 for a −1× inverse ETF), 1 for everything else;
 * multiple 1 gives exactly limitUpMinor/limitDownMinor. Which class an instrument is in, and the
 * percent in force on a date, come from contract/dated-rules.ts (dailyLimitPercent); use
 * priceLimitsForPercent with that percent.
 */
export function priceLimitsMinor(
  referenceMinor: Minor,
  kind: InstrumentKind = 'stock',
  multiple = 1,
): PriceLimits {
  if (!Number.isInteger(multiple) || multiple < 1 || multiple > 9) {
    throw new RangeError(`limit multiple must be an integer 1–9: ${multiple}`);
  }
  return priceLimitsForPercent(referenceMinor, kind, 10 * multiple);
}

/**
 * Daily limits of ±`percent` % around the reference, rounded as priceLimitsMinor (up rounded down
 * to a tick, down rounded up). `percent` an integer 1–99 (dated-rules.ts dailyLimitPercent: 7,
 * 10, 14, 20 …). @throws RangeError on a non-positive reference or a percent outside 1–99.
 */
export function priceLimitsForPercent(
  referenceMinor: Minor,
  kind: InstrumentKind,
  percent: number,
): PriceLimits {
  if (!Number.isSafeInteger(referenceMinor) || referenceMinor <= 0) {
    throw new RangeError(`reference price must be a positive integer: ${referenceMinor}`);
  }
  if (!Number.isInteger(percent) || percent < 1 || percent > 99) {
    throw new RangeError(`limit percent must be an integer 1–99: ${percent}`);
  }
  return {
    upMinor: floorToTick(Math.floor((referenceMinor * (100 + percent)) / 100), kind),
    downMinor: ceilToTick(Math.ceil((referenceMinor * (100 - percent)) / 100), kind),
  };
}

/**
 * New listings trade without daily limits for this many trading days (TW-MARKET-RULES "Daily
 * price limit, new listings"; contract/dated-rules.ts NEW_LISTING_DAYS).
 */
export const NEW_LISTING_NO_LIMIT_DAYS = NEW_LISTING_DAYS;

const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Validates an ISO `YYYY-MM-DD` calendar date (no luxon here: the phone bundle imports this module). */
function assertIsoDate(isoDate: string, what: string): void {
  const ok =
    ISO_DATE_RE.test(isoDate) && new Date(`${isoDate}T00:00:00Z`).toISOString().slice(0, 10) === isoDate;
  if (!ok) throw new RangeError(`${what} is not an ISO date: ${isoDate}`);
}

/** The ISO date after `isoDate` (pure calendar arithmetic in UTC; no time zone involved). */
function nextIsoDate(isoDate: string): string {
  const t = Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * Which trading day of its listing `today` is: 1 on the first trading day on or after
 * `listingDate`, 0 when `today` is before that (not trading yet). Counts only up to `cap` (the
 * walk stops there), so an old listing costs a few steps.
 */
export function listingTradingDayNumber(args: {
  listingDate: string;
  today: string;
  isTradingDay: (isoDate: string) => boolean;
  cap?: number;
}): number {
  assertIsoDate(args.listingDate, 'listingDate');
  assertIsoDate(args.today, 'today');
  const cap = args.cap ?? NEW_LISTING_NO_LIMIT_DAYS + 1;
  let n = 0;
  for (let d = args.listingDate; d <= args.today && n < cap; d = nextIsoDate(d)) {
    if (args.isTradingDay(d)) n++;
  }
  return n;
}

/**
 * Whether daily price limits apply today to an instrument listed on `listingDate`: false during
 * the first NEW_LISTING_NO_LIMIT_DAYS (5) trading days of a new listing, counting the listing day
 * as day 1 (TW-MARKET-RULES "Daily price limit": "new listings none for the first 5 trading
 * days"). Day 5 → false, day 6 → true. Throws RangeError when `today` is before the listing's
 * first trading day. The other classes without limits (foreign-index ETFs) and which listings
 * count (a first listing's common shares only): contract/dated-rules.ts limitClassOf.
 */
export function hasPriceLimits(args: {
  listingDate: string;
  today: string;
  isTradingDay: (isoDate: string) => boolean;
}): boolean {
  const day = listingTradingDayNumber(args);
  if (day === 0) throw new RangeError(`${args.today} is before the first trading day of ${args.listingDate}`);
  return day > NEW_LISTING_NO_LIMIT_DAYS;
}

/** Why a price was refused, with the fix the order ticket offers. */
export type PriceRejection =
  | { rule: 'invalidPrice'; error: ErrorKey }
  | { rule: 'offTick'; error: ErrorKey; nearestMinor: [Minor, Minor] }
  | { rule: 'aboveLimitUp'; error: ErrorKey; limitUpMinor: Minor }
  | { rule: 'belowLimitDown'; error: ErrorKey; limitDownMinor: Minor };

/**
 * null when `priceMinor` is a valid order price today; otherwise the rule it breaks and the fix:
 * above limit-up → the limit-up price, below limit-down → the limit-down price (TW-MARKET-RULES
 * "Daily price limit", "Limit price rounding"); off the tick table → the two nearest valid prices
 * ("Tick size, stocks / ETFs"; nearestValidPrices). Limits are checked first, since their fix is a
 * valid tick whatever the typed price. Limits are skipped when `referenceMinor` is null/absent or
 * `hasPriceLimits` is false (new listing, see hasPriceLimits). `limitMultiple` as in priceLimitsMinor.
 * `limits`: the day's own band when the source knows it (the replay feed's quote.limitUpMinor /
 * limitDownMinor: the instrument's class band, e.g. ±20 % on a domestic 2× ETF, server/market/
 * reference.ts); it takes precedence over the band computed from `referenceMinor`.
 */
export function priceRejection(
  priceMinor: Minor,
  opts: {
    kind?: InstrumentKind;
    referenceMinor?: Minor | null;
    hasPriceLimits?: boolean;
    limitMultiple?: number;
    limits?: PriceLimits;
  } = {},
): PriceRejection | null {
  const kind = opts.kind ?? 'stock';
  if (!Number.isSafeInteger(priceMinor) || priceMinor <= 0) {
    return { rule: 'invalidPrice', error: 'parameterError' };
  }
  if ((opts.limits || opts.referenceMinor != null) && opts.hasPriceLimits !== false) {
    const { upMinor, downMinor } =
      opts.limits ?? priceLimitsMinor(opts.referenceMinor!, kind, opts.limitMultiple ?? 1);
    if (priceMinor > upMinor)
      return { rule: 'aboveLimitUp', error: 'exceedsPriceLimit', limitUpMinor: upMinor };
    if (priceMinor < downMinor) {
      return { rule: 'belowLimitDown', error: 'exceedsPriceLimit', limitDownMinor: downMinor };
    }
  }
  if (!isOnTick(priceMinor, kind)) {
    return { rule: 'offTick', error: 'priceOffTick', nearestMinor: nearestValidPrices(priceMinor, kind) };
  }
  return null;
}

/**
 * Fee schedule in ppm; defaults from TW-MARKET-RULES ("Commission", "Securities transaction tax"
 * and its day-trade and bond-ETF rows; the dated rows are contract/dated-rules.ts
 * SALE_TAX_RULES, these fields their rates). The day-trade, bond-ETF and clearing-fee fields are
 * optional so existing schedules keep working; an absent field takes the DEFAULT_FEES value.
 */
export interface FeeSchedule {
  /** Commission rate on each side: 0.1425 % = 1,425 ppm. */
  commissionPpm: number;
  /** Minimum commission per order: NT$20 (⚠ broker practice). */
  commissionMinMinor: Minor;
  /** Seller's securities transaction tax: stocks 0.3 % (Securities Transaction Tax Act Art. 2 item 1). */
  taxStockPpm: number;
  /** Seller's securities transaction tax: ETFs, ETNs, REITs 0.1 % (Art. 2 item 2). */
  taxEtfPpm: number;
  /**
   * Seller's tax on a same-day day trade of a stock (現股當沖): 0.15 % = 1,500 ppm
   * (TW-MARKET-RULES "Securities transaction tax, day trades": Art. 2-2, from 2017-04-28).
   */
  dayTradeTaxPpm?: number;
  /**
   * Last trade date (inclusive, ISO `YYYY-MM-DD`, Asia/Taipei) of the reduced day-trade rate; after
   * it the stock rate applies again. Default '2027-12-31' (TW-MARKET-RULES "Securities transaction
   * tax, day trades": Art. 2-2 as amended 2024-12). null: no end date.
   */
  dayTradeTaxUntil?: string | null;
  /**
   * Seller's tax on a bond ETF while its suspension runs (TW-MARKET-RULES "Securities transaction
   * tax, bond ETFs": Art. 2-1 §2, 2017-01-01 → 2026-12-31): default 0; outside it the ETF rate.
   */
  bondEtfTaxPpm?: number;
  /**
   * Clearing fee on each trade, ppm of the traded value, both sides, truncated to whole NT$ like
   * commission. ⚠ Default 0: TW-MARKET-RULES has no clearing-fee row, so there is no sourced
   * value (Taiwan brokers' public fee pages charge commission and tax only). When set, it is
   * included in openCosts/closeResult `feeMinor`.
   */
  clearingFeePpm?: number;
}

/** Default reduced day-trade tax rate (TW-MARKET-RULES "Securities transaction tax, day trades"). */
export const DEFAULT_DAY_TRADE_TAX_PPM = 1_500;
/** Default last date of the reduced day-trade rate (TW-MARKET-RULES "Securities transaction tax, day trades"). */
export const DEFAULT_DAY_TRADE_TAX_UNTIL = DAY_TRADE_REDUCED_RATE.to;

export const DEFAULT_FEES: FeeSchedule = {
  commissionPpm: 1_425,
  commissionMinMinor: 2_000,
  taxStockPpm: 3_000,
  taxEtfPpm: 1_000,
  dayTradeTaxPpm: DEFAULT_DAY_TRADE_TAX_PPM,
  dayTradeTaxUntil: DEFAULT_DAY_TRADE_TAX_UNTIL,
  bondEtfTaxPpm: 0,
  clearingFeePpm: 0,
};

/** Commission for one order's traded value: max(floor-to-NT$(value × rate), minimum). */
export function commissionMinor(valueMinor: Minor, fees: FeeSchedule = DEFAULT_FEES): Minor {
  return Math.max(ppmFloorToMajor(valueMinor, fees.commissionPpm), fees.commissionMinMinor);
}

/**
 * What a sale's tax depends on besides the instrument's tick kind: its tax kind (stock, etf,
 * bondEtf: contract/dated-rules.ts taxKindOf, from reference/etf_classes.csv) and its trade date
 * (ISO; the replayed date on the replay), so the row in force on that date applies.
 */
export interface SaleContext {
  taxKind: TaxKind;
  date: string;
}

/**
 * Seller's tax rate in ppm (TW-MARKET-RULES "Securities transaction tax" and its day-trade and
 * bond-ETF rows; the dated rows: contract/dated-rules.ts SALE_TAX_RULES, whose choice this
 * reproduces with the schedule's rates): stocks 0.3 %, ETFs 0.1 %; a bond ETF (`sale.taxKind`)
 * sold on a date inside the suspension (2017-01-01 → 2026-12-31) pays `bondEtfTaxPpm` (0), the
 * ETF rate outside it or when no date is known; a stock sale that is part of a same-day day
 * trade on `dayTradeOn` (ISO trade date) pays `dayTradeTaxPpm` (0.15 %) from 2017-04-28 while
 * `dayTradeOn` ≤ `dayTradeTaxUntil` (2027-12-31), the stock rate otherwise. ETFs keep their rate
 * on day trades: Art. 2-2 reduces the rate on shares only.
 * @throws RangeError on a malformed date.
 */
export function sellTaxPpm(
  kind: InstrumentKind,
  fees: FeeSchedule = DEFAULT_FEES,
  dayTradeOn?: string,
  sale?: SaleContext,
): number {
  if (dayTradeOn !== undefined) assertIsoDate(dayTradeOn, 'dayTradeOn');
  if (sale) assertIsoDate(sale.date, 'sale.date');
  const taxKind = sale?.taxKind ?? kind;
  const date = dayTradeOn ?? sale?.date;
  if (taxKind === 'bondEtf' && kind === 'etf') {
    return date !== undefined && inForce(BOND_ETF_TAX_SUSPENDED, date)
      ? (fees.bondEtfTaxPpm ?? 0)
      : fees.taxEtfPpm;
  }
  if (kind === 'etf') return fees.taxEtfPpm;
  if (dayTradeOn === undefined) return fees.taxStockPpm;
  const until = fees.dayTradeTaxUntil === undefined ? DEFAULT_DAY_TRADE_TAX_UNTIL : fees.dayTradeTaxUntil;
  if (!inForce({ from: DAY_TRADE_REDUCED_RATE.from, to: until }, dayTradeOn)) return fees.taxStockPpm;
  return fees.dayTradeTaxPpm ?? DEFAULT_DAY_TRADE_TAX_PPM;
}

/**
 * Securities transaction tax, charged on the selling side only, truncated to whole NT$.
 * `dayTradeOn` (optional, ISO trade date): the sale is part of a same-day day trade; `sale`: the
 * instrument's tax kind and the trade date (sellTaxPpm).
 */
export function sellTaxMinor(
  valueMinor: Minor,
  kind: InstrumentKind,
  fees: FeeSchedule = DEFAULT_FEES,
  dayTradeOn?: string,
  sale?: SaleContext,
): Minor {
  return ppmFloorToMajor(valueMinor, sellTaxPpm(kind, fees, dayTradeOn, sale));
}

/** Clearing fee on one trade's value (FeeSchedule.clearingFeePpm, ⚠ default 0: no source). */
export function clearingFeeMinor(valueMinor: Minor, fees: FeeSchedule = DEFAULT_FEES): Minor {
  return ppmFloorToMajor(valueMinor, fees.clearingFeePpm ?? 0);
}

/**
 * A member's discount on commission (docs/levels.md): the account level's `levelBps` on every leg
 * of the order, and one fee coupon on its opening leg: `couponBps` of the commission left after
 * the level discount, or `couponOffMinor` off it (never below zero). bps of the commission, not of
 * the traded value: 1,000 bps = 10 % off (a "9折"). The clearing fee and the tax are not
 * discounted. Recorded on the order row when it is placed, so the fill and the close charge what
 * the ticket previewed.
 */
export interface FeeDiscount {
  /** Account-level discount, bps of the commission (0–10,000). */
  levelBps: number;
  /** Percentage coupon on the opening leg, bps of the commission (0–10,000). */
  couponBps?: number;
  /** Fixed coupon on the opening leg, TWD minor (whole NT$). */
  couponOffMinor?: Minor;
}

export const NO_DISCOUNT: FeeDiscount = { levelBps: 0 };

/**
 * Commission of one leg after the member's discount: commissionMinor (with its minimum) less
 * floor-to-NT$(commission × levelBps), then on the opening leg less the coupon (floor-to-NT$ of
 * its bps, or its fixed amount, at most what is left). Whole NT$ in, whole NT$ out.
 * @throws RangeError when a bps is outside 0–10,000 or the fixed amount is negative
 */
export function discountedCommissionMinor(
  valueMinor: Minor,
  fees: FeeSchedule = DEFAULT_FEES,
  discount: FeeDiscount = NO_DISCOUNT,
  opening = true,
): Minor {
  const bpsOk = (b: number) => Number.isInteger(b) && b >= 0 && b <= 10_000;
  const couponBps = discount.couponBps ?? 0;
  const couponOff = discount.couponOffMinor ?? 0;
  if (!bpsOk(discount.levelBps) || !bpsOk(couponBps) || !Number.isSafeInteger(couponOff) || couponOff < 0)
    throw new RangeError('fee discount out of range');
  const base = commissionMinor(valueMinor, fees);
  const afterLevel = base - ppmFloorToMajor(base, discount.levelBps * 100);
  if (!opening) return afterLevel;
  const off = ppmFloorToMajor(afterLevel, couponBps * 100) + couponOff;
  return Math.max(0, afterLevel - off);
}

/**
 * Fee and tax of one trade (a leg): commission after the member's discount (opening legs take
 * the coupon too) + clearing fee, and the seller's tax on a sale.
 */
function legCharges(
  valueMinor: Minor,
  isSale: boolean,
  kind: InstrumentKind,
  fees: FeeSchedule,
  dayTradeOn: string | undefined,
  discount: FeeDiscount = NO_DISCOUNT,
  opening = true,
  sale?: SaleContext,
): { feeMinor: Minor; taxMinor: Minor } {
  return {
    feeMinor:
      discountedCommissionMinor(valueMinor, fees, discount, opening) + clearingFeeMinor(valueMinor, fees),
    taxMinor: isSale ? sellTaxMinor(valueMinor, kind, fees, dayTradeOn, sale) : 0,
  };
}

export type Side = 'long' | 'short';

/** What opening a position costs. A long opens with a buy; a short opens with a sell (tax due). */
export interface OpenCosts {
  notionalMinor: Minor;
  marginMinor: Minor;
  feeMinor: Minor;
  taxMinor: Minor;
  /** margin + fee + tax: what must be available to place the order. */
  requiredMinor: Minor;
}

/**
 * Costs of opening `lots` at `priceMinor` with `leverage`: margin = notional ÷ leverage rounded up
 * to the minor unit; commission (+ clearing fee, 0 by default) on the opening trade; tax when the
 * opening trade is a sale (short), at the day-trade rate when `dayTradeOn` is given (sellTaxPpm).
 */
export function openCosts(args: {
  priceMinor: Minor;
  lots: number;
  leverage: number;
  side: Side;
  kind: InstrumentKind;
  fees?: FeeSchedule;
  /** ISO trade date when this sale opens a same-day day trade (optional; default: not a day trade). */
  dayTradeOn?: string;
  /** The member's level discount and coupon (FeeDiscount; default none). */
  discount?: FeeDiscount;
  /** The instrument's tax kind and the trade date (SaleContext; default: the kind's base rate). */
  sale?: SaleContext;
}): OpenCosts {
  const fees = args.fees ?? DEFAULT_FEES;
  const notional = notionalMinor(args.priceMinor, args.lots * SHARES_PER_LOT);
  const margin = divCeil(notional, args.leverage);
  const { feeMinor: fee, taxMinor: tax } = legCharges(
    notional,
    args.side === 'short',
    args.kind,
    fees,
    args.dayTradeOn,
    args.discount,
    true,
    args.sale,
  );
  return {
    notionalMinor: notional,
    marginMinor: margin,
    feeMinor: fee,
    taxMinor: tax,
    requiredMinor: margin + fee + tax,
  };
}

/** Result of closing a position at `closePriceMinor`. */
export interface CloseResult {
  notionalMinor: Minor;
  /** Gross profit (negative for a loss) before the closing fee and tax. */
  pnlMinor: Minor;
  feeMinor: Minor;
  taxMinor: Minor;
}

/**
 * Closing a long is a sale (tax due, at the day-trade rate when `dayTradeOn` is given); closing a
 * short is a buy. P&L is close price × shares − the position's open value (Σ fill price × shares,
 * kept through corporate actions: contract/corporate-actions.ts), negated for a short. The fee is
 * commission (+ clearing fee).
 */
export function closeResult(args: {
  /** The position's open value (minor): Σ fill price × shares, unchanged by a split. */
  openValueMinor: Minor;
  closePriceMinor: Minor;
  shares: number;
  side: Side;
  kind: InstrumentKind;
  fees?: FeeSchedule;
  /** ISO trade date when this sale closes a same-day day trade (optional; default: not a day trade). */
  dayTradeOn?: string;
  /** The member's discount; a closing leg takes the level discount only (FeeDiscount). */
  discount?: FeeDiscount;
  /** The instrument's tax kind and the trade date (SaleContext; default: the kind's base rate). */
  sale?: SaleContext;
}): CloseResult {
  const fees = args.fees ?? DEFAULT_FEES;
  const notional = notionalMinor(args.closePriceMinor, args.shares);
  const diff = notional - args.openValueMinor;
  const pnl = args.side === 'long' ? diff : -diff;
  const { feeMinor: fee, taxMinor: tax } = legCharges(
    notional,
    args.side === 'long',
    args.kind,
    fees,
    args.dayTradeOn,
    args.discount,
    false,
    args.sale,
  );
  return { notionalMinor: notional, pnlMinor: pnl, feeMinor: fee, taxMinor: tax };
}

/** Largest number of ticks breakEvenPriceMinor walks from its estimate (a safety bound). */
const BREAK_EVEN_MAX_STEPS = 1_000_000;

/**
 * Break-even closing price of a position opened at `openPriceMinor`: the valid price (tick table,
 * "Tick size, stocks / ETFs") at which closing yields a net of ≥ 0 after the opening fee and tax
 * and the closing fee and tax (openCosts/closeResult's own legs), while one tick worse yields < 0 —
 * i.e. the exact break-even rounded to the tick table in the direction that is not a loss (up for
 * a long, down for a short). Net = closeResult.pnl − close fee − close tax − open fee − open tax.
 * `dayTradeOn` taxes the sale at the day-trade rate (sellTaxPpm). For whole lots net rises
 * monotonically with the price, so the answer is the unique crossing; for a handful of odd shares
 * the NT$ truncation of fees can make it non-monotone and the answer is the crossing nearest the
 * exact break-even. null for a short whose proceeds cannot cover its fees at any positive price.
 */
export function breakEvenPriceMinor(args: {
  openPriceMinor: Minor;
  shares: number;
  side: Side;
  kind: InstrumentKind;
  fees?: FeeSchedule;
  dayTradeOn?: string;
  discount?: FeeDiscount;
  /** The instrument's tax kind and the trade date (SaleContext). */
  sale?: SaleContext;
}): Minor | null {
  const fees = args.fees ?? DEFAULT_FEES;
  const { openPriceMinor: p0, shares, side, kind, dayTradeOn, discount, sale } = args;
  if (!Number.isSafeInteger(p0) || p0 <= 0) throw new RangeError(`open price must be positive: ${p0}`);
  if (!Number.isSafeInteger(shares) || shares <= 0) {
    throw new RangeError(`shares must be positive: ${shares}`);
  }
  const openValue = notionalMinor(p0, shares);
  const open = legCharges(openValue, side === 'short', kind, fees, dayTradeOn, discount, true, sale);
  const openCost = open.feeMinor + open.taxMinor;
  const net = (p: Minor): Minor => {
    const r = closeResult({
      openValueMinor: openValue,
      closePriceMinor: p,
      shares,
      side,
      kind,
      fees,
      dayTradeOn,
      discount,
      sale,
    });
    return r.pnlMinor - r.feeMinor - r.taxMinor - openCost;
  };
  const up = (p: Minor) => stepTicks(p, 1, kind);
  const down = (p: Minor) => stepTicks(p, -1, kind); // ≥ 1 for any p ≥ 2
  // Float estimate only picks the starting tick; every decision below is on exact integers.
  const feeRate = (fees.commissionPpm + (fees.clearingFeePpm ?? 0)) / 1e6;
  let steps = 0;
  const guard = () => {
    if (++steps > BREAK_EVEN_MAX_STEPS) throw new RangeError('break-even search did not converge');
  };
  if (side === 'long') {
    const taxRate = sellTaxPpm(kind, fees, dayTradeOn, sale) / 1e6;
    const est = (p0 * shares + openCost) / (shares * (1 - feeRate - taxRate));
    let p = ceilToTick(Math.max(1, Math.ceil(est)), kind);
    if (net(p) >= 0) {
      while (p > 1 && net(down(p)) >= 0) {
        p = down(p);
        guard();
      }
    } else {
      while (net(p) < 0) {
        p = up(p);
        guard();
      }
    }
    return p;
  }
  const est = (p0 * shares - openCost) / (shares * (1 + feeRate));
  let p = floorToTick(Math.max(1, Math.floor(est)), kind);
  if (net(p) >= 0) {
    while (net(up(p)) >= 0) {
      p = up(p);
      guard();
    }
  } else {
    while (net(p) < 0) {
      if (p <= 1) return null;
      p = down(p);
      guard();
    }
  }
  return p;
}

/** The order ticket's preview: every figure the order will cost, before the tap. */
export interface OrderPreview {
  /** Price × shares of the opening trade. */
  marketValueMinor: Minor;
  marginMinor: Minor;
  /** Opening trade: commission (after the discount), clearing fee (0 by default ⚠) and tax (short only). */
  commissionMinor: Minor;
  /** What the level discount and the coupon take off the opening commission (0 without). */
  commissionDiscountMinor: Minor;
  clearingFeeMinor: Minor;
  openTaxMinor: Minor;
  /** Expected closing trade at the same price: commission, clearing fee and tax (long only). */
  closeCommissionMinor: Minor;
  closeClearingFeeMinor: Minor;
  closeTaxMinor: Minor;
  /** breakEvenPriceMinor of the resulting position (null: a short that cannot break even). */
  breakEvenPriceMinor: Minor | null;
  /** margin + opening fees + opening tax: openCosts.requiredMinor, what must be available. */
  totalRequiredMinor: Minor;
  /** availableMinor − totalRequiredMinor when the available balance is given, else null. */
  availableAfterMinor: Minor | null;
}

/**
 * The order preview, computed by the functions execution uses: openCosts for the opening trade
 * (margin, fee, tax, required), closeResult for the expected closing trade at the same price,
 * commissionMinor/clearingFeeMinor to split each fee into its parts (their sum is the leg's
 * feeMinor), breakEvenPriceMinor for the break-even. `dayTradeOn`: the position is a same-day day
 * trade, so its sale is taxed at the day-trade rate (sellTaxPpm).
 */
export function orderPreview(args: {
  priceMinor: Minor;
  lots: number;
  leverage: number;
  side: Side;
  kind: InstrumentKind;
  fees?: FeeSchedule;
  dayTradeOn?: string;
  availableMinor?: Minor;
  /** The member's level discount and chosen coupon (FeeDiscount; default none). */
  discount?: FeeDiscount;
  /** The instrument's tax kind and the trade date (SaleContext; default: the kind's base rate). */
  sale?: SaleContext;
}): OrderPreview {
  const fees = args.fees ?? DEFAULT_FEES;
  const { priceMinor, side, kind, dayTradeOn, sale } = args;
  const discount = args.discount ?? NO_DISCOUNT;
  const shares = args.lots * SHARES_PER_LOT;
  const open = openCosts({
    priceMinor,
    lots: args.lots,
    leverage: args.leverage,
    side,
    kind,
    fees,
    dayTradeOn,
    discount,
    sale,
  });
  const close = closeResult({
    openValueMinor: open.notionalMinor,
    closePriceMinor: priceMinor,
    shares,
    side,
    kind,
    fees,
    dayTradeOn,
    discount,
    sale,
  });
  const commission = discountedCommissionMinor(open.notionalMinor, fees, discount, true);
  return {
    marketValueMinor: open.notionalMinor,
    marginMinor: open.marginMinor,
    commissionMinor: commission,
    commissionDiscountMinor: commissionMinor(open.notionalMinor, fees) - commission,
    clearingFeeMinor: clearingFeeMinor(open.notionalMinor, fees),
    openTaxMinor: open.taxMinor,
    closeCommissionMinor: discountedCommissionMinor(close.notionalMinor, fees, discount, false),
    closeClearingFeeMinor: clearingFeeMinor(close.notionalMinor, fees),
    closeTaxMinor: close.taxMinor,
    breakEvenPriceMinor: breakEvenPriceMinor({
      openPriceMinor: priceMinor,
      shares,
      side,
      kind,
      fees,
      dayTradeOn,
      discount,
      sale,
    }),
    totalRequiredMinor: open.requiredMinor,
    availableAfterMinor: args.availableMinor === undefined ? null : args.availableMinor - open.requiredMinor,
  };
}

/**
 * Mark-to-market P&L of an open position at the current price (minor): mark × shares − open
 * value (Σ fill price × shares, kept through corporate actions), negated for a short.
 */
export function unrealisedPnlMinor(
  side: Side,
  openValueMinor: Minor,
  markMinor: Minor,
  shares: number,
): Minor {
  const diff = notionalMinor(markMinor, shares) - openValueMinor;
  return side === 'long' ? diff : -diff;
}
