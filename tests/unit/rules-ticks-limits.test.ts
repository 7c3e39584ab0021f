/**
 * Tick table, daily limits, new-listing limits and the price rejection helper at every edge
 * (contract/market-rules.ts). TW-MARKET-RULES "Tick size, stocks", "Tick size, ETFs", "Daily price
 * limit", "Limit price rounding". Expected values are worked out by hand in the comments; prices in
 * minor units (1 NT$ = 100).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hasPriceLimits,
  isOnTick,
  limitDownMinor,
  limitUpMinor,
  listingTradingDayNumber,
  nearestValidPrices,
  priceLimitsMinor,
  priceRejection,
  stepTicks,
  tickSizeMinor,
  TIME_IN_FORCE,
  type InstrumentKind,
} from '../../contract/market-rules';
import { isTradingDay } from '../../server/market/calendar';

describe('tick band edges, both sides of each edge', () => {
  it.each<[string, number, number, number, number]>([
    // label, last price of the lower band, its tick, first price of the upper band, its tick
    ['9.99 / 10.00', 999, 1, 1_000, 5],
    ['49.95 / 50.00', 4_995, 5, 5_000, 10],
    ['99.9 / 100', 9_990, 10, 10_000, 50],
    ['499.5 / 500', 49_950, 50, 50_000, 100],
    ['999 / 1000', 99_900, 100, 100_000, 500],
  ])('stock %s', (_l, below, tickBelow, edge, tickEdge) => {
    expect(tickSizeMinor(below, 'stock')).toBe(tickBelow);
    expect(tickSizeMinor(edge, 'stock')).toBe(tickEdge);
    expect(tickSizeMinor(edge - 1, 'stock')).toBe(tickBelow); // one minor unit below the edge
    expect(isOnTick(below, 'stock')).toBe(true);
    expect(isOnTick(edge, 'stock')).toBe(true);
    expect(stepTicks(below, 1, 'stock')).toBe(edge);
    expect(stepTicks(edge, -1, 'stock')).toBe(below);
    expect(stepTicks(edge, 1, 'stock')).toBe(edge + tickEdge);
    expect(isOnTick(edge + tickBelow, 'stock')).toBe(tickBelow === tickEdge); // lower tick is off in the upper band
  });

  it('the `price > 1000` pitfall: 1000 has tick 5, so 1001 … 1004 are not valid', () => {
    expect(tickSizeMinor(100_000)).toBe(500);
    for (const p of [100_100, 100_200, 100_300, 100_400]) expect(isOnTick(p)).toBe(false);
    expect(isOnTick(100_500)).toBe(true);
    expect(nearestValidPrices(100_100)).toEqual([100_000, 100_500]); // 1001 → 1000 / 1005
    expect(nearestValidPrices(99_950)).toEqual([99_900, 100_000]); // 999.5 → 999 / 1000
  });

  it.each<[string, number, number, number, number]>([
    ['49.99 / 50.00', 4_999, 1, 5_000, 5],
    ['99.95 / 100 (no edge for ETFs)', 9_995, 5, 10_000, 5],
    ['999.95 / 1000 (no edge for ETFs)', 99_995, 5, 100_000, 5],
  ])('ETF %s', (_l, below, tickBelow, edge, tickEdge) => {
    expect(tickSizeMinor(below, 'etf')).toBe(tickBelow);
    expect(tickSizeMinor(edge, 'etf')).toBe(tickEdge);
    expect(stepTicks(below, 1, 'etf')).toBe(edge);
    expect(stepTicks(edge, -1, 'etf')).toBe(below);
  });

  it('ETF prices the stock table refuses, and the reverse', () => {
    expect(isOnTick(10_005, 'etf')).toBe(true); // 100.05: ETF tick 0.05
    expect(isOnTick(10_005, 'stock')).toBe(false); // stock tick 0.5
    expect(isOnTick(1_001, 'etf')).toBe(true); // 10.01: ETF tick 0.01 below 50
    expect(isOnTick(1_001, 'stock')).toBe(false);
    expect(nearestValidPrices(5_003, 'etf')).toEqual([5_000, 5_005]);
  });
});

describe('daily limits where ×1.1 / ×0.9 land across a band edge', () => {
  it.each<[InstrumentKind, number, number, number]>([
    // kind, reference, limit-up, limit-down   (exact ×1.1 / ×0.9 in NT$)
    ['stock', 909, 999, 819], // 9.09: 9.999 → 9.99 (stays in the 0.01 band); 8.181 → 8.19
    ['stock', 910, 1_000, 819], // 9.10: 10.01 → 10.00 (0.05 band); 8.19
    ['stock', 914, 1_005, 823], // 9.14: 10.054 → 10.05; 8.226 → 8.23
    ['stock', 4_546, 5_000, 4_095], // 45.46: 50.006 → 50.0 (0.1 band); 40.914 → 40.95 (0.05 band)
    ['stock', 4_555, 5_010, 4_100], // 45.55: 50.105 → 50.1; 40.995 → 41.00
    ['stock', 9_090, 9_990, 8_190], // 90.9: 99.99 → 99.9 (stays in the 0.1 band); 81.81 → 81.9
    ['stock', 9_140, 10_050, 8_230], // 91.4: 100.54 → 100.5 (0.5 band); 82.26 → 82.3
    ['stock', 11_150, 12_250, 10_050], // 111.5: 122.65 → 122.5; 100.35 → 100.5 (up across 100)
    ['stock', 11_100, 12_200, 9_990], // 111: 122.1 → 122.0; 99.9 (stays in the 0.1 band)
    ['stock', 45_550, 50_100, 41_000], // 455.5: 501.05 → 501; 409.95 → 410.0
    ['stock', 55_550, 61_100, 50_000], // 555.5: 611.05 → 611; 499.95 → 500 (up across 500)
    ['stock', 90_900, 99_900, 81_900], // 909: 999.9 → 999 (stays below 1000); 818.1 → 819
    ['stock', 91_400, 100_500, 82_300], // 914: 1005.4 → 1005 (tick 5); 822.6 → 823
    ['stock', 111_100, 122_000, 100_000], // 1111: 1222.1 → 1220; 999.9 → 1000 (up across 1000)
    ['stock', 111_500, 122_500, 100_500], // 1115: 1226.5 → 1225 (tick 5); 1003.5 → 1005 (tick 5)
  ])('%s ref %i → up %i, down %i', (kind, ref, up, down) => {
    expect(limitUpMinor(ref, kind)).toBe(up);
    expect(limitDownMinor(ref, kind)).toBe(down);
    expect(priceLimitsMinor(ref, kind)).toEqual({ upMinor: up, downMinor: down });
    expect(isOnTick(up, kind)).toBe(true);
    expect(isOnTick(down, kind)).toBe(true);
  });

  it.each<[number, number, number]>([
    [4_546, 5_000, 4_092], // 45.46: 50.006 → 50.00 (ETF 0.05 band); 40.914 → 40.92 (0.01 band)
    [4_555, 5_010, 4_100], // 45.55: 50.105 → 50.10; 40.995 → 41.00
    [4_560, 5_015, 4_104], // 45.60: 50.16 → 50.15; 41.04
    [5_555, 6_110, 5_000], // 55.55: 61.105 → 61.10; 49.995 → 50.00 (up across 50)
    [5_560, 6_115, 5_005], // 55.60: 61.16 → 61.15; 50.04 → 50.05
  ])('ETF ref %i → up %i, down %i', (ref, up, down) => {
    expect(priceLimitsMinor(ref, 'etf')).toEqual({ upMinor: up, downMinor: down });
  });

  it('leveraged / inverse ETFs: 10 % × multiple', () => {
    // 2× ETF, ref 45.46: ×1.2 = 54.552 → 54.55 (tick 0.05); ×0.8 = 36.368 → 36.37 (tick 0.01)
    expect(priceLimitsMinor(4_546, 'etf', 2)).toEqual({ upMinor: 5_455, downMinor: 3_637 });
    // 2× ETF, ref 100: 120.00 / 80.00
    expect(priceLimitsMinor(10_000, 'etf', 2)).toEqual({ upMinor: 12_000, downMinor: 8_000 });
    // −1× inverse ETF: multiple 1 → the plain 10 %
    expect(priceLimitsMinor(1_500, 'etf', 1)).toEqual({ upMinor: 1_650, downMinor: 1_350 });
    expect(() => priceLimitsMinor(10_000, 'etf', 0)).toThrow(RangeError);
    expect(() => priceLimitsMinor(10_000, 'etf', 1.5)).toThrow(RangeError);
    expect(() => priceLimitsMinor(0, 'stock')).toThrow(RangeError);
  });

  it('priceLimitsMinor(…, 1) is limitUpMinor / limitDownMinor for any reference', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom<InstrumentKind>('stock', 'etf'),
        (ref, kind) => {
          const l = priceLimitsMinor(ref, kind);
          return l.upMinor === limitUpMinor(ref, kind) && l.downMinor === limitDownMinor(ref, kind);
        },
      ),
    );
  });
});

describe('new listings: no limits for the first five trading days', () => {
  it('listed Mon 2026-07-06; Fri 07-10 closed → day 5 is Mon 07-13, day 6 Tue 07-14', () => {
    const args = (today: string) => ({ listingDate: '2026-07-06', today, isTradingDay });
    expect(listingTradingDayNumber(args('2026-07-06'))).toBe(1);
    expect(listingTradingDayNumber(args('2026-07-09'))).toBe(4);
    expect(listingTradingDayNumber(args('2026-07-10'))).toBe(4); // closure does not count
    expect(listingTradingDayNumber(args('2026-07-13'))).toBe(5);
    expect(hasPriceLimits(args('2026-07-06'))).toBe(false);
    expect(hasPriceLimits(args('2026-07-13'))).toBe(false); // day 5
    expect(hasPriceLimits(args('2026-07-14'))).toBe(true); // day 6
    expect(hasPriceLimits(args('2030-01-02'))).toBe(true);
  });

  it('across Lunar New Year 2026: listed Tue 02-10 → day 5 Wed 02-25, day 6 Thu 02-26', () => {
    const args = (today: string) => ({ listingDate: '2026-02-10', today, isTradingDay });
    expect(listingTradingDayNumber(args('2026-02-20'))).toBe(2); // 02-12 … 02-22 closed
    expect(hasPriceLimits(args('2026-02-25'))).toBe(false);
    expect(hasPriceLimits(args('2026-02-26'))).toBe(true);
  });

  it('before the first trading day is an error; a weekend listing date counts from Monday', () => {
    expect(() => hasPriceLimits({ listingDate: '2026-07-06', today: '2026-07-05', isTradingDay })).toThrow(
      RangeError,
    );
    expect(() => hasPriceLimits({ listingDate: '2026-07-11', today: '2026-07-12', isTradingDay })).toThrow(
      RangeError,
    );
    // Sat 07-11 → day 1 Mon 07-13 … day 5 Fri 07-17, day 6 Mon 07-20
    expect(hasPriceLimits({ listingDate: '2026-07-11', today: '2026-07-17', isTradingDay })).toBe(false);
    expect(hasPriceLimits({ listingDate: '2026-07-11', today: '2026-07-20', isTradingDay })).toBe(true);
    expect(() => hasPriceLimits({ listingDate: '2026-02-30', today: '2026-03-10', isTradingDay })).toThrow(
      RangeError,
    );
  });
});

describe('priceRejection names the rule and the fix', () => {
  const ref = 91_000; // 910: limits 1001 → 1000 and 819
  it('accepts valid prices up to and including the limits', () => {
    expect(priceRejection(100_000, { referenceMinor: ref })).toBeNull();
    expect(priceRejection(81_900, { referenceMinor: ref })).toBeNull();
    expect(priceRejection(99_900, { referenceMinor: ref })).toBeNull();
  });
  it('above limit-up → limit-up; below limit-down → limit-down', () => {
    expect(priceRejection(100_500, { referenceMinor: ref })).toEqual({
      rule: 'aboveLimitUp',
      error: 'exceedsPriceLimit',
      limitUpMinor: 100_000,
    });
    expect(priceRejection(81_800, { referenceMinor: ref })).toEqual({
      rule: 'belowLimitDown',
      error: 'exceedsPriceLimit',
      limitDownMinor: 81_900,
    });
    // off-tick and above the limit: the fix is the limit (a valid price)
    expect(priceRejection(100_100, { referenceMinor: ref })?.rule).toBe('aboveLimitUp');
  });
  it('off the tick table → the two nearest valid prices', () => {
    expect(priceRejection(99_950, { referenceMinor: ref })).toEqual({
      rule: 'offTick',
      error: 'priceOffTick',
      nearestMinor: [99_900, 100_000],
    });
    expect(priceRejection(1_003)).toEqual({
      rule: 'offTick',
      error: 'priceOffTick',
      nearestMinor: [1_000, 1_005],
    });
    expect(priceRejection(1_003, { kind: 'etf' })).toBeNull();
  });
  it('no limits for a new listing, or without a reference price', () => {
    expect(priceRejection(150_000, { referenceMinor: ref, hasPriceLimits: false })).toBeNull();
    expect(priceRejection(150_000, { referenceMinor: null })).toBeNull();
    expect(priceRejection(150_100, { referenceMinor: ref, hasPriceLimits: false })?.rule).toBe('offTick');
  });
  it('leveraged ETF multiple widens the band', () => {
    expect(priceRejection(12_000, { kind: 'etf', referenceMinor: 10_000, limitMultiple: 2 })).toBeNull();
    expect(priceRejection(12_005, { kind: 'etf', referenceMinor: 10_000, limitMultiple: 2 })?.rule).toBe(
      'aboveLimitUp',
    );
  });
  it('a non-positive or non-integer price is a parameter error', () => {
    expect(priceRejection(0)?.rule).toBe('invalidPrice');
    expect(priceRejection(-5)?.rule).toBe('invalidPrice');
    expect(priceRejection(10.5)?.error).toBe('parameterError');
  });
});

describe('time in force', () => {
  it('is ROD, IOC or FOK (TW-MARKET-RULES "Order types")', () => {
    expect(TIME_IN_FORCE).toEqual(['ROD', 'IOC', 'FOK']);
  });
});

describe('priceRejection with the day’s own band', () => {
  it('checks against the given limits instead of ±10 % of the reference (a 2× ETF’s ±20 % day)', () => {
    const ref = 20_030; // 00631L, 2025-04-02 close 200.30
    const band = { upMinor: 24_035, downMinor: 16_025 };
    expect(priceRejection(16_025, { kind: 'etf', referenceMinor: ref })).toMatchObject({
      rule: 'belowLimitDown',
      limitDownMinor: 18_030,
    });
    expect(priceRejection(16_025, { kind: 'etf', referenceMinor: ref, limits: band })).toBeNull();
    expect(priceRejection(24_035, { kind: 'etf', referenceMinor: ref, limits: band })).toBeNull();
    expect(priceRejection(16_020, { kind: 'etf', referenceMinor: ref, limits: band })).toEqual({
      rule: 'belowLimitDown',
      error: 'exceedsPriceLimit',
      limitDownMinor: 16_025,
    });
    expect(priceRejection(24_040, { kind: 'etf', referenceMinor: ref, limits: band })).toEqual({
      rule: 'aboveLimitUp',
      error: 'exceedsPriceLimit',
      limitUpMinor: 24_035,
    });
    // a new listing's free days: no limits at all, band or not
    expect(priceRejection(99_900, { kind: 'etf', limits: band, hasPriceLimits: false })).toBeNull();
  });
});
