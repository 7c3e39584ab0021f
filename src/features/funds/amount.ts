/**
 * Amount fields and exchange figures of the money screens, exact in integer minor units
 * (contract/money.ts owns parsing and rounding; nothing here goes through a float).
 */
import { CURRENCIES, type Currency } from '../../../contract/constants';
import type { FxRate } from '../../../contract/funds';
import { convertMinorFloor, convertMinorFloorInRange, parseAmountInput } from '../../../contract/money';
import { AMOUNT_ISSUE_KEYS } from '../../lib/amount-messages';

export interface AmountLimits {
  minMinor?: number;
  maxMinor?: number;
  /** Translation keys for below the minimum / above the maximum. */
  belowKey?: string;
  aboveKey?: string;
  /** The most the member has (insufficientBalance above it). */
  availableMinor?: number;
}

/**
 * An amount field → minor units, or the translation key of what is wrong with it, each rule its own
 * key (contract/money.ts parseAmountInput, src/lib/amount-messages.ts): empty, not a number, zero
 * or negative, more than two decimals; then outside the limits, above the balance.
 */
export function parseAmount(
  text: string | undefined,
  limits: AmountLimits = {},
): { minor: number } | { error: string } {
  const parsed = parseAmountInput(text);
  if ('issue' in parsed) return { error: AMOUNT_ISSUE_KEYS[parsed.issue] };
  const minor = parsed.minor;
  if (limits.minMinor !== undefined && minor < limits.minMinor)
    return { error: limits.belowKey ?? 'money.belowMin' };
  if (limits.maxMinor !== undefined && minor > limits.maxMinor)
    return { error: limits.aboveKey ?? 'money.aboveMax' };
  if (limits.availableMinor !== undefined && minor > limits.availableMinor)
    return { error: 'errors.insufficientBalance' };
  return { minor };
}

/** A configured limit (site configuration: a decimal integer string of minor units) or the default. */
export function limitFromConfig(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && /^\d+$/.test(value) && Number.isSafeInteger(n) ? n : fallback;
}

export function isCurrency(v: string | null | undefined): v is Currency {
  return (CURRENCIES as readonly string[]).includes(v ?? '');
}

/** What is wrong with a currency pair (a translation key), or null: one side USD, not the same. */
export function pairError(from: Currency, to: Currency): string | null {
  if (from === to) return 'errors.sameCurrency';
  if (from !== 'USD' && to !== 'USD') return 'exchange.usdSide';
  return null;
}

/** The rate that applies to a pair: the member pays `sellPpm` buying USD, gets `buyPpm` selling it. */
export function applicableRate(
  from: Currency,
  to: Currency,
  rates: readonly FxRate[] | undefined,
): { ratePpm: number; rate: FxRate; direction: 'toUsd' | 'fromUsd' } | null {
  if (pairError(from, to)) return null;
  const other = from === 'USD' ? to : from;
  const rate = rates?.find((r) => r.currency === other);
  if (!rate) return null;
  return to === 'USD'
    ? { ratePpm: rate.sellPpm, rate, direction: 'toUsd' }
    : { ratePpm: rate.buyPpm, rate, direction: 'fromUsd' };
}

/**
 * What `amountMinor` of `from` buys in `to`, rounded down to the minor unit exactly as the server
 * does (contract/money.ts convertMinorFloor), or null without a rate.
 */
export function exchangePreview(
  from: Currency,
  to: Currency,
  amountMinor: number,
  rates: readonly FxRate[] | undefined,
): { toMinor: number; ratePpm: number; rate: FxRate } | null {
  const r = applicableRate(from, to, rates);
  if (!r) return null;
  return {
    toMinor: convertMinorFloor(amountMinor, r.ratePpm, r.direction),
    ratePpm: r.ratePpm,
    rate: r.rate,
  };
}

/**
 * What an exchange is worth in TWD minor units, for the confirmation threshold
 * (src/features/account/components/confirm-above.tsx), from the rates on the screen (user/rates, per USD):
 * - TWD → USD: the TWD paid (`amountMinor`);
 * - USD → TWD: the TWD received (`receivedMinor`, the preview: the USD at the TWD buying rate);
 * - another currency ↔ USD: the USD side (paid or received) at the TWD buying rate, rounded down
 *   to the minor unit — what that USD would fetch in TWD now, as the asset overview values USD
 *   (contract/wallet.ts valuationRateSchema).
 * Null when it cannot be valued: no TWD rate on the screen, or a result beyond 2^53.
 */
export function exchangeTwdMinor(
  from: Currency,
  to: Currency,
  amountMinor: number,
  receivedMinor: number,
  rates: readonly FxRate[] | undefined,
): number | null {
  if (from === 'TWD') return amountMinor;
  if (to === 'TWD') return receivedMinor;
  const usdMinor = from === 'USD' ? amountMinor : to === 'USD' ? receivedMinor : null;
  const twd = rates?.find((r) => r.currency === 'TWD');
  if (usdMinor === null || !twd) return null;
  return convertMinorFloorInRange(usdMinor, twd.buyPpm, 'fromUsd');
}
