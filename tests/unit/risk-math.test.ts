/**
 * Margin ratio and liquidation price (contract/risk.ts) at their edges: exactly at a threshold,
 * rounding of the ratio and of the solved price, long and short, leverage 1 and 10, tick bands.
 * Worked by hand in the comments; amounts in minor units (1 NT$ = 100), ratios in bps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountRatio,
  accountRisk,
  DEFAULT_RISK_THRESHOLDS,
  MARGIN_CALL_CLEAR_BAND_BPS,
  nextMarginCallState,
  liquidationOrder,
  openingReserveMinor,
  liquidationPriceMinor,
  ratioBps,
  requiredEquityMinor,
  riskLevel,
  type RiskPositionInput,
} from '../../contract/risk';
import { divCeil, mulDivCeil, mulDivFloor } from '../../contract/money';
import { isOnTick, stepTicks, type InstrumentKind, type Side } from '../../contract/market-rules';

const T = DEFAULT_RISK_THRESHOLDS; // call 13,000 · maintenance 11,000

describe('mulDivFloor / mulDivCeil (contract/money.ts)', () => {
  it.each([
    [7, 10_000, 3, 23_333, 23_334],
    [-7, 10_000, 3, -23_334, -23_333],
    [6, 10_000, 3, 20_000, 20_000],
    [0, 10_000, 3, 0, 0],
    // beyond 2^53 in the product: 9e15 × 10,000 ÷ 10,000 stays exact
    [9_000_000_000_000_000, 10_000, 10_000, 9_000_000_000_000_000, 9_000_000_000_000_000],
  ])('%i × %i ÷ %i → floor %i, ceil %i', (a, b, c, floor, ceil) => {
    expect(mulDivFloor(a, b, c)).toBe(floor);
    expect(mulDivCeil(a, b, c)).toBe(ceil);
  });
  it('never returns a negative zero and refuses a zero divisor or an unsafe result', () => {
    expect(Object.is(mulDivCeil(0, 5, 3), 0)).toBe(true);
    expect(Object.is(mulDivCeil(-1, 1, 3), 0)).toBe(true);
    expect(() => mulDivFloor(1, 1, 0)).toThrow(RangeError);
    expect(() => mulDivFloor(Number.MAX_SAFE_INTEGER, 2, 1)).toThrow(RangeError);
  });
});

describe('ratio and level at the thresholds', () => {
  it.each([
    // equity, used, ratio bps, level
    [13_000_000, 10_000_000, 13_000, 'ok'], // exactly at the call threshold: not below it
    [12_999_999, 10_000_000, 12_999, 'marginCall'], // 12,999.999 → rounded down
    [11_000_000, 10_000_000, 11_000, 'marginCall'], // exactly at maintenance: called, not liquidated
    [10_999_999, 10_000_000, 10_999, 'liquidation'],
    [110_001, 100_001, 10_999, 'liquidation'], // 10,999.99… bps: the floor never rounds up to safety
    [110_002, 100_001, 11_000, 'marginCall'],
    [-1, 3, -3_334, 'liquidation'], // negative equity rounds toward −∞
    [5, 0, null, 'none'], // no open position
  ] as const)('equity %i ÷ used %i → %s bps (%s)', (equity, used, bps, level) => {
    expect(ratioBps(equity, used)).toBe(bps);
    expect(riskLevel(ratioBps(equity, used), T)).toBe(level);
  });

  it('required equity is the least equity at or above the threshold', () => {
    // 100,001 × 1.1 = 110,001.1 → 110,002; the ratio just below is under maintenance.
    expect(requiredEquityMinor(100_001, 11_000)).toBe(110_002);
    expect(requiredEquityMinor(10_000_000, 13_000)).toBe(13_000_000);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e12 }), fc.integer({ min: 1, max: 50_000 }), (used, k) => {
        const req = requiredEquityMinor(used, k);
        expect(ratioBps(req, used)!).toBeGreaterThanOrEqual(k);
        expect(ratioBps(req - 1, used)!).toBeLessThan(k);
      }),
    );
  });
});

/** One lot of a NT$1,000 stock (100,000 minor; tick NT$5 from NT$1,000, NT$1 below). */
const lot = (side: Side, leverage: number, mark = 100_000): RiskPositionInput => ({
  id: 1,
  side,
  kind: 'stock',
  openValueMinor: 100_000 * 1_000,
  shares: 1_000,
  marginMinor: divCeil(100_000 * 1_000, leverage),
  markMinor: mark,
});

