/**
 * Commission minimum, day-trade tax, clearing fee, break-even and the order preview
 * (contract/market-rules.ts). TW-MARKET-RULES "Commission", "Securities transaction tax (seller)",
 * "Tick size, stocks / ETFs". Expected values are worked out by hand in the comments; amounts in
 * minor units (1 NT$ = 100), commission and tax truncated to whole NT$.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  breakEvenPriceMinor,
  ceilToTick,
  clearingFeeMinor,
  closeResult,
  commissionMinor,
  DEFAULT_FEES,
  openCosts,
  orderPreview,
  sellTaxMinor,
  sellTaxPpm,
  SHARES_PER_LOT,
  stepTicks,
  type FeeSchedule,
  type InstrumentKind,
  type Side,
} from '../../contract/market-rules';
import { ppmFloorToMajor } from '../../contract/money';

/** The schedule as it was before the day-trade and clearing fields existed. */
const LEGACY_FEES: FeeSchedule = {
  commissionPpm: 1_425,
  commissionMinMinor: 2_000,
  taxStockPpm: 3_000,
  taxEtfPpm: 1_000,
};

describe('commission minimum edge: where 0.1425 % crosses NT$20 and NT$21', () => {
  it.each([
    // value (minor), raw 0.1425 % truncated to NT$, charged
    [1_403_508, 1_900, 2_000], // NT$14,035.08 × 0.1425 % = 19.99998… → 19 → minimum 20
    [1_403_509, 2_000, 2_000], // NT$14,035.09 → 20.0000032 → 20 (rate alone reaches the minimum)
    [1_473_684, 2_000, 2_000], // NT$14,736.84 → 20.999997 → 20
    [1_473_685, 2_100, 2_100], // NT$14,736.85 → 21.0000011 → 21 (first value above the minimum)
    [0, 0, 2_000], // even a zero-value order pays the minimum
  ])('value %i → raw %i, charged %i', (value, raw, charged) => {
    expect(ppmFloorToMajor(value, 1_425)).toBe(raw);
    expect(commissionMinor(value)).toBe(charged);
  });

  it('in lots: 1 lot at NT$14.00 pays the minimum, at NT$14.05 the rate', () => {
    // NT$14,000 × 0.1425 % = 19.95 → 19 → 20;  NT$14,050 → 20.02 → 20;  NT$14,750 → 21.01 → 21
    expect(openCosts({ priceMinor: 1_400, lots: 1, leverage: 1, side: 'long', kind: 'stock' }).feeMinor).toBe(
      2_000,
    );
    expect(openCosts({ priceMinor: 1_405, lots: 1, leverage: 1, side: 'long', kind: 'stock' }).feeMinor).toBe(
      2_000,
    );
    expect(openCosts({ priceMinor: 1_475, lots: 1, leverage: 1, side: 'long', kind: 'stock' }).feeMinor).toBe(
      2_100,
    );
  });

  it('the minimum is configuration (⚠ NT$1 at some brokers for odd lots)', () => {
    const oneDollar = { ...DEFAULT_FEES, commissionMinMinor: 100 };
    expect(commissionMinor(1_403_508, oneDollar)).toBe(1_900);
    expect(commissionMinor(10_000, oneDollar)).toBe(100); // NT$100 → 0.14 → 0 → minimum NT$1
  });
});

