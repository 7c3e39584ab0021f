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
  openingCheck,
  liquidationPriceMinor,
  marginCallSaleSession,
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
  leverage,
  openValueMinor: 100_000 * 1_000,
  shares: 1_000,
  marginMinor: divCeil(100_000 * 1_000, leverage),
  markMinor: mark,
});

const NO_FROZEN = { frozenForOrdersMinor: 0 };

describe('liquidation price: long and short, leverage 10, 2 and 1', () => {
  it.each([
    // side, leverage, available, expected liquidation price, first safe price next to it
    // long 10×: margin NT$100,000, free NT$20,000 → required 110,000 = 120,000 + (P − 1,000) × 1,000
    //   → P < 990.00: highest 989.99 → tick NT$1 below 1,000 → 989; at 990 the ratio is exactly 110 %.
    ['long', 10, 2_000_000, 98_900, 99_000],
    // long 2×: margin NT$500,000, free NT$100,000 → required 550,000 = 600,000 + (P − 1,000) × 1,000
    //   → P < 950 → 949 (tick NT$1); at 950 exactly 110 %.
    ['long', 2, 10_000_000, 94_900, 95_000],
    // short 10×: P > 1,010.00 → lowest 1,010.01 → tick NT$5 above 1,000 → 1,015; at 1,010 exactly 110 %.
    ['short', 10, 2_000_000, 101_500, 101_000],
    // short 1×: P > 1,100 → 1,100.01 → 1,105; at 1,100 exactly 110 %.
    ['short', 1, 20_000_000, 110_500, 110_000],
  ] as const)('%s %i× with %i free → %i (safe at %i)', (side, lev, available, liq, safe) => {
    const at = (mark: number) =>
      accountRisk({
        ...NO_FROZEN,
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

  it('a 2× long that no positive price liquidates has none; a thin account is under water at the open', () => {
    const rich = accountRisk({
      ...NO_FROZEN,
      availableMinor: 1_000_000_000,
      debtMinor: 0,
      positions: [lot('long', 2)],
      thresholds: T,
    });
    expect(rich.positions[0]!.liquidationPriceMinor).toBeNull();
    // 2× long with 2 % of its margin free: ratio 102 % — below maintenance at its own opening price.
    const thin = accountRisk({
      ...NO_FROZEN,
      availableMinor: 1_000_000,
      debtMinor: 0,
      positions: [lot('long', 2)],
      thresholds: T,
    });
    expect(thin.ratioBps).toBe(10_200);
    expect(thin.level).toBe('liquidation');
    expect(thin.positions[0]!.liquidationPriceMinor!).toBeGreaterThan(100_000);
  });

  it('a 1× long is a cash holding: no liquidation price, outside the ratio however little is free', () => {
    // The same thin account with the position at 1×: paid in full, nothing margined.
    const cashOnly = accountRisk({
      ...NO_FROZEN,
      availableMinor: 0,
      debtMinor: 0,
      positions: [lot('long', 1, 1)],
      thresholds: T,
    });
    expect(cashOnly.positions[0]).toMatchObject({ cash: true, liquidationPriceMinor: null });
    expect(cashOnly).toMatchObject({ usedMarginMinor: 0, ratioBps: null, level: 'none' });
    // Beside a 10× long, the holding's fall to NT$0.01 moves nothing of the account's figures.
    const mixed = (cashMark: number) =>
      accountRisk({
        ...NO_FROZEN,
        availableMinor: 2_000_000,
        debtMinor: 0,
        positions: [lot('long', 10), { ...lot('long', 1, cashMark), id: 2 }],
        thresholds: T,
      });
    expect(mixed(1).ratioBps).toBe(mixed(100_000).ratioBps);
    expect(mixed(1).ratioBps).toBe(12_000);
    expect(mixed(1).positions[1]).toMatchObject({ cash: true, liquidationPriceMinor: null });
    expect(mixed(1).positions[1]!.unrealisedPnlMinor).toBe(-99_999_000);
    // A 1× short is margined (its loss has no bound).
    expect(
      accountRisk({
        ...NO_FROZEN,
        availableMinor: 0,
        debtMinor: 0,
        positions: [lot('short', 1)],
        thresholds: T,
      }).positions[0]!.cash,
    ).toBe(false);
  });

  it('debt lowers equity; funds frozen for resting orders are part of it', () => {
    const r = accountRisk({
      frozenForOrdersMinor: 0,
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
    // The 2330 sequence: NT$201,425 frozen for a resting 5× buy counts as the member's own money.
    const withFrozen = accountRisk({
      frozenForOrdersMinor: 500_000,
      availableMinor: 2_000_000,
      debtMinor: -500_000,
      positions: [lot('long', 10, 99_000)],
      thresholds: T,
    });
    expect(withFrozen.equityMinor).toBe(11_000_000);
    expect(withFrozen.ratioBps).toBe(11_000);
    expect(withFrozen.level).toBe('marginCall');
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
              leverage: s.leverage,
              openValueMinor: s.openPriceMinor * s.lots * 1_000,
              shares: s.lots * 1_000,
              marginMinor: divCeil(s.openPriceMinor * s.lots * 1_000, s.leverage),
              markMinor: mark,
            };
          });
          const base = accountRisk({
            ...NO_FROZEN,
            availableMinor: available,
            debtMinor: debt,
            positions,
            thresholds: T,
          });
          positions.forEach((p, i) => {
            const liq = base.positions[i]!.liquidationPriceMinor;
            const levelAt = (price: number) =>
              accountRisk({
                ...NO_FROZEN,
                availableMinor: available,
                debtMinor: debt,
                positions: positions.map((q) => (q.id === p.id ? { ...q, markMinor: price } : q)),
                thresholds: T,
              }).level;
            if (p.side === 'long' && p.leverage === 1) {
              // A cash holding: none, and no price of it moves the account's level.
              expect(liq).toBeNull();
              expect(levelAt(1)).toBe(levelAt(p.markMinor * 100));
              return;
            }
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
        fc.integer({ min: 0, max: 1e9 }),
        (specs, mark, available, debt, frozen) => {
          const positions = specs.map((s, i) => ({
            id: i + 1,
            side: s.side,
            kind: 'stock' as const,
            leverage: s.leverage,
            openValueMinor: s.open * s.lots * 1_000,
            shares: s.lots * 1_000,
            marginMinor: divCeil(s.open * s.lots * 1_000, s.leverage),
            markMinor: mark,
          }));
          const full = accountRisk({
            frozenForOrdersMinor: frozen,
            availableMinor: available,
            debtMinor: debt,
            positions,
            thresholds: T,
          });
          const groups = [
            ['long', false],
            ['long', true],
            ['short', false],
          ] as const;
          const exposures = groups.map(([side, cash]) => {
            const of = positions.filter(
              (p) => p.side === side && (p.leverage === 1 && side === 'long') === cash,
            );
            return {
              side,
              cash,
              shares: of.reduce((a, p) => a + p.shares, 0),
              openValueMinor: of.reduce((a, p) => a + p.openValueMinor, 0),
              marginMinor: of.reduce((a, p) => a + p.marginMinor, 0),
              markMinor: mark,
            };
          });
          const summed = accountRatio({
            frozenForOrdersMinor: frozen,
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
        { id: 1, unrealisedPnlMinor: -100, cash: false },
        { id: 2, unrealisedPnlMinor: 500, cash: false },
        { id: 3, unrealisedPnlMinor: -900, cash: false },
        { id: 4, unrealisedPnlMinor: -100, cash: false },
        { id: 5, unrealisedPnlMinor: -99_999, cash: true },
      ]),
    ).toEqual([3, 1, 4, 2]);
  });
});

describe('openingCheck: the whole account after the order and its resting orders', () => {
  // The 2330 sequence of the account-model report, at NT$1,025 (fees 0.1425 %, no discount):
  // NT$1,000,000 deposited; 1 lot 2× filled at 1,025: margin 512,500, fee 1,460 → available 486,040.
  const afterFirst = {
    availableMinor: 48_604_000,
    debtMinor: 0,
    usedMarginMinor: 51_250_000,
    unrealisedPnlMinor: 0,
    restingMarginMinor: 0,
  };
  it('a resting 5× buy at 1,000 is accepted: as if filled the account holds 139.86 %', () => {
    // margin 200,000, fee 1,425 → frozen 201,425
    const r = openingCheck(
      afterFirst,
      { cash: false, marginMinor: 20_000_000, feeMinor: 142_500, taxMinor: 0 },
      13_000,
    );
    expect(r.equityAfterMinor).toBe(99_711_500); // 1,000,000 − 1,460 − 1,425
    expect(r.usedAfterMinor).toBe(71_250_000);
    expect(r.ratioAfterBps).toBe(13_994);
    expect(r.ok).toBe(true);
    // The floor the ledger enforces is the same condition on available alone.
    const available = afterFirst.availableMinor - 20_142_500;
    expect(available).toBeGreaterThanOrEqual(r.availableFloorMinor);
  });
  it('a second 5× buy filled at 1,025 is refused: with the resting order filled it would be 108.51 %', () => {
    const account = {
      ...afterFirst,
      availableMinor: 48_604_000 - 20_142_500,
      restingMarginMinor: 20_000_000,
    };
    const r = openingCheck(
      account,
      { cash: false, marginMinor: 20_500_000, feeMinor: 146_000, taxMinor: 0 },
      13_000,
    );
    expect(r.usedAfterMinor).toBe(91_750_000);
    expect(r.ratioAfterBps).toBe(10_851);
    expect(r.ok).toBe(false);
    expect(r.shortfallMinor).toBe(requiredEquityMinor(91_750_000, 13_000) - r.equityAfterMinor);
    // Without the resting order (cancelled first) the same buy leaves 138.96 %: accepted.
    const alone = openingCheck(
      { ...afterFirst },
      { cash: false, marginMinor: 20_500_000, feeMinor: 146_000, taxMinor: 0 },
      13_000,
    );
    expect(alone.ratioAfterBps).toBe(13_896);
    expect(alone.ok).toBe(true);
  });
  it('a cash purchase spends the collateral of margined positions; a cash-only account has no line', () => {
    // 50 lots of 2409 at NT$12.45 at 1×: NT$622,500 + fee 887 leaves the margined account.
    const cash = { cash: true, marginMinor: 62_250_000, feeMinor: 88_700, taxMinor: 0 };
    const cashOnly = openingCheck(
      { ...afterFirst, usedMarginMinor: 0, availableMinor: 200_000_000 },
      cash,
      13_000,
    );
    expect(cashOnly).toMatchObject({
      ok: true,
      ratioAfterBps: null,
      requiredEquityMinor: 0,
      availableFloorMinor: 0,
    });
    // Nothing margined and not enough cash: not a question of the line (the ledger refuses it).
    const unpaid = openingCheck({ ...afterFirst, usedMarginMinor: 0, availableMinor: 1_000 }, cash, 13_000);
    expect(unpaid).toMatchObject({ ok: true, shortfallMinor: 0 });
    const beside = openingCheck(afterFirst, cash, 13_000);
    expect(beside.ok).toBe(false);
    expect(beside.equityAfterMinor).toBe(99_854_000 - 62_338_700);
  });
  it('accepts exactly at the line, refuses one minor unit below; 10,000 bps or less is no line', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 1, max: 1e8 }),
        fc.integer({ min: 10_001, max: 30_000 }),
        (used, margin, line) => {
          const required = requiredEquityMinor(used + margin, line);
          // Pick available so that equity after = required exactly (others = used, no P&L).
          const available = required - used;
          const account = {
            availableMinor: available,
            debtMinor: 0,
            usedMarginMinor: used,
            unrealisedPnlMinor: 0,
            restingMarginMinor: 0,
          };
          const order = { cash: false, marginMinor: margin, feeMinor: 0, taxMinor: 0 };
          expect(openingCheck(account, order, line).ok).toBe(true);
          expect(openingCheck({ ...account, availableMinor: available - 1 }, order, line).ok).toBe(false);
          expect(openingCheck({ ...account, availableMinor: available - 1 }, order, 10_000).ok).toBe(true);
          // The floor on available after the order's postings is the same condition.
          expect(available - margin).toBe(openingCheck(account, order, line).availableFloorMinor);
        },
      ),
    );
  });
});

describe('marginCallSaleSession', () => {
  it('a call in session k is met by sales from session k + grace + 1', () => {
    expect(marginCallSaleSession(10, 2)).toBe(13);
    expect(marginCallSaleSession(10, 0)).toBe(11);
  });
});