describe('liquidation price: long and short, leverage 10 and 1', () => {
  it.each([
    // side, leverage, available, expected liquidation price, first safe price next to it
    // long 10×: margin NT$100,000, free NT$20,000 → required 110,000 = 120,000 + (P − 1,000) × 1,000
    //   → P < 990.00: highest 989.99 → tick NT$1 below 1,000 → 989; at 990 the ratio is exactly 110 %.
    ['long', 10, 2_000_000, 98_900, 99_000],
    // long 1×: margin NT$1,000,000, free NT$200,000 → P < 900 → 899 (tick NT$1); at 900 exactly 110 %.
    ['long', 1, 20_000_000, 89_900, 90_000],
    // short 10×: P > 1,010.00 → lowest 1,010.01 → tick NT$5 above 1,000 → 1,015; at 1,010 exactly 110 %.
    ['short', 10, 2_000_000, 101_500, 101_000],
    // short 1×: P > 1,100 → 1,100.01 → 1,105; at 1,100 exactly 110 %.
    ['short', 1, 20_000_000, 110_500, 110_000],
  ] as const)('%s %i× with %i free → %i (safe at %i)', (side, lev, available, liq, safe) => {
    const at = (mark: number) =>
      accountRisk({
        availableMinor: available,
        debtMinor: 0,
        positions: [lot(side, lev, mark)],
        thresholds: T,
      });
    expect(at(100_000).positions[0]!.liquidationPriceMinor).toBe(liq);
    expect(at(liq).level).toBe('liquidation');
    expect(at(safe).ratioBps).toBe(11_000);
    expect(at(safe).level).toBe('marginCall');
  });

  it('a 1× long that no positive price liquidates has none; a thin account is under water at the open', () => {
    const rich = accountRisk({
      availableMinor: 1_000_000_000,
      debtMinor: 0,
      positions: [lot('long', 1)],
      thresholds: T,
    });
    expect(rich.positions[0]!.liquidationPriceMinor).toBeNull();
    // 1× long with 2 % of free cash: ratio 102 % — below maintenance at its own opening price.
    const thin = accountRisk({
      availableMinor: 2_000_000,
      debtMinor: 0,
      positions: [lot('long', 1)],
      thresholds: T,
    });
    expect(thin.ratioBps).toBe(10_200);
    expect(thin.level).toBe('liquidation');
    expect(thin.positions[0]!.liquidationPriceMinor!).toBeGreaterThan(100_000);
  });

  it('debt lowers equity; frozen funds are not part of it', () => {
    const r = accountRisk({
      availableMinor: 2_000_000,
      debtMinor: -500_000,
      positions: [lot('long', 10, 99_000)],
      thresholds: T,
    });
    // 2,000,000 − 500,000 + 10,000,000 + (99,000 − 100,000) × 1,000
    expect(r.equityMinor).toBe(10_500_000);
    expect(r.unrealisedPnlMinor).toBe(-1_000_000);
    expect(r.ratioBps).toBe(10_500);
    expect(r.maintenanceEquityMinor).toBe(11_000_000);
    expect(r.marginCallEquityMinor).toBe(13_000_000);
    expect(r.positions[0]).toMatchObject({ equityMinor: 9_000_000, ratioBps: 9_000 });
  });

  it('snaps to the tick table across a band edge (ETF and stock below NT$10)', () => {
    // ETF long at NT$50.00 (tick 0.05 from 50, 0.01 below), 10×: margin NT$5,000, free NT$1,000.
    // required 5,500 ≤ 6,000 + (P − 50) × 1,000 ⇔ P ≥ 49.50 → highest liquidating 49.49 (tick 0.01).
    expect(
      liquidationPriceMinor({
        side: 'long',
        openValueMinor: 5_000 * 1_000,
        shares: 1_000,
        kind: 'etf',
        otherEquityMinor: 600_000,
        usedMarginMinor: 500_000,
        maintenanceBps: 11_000,
      }),
    ).toBe(4_949);
    // Short at NT$9.99 (tick 0.01), 10×: margin 999.00, free 110.00; required 1,098.90 →
    // 1,109.00 + (9.99 − P) × 1,000 < 1,098.90 ⇔ P > 10.0001 → 10.01 → tick 0.05 from NT$10 → 10.05.
    expect(
      liquidationPriceMinor({
        side: 'short',
        openValueMinor: 999 * 1_000,
        shares: 1_000,
        kind: 'stock',
        otherEquityMinor: 110_900,
        usedMarginMinor: 99_900,
        maintenanceBps: 11_000,
      }),
    ).toBe(1_005);
  });
});

