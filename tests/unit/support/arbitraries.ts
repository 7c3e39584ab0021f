/**
 * fast-check arbitraries shared by property tests of the market protocol and worker boundary.
 */
import fc from 'fast-check';
import type { Quote } from '../../../contract/market';

/** An exact integer amount (minor units, shares or epoch ms) below 2^53. */
export const exactInt = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });

/** Any quote of one of `symbols`: every numeric field independent, a few names, days and phases. */
export function quoteArb(symbols: readonly [string, ...string[]]): fc.Arbitrary<Quote> {
  return fc.record({
    symbol: fc.constantFrom(...symbols),
    name: fc.constantFrom('台積電', 'Hon Hai', ''),
    kind: fc.constantFrom('stock' as const, 'etf' as const),
    lastMinor: exactInt,
    openMinor: exactInt,
    highMinor: exactInt,
    lowMinor: exactInt,
    prevCloseMinor: exactInt,
    limitUpMinor: exactInt,
    limitDownMinor: exactInt,
    bidMinor: exactInt,
    askMinor: exactInt,
    volumeShares: exactInt,
    turnoverMinor: exactInt,
    ts: exactInt,
    replayDate: fc.constantFrom(null, '2026-11-20', '2026-11-19'),
    phase: fc.constantFrom('open' as const, 'closed' as const),
    traded: fc.boolean(),
  });
}
