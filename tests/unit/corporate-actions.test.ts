/**
 * contract/corporate-actions.ts, by hand and as properties (fast-check; a fresh seed each run,
 * printed, plus pinned ones; FUZZ_SEED=<n> replays one):
 * - a unit change with a random rational ratio keeps each position's open value exactly (kept +
 *   the fraction's cost), its margin, and its shares (kept × oldShares + fraction = shares ×
 *   newShares); its value at a price that divides (P × oldShares ÷ newShares whole) is kept to
 *   the minor unit (exactly without a fraction, within the fraction's ½-minor rounding with one),
 *   and so is its P&L (unrealised after + realised = unrealised before);
 * - a resting order keeps whole lots and never trades at a worse value than asked;
 * - a change and its inverse give back the position when no fraction arose.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adjustLentShares,
  adjustPosition,
  adjustRestingOrder,
  exRightsCashMinor,
  inverseRatio,
  lotsOfShares,
} from '../../contract/corporate-actions';
import { isOnTick, SHARES_PER_LOT, unrealisedPnlMinor, type Side } from '../../contract/market-rules';

const fresh = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
/** Seeds that found nothing but are kept as regression runs; the last is this run's. */
const SEEDS = [20_250_618, 1_166_300_611, fresh];
console.log(`corporate-actions property seed ${fresh} (replay with FUZZ_SEED=${fresh})`);

const ratio = fc
  .record({ oldShares: fc.integer({ min: 1, max: 40 }), newShares: fc.integer({ min: 1, max: 40 }) })
  .filter((r) => r.oldShares !== r.newShares);
const side = fc.constantFrom<Side>('long', 'short');

describe('by hand', () => {
  it('0050 1 → 4: 1,000 units bought at 183.15 become 4,000, cost NT$183,150 kept', () => {
    const a = adjustPosition(
      { side: 'long', shares: 1_000, openValueMinor: 18_315_000, marginMinor: 18_315_000 },
      { oldShares: 1, newShares: 4 },
      4_716,
    );
    expect(a).toMatchObject({ shares: 4_000, lots: 4, openValueMinor: 18_315_000, marginMinor: 18_315_000 });
    expect(a.cashInLieuMinor).toBe(0);
  });
  it('00663L undone at the restart, 7 → 1: 1,000 units → 142 and 6/7 paid at 182.30', () => {
    const a = adjustPosition(
      { side: 'long', shares: 1_000, openValueMinor: 2_839_000, marginMinor: 2_839_000 },
      { oldShares: 7, newShares: 1 },
      18_230,
    );
    expect(a).toMatchObject({ shares: 142, fractionNumerator: 6, cashInLieuMinor: 15_626 });
    // 6/7 of a new share is 6 of the 1,000 old units: cost 2,839,000 × 6 ÷ 1,000 = 17,034.
    expect(a.fractionCostMinor).toBe(17_034);
    expect(a.realisedPnlMinor).toBe(15_626 - 17_034);
  });
  it('a resting order: whole lots at a limit on the member’s side, else cancelled', () => {
    expect(
      adjustRestingOrder(
        { side: 'long', shares: 1_000, limitPriceMinor: 18_315 },
        { oldShares: 1, newShares: 4 },
        'etf',
      ),
    ).toEqual({
      outcome: 'adjusted',
      shares: 4_000,
      lots: 4,
      limitPriceMinor: 4_578, // 45.7875 floored to the 0.01 tick below NT$50
    });
    expect(
      adjustRestingOrder(
        { side: 'short', shares: 1_000, limitPriceMinor: 18_315 },
        { oldShares: 1, newShares: 4 },
        'etf',
      ),
    ).toMatchObject({
      limitPriceMinor: 4_579,
    });
    expect(
      adjustRestingOrder(
        { side: 'long', shares: 1_000, limitPriceMinor: 5_000 },
        { oldShares: 10, newShares: 7 },
        'stock',
      ),
    ).toEqual({
      outcome: 'cancelled',
      reason: 'oddLot',
    });
  });
  it('a stock dividend in cash: (close before − reference) × shares, nothing when the reference is not lower', () => {
    expect(exRightsCashMinor('long', 1_000, 3_800, 3_528)).toBe(272_000);
    expect(exRightsCashMinor('short', 1_000, 3_800, 3_528)).toBe(-272_000);
    expect(exRightsCashMinor('long', 1_000, 6_330, 6_340)).toBe(0);
  });
});

