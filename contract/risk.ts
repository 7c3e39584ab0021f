/**
 * Margin and risk arithmetic, shared by the server's risk monitor and the client's position
 * screens, so both show the same ratio and liquidation price. Pure and zod-free.
 *
 * Units: money and prices in TWD minor units (1 NT$ = 100), quantities in shares, ratios and
 * thresholds in basis points (1 % = 100 bps; 130 % = 13,000 bps). Rounding only through
 * contract/money.ts (mulDivFloor, mulDivCeil); ticks through contract/market-rules.ts.
 *
 * Definitions (the product's, ⚠ not an exchange formula — see below):
 * - **used margin** of a position: its `marginMinor` (what the open moved to the member's ledger
 *   `margin` account: notional ÷ leverage, rounded up); of the account: the sum over holdings,
 *   which equals the ledger `margin` balance.
 * - **unrealised P&L**: contract/market-rules.ts `unrealisedPnlMinor` at the mark — the live
 *   quote's last trade price (`Quote.lastMinor`), the price the position screens show. Closing
 *   fees and tax are not deducted (they are charged when the close happens).
 * - **position equity** = margin + unrealised P&L; **position ratio** = ⌊position equity ×
 *   10,000 ÷ margin⌋ bps (10,000 at the opening price: what share of its margin the position
 *   still holds). Shown per position; the thresholds do not apply to it.
 * - **account equity** = available + debt + Σ margin + Σ unrealised P&L. `debt` is the ledger
 *   debt balance (≤ 0: what the member owes after a loss beyond their funds). Frozen funds
 *   (reserved for pending orders and their fees) are left out: they are not collateral for the
 *   open positions (⚠ product choice, the conservative side).
 * - **account ratio** (maintenance ratio) = ⌊account equity × 10,000 ÷ account used margin⌋
 *   bps, rounded down (toward a call, never away from it); null with no open position.
 * - **margin call** when ratio < MARGIN_CALL_BPS (cleared at MARGIN_CALL_BPS + 500 bps, see
 *   nextMarginCallState); **liquidation** while ratio < MAINTENANCE_BPS. Exactly at a threshold
 *   is not below it. Integer form used everywhere: ratio < K ⇔ equity <
 *   ⌈K × used margin ÷ 10,000⌉ (the required equity), so the floor of the ratio never flips a
 *   decision.
 * - **liquidation price** of a position: the price of that position's instrument at which the
 *   account ratio falls below maintenance while everything else (balances, the other positions'
 *   marks) stays as it is now — cross margin: the free balance backs every position. Snapped to
 *   the tick table on the side where liquidation certainly happens: for a long the highest valid
 *   price at which the account is below maintenance (any trade at or under it liquidates), for a
 *   short the lowest valid price at or above which it is. null when no positive price liquidates
 *   a long (its loss is bounded by its price reaching zero).
 *
 * Thresholds: TW-MARKET-RULES "Maintenance call" (TWSE Margin Operating Rules Art. 54) calls an
 * account below 130 %, whence MARGIN_CALL_BPS = 13,000. The TWSE ratio is collateral value ÷ loan;
 * here it is equity ÷ used margin (this platform lends by leverage, it does not finance stock), so
 * the number is the rule's, the base is the product's (⚠). TWSE forces a sale when a call is not
 * met within 2 business days; this platform liquidates at once below MAINTENANCE_BPS = 11,000
 * (⚠ product choice: no source in the rules document).
 */
import { ceilToTick, floorToTick, unrealisedPnlMinor, type InstrumentKind, type Side } from './market-rules';
import { mulDivCeil, mulDivFloor, notionalMinor, type Minor } from './money';

/** Basis points in one (100 %). */
export const BPS = 10_000;
/** Default margin-call threshold: 130 % (TW-MARKET-RULES "Maintenance call"; ⚠ base differs, see module). */
export const DEFAULT_MARGIN_CALL_BPS = 13_000;
/** Default forced-liquidation threshold: 110 % (⚠ product choice, no source). */
export const DEFAULT_MAINTENANCE_BPS = 11_000;

/**
 * What an opening order must leave available besides its costs, so that it does not open the
 * account below `openingMarginBps` of its own margin: margin × (openingMarginBps − 100 %),
 * rounded up to the minor unit; 0 at or below 100 %. With the default (the margin-call
 * threshold, 130 %) no order opens into a margin call, let alone a liquidation (⚠ product choice:
 * the rules document has no initial-margin rule for this product; a broker would not let an order
 * be liquidated at the next quote). Units: minor (TWD), basis points.
 */
export function openingReserveMinor(marginMinor: Minor, openingMarginBps: number): Minor {
  return openingMarginBps <= BPS ? 0 : mulDivCeil(marginMinor, openingMarginBps - BPS, BPS);
}

/** The two thresholds, in basis points of equity ÷ used margin. */
export interface RiskThresholds {
  marginCallBps: number;
  maintenanceBps: number;
}

