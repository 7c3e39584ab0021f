/**
 * Copy-trading rules (server/modules/copy-trading/rules.ts) and the follow screens' percentage
 * format: lots are floor(mentor lots × allocation ÷ mentor equity) in exact integer arithmetic
 * (also where a float product would round), levels follow the written thresholds at their edges,
 * a bps share truncates; the smallest allocation copying one lot is ⌈equity ÷ lots⌉ exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MentorStats } from '../../contract/copy-trading';
import {
  bpsOf,
  copyLots,
  LEVEL_THRESHOLDS,
  levelOf,
  minCopyAmountMinor,
} from '../../server/modules/copy-trading/rules';
import { loadCopyTradingConfig } from '../../server/modules/copy-trading/config';
import { statsFromOrders } from '../../server/modules/copy-trading/stats';
import { formatBps } from '../../contract/money';

const base: MentorStats = statsFromOrders([], 0, 0, 0);

describe('copyLots', () => {
  it('floors the proportional lots', () => {
    expect(copyLots(10, 50_000_000, 99_900_000)).toBe(5);
    expect(copyLots(10, 30_000_000, 99_900_000)).toBe(3);
    expect(copyLots(10, 5_000_000, 99_900_000)).toBe(0);
    expect(copyLots(10, 50_000_000, 100_000_000)).toBe(5);
    expect(copyLots(10, 49_999_999, 100_000_000)).toBe(4);
    expect(copyLots(3, 1, 0)).toBe(0);
    expect(copyLots(3, 1, -5)).toBe(0);
  });
  it('is exact beyond 2^53', () => {
    // 7 × 3,216,856,876,693,212 = 5 × 4,503,599,627,370,497 − 1: 4.99…, which a float product
    // rounds to 5.
    expect(Math.floor((7 * 3_216_856_876_693_212) / 4_503_599_627_370_497)).toBe(5);
    expect(copyLots(7, 3_216_856_876_693_212, 4_503_599_627_370_497)).toBe(4);
  });
});

describe('minCopyAmountMinor', () => {
  it('is the smallest allocation whose copy has one lot', () => {
    expect(minCopyAmountMinor(10, 99_900_000)).toBe(9_990_000);
    expect(minCopyAmountMinor(3, 100_000_000)).toBe(33_333_334);
    expect(minCopyAmountMinor(1, 0)).toBeNull();
    expect(minCopyAmountMinor(0, 100)).toBeNull();
  });
  it('agrees with copyLots: one lot at the minimum, none a minor unit below', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 499 }), fc.integer({ min: 1, max: 9e13 }), (lots, equity) => {
        const min = minCopyAmountMinor(lots, equity)!;
        expect(copyLots(lots, min, equity)).toBeGreaterThanOrEqual(1);
        expect(copyLots(lots, min - 1, equity)).toBe(0);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('levelOf', () => {
  const s = LEVEL_THRESHOLDS.senior;
  const senior = {
    ...base,
    trackDays: s.minTrackDays,
    fundScaleMinor: s.minFundScaleMinor,
    maxDrawdownBps: s.maxDrawdownBps,
    avgLeverageX100: s.maxLeverageX100,
  };
  it('gives senior exactly at every threshold', () => expect(levelOf(senior)).toBe('senior'));
  it('drops to intermediate one step short of any senior threshold', () => {
    expect(levelOf({ ...senior, trackDays: s.minTrackDays - 1 })).toBe('intermediate');
    expect(levelOf({ ...senior, fundScaleMinor: s.minFundScaleMinor - 1 })).toBe('intermediate');
    expect(levelOf({ ...senior, maxDrawdownBps: s.maxDrawdownBps + 1 })).toBe('intermediate');
    expect(levelOf({ ...senior, avgLeverageX100: s.maxLeverageX100 + 1 })).toBe('intermediate');
  });
  it('is junior below intermediate', () => {
    expect(levelOf({ ...senior, trackDays: 29 })).toBe('junior');
    expect(levelOf({ ...senior, maxDrawdownBps: 3_501 })).toBe('junior');
    expect(levelOf(base)).toBe('junior');
  });
});

describe('shares and percentages', () => {
  it('truncates a bps share', () => {
    expect(bpsOf(12_345, 1_000)).toBe(1_234);
    expect(bpsOf(9, 1_000)).toBe(0);
  });
  it('formats bps', () => {
    expect(formatBps(1_234)).toBe('12.34%');
    expect(formatBps(5, { signed: true })).toBe('+0.05%');
    expect(formatBps(-250, { signed: true })).toBe('-2.50%');
  });
});

describe('loadCopyTradingConfig', () => {
  it('defaults to the 30-day criterion, reads MENTOR_MIN_ACCOUNT_DAYS (0 included), refuses others', () => {
    expect(loadCopyTradingConfig({})).toEqual({ mentorMinAccountDays: 30 });
    expect(loadCopyTradingConfig({ MENTOR_MIN_ACCOUNT_DAYS: '0' })).toEqual({ mentorMinAccountDays: 0 });
    expect(loadCopyTradingConfig({ MENTOR_MIN_ACCOUNT_DAYS: '45' }).mentorMinAccountDays).toBe(45);
    for (const bad of ['-1', '1.5', 'thirty'])
      expect(() => loadCopyTradingConfig({ MENTOR_MIN_ACCOUNT_DAYS: bad })).toThrow(
        /MENTOR_MIN_ACCOUNT_DAYS/,
      );
  });
});
