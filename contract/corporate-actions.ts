/**
 * Corporate actions on open positions and resting orders: the pure arithmetic (the server's
 * server/modules/corporate-actions applies it to the database; the account-risk fuzz calls it
 * directly). Rules: docs/tw-market-rules.md "Split and face-value change on open positions",
 * "Stock dividend on open positions"; docs/adr/0002-corporate-actions-on-open-positions.md.
 *
 * A unit change is a rational `ShareRatio`: `newShares` new shares for every `oldShares` held
 * (a 1:4 split 4/1, a NT$10 → NT$1 face-value change 10/1, a capital reduction 7/10). It changes
 * the units, never the value:
 * - a position's share count is multiplied by the ratio, its open value (Σ fill price × shares,
 *   the cost every P&L is computed from) and its margin are unchanged, so the average price
 *   (open value ÷ shares, shown rounded) and the liquidation price follow;
 * - a fraction of a new share (only a ratio with oldShares > 1 makes one) is paid in cash at the
 *   day's reference price, rounded half away from zero to the minor unit (contract/money.ts
 *   mulDivRound; ⚠ product choice, as a broker sells fractional entitlements): the fraction's
 *   share of the open value leaves the position and the difference is realised P&L;
 * - a resting limit order keeps its frozen funds: shares × ratio (whole lots only) and its limit
 *   price × oldShares ÷ newShares snapped to the tick table on the member's side (a buy down, a
 *   sell up: the order never trades at a worse value than the member asked for); an order that
 *   would need a fraction of a lot or a price below one tick is cancelled instead.
 *
 * Units: money and prices TWD minor (1 NT$ = 100), quantities shares. Pure, zod-free.
 */
import { ceilToTick, floorToTick, SHARES_PER_LOT, type InstrumentKind, type Side } from './market-rules';
import { mulDivCeil, mulDivFloor, mulDivRound, notionalMinor, type Minor } from './money';

/** `newShares` new shares for every `oldShares` held; both positive safe integers. */
export interface ShareRatio {
  oldShares: number;
  newShares: number;
}

/** Throws RangeError unless both sides of the ratio are positive safe integers. */
export function assertRatio(r: ShareRatio): void {
  for (const n of [r.oldShares, r.newShares])
    if (!Number.isSafeInteger(n) || n <= 0)
      throw new RangeError(`share ratio must be positive integers: ${n}`);
}

/** The ratio that undoes `r` (the replay window starting over before a split). */
export function inverseRatio(r: ShareRatio): ShareRatio {
  return { oldShares: r.newShares, newShares: r.oldShares };
}

/** "1:4" (old:new) for notices and records. */
export function ratioLabel(r: ShareRatio): string {
  return `${r.oldShares}:${r.newShares}`;
}

/**
 * The `lots` column of a row holding `shares`: whole lots, at least 1 (the orders table requires
 * lots > 0; a position of a share count that is not a multiple of SHARES_PER_LOT shows its shares).
 */
export function lotsOfShares(shares: number): number {
  return Math.max(1, Math.floor(shares / SHARES_PER_LOT));
}

/** An open position as the adjustment needs it. */
export interface PositionUnits {
  side: Side;
  shares: number;
  /** Σ fill price × shares (minor): what every P&L is computed from. */
  openValueMinor: Minor;
  marginMinor: Minor;
}

/** A position after a unit change. */
export interface PositionAdjustment {
  /** Whole new shares kept (0: the whole position became a fraction and is paid in cash). */
  shares: number;
  lots: number;
  /** Open value kept: the old one less `fractionCostMinor`. */
  openValueMinor: Minor;
  /** Unchanged (the margin the member posted). */
  marginMinor: Minor;
  /** The fraction of a new share paid in cash, as fractionNumerator ÷ oldShares (0 when exact). */
  fractionNumerator: number;
  /** The fraction at the reference price, rounded (what the fraction is worth). */
  cashInLieuMinor: Minor;
  /** The fraction's part of the open value (rounded), taken out of the position. */
  fractionCostMinor: Minor;
  /** Realised on the fraction, from the member's side: long cash − cost, short cost − cash. */
  realisedPnlMinor: Minor;
}

/**
 * The position after `ratio` with the day's reference price `referenceMinor` (per new share, the
 * price the fraction is paid at). Exact: shares × newShares = kept × oldShares + fraction
 * numerator; open value = kept open value + fraction cost.
 * @throws RangeError on a bad ratio, non-positive shares or reference, or a non-safe product.
 */
