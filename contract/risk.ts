/**
 * Margin and risk arithmetic, shared by the server's risk monitor and order entry and by the
 * client's order ticket and position screens, so all of them show and decide the same figures.
 * Pure and zod-free. The model and its reasons: docs/adr/0001-account-risk-model.md.
 *
 * Units: money and prices in TWD minor units (1 NT$ = 100), quantities in shares, ratios and
 * thresholds in basis points (1 % = 100 bps; 130 % = 13,000 bps). Rounding only through
 * contract/money.ts (mulDivFloor, mulDivCeil); ticks through contract/market-rules.ts.
 *
 * Two kinds of position (isCashHolding):
 * - a **cash holding** (現股): a long at 1× leverage, paid in full (its `marginMinor` is the whole
 *   price). It is the member's property: never margin-called, never liquidated, no liquidation
 *   price, and neither its cost nor its value counts in the account's risk figures below.
 * - a **margined position**: a short (at any leverage) or a long above 1×. Its `marginMinor` is
 *   what the open moved into the ledger `margin` account (notional ÷ leverage, rounded up).
 *
 * Definitions (the product's, ⚠ not an exchange formula — see below), over margined positions:
 * - **used margin**: Σ marginMinor.
 * - **unrealised P&L**: side × (mark × shares − open value), at the mark = the live quote's last
 *   trade price. Closing fees and tax are not deducted (they are charged when the close happens).
 *   The open value is Σ fill price × shares (what a corporate action leaves unchanged).
 * - **account equity** = available + frozen for resting orders + debt + used margin + unrealised
 *   P&L: every unit of the member's own money in the account. `debt` (≤ 0) is what the member owes
 *   after a loss beyond their funds. Frozen funds of other kinds (a pending withdrawal, an IPO
 *   application) are not counted: they are on their way out.
 * - **account ratio** (maintenance ratio) = ⌊equity × 10,000 ÷ used margin⌋ bps, rounded down
 *   (toward a call, never away from it); null without a margined position.
 * - **margin call** when ratio < MARGIN_CALL_BPS (cleared at MARGIN_CALL_BPS + 500 bps, see
 *   nextMarginCallState): the member has MARGIN_CALL_GRACE_DAYS trading days to act; a call still
 *   open after them is met by forced sales (marginCallDue). **Liquidation** at once while
 *   ratio < MAINTENANCE_BPS. Exactly at a threshold is not below it. Integer form used
 *   everywhere: ratio < K ⇔ equity < ⌈K × used margin ÷ 10,000⌉ (the required equity).
 * - **position ratio** = ⌊(margin + unrealised) × 10,000 ÷ margin⌋: what share of its margin one
 *   position still holds. Shown per position; no threshold applies to it.
 * - **liquidation price** of a margined position: the price of its instrument at which the
 *   account ratio falls below maintenance while everything else stays as it is now. Snapped to
 *   the tick table on the side where liquidation certainly happens. null for a cash holding, and
 *   for a long no positive price liquidates.
 * - **opening check** (openingCheck): an order is accepted only when the account, after it and
 *   after every resting order filled at its limit, is at or above the opening line
 *   (OPENING_MARGIN_BPS, default the margin-call threshold), at the price of acceptance.
 *
 * Thresholds: TW-MARKET-RULES "Maintenance call" (TWSE Margin Operating Rules Art. 54: below
 * 130 % a margin call, to be met within 2 business days, else the position is disposed of), whence
 * MARGIN_CALL_BPS = 13,000 and MARGIN_CALL_GRACE_DAYS = 2. The TWSE ratio is collateral value ÷
 * loan; here it is equity ÷ used margin (this platform lends by leverage, it does not finance
 * stock), so the number is the rule's, the base is the product's (⚠). MAINTENANCE_BPS = 11,000,
 * below which positions are sold at once, is a product choice (⚠ no source in the rules).
 */
import { ceilToTick, floorToTick, type InstrumentKind, type Side } from './market-rules';
import { mulDivCeil, mulDivFloor, notionalMinor, type Minor } from './money';