describe('day-trade tax 0.15 % until 2027-12-31 (⚠ configuration), stock rate after', () => {
  const NT1M = 100_000_000; // NT$1,000,000 sale
  it.each<[string, InstrumentKind, string | undefined, number]>([
    ['stock, not a day trade', 'stock', undefined, 300_000], // 0.3 % → NT$3,000
    ['stock day trade on the last day', 'stock', '2027-12-31', 150_000], // 0.15 % → NT$1,500
    ['stock day trade the day after', 'stock', '2028-01-01', 300_000],
    ['stock day trade today', 'stock', '2026-07-09', 150_000],
    ['ETF day trade keeps 0.1 %', 'etf', '2026-07-09', 100_000],
    ['ETF, not a day trade', 'etf', undefined, 100_000],
  ])('%s', (_l, kind, dayTradeOn, tax) => {
    expect(sellTaxMinor(NT1M, kind, DEFAULT_FEES, dayTradeOn)).toBe(tax);
    expect(sellTaxMinor(NT1M, kind, LEGACY_FEES, dayTradeOn)).toBe(tax); // defaults fill the gaps
  });

  it('rate and end date are configurable; null means no end date', () => {
    const ended = { ...DEFAULT_FEES, dayTradeTaxUntil: '2026-06-30' };
    expect(sellTaxPpm('stock', ended, '2026-06-30')).toBe(1_500);
    expect(sellTaxPpm('stock', ended, '2026-07-01')).toBe(3_000);
    expect(sellTaxPpm('stock', { ...DEFAULT_FEES, dayTradeTaxUntil: null }, '2099-01-01')).toBe(1_500);
    expect(sellTaxPpm('stock', { ...DEFAULT_FEES, dayTradeTaxPpm: 1_000 }, '2026-07-09')).toBe(1_000);
    expect(() => sellTaxPpm('stock', DEFAULT_FEES, '2026-13-01')).toThrow(RangeError);
  });

  it('closeResult and openCosts take the day-trade date; without it nothing changes', () => {
    // long 1 lot 100 → 101: sale NT$101,000; fee 143.925 → 143; tax 0.15 % 151.5 → 151 (0.3 %: 303)
    const base = {
      openValueMinor: 10_000 * 1_000,
      closePriceMinor: 10_100,
      shares: 1_000,
      side: 'long',
      kind: 'stock',
    } as const;
    expect(closeResult({ ...base, dayTradeOn: '2026-07-09' })).toEqual({
      notionalMinor: 10_100_000,
      pnlMinor: 100_000,
      feeMinor: 14_300,
      taxMinor: 15_100,
    });
    expect(closeResult(base).taxMinor).toBe(30_300);
    expect(closeResult({ ...base, dayTradeOn: '2028-01-03' }).taxMinor).toBe(30_300);
    // short 1 lot at 100 opened as a day trade: sale NT$100,000 → tax 150 (0.3 %: 300), fee 142
    const short = { priceMinor: 10_000, lots: 1, leverage: 1, side: 'short', kind: 'stock' } as const;
    expect(openCosts({ ...short, dayTradeOn: '2026-07-09' })).toEqual({
      notionalMinor: 10_000_000,
      marginMinor: 10_000_000,
      feeMinor: 14_200,
      taxMinor: 15_000,
      requiredMinor: 10_029_200,
    });
    expect(openCosts(short).taxMinor).toBe(30_000);
  });
});

describe('clearing fee (⚠ no source in TW-MARKET-RULES: default 0, configurable)', () => {
  it('is 0 by default and leaves every figure unchanged', () => {
    expect(clearingFeeMinor(100_000_000)).toBe(0);
    const args = { priceMinor: 100_500, lots: 2, leverage: 5, side: 'short', kind: 'stock' } as const;
    expect(openCosts(args)).toEqual(openCosts({ ...args, fees: LEGACY_FEES }));
  });
  it('when configured it is added to each leg’s fee', () => {
    const fees = { ...DEFAULT_FEES, clearingFeePpm: 20 }; // 0.002 %
    // NT$1,000,000 → NT$20 clearing; commission NT$1,425
    expect(clearingFeeMinor(100_000_000, fees)).toBe(2_000);
    const c = openCosts({ priceMinor: 100_000, lots: 1, leverage: 1, side: 'long', kind: 'stock', fees });
    expect(c.feeMinor).toBe(142_500 + 2_000);
    expect(c.requiredMinor).toBe(100_000_000 + 144_500);
    const r = closeResult({
      openValueMinor: 100_000 * 1000,
      closePriceMinor: 100_000,
      shares: 1000,
      side: 'long',
      kind: 'stock',
      fees,
    });
    expect(r.feeMinor).toBe(144_500);
  });
});

/** Net of a round trip from the engine's own functions: P&L − every fee and tax of both legs. */
function roundTripNet(a: {
  openPriceMinor: number;
  closePriceMinor: number;
  shares: number;
  side: Side;
  kind: InstrumentKind;
  fees?: FeeSchedule;
  dayTradeOn?: string;
}): number {
  const fees = a.fees ?? DEFAULT_FEES;
  // openCosts works in lots; fee and tax depend only on the notional, so use the leg functions
  // openCosts uses for an arbitrary share count.
  const openNotional = a.openPriceMinor * a.shares;
  const openFee = commissionMinor(openNotional, fees) + clearingFeeMinor(openNotional, fees);
  const openTax = a.side === 'short' ? sellTaxMinor(openNotional, a.kind, fees, a.dayTradeOn) : 0;
  const r = closeResult({ ...a, openValueMinor: openNotional, fees });
  return r.pnlMinor - r.feeMinor - r.taxMinor - openFee - openTax;
}