export const DEFAULT_RISK_THRESHOLDS: RiskThresholds = {
  marginCallBps: DEFAULT_MARGIN_CALL_BPS,
  maintenanceBps: DEFAULT_MAINTENANCE_BPS,
};

/** none: no open position; ok; marginCall: below the call threshold; liquidation: below maintenance. */
export type RiskLevel = 'none' | 'ok' | 'marginCall' | 'liquidation';

/**
 * ⌊equity × 10,000 ÷ used margin⌋ in bps; null when nothing is used (no open position).
 * Negative when equity is.
 */
export function ratioBps(equityMinor: Minor, usedMarginMinor: Minor): number | null {
  if (usedMarginMinor <= 0) return null;
  return mulDivFloor(equityMinor, BPS, usedMarginMinor);
}

/**
 * The least equity that keeps `usedMarginMinor` at or above `thresholdBps`:
 * ⌈threshold × used margin ÷ 10,000⌉. ratio < threshold ⇔ equity < requiredEquity.
 */
export function requiredEquityMinor(usedMarginMinor: Minor, thresholdBps: number): Minor {
  return mulDivCeil(usedMarginMinor, thresholdBps, BPS);
}

/** The level of a ratio against the thresholds (strictly below a threshold crosses it). */
export function riskLevel(ratio: number | null, t: RiskThresholds): RiskLevel {
  if (ratio === null) return 'none';
  if (ratio < t.maintenanceBps) return 'liquidation';
  if (ratio < t.marginCallBps) return 'marginCall';
  return 'ok';
}

/**
 * A margin call clears only once the ratio is back at least this far above the call threshold
 * (500 bps = 5 percentage points: 135 % with the default 130 %), so a one-tick bounce around the
 * threshold does not send the member a stream of notices (⚠ product choice).
 */
export const MARGIN_CALL_CLEAR_BAND_BPS = 500;

/**
 * The margin-call state after a new ratio: raised when the ratio is below the call threshold;
 * once raised, cleared when the ratio is at or above threshold + MARGIN_CALL_CLEAR_BAND_BPS or
 * nothing is held (ratio null). A change of state is one notice (marginCall / marginCallCleared).
 */
export function nextMarginCallState(active: boolean, ratio: number | null, t: RiskThresholds): boolean {
  if (ratio === null) return false;
  if (ratio < t.marginCallBps) return true;
  return active && ratio < t.marginCallBps + MARGIN_CALL_CLEAR_BAND_BPS;
}

/**
 * The liquidation price of one position (see the module docstring), given the account's equity
 * without this position's unrealised P&L (`otherEquityMinor`: available + debt + Σ margin + the
 * other positions' unrealised P&L) and the account's used margin.
 *
 * Long: liquidated ⇔ other + P × shares − open value < required ⇔ P ≤ ⌊(required − other + open
 * value − 1) ÷ shares⌋, then down to a tick. Short: other + open value − P × shares < required ⇔
 * P ≥ ⌊(other − required + open value) ÷ shares⌋ + 1, then up to a tick.
 * @returns minor units on the tick table, or null (a long no positive price liquidates).
 */
export function liquidationPriceMinor(args: {
  side: Side;
  /** The position's open value (Σ fill price × shares, minor; kept through corporate actions). */
  openValueMinor: Minor;
  shares: number;
  kind: InstrumentKind;
  otherEquityMinor: Minor;
  usedMarginMinor: Minor;
  maintenanceBps: number;
}): Minor | null {
  const { side, openValueMinor: openValue, shares, kind, otherEquityMinor } = args;
  if (!Number.isSafeInteger(shares) || shares <= 0)
    throw new RangeError(`shares must be positive: ${shares}`);
  const required = requiredEquityMinor(args.usedMarginMinor, args.maintenanceBps);
  if (side === 'long') {
    const highest = mulDivFloor(required - otherEquityMinor + openValue - 1, 1, shares);
    if (highest < 1) return null;
    return floorToTick(highest, kind);
  }
  const lowest = mulDivFloor(otherEquityMinor - required + openValue, 1, shares) + 1;
  return ceilToTick(Math.max(1, lowest), kind);
}

/**
 * Open positions of one instrument and side, summed (what a GROUP BY over the orders gives):
 * unrealised P&L is linear in the mark, so Σ unrealisedPnlMinor over the positions equals
 * side × (mark × shares − openValue) of the sum.
 */
export interface RiskExposureInput {
  side: Side;
  shares: number;
  /** Σ open price × shares (minor). */
  openValueMinor: Minor;
  marginMinor: Minor;
  markMinor: Minor;
}

/** The account-level figures of accountRisk, from summed exposures (no per-position figures). */
export interface AccountRatio {
  usedMarginMinor: Minor;
  unrealisedPnlMinor: Minor;
  equityMinor: Minor;
  ratioBps: number | null;
  level: RiskLevel;
}

/**
 * The account ratio from summed exposures: the same equity, ratio and level as accountRisk for
 * the positions summed (the risk monitor's cheap path: one aggregate row per instrument and side).
 */
