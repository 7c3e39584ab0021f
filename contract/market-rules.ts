/**
 * Taiwan market rules shared by the server's execution and the client's order preview, so both
 * compute the same figures to the cent. Every rule cites its row in
 * `../shared/design/TW-MARKET-RULES.md` (copied to docs in the repo README).
 *
 * Units: prices and amounts in TWD minor units (1 NT$ = 100), quantities in shares, rates in
 * parts per million. Rounding goes through contract/money.ts only.
 */
import { divCeil, notionalMinor, ppmFloorToMajor, type Minor } from './money';

/** Instrument kinds whose tick tables differ (TW-MARKET-RULES "Tick size, stocks" / "Tick size, ETFs"). */
export type InstrumentKind = 'stock' | 'etf';

/** 1 lot = 1,000 shares (TW-MARKET-RULES "Trading unit", TWSE Operating Rules Art. 60). */
export const SHARES_PER_LOT = 1000;

/** Largest order in lots accepted by this platform (a sanity cap, not an exchange rule). */
export const MAX_LOTS_PER_ORDER = 499;

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

/** Fee schedule in ppm; defaults from TW-MARKET-RULES ("Commission", "Securities transaction tax"). */
export interface FeeSchedule {
  /** Commission rate on each side: 0.1425 % = 1,425 ppm. */
  commissionPpm: number;
  /** Minimum commission per order: NT$20 (⚠ broker practice). */
  commissionMinMinor: Minor;
  /** Seller's securities transaction tax: stocks 0.3 %. */
  taxStockPpm: number;
  /** Seller's securities transaction tax: ETFs 0.1 %. */
  taxEtfPpm: number;
}

export const DEFAULT_FEES: FeeSchedule = {
  commissionPpm: 1_425,
  commissionMinMinor: 2_000,
  taxStockPpm: 3_000,
  taxEtfPpm: 1_000,
};

/** Commission for one order's traded value: max(floor-to-NT$(value × rate), minimum). */
export function commissionMinor(valueMinor: Minor, fees: FeeSchedule = DEFAULT_FEES): Minor {
  return Math.max(ppmFloorToMajor(valueMinor, fees.commissionPpm), fees.commissionMinMinor);
}

/** Securities transaction tax, charged on the selling side only. */
export function sellTaxMinor(
  valueMinor: Minor,
  kind: InstrumentKind,
  fees: FeeSchedule = DEFAULT_FEES,
): Minor {
  return ppmFloorToMajor(valueMinor, kind === 'etf' ? fees.taxEtfPpm : fees.taxStockPpm);
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
 * to the minor unit; commission on the opening trade; tax when the opening trade is a sale (short).
 */
export function openCosts(args: {
  priceMinor: Minor;
  lots: number;
  leverage: number;
  side: Side;
  kind: InstrumentKind;
  fees?: FeeSchedule;
}): OpenCosts {
  const fees = args.fees ?? DEFAULT_FEES;
  const notional = notionalMinor(args.priceMinor, args.lots * SHARES_PER_LOT);
  const margin = divCeil(notional, args.leverage);
  const fee = commissionMinor(notional, fees);
  const tax = args.side === 'short' ? sellTaxMinor(notional, args.kind, fees) : 0;
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

/** Closing a long is a sale (tax due); closing a short is a buy. P&L is price difference × shares. */
export function closeResult(args: {
  openPriceMinor: Minor;
  closePriceMinor: Minor;
  shares: number;
  side: Side;
  kind: InstrumentKind;
  fees?: FeeSchedule;
}): CloseResult {
  const fees = args.fees ?? DEFAULT_FEES;
  const notional = notionalMinor(args.closePriceMinor, args.shares);
  const diff = (args.closePriceMinor - args.openPriceMinor) * args.shares;
  const pnl = args.side === 'long' ? diff : -diff;
  const fee = commissionMinor(notional, fees);
  const tax = args.side === 'long' ? sellTaxMinor(notional, args.kind, fees) : 0;
  return { notionalMinor: notional, pnlMinor: pnl, feeMinor: fee, taxMinor: tax };
}

/** Mark-to-market P&L of an open position at the current price (minor). */
export function unrealisedPnlMinor(
  side: Side,
  openPriceMinor: Minor,
  markMinor: Minor,
  shares: number,
): Minor {
  const diff = (markMinor - openPriceMinor) * shares;
  return side === 'long' ? diff : -diff;
}
