/**
 * Copy-trading thresholds (docs/copy-trading.md, where each is written down with its reason).
 * ⚠ Product choices: the spec names the criteria (account age, trades, drawdown) and the three
 * levels but gives no numbers.
 *
 * Units: days, trade counts, bps (10,000 = 100 %), TWD minor, leverage × 100.
 */
import type { MentorLevel, MentorStats } from '../../../contract/copy-trading';
import { divCeil } from '../../../contract/money';

/** Criteria checked when a member applies to be a mentor. */
export const MENTOR_CRITERIA = {
  /** Whole days since registration. */
  minAccountDays: 30,
  /** Closed orders (positions opened and closed). */
  minClosedTrades: 5,
  /** Max drawdown of the realised-equity curve, at most (bps). */
  maxDrawdownBps: 3_000,
} as const;

/** What an approved mentor starts with until an operator changes it (admin/mentorSettings). */
export const MENTOR_DEFAULTS = {
  /** Smallest follow: NT$10,000. */
  minFollowMinor: 1_000_000,
  /** Profit share above the high-water mark: 10 %. */
  profitShareBps: 1_000,
} as const;

/**
 * Level thresholds, checked from the top: a mentor meeting every figure of a row has that level.
 * senior: ≥ 90 track days, fund scale ≥ NT$1,000,000, drawdown ≤ 20 %, average leverage ≤ 5×;
 * intermediate: ≥ 30 track days, drawdown ≤ 35 %, average leverage ≤ 10×; junior otherwise.
 */
export const LEVEL_THRESHOLDS = {
  senior: { minTrackDays: 90, minFundScaleMinor: 100_000_000, maxDrawdownBps: 2_000, maxLeverageX100: 500 },
  intermediate: { minTrackDays: 30, minFundScaleMinor: 0, maxDrawdownBps: 3_500, maxLeverageX100: 1_000 },
} as const;

/** The level a mentor's measured figures give (LEVEL_THRESHOLDS). */
export function levelOf(s: MentorStats): MentorLevel {
  for (const level of ['senior', 'intermediate'] as const) {
    const t = LEVEL_THRESHOLDS[level];
    if (
      s.trackDays >= t.minTrackDays &&
      s.fundScaleMinor >= t.minFundScaleMinor &&
      s.maxDrawdownBps <= t.maxDrawdownBps &&
      s.avgLeverageX100 <= t.maxLeverageX100
    )
      return level;
  }
  return 'junior';
}

/**
 * Follower lots for a mentor order: floor(mentorLots × allocation ÷ mentorEquity), in integer
 * arithmetic (BigInt, so no product loses precision). Lots are whole board lots (1,000 shares);
 * allocation and equity in TWD minor. 0 when the mentor's equity is not positive.
 */
export function copyLots(mentorLots: number, allocationMinor: number, mentorEquityMinor: number): number {
  if (mentorEquityMinor <= 0) return 0;
  return Number((BigInt(mentorLots) * BigInt(allocationMinor)) / BigInt(mentorEquityMinor));
}

/**
 * The smallest allocation (TWD minor) whose copy of a `mentorLots` order has at least one lot
 * under copyLots: floor(mentorLots × a ÷ equity) ≥ 1 ⇔ a ≥ equity ÷ mentorLots, so
 * ⌈mentorEquityMinor ÷ mentorLots⌉. null when no allocation copies it (equity not positive or no lots).
 */
export function minCopyAmountMinor(mentorLots: number, mentorEquityMinor: number): number | null {
  if (mentorEquityMinor <= 0 || mentorLots <= 0) return null;
  return divCeil(mentorEquityMinor, mentorLots);
}

/** `amountMinor` × bps ÷ 10,000, truncated toward zero (a share paid never exceeds its rate). */
export const bpsOf = (amountMinor: number, bps: number): number =>
  Number((BigInt(amountMinor) * BigInt(bps)) / 10_000n);
