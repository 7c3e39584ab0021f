/**
 * The confirmation threshold's values and rule, with no dependency on zod (like ./constants.ts), so
 * the order ticket can use them without building the account schemas (contract/account.ts, which
 * re-exports them, validates the preference with them).
 *
 * The member's confirmation threshold (`user/preferences`, `user/savePreferences`; stored per
 * member in member_preferences, migration 0023): an order, a cancel or an exchange worth at least
 * `confirmAboveMinor` (TWD minor units) asks "are you sure?" before it is sent; below it, one tap
 * sends it. What an action is worth, in TWD minor units (src/features/account/components/confirm-above.tsx):
 * - placing an order: the ticket's "total required" (contract/market-rules.ts orderPreview
 *   `totalRequiredMinor`: margin + opening fees + opening tax, what the order takes from the
 *   available balance);
 * - cancelling a pending order: its frozen funds (`frozenMinor`, what placing it reserved);
 * - an exchange: its TWD side, or for a pair without TWD its USD side at the TWD buying rate
 *   (src/features/funds/amount.ts exchangeTwdMinor).
 * 0 asks for every one of them. A member who never saved one has the default, NT$100,000.
 * A threshold only asks: it never refuses a request, and the server does not enforce it.
 */
export const CONFIRM_ABOVE_DEFAULT_MINOR = 10_000_000;
/** The largest threshold accepted: NT$1,000,000,000 (above any order or exchange a member makes). */
export const CONFIRM_ABOVE_MAX_MINOR = 100_000_000_000;

/**
 * Whether an action worth `amountMinor` (TWD minor units) must be confirmed under the threshold
 * `confirmAboveMinor`: at or above it (so 0 asks always). An action the screen cannot value
 * (null: no rate for its currency) asks too — one extra tap rather than an unguarded large one.
 * @throws RangeError when the threshold is not a non-negative safe integer.
 */
export function confirmNeeded(amountMinor: number | null, confirmAboveMinor: number): boolean {
  if (!Number.isSafeInteger(confirmAboveMinor) || confirmAboveMinor < 0)
    throw new RangeError(`threshold must be a non-negative safe integer: ${confirmAboveMinor}`);
  if (amountMinor === null || !Number.isFinite(amountMinor)) return true;
  return amountMinor >= confirmAboveMinor;
}