export function adjustPosition(
  p: PositionUnits,
  ratio: ShareRatio,
  referenceMinor: Minor,
): PositionAdjustment {
  assertRatio(ratio);
  if (!Number.isSafeInteger(p.shares) || p.shares <= 0)
    throw new RangeError(`shares must be positive: ${p.shares}`);
  if (!Number.isSafeInteger(referenceMinor) || referenceMinor <= 0)
    throw new RangeError(`reference must be positive: ${referenceMinor}`);
  const total = notionalMinor(p.shares, ratio.newShares); // new shares × oldShares, exactly
  const kept = mulDivFloor(p.shares, ratio.newShares, ratio.oldShares);
  const rem = total - kept * ratio.oldShares;
  if (rem === 0)
    return {
      shares: kept,
      lots: lotsOfShares(kept),
      openValueMinor: p.openValueMinor,
      marginMinor: p.marginMinor,
      fractionNumerator: 0,
      cashInLieuMinor: 0,
      fractionCostMinor: 0,
      realisedPnlMinor: 0,
    };
  const cash = mulDivRound(rem, referenceMinor, ratio.oldShares);
  // The fraction's part of the open value: open value × (rem / oldShares) ÷ (total / oldShares).
  const cost = kept === 0 ? p.openValueMinor : mulDivRound(p.openValueMinor, rem, total);
  return {
    shares: kept,
    lots: lotsOfShares(kept),
    openValueMinor: p.openValueMinor - cost,
    marginMinor: p.marginMinor,
    fractionNumerator: rem,
    cashInLieuMinor: cash,
    fractionCostMinor: cost,
    realisedPnlMinor: p.side === 'long' ? cash - cost : cost - cash,
  };
}

/** A resting limit order as the adjustment needs it. */
export interface RestingUnits {
  side: Side;
  shares: number;
  limitPriceMinor: Minor;
}

/** A resting order after a unit change: re-priced, or cancelled with the reason. */
export type RestingAdjustment =
  | { outcome: 'adjusted'; shares: number; lots: number; limitPriceMinor: Minor }
  | { outcome: 'cancelled'; reason: 'oddLot' | 'belowTick' };

/**
 * The resting order after `ratio` (module docstring): shares × ratio when that is a whole number
 * of lots, limit × oldShares ÷ newShares floored (buy) or ceiled (sell) to a valid price of
 * `kind`'s tick table; otherwise cancelled.
 * @throws RangeError on a bad ratio or non-positive shares or price.
 */
export function adjustRestingOrder(
  o: RestingUnits,
  ratio: ShareRatio,
  kind: InstrumentKind,
): RestingAdjustment {
  assertRatio(ratio);
  if (!Number.isSafeInteger(o.shares) || o.shares <= 0)
    throw new RangeError(`shares must be positive: ${o.shares}`);
  if (!Number.isSafeInteger(o.limitPriceMinor) || o.limitPriceMinor <= 0)
    throw new RangeError(`limit must be positive: ${o.limitPriceMinor}`);
  const total = notionalMinor(o.shares, ratio.newShares);
  if (total % ratio.oldShares !== 0) return { outcome: 'cancelled', reason: 'oddLot' };
  const shares = total / ratio.oldShares;
  if (shares % SHARES_PER_LOT !== 0) return { outcome: 'cancelled', reason: 'oddLot' };
  const limit =
    o.side === 'long'
      ? floorToTick(mulDivFloor(o.limitPriceMinor, ratio.oldShares, ratio.newShares), kind)
      : ceilToTick(mulDivCeil(o.limitPriceMinor, ratio.oldShares, ratio.newShares), kind);
  if (limit < 1) return { outcome: 'cancelled', reason: 'belowTick' };
  return { outcome: 'adjusted', shares, lots: shares / SHARES_PER_LOT, limitPriceMinor: limit };
}

/** Shares of a loan or a borrow after `ratio`: whole shares, the fraction dropped (0 ends it). */
export function adjustLentShares(shares: number, ratio: ShareRatio): number {
  assertRatio(ratio);
  return mulDivFloor(shares, ratio.newShares, ratio.oldShares);
}

/**
 * The ex-rights value of a stock-dividend event settled in cash (docs/adr/0002): (close before −
 * reference) × shares, received by a long and paid by a short; 0 when the reference is not below
 * the close before (a rights issue priced above the market distributes nothing). Signed from the
 * member's side. Exact (prices in minor units).
 */
export function exRightsCashMinor(
  side: Side,
  shares: number,
  closeBeforeMinor: Minor,
  referenceMinor: Minor,
): Minor {
  if (closeBeforeMinor <= referenceMinor) return 0;
  const v = notionalMinor(closeBeforeMinor - referenceMinor, shares);
  return side === 'long' ? v : -v;
}

/** Position value at `priceMinor` from the member's side: long shares × price, short −shares × price. */
export function positionValueMinor(side: Side, shares: number, priceMinor: Minor): Minor {
  const v = notionalMinor(priceMinor, shares);
  return side === 'long' ? v : -v;
}

/**
 * What an action is, per session it applies on: `split` a unit change from the split table
 * (splits, reverse splits, face-value changes), `windowRestart` its inverse when the replay window
 * starts over before it, `exRights` a stock-dividend event's ex-rights value settled in cash.
 */
export const CORPORATE_ACTION_KINDS = ['split', 'windowRestart', 'exRights'] as const;
export type CorporateActionKind = (typeof CORPORATE_ACTION_KINDS)[number];
/** What an adjustment touched: an open position or a resting order. */
export const CORPORATE_ACTION_TARGETS = ['position', 'order'] as const;
/**
 * What happened to it: `adjusted` (units changed), `cancelled` (a resting order that could not be
 * adjusted exactly), `settled` (ex-rights value paid or charged), `paidOut` (a position smaller
 * than one new share, paid in cash and closed).
 */
export const CORPORATE_ACTION_OUTCOMES = ['adjusted', 'cancelled', 'settled', 'paidOut'] as const;
export type CorporateActionOutcome = (typeof CORPORATE_ACTION_OUTCOMES)[number];