describe.each(SEEDS)('properties (seed %i)', (seed) => {
  it('a position keeps its open value, margin and shares exactly; its value and P&L to the minor unit', () => {
    fc.assert(
      fc.property(
        side,
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 1, max: 500_000 }),
        fc.integer({ min: 1, max: 300_000 }),
        fc.integer({ min: -100_000_000, max: 100_000_000 }),
        ratio,
        (s, shares, priceBase, margin, drift, r) => {
          // A price P that divides: P × old ÷ new whole (P = new × k), the reference old × k.
          const k = Math.max(1, Math.floor(priceBase / r.newShares));
          const P = r.newShares * k;
          const ref = r.oldShares * k;
          const openValue = Math.max(1, shares * P + drift);
          const a = adjustPosition(
            { side: s, shares, openValueMinor: openValue, marginMinor: margin },
            r,
            ref,
          );
          expect(a.shares * r.oldShares + a.fractionNumerator).toBe(shares * r.newShares);
          expect(a.openValueMinor + a.fractionCostMinor).toBe(openValue);
          expect(a.marginMinor).toBe(margin);
          expect(a.lots).toBe(lotsOfShares(a.shares));
          // Value at the price, in integer form (× oldShares): |kept + cash − before| ≤ ½ minor.
          const before = shares * P * r.oldShares;
          const after = (a.shares * ref + a.cashInLieuMinor) * r.oldShares;
          if (a.fractionNumerator === 0) expect(after).toBe(before);
          expect(2 * Math.abs(after - before)).toBeLessThanOrEqual(r.oldShares);
          // P&L: unrealised after (at the reference) + realised = unrealised before (at P).
          if (a.shares > 0) {
            const u0 = unrealisedPnlMinor(s, openValue, P, shares);
            const u1 = unrealisedPnlMinor(s, a.openValueMinor, ref, a.shares) + a.realisedPnlMinor;
            expect(2 * Math.abs((u1 - u0) * r.oldShares)).toBeLessThanOrEqual(r.oldShares);
          }
        },
      ),
      { seed, numRuns: 2_000 },
    );
  });

  it('a change and its inverse give the position back when no fraction arose', () => {
    fc.assert(
      fc.property(
        side,
        fc.integer({ min: 1, max: 100_000 }),
        ratio,
        fc.integer({ min: 1, max: 1e9 }),
        (s, n, r, v) => {
          const shares = n * r.oldShares; // no fraction on the way there
          const there = adjustPosition({ side: s, shares, openValueMinor: v, marginMinor: 1 }, r, 100);
          const back = adjustPosition(
            { side: s, shares: there.shares, openValueMinor: there.openValueMinor, marginMinor: 1 },
            inverseRatio(r),
            100,
          );
          expect(there.fractionNumerator).toBe(0);
          expect(back).toMatchObject({ shares, openValueMinor: v, cashInLieuMinor: 0 });
        },
      ),
      { seed, numRuns: 1_000 },
    );
  });

  it('a resting order keeps whole lots, a valid price and never a worse value than asked', () => {
    fc.assert(
      fc.property(
        side,
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        ratio,
        (s, lots, limit, r) => {
          const shares = lots * SHARES_PER_LOT;
          const a = adjustRestingOrder({ side: s, shares, limitPriceMinor: limit }, r, 'stock');
          if (a.outcome === 'cancelled') {
            const whole =
              (shares * r.newShares) % r.oldShares === 0 &&
              ((shares * r.newShares) / r.oldShares) % SHARES_PER_LOT === 0;
            expect(!whole || a.reason === 'belowTick').toBe(true);
            return;
          }
          expect(a.shares * r.oldShares).toBe(shares * r.newShares);
          expect(a.shares % SHARES_PER_LOT).toBe(0);
          expect(isOnTick(a.limitPriceMinor, 'stock')).toBe(true);
          // Buy: pays at most what it asked (value ≤); sell: receives at least (value ≥).
          if (s === 'long') expect(a.limitPriceMinor * a.shares).toBeLessThanOrEqual(limit * shares);
          else expect(a.limitPriceMinor * a.shares).toBeGreaterThanOrEqual(limit * shares);
        },
      ),
      { seed, numRuns: 2_000 },
    );
  });

  it('lent shares never exceed the position they come from', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 5 }),
        ratio,
        (loans, r) => {
          const total = loans.reduce((x, y) => x + y, 0);
          const kept = adjustPosition(
            { side: 'long', shares: total, openValueMinor: total, marginMinor: 1 },
            r,
            1,
          ).shares;
          expect(loans.reduce((x, l) => x + adjustLentShares(l, r), 0)).toBeLessThanOrEqual(kept);
        },
      ),
      { seed, numRuns: 1_000 },
    );
  });
});