export function accountRatio(args: {
  availableMinor: Minor;
  debtMinor: Minor;
  exposures: readonly RiskExposureInput[];
  thresholds: RiskThresholds;
}): AccountRatio {
  let used = 0;
  let unrealised = 0;
  for (const e of args.exposures) {
    const value = notionalMinor(e.markMinor, e.shares) - e.openValueMinor;
    unrealised += e.side === 'long' ? value : -value;
    used += e.marginMinor;
  }
  const equity = args.availableMinor + args.debtMinor + used + unrealised;
  const ratio = ratioBps(equity, used);
  return {
    usedMarginMinor: used,
    unrealisedPnlMinor: unrealised,
    equityMinor: equity,
    ratioBps: ratio,
    level: riskLevel(ratio, args.thresholds),
  };
}

/** One open position as the risk functions need it. */
export interface RiskPositionInput {
  id: number;
  side: Side;
  kind: InstrumentKind;
  /** Σ fill price × shares (minor; kept through corporate actions). */
  openValueMinor: Minor;
  shares: number;
  marginMinor: Minor;
  /** The live quote's last price (minor, > 0). */
  markMinor: Minor;
}

/** Risk figures of one position. */
export interface PositionRisk {
  id: number;
  markMinor: Minor;
  unrealisedPnlMinor: Minor;
  /** margin + unrealised P&L. */
  equityMinor: Minor;
  /** Position alone: ⌊equity × 10,000 ÷ margin⌋ bps (10,000 at the opening price). */
  ratioBps: number;
  liquidationPriceMinor: Minor | null;
}

/** Risk figures of an account. */
export interface AccountRisk {
  usedMarginMinor: Minor;
  unrealisedPnlMinor: Minor;
  /** available + debt + Σ margin + Σ unrealised P&L. */
  equityMinor: Minor;
  ratioBps: number | null;
  level: RiskLevel;
  /** Equity below which the account is called / liquidated (⌈threshold × used ÷ 10,000⌉). */
  marginCallEquityMinor: Minor;
  maintenanceEquityMinor: Minor;
  positions: PositionRisk[];
}

/**
 * Account and per-position risk at the given marks (module docstring for every definition).
 * @param availableMinor ledger `available` balance (≥ 0)
 * @param debtMinor ledger `debt` balance (≤ 0)
 * @throws RangeError on a non-integer amount or a position without a positive mark or margin
 */
export function accountRisk(args: {
  availableMinor: Minor;
  debtMinor: Minor;
  positions: readonly RiskPositionInput[];
  thresholds: RiskThresholds;
}): AccountRisk {
  const { positions, thresholds } = args;
  let used = 0;
  let unrealised = 0;
  const pnl: number[] = [];
  for (const p of positions) {
    if (!Number.isSafeInteger(p.markMinor) || p.markMinor <= 0)
      throw new RangeError(`position ${p.id}: mark must be a positive integer: ${p.markMinor}`);
    if (!Number.isSafeInteger(p.marginMinor) || p.marginMinor <= 0)
      throw new RangeError(`position ${p.id}: margin must be a positive integer: ${p.marginMinor}`);
    const u = unrealisedPnlMinor(p.side, p.openValueMinor, p.markMinor, p.shares);
    pnl.push(u);
    used += p.marginMinor;
    unrealised += u;
  }
  const equity = args.availableMinor + args.debtMinor + used + unrealised;
  const ratio = ratioBps(equity, used);
  return {
    usedMarginMinor: used,
    unrealisedPnlMinor: unrealised,
    equityMinor: equity,
    ratioBps: ratio,
    level: riskLevel(ratio, thresholds),
    marginCallEquityMinor: requiredEquityMinor(used, thresholds.marginCallBps),
    maintenanceEquityMinor: requiredEquityMinor(used, thresholds.maintenanceBps),
    positions: positions.map((p, i) => {
      const u = pnl[i]!;
      return {
        id: p.id,
        markMinor: p.markMinor,
        unrealisedPnlMinor: u,
        equityMinor: p.marginMinor + u,
        ratioBps: ratioBps(p.marginMinor + u, p.marginMinor)!,
        liquidationPriceMinor: liquidationPriceMinor({
          side: p.side,
          openValueMinor: p.openValueMinor,
          shares: p.shares,
          kind: p.kind,
          otherEquityMinor: equity - u,
          usedMarginMinor: used,
          maintenanceBps: thresholds.maintenanceBps,
        }),
      };
    }),
  };
}

/**
 * The order in which a forced liquidation closes positions: largest unrealised loss first
 * (most negative P&L), ties by lower id (the older position). Returns position ids.
 */
export function liquidationOrder(
  positions: readonly Pick<PositionRisk, 'id' | 'unrealisedPnlMinor'>[],
): number[] {
  return [...positions]
    .sort((a, b) => a.unrealisedPnlMinor - b.unrealisedPnlMinor || a.id - b.id)
    .map((p) => p.id);
}