describe('liquidation price agrees with the ratio (property)', () => {
  const kinds: InstrumentKind[] = ['stock', 'etf'];
  const position = fc.record({
    side: fc.constantFrom<Side>('long', 'short'),
    kind: fc.constantFrom(...kinds),
    openPriceMinor: fc.integer({ min: 100, max: 300_000 }),
    lots: fc.integer({ min: 1, max: 20 }),
    leverage: fc.constantFrom(1, 2, 5, 10),
    drift: fc.integer({ min: -2_000, max: 2_000 }), // mark = open ± up to 20 %
  });
  it('at the liquidation price the account is below maintenance; one tick safer it is not', () => {
    fc.assert(
      fc.property(
        fc.array(position, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 2e9 }),
        fc.integer({ min: -1e8, max: 0 }),
        (specs, available, debt) => {
          const positions: RiskPositionInput[] = specs.map((s, i) => {
            const mark = Math.max(1, s.openPriceMinor + Math.trunc((s.openPriceMinor * s.drift) / 10_000));
            return {
              id: i + 1,
              side: s.side,
              kind: s.kind,
              openValueMinor: s.openPriceMinor * s.lots * 1_000,
              shares: s.lots * 1_000,
              marginMinor: divCeil(s.openPriceMinor * s.lots * 1_000, s.leverage),
              markMinor: mark,
            };
          });
          const base = accountRisk({ availableMinor: available, debtMinor: debt, positions, thresholds: T });
          positions.forEach((p, i) => {
            const liq = base.positions[i]!.liquidationPriceMinor;
            const levelAt = (price: number) =>
              accountRisk({
                availableMinor: available,
                debtMinor: debt,
                positions: positions.map((q) => (q.id === p.id ? { ...q, markMinor: price } : q)),
                thresholds: T,
              }).level;
            if (liq === null) {
              expect(p.side).toBe('long');
              expect(levelAt(1)).not.toBe('liquidation');
              return;
            }
            expect(isOnTick(liq, p.kind)).toBe(true);
            expect(levelAt(liq)).toBe('liquidation');
            const safer = stepTicks(liq, p.side === 'long' ? 1 : -1, p.kind);
            if (safer >= 1) expect(levelAt(safer)).not.toBe('liquidation');
          });
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('margin call state: raised below the threshold, cleared above it plus the band', () => {
  it.each([
    // active before, ratio, active after
    [false, 13_000, false], // at the threshold: not below it
    [false, 12_999, true],
    [true, 13_000, true], // back at the threshold: still inside the clearing band
    [true, 13_499, true],
    [true, 13_500, false], // 130 % + 5 points: cleared
    [true, null, false], // nothing held any more
    [false, 10_000, true],
  ] as const)('%s at %s → %s', (active, ratio, next) => {
    expect(MARGIN_CALL_CLEAR_BAND_BPS).toBe(500);
    expect(nextMarginCallState(active, ratio, T)).toBe(next);
  });
});

describe('accountRatio over summed exposures equals accountRisk over the positions', () => {
  it('for any positions grouped by side (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            side: fc.constantFrom<Side>('long', 'short'),
            open: fc.integer({ min: 100, max: 300_000 }),
            lots: fc.integer({ min: 1, max: 50 }),
            leverage: fc.constantFrom(1, 2, 5, 10),
          }),
          { minLength: 0, maxLength: 8 },
        ),
        fc.integer({ min: 100, max: 300_000 }),
        fc.integer({ min: 0, max: 1e10 }),
        fc.integer({ min: -1e9, max: 0 }),
        (specs, mark, available, debt) => {
          const positions = specs.map((s, i) => ({
            id: i + 1,
            side: s.side,
            kind: 'stock' as const,
            openValueMinor: s.open * s.lots * 1_000,
            shares: s.lots * 1_000,
            marginMinor: divCeil(s.open * s.lots * 1_000, s.leverage),
            markMinor: mark,
          }));
          const full = accountRisk({ availableMinor: available, debtMinor: debt, positions, thresholds: T });
          const exposures = (['long', 'short'] as const).map((side) => {
            const of = positions.filter((p) => p.side === side);
            return {
              side,
              shares: of.reduce((a, p) => a + p.shares, 0),
              openValueMinor: of.reduce((a, p) => a + p.openValueMinor, 0),
              marginMinor: of.reduce((a, p) => a + p.marginMinor, 0),
              markMinor: mark,
            };
          });
          const summed = accountRatio({
            availableMinor: available,
            debtMinor: debt,
            exposures,
            thresholds: T,
          });
          expect(summed).toEqual({
            usedMarginMinor: full.usedMarginMinor,
            unrealisedPnlMinor: full.unrealisedPnlMinor,
            equityMinor: full.equityMinor,
            ratioBps: full.ratioBps,
            level: full.level,
          });
        },
      ),
    );
  });
});