/** Basis points in one (100 %). */
export const BPS = 10_000;
/** Default margin-call threshold: 130 % (TW-MARKET-RULES "Maintenance call"; ⚠ base differs, see module). */
export const DEFAULT_MARGIN_CALL_BPS = 13_000;
/** Default forced-liquidation threshold: 110 % (⚠ product choice, no source). */
export const DEFAULT_MAINTENANCE_BPS = 11_000;
/** Trading days a margin call gives the member to act (TW-MARKET-RULES "Maintenance call": 2 business days). */
export const DEFAULT_MARGIN_CALL_GRACE_DAYS = 2;

/** Whether a position is a cash holding (a long at 1×, paid in full) rather than margined. */
export function isCashHolding(p: { side: Side; leverage: number }): boolean {
  return p.side === 'long' && p.leverage === 1;
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

/** none: no margined position; ok; marginCall: below the call threshold; liquidation: below maintenance. */
export type RiskLevel = 'none' | 'ok' | 'marginCall' | 'liquidation';

/**
 * ⌊equity × 10,000 ÷ used margin⌋ in bps; null when nothing is used (no margined position).
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
 * nothing margined is held (ratio null). A change of state is one notice.
 */
export function nextMarginCallState(active: boolean, ratio: number | null, t: RiskThresholds): boolean {
  if (ratio === null) return false;
  if (ratio < t.marginCallBps) return true;
  return active && ratio < t.marginCallBps + MARGIN_CALL_CLEAR_BAND_BPS;
}

/**
 * The first trading session on which a margin call raised in session `calledSession` and still
 * open is met by forced sales: the member has the `graceDays` sessions after the call's own to act
 * (TW-MARKET-RULES "Maintenance call"). Sessions are the market clock's trading-day numbers.
 */
export function marginCallSaleSession(calledSession: number, graceDays: number): number {
  return calledSession + graceDays + 1;
}

/**
 * The liquidation price of one margined position (see the module docstring), given the account's
 * equity without this position's unrealised P&L (`otherEquityMinor`) and the used margin.
 *
 * Long: liquidated ⇔ other + P × shares − open value < required ⇔ P ≤ ⌊(required − other + open
 * value − 1) ÷ shares⌋, then down to a tick. Short: other + open value − P × shares < required ⇔
 * P ≥ ⌊(other − required + open value) ÷ shares⌋ + 1, then up to a tick.
 * @returns minor units on the tick table, or null (a long no positive price liquidates).
 * @throws RangeError on a non-positive share count
 */
export function liquidationPriceMinor(args: {
  side: Side;
  /** Σ fill price × shares (minor). */
  openValueMinor: Minor;
  shares: number;
  kind: InstrumentKind;
  otherEquityMinor: Minor;
  usedMarginMinor: Minor;
  maintenanceBps: number;
}): Minor | null {
  const { side, openValueMinor, shares, kind, otherEquityMinor } = args;
  if (!Number.isSafeInteger(shares) || shares <= 0)
    throw new RangeError(`shares must be positive: ${shares}`);
  const required = requiredEquityMinor(args.usedMarginMinor, args.maintenanceBps);
  if (side === 'long') {
    const highest = mulDivFloor(required - otherEquityMinor + openValueMinor - 1, 1, shares);
    if (highest < 1) return null;
    return floorToTick(highest, kind);
  }
  const lowest = mulDivFloor(otherEquityMinor - required + openValueMinor, 1, shares) + 1;
  return ceilToTick(Math.max(1, lowest), kind);
}

/** side × (mark × shares − open value): unrealised P&L of a position or of positions summed. */
export function unrealisedMinor(side: Side, markMinor: Minor, shares: number, openValueMinor: Minor): Minor {
  const diff = notionalMinor(markMinor, shares) - openValueMinor;
  return side === 'long' ? diff : -diff;
}

/**
 * Open positions of one instrument, side and kind (cash or margined), summed: unrealised P&L is
 * linear in the mark, so the sum's equals the positions' sum.
 */
export interface RiskExposureInput {
  side: Side;
  /** A cash holding (isCashHolding): left out of every figure. */
  cash: boolean;
  shares: number;
  /** Σ fill price × shares (minor). */
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

/** The collateral besides positions: available, frozen for resting orders (≥ 0) and debt (≤ 0). */
export interface RiskCollateral {
  availableMinor: Minor;
  /** Funds frozen for the pool's resting orders (margin + fee + tax at their limits). */
  frozenForOrdersMinor: Minor;
  debtMinor: Minor;
}

/**
 * The account ratio from summed exposures: the same equity, ratio and level as accountRisk for
 * the positions summed (the risk monitor's cheap path: one aggregate row per instrument and side).
 */
export function accountRatio(
  args: RiskCollateral & {
    exposures: readonly RiskExposureInput[];
    thresholds: RiskThresholds;
  },
): AccountRatio {
  let used = 0;
  let unrealised = 0;
  for (const e of args.exposures) {
    if (e.cash) continue;
    unrealised += unrealisedMinor(e.side, e.markMinor, e.shares, e.openValueMinor);
    used += e.marginMinor;
  }
  const equity = args.availableMinor + args.frozenForOrdersMinor + args.debtMinor + used + unrealised;
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
  leverage: number;
  /** Σ fill price × shares (minor). */
  openValueMinor: Minor;
  shares: number;
  marginMinor: Minor;
  /** The live quote's last price (minor, > 0). */
  markMinor: Minor;
}

/** Risk figures of one position. */
export interface PositionRisk {
  id: number;
  /** A cash holding: no liquidation price, outside the account's figures. */
  cash: boolean;
  markMinor: Minor;
  unrealisedPnlMinor: Minor;
  /** margin + unrealised P&L. */
  equityMinor: Minor;
  /** Position alone: ⌊equity × 10,000 ÷ margin⌋ bps (10,000 at the opening price). */
  ratioBps: number;
  liquidationPriceMinor: Minor | null;
}

/** Risk figures of an account (its margined positions; module docstring). */
export interface AccountRisk {
  usedMarginMinor: Minor;
  unrealisedPnlMinor: Minor;
  /** available + frozen for orders + debt + Σ margin + Σ unrealised P&L (margined positions). */
  equityMinor: Minor;
  ratioBps: number | null;
  level: RiskLevel;
  /** Equity below which the account is called / liquidated (⌈threshold × used ÷ 10,000⌉). */
  marginCallEquityMinor: Minor;
  maintenanceEquityMinor: Minor;
  /** Every position given, cash holdings included (with their own P&L, no liquidation price). */
  positions: PositionRisk[];
}

/**
 * Account and per-position risk at the given marks (module docstring for every definition).
 * @throws RangeError on a position without a positive integer mark or margin
 */
export function accountRisk(
  args: RiskCollateral & {
    positions: readonly RiskPositionInput[];
    thresholds: RiskThresholds;
  },
): AccountRisk {
  const { positions, thresholds } = args;
  let used = 0;
  let unrealised = 0;
  const pnl: number[] = [];
  for (const p of positions) {
    if (!Number.isSafeInteger(p.markMinor) || p.markMinor <= 0)
      throw new RangeError(`position ${p.id}: mark must be a positive integer: ${p.markMinor}`);
    if (!Number.isSafeInteger(p.marginMinor) || p.marginMinor <= 0)
      throw new RangeError(`position ${p.id}: margin must be a positive integer: ${p.marginMinor}`);
    const u = unrealisedMinor(p.side, p.markMinor, p.shares, p.openValueMinor);
    pnl.push(u);
    if (isCashHolding(p)) continue;
    used += p.marginMinor;
    unrealised += u;
  }
  const equity = args.availableMinor + args.frozenForOrdersMinor + args.debtMinor + used + unrealised;
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
      const cash = isCashHolding(p);
      return {
        id: p.id,
        cash,
        markMinor: p.markMinor,
        unrealisedPnlMinor: u,
        equityMinor: p.marginMinor + u,
        ratioBps: ratioBps(p.marginMinor + u, p.marginMinor)!,
        liquidationPriceMinor: cash
          ? null
          : liquidationPriceMinor({
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
 * The order in which forced sales close positions: largest unrealised loss first (most negative
 * P&L), ties by lower id (the older position). Cash holdings are never sold. Returns position ids.
 */
export function liquidationOrder(
  positions: readonly Pick<PositionRisk, 'id' | 'unrealisedPnlMinor' | 'cash'>[],
): number[] {
  return positions
    .filter((p) => !p.cash)
    .sort((a, b) => a.unrealisedPnlMinor - b.unrealisedPnlMinor || a.id - b.id)
    .map((p) => p.id);
}

/** What the opening check needs of the account (one risk pool), at the price of acceptance. */
export interface OpeningAccount {
  availableMinor: Minor;
  debtMinor: Minor;
  /** Σ margin of open margined positions. */
  usedMarginMinor: Minor;
  /** Σ unrealised P&L of open margined positions at the marks. */
  unrealisedPnlMinor: Minor;
  /** Σ margin of resting orders that open margined positions (what their fills will use). */
  restingMarginMinor: Minor;
}

/** The order judged: its costs at the price of acceptance (market-rules.ts openCosts). */
export interface OpeningOrder {
  /** Opens a cash holding (isCashHolding): its whole price leaves the risk figures. */
  cash: boolean;
  marginMinor: Minor;
  feeMinor: Minor;
  taxMinor: Minor;
}

/** The account after the order and after every resting order filled at its limit. */
export interface OpeningCheck {
  equityAfterMinor: Minor;
  usedAfterMinor: Minor;
  /** null: nothing margined after the order (a cash account). */
  ratioAfterBps: number | null;
  /** Equity the opening line requires (0 with nothing margined). */
  requiredEquityMinor: Minor;
  /** Equity missing to reach the line (0 when accepted). */
  shortfallMinor: Minor;
  ok: boolean;
  /**
   * The least `available` balance the member may keep after this order's own postings: the same
   * condition as `ok` on the one balance that can move between the check and the write, for the
   * ledger to enforce atomically (ledger.ts PostingInput.floorMinor). 0: no floor beyond ≥ 0.
   */
  availableFloorMinor: Minor;
}

/**
 * Judges an opening order against the whole account (module docstring "opening check"): the
 * equity after it counts every resting order as filled (their fees spent, a resting cash purchase's
 * price gone to its holding) and this order's fee and tax spent (and its whole price, when it buys
 * a cash holding); the used margin counts every resting margined order's margin and this order's.
 * Accepted when nothing is margined after it or equity ≥ ⌈openingBps × used ÷ 10,000⌉.
 * @param openingBps the opening line in bps (OPENING_MARGIN_BPS; 10,000 and below: no line)
 */
export function openingCheck(account: OpeningAccount, order: OpeningOrder, openingBps: number): OpeningCheck {
  const others =
    account.debtMinor + account.usedMarginMinor + account.unrealisedPnlMinor + account.restingMarginMinor;
  const costOut = order.marginMinor + order.feeMinor + order.taxMinor;
  const stays = order.cash ? 0 : order.marginMinor;
  const equityAfter = account.availableMinor - costOut + others + stays;
  const usedAfter = account.usedMarginMinor + account.restingMarginMinor + stays;
  const line = Math.max(openingBps, BPS);
  const required = usedAfter > 0 && openingBps > BPS ? requiredEquityMinor(usedAfter, line) : 0;
  // No line with nothing margined after the order: whether it can be paid is the ledger's to say.
  const shortfall = required > 0 ? Math.max(0, required - equityAfter) : 0;
  return {
    equityAfterMinor: equityAfter,
    usedAfterMinor: usedAfter,
    ratioAfterBps: ratioBps(equityAfter, usedAfter),
    requiredEquityMinor: required,
    shortfallMinor: shortfall,
    ok: shortfall === 0,
    availableFloorMinor: required > 0 ? Math.max(0, required - others - stays) : 0,
  };
}