describe('break-even: closing there nets ≥ 0, one tick worse nets < 0', () => {
  it.each<[string, number, Side, string | undefined, number, number, number]>([
    // label, open, side, day trade, break-even, net at BE, net one tick worse  (NT$ in comments)
    // long 1 lot at 100: open fee 142. At 101: +1000 − fee 143 − tax 303 − 142 = +412.
    // At 100.5: +500 − 143 − 301 − 142 = −86.
    ['long at 100', 10_000, 'long', undefined, 10_100, 41_200, -8_600],
    // short 1 lot at 100: open fee 142 + tax 300. At 99.4: +600 − 141 − 442 = +17.
    // At 99.5: +500 − 141 − 442 = −83.
    ['short at 100', 10_000, 'short', undefined, 9_940, 1_700, -8_300],
    // long day trade at 100: at 100.5: +500 − 143 − tax 150 − 142 = +65; at 100: 0 − 142 − 150 − 142 = −434
    ['long day trade at 100', 10_000, 'long', '2026-07-09', 10_050, 6_500, -43_400],
    // long at 99.9 across the 100 edge (open fee 142.36 → 142): at 100.5: +600 − 143 − 301 − 142 = +14;
    // one tick worse is 100.0 (tick 0.5 from 100): +100 − 142 − 300 − 142 = −484
    ['long at 99.9 (band edge)', 9_990, 'long', undefined, 10_050, 1_400, -48_400],
  ])('%s', (_l, open, side, dayTradeOn, be, netAt, netWorse) => {
    const args = { openPriceMinor: open, shares: 1_000, side, kind: 'stock' as const, dayTradeOn };
    expect(breakEvenPriceMinor(args)).toBe(be);
    const worse = stepTicks(be, side === 'long' ? -1 : 1);
    expect(roundTripNet({ ...args, closePriceMinor: be })).toBe(netAt);
    expect(roundTripNet({ ...args, closePriceMinor: worse })).toBe(netWorse);
  });

  it('a short too small to cover its fees has no break-even', () => {
    // 1 share short at NT$0.01: fees NT$40 at least, proceeds NT$0.01
    expect(breakEvenPriceMinor({ openPriceMinor: 1, shares: 1, side: 'short', kind: 'stock' })).toBeNull();
  });

  it('holds for random positions (whole lots and odd shares, both sides, day trades)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300_000 }),
        fc.oneof(
          fc.integer({ min: 1, max: 50 }).map((l) => l * SHARES_PER_LOT),
          fc.integer({ min: 1, max: 5_000 }),
        ),
        fc.constantFrom<Side>('long', 'short'),
        fc.constantFrom<InstrumentKind>('stock', 'etf'),
        fc.option(fc.constantFrom('2026-07-09', '2028-01-03'), { nil: undefined }),
        (raw, shares, side, kind, dayTradeOn) => {
          const open = ceilToTick(raw, kind);
          const args = { openPriceMinor: open, shares, side, kind, dayTradeOn };
          const be = breakEvenPriceMinor(args);
          if (be === null) {
            expect(side).toBe('short');
            expect(roundTripNet({ ...args, closePriceMinor: 1 })).toBeLessThan(0);
            return;
          }
          expect(ceilToTick(be, kind)).toBe(be);
          expect(roundTripNet({ ...args, closePriceMinor: be })).toBeGreaterThanOrEqual(0);
          if (side === 'long' && be > 1) {
            expect(roundTripNet({ ...args, closePriceMinor: stepTicks(be, -1, kind) })).toBeLessThan(0);
          }
          if (side === 'short') {
            expect(roundTripNet({ ...args, closePriceMinor: stepTicks(be, 1, kind) })).toBeLessThan(0);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('orderPreview', () => {
  it('a worked example: long 2 lots at 1005, leverage 5', () => {
    // notional 2,010,000; margin 402,000; fee 2,864.25 → 2,864; close at 1005: fee 2,864,
    // tax 6,030; break-even: (P − 1005)·2000 ≥ 2864 + fee(P) + tax(P) → P ≈ 1013.9 → 1015 (tick 5)
    const p = orderPreview({
      priceMinor: 100_500,
      lots: 2,
      leverage: 5,
      side: 'long',
      kind: 'stock',
      availableMinor: 50_000_000,
    });
    expect(p).toEqual({
      marketValueMinor: 201_000_000,
      marginMinor: 40_200_000,
      commissionMinor: 286_400,
      commissionDiscountMinor: 0,
      clearingFeeMinor: 0,
      openTaxMinor: 0,
      closeCommissionMinor: 286_400,
      closeClearingFeeMinor: 0,
      closeTaxMinor: 603_000,
      breakEvenPriceMinor: 101_500,
      totalRequiredMinor: 40_486_400,
      availableAfterMinor: 50_000_000 - 40_486_400,
    });
    // at 1015: +20,000 − 2,864 − fee 2,892 − tax 6,090 = +8,154; at 1010: +10,000 − 2,864 − 2,878 − 6,060 = −1,802
    expect(
      roundTripNet({
        openPriceMinor: 100_500,
        closePriceMinor: 101_500,
        shares: 2_000,
        side: 'long',
        kind: 'stock',
      }),
    ).toBe(815_400);
    expect(
      roundTripNet({
        openPriceMinor: 100_500,
        closePriceMinor: 101_000,
        shares: 2_000,
        side: 'long',
        kind: 'stock',
      }),
    ).toBe(-180_200);
  });

  it('equals openCosts / closeResult for random valid inputs (preview = execution to the cent)', () => {
    const feesArb = fc.record({
      commissionPpm: fc.integer({ min: 0, max: 3_000 }),
      commissionMinMinor: fc.integer({ min: 0, max: 5_000 }),
      taxStockPpm: fc.integer({ min: 0, max: 5_000 }),
      taxEtfPpm: fc.integer({ min: 0, max: 3_000 }),
      dayTradeTaxPpm: fc.integer({ min: 0, max: 3_000 }),
      dayTradeTaxUntil: fc.constantFrom<string | null>('2027-12-31', '2026-01-01', null),
      clearingFeePpm: fc.integer({ min: 0, max: 100 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 499 }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom<Side>('long', 'short'),
        fc.constantFrom<InstrumentKind>('stock', 'etf'),
        fc.option(feesArb, { nil: undefined }),
        fc.option(fc.constantFrom('2026-07-09', '2028-01-03'), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 1e12 }), { nil: undefined }),
        (raw, lots, leverage, side, kind, fees, dayTradeOn, availableMinor) => {
          const priceMinor = ceilToTick(raw, kind);
          const p = orderPreview({
            priceMinor,
            lots,
            leverage,
            side,
            kind,
            fees,
            dayTradeOn,
            availableMinor,
          });
          const o = openCosts({ priceMinor, lots, leverage, side, kind, fees, dayTradeOn });
          const shares = lots * SHARES_PER_LOT;
          const c = closeResult({
            openValueMinor: o.notionalMinor,
            closePriceMinor: priceMinor,
            shares,
            side,
            kind,
            fees,
            dayTradeOn,
          });
          expect(p.marketValueMinor).toBe(o.notionalMinor);
          expect(p.marginMinor).toBe(o.marginMinor);
          expect(p.commissionMinor + p.clearingFeeMinor).toBe(o.feeMinor);
          expect(p.openTaxMinor).toBe(o.taxMinor);
          expect(p.totalRequiredMinor).toBe(o.requiredMinor);
          expect(p.closeCommissionMinor + p.closeClearingFeeMinor).toBe(c.feeMinor);
          expect(p.closeTaxMinor).toBe(c.taxMinor);
          expect(p.availableAfterMinor).toBe(
            availableMinor === undefined ? null : availableMinor - o.requiredMinor,
          );
          // the preview's break-even, checked with the execution's own functions
          const be = p.breakEvenPriceMinor;
          const net = (close: number) =>
            roundTripNet({
              openPriceMinor: priceMinor,
              closePriceMinor: close,
              shares,
              side,
              kind,
              fees,
              dayTradeOn,
            });
          if (be === null) {
            expect(side).toBe('short');
          } else {
            expect(net(be)).toBeGreaterThanOrEqual(0);
            if (side === 'short') expect(net(stepTicks(be, 1, kind))).toBeLessThan(0);
            else if (be > 1) expect(net(stepTicks(be, -1, kind))).toBeLessThan(0);
          }
          // with the default schedule and no day trade, the old openCosts figures are unchanged
          if (fees === undefined && dayTradeOn === undefined) {
            expect(openCosts({ priceMinor, lots, leverage, side, kind, fees: LEGACY_FEES })).toEqual(o);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