describe('liquidation order', () => {
  it('closes the largest loss first, the older position on a tie', () => {
    expect(
      liquidationOrder([
        { id: 1, unrealisedPnlMinor: -100 },
        { id: 2, unrealisedPnlMinor: 500 },
        { id: 3, unrealisedPnlMinor: -900 },
        { id: 4, unrealisedPnlMinor: -100 },
      ]),
    ).toEqual([3, 1, 4, 2]);
  });
});

describe('openingReserveMinor: what an opening order must leave available', () => {
  it('is margin × (opening margin − 100 %), rounded up to the minor unit; nothing at or below 100 %', () => {
    expect(openingReserveMinor(1_000_000, 13_000)).toBe(300_000);
    expect(openingReserveMinor(1_000_001, 13_000)).toBe(300_001); // 300,000.3 rounds up
    expect(openingReserveMinor(999, 10_001)).toBe(1); // 0.0999 rounds up
    expect(openingReserveMinor(1_000_000, 10_000)).toBe(0);
    expect(openingReserveMinor(1_000_000, 5_000)).toBe(0);
  });
  it('opening with exactly the reserve left puts the ratio at the opening margin at the entry price', () => {
    const margin = 24_450_000;
    const reserve = openingReserveMinor(margin, 13_000);
    // equity right after the open = what stays available + the margin (no P&L at the entry price)
    expect(ratioBps(reserve + margin, margin)).toBe(13_000);
    expect(ratioBps(reserve - 1 + margin, margin)).toBeLessThan(13_000);
  });
});
