/**
 * Fees, tax, margin and rounding (TW-MARKET-RULES "Commission", "Securities transaction tax").
 * Expected values are worked out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import {
  closeResult,
  commissionMinor,
  openCosts,
  sellTaxMinor,
  unrealisedPnlMinor,
} from '../../contract/market-rules';
import { divCeil, minorToDecimal, ppmFloorToMajor, toMinor } from '../../contract/money';
import fc from 'fast-check';

describe('money', () => {
  it('parses and prints decimals exactly', () => {
    expect(toMinor('1005.5')).toBe(100_550);
    expect(toMinor('0.01')).toBe(1);
    expect(toMinor(2425)).toBe(242_500);
    expect(() => toMinor('1.005')).toThrow(RangeError);
    expect(() => toMinor('abc')).toThrow(RangeError);
    expect(minorToDecimal(100_550)).toBe('1005.50');
    expect(minorToDecimal(-5)).toBe('-0.05');
  });
  it('truncates rates to whole NT$ and rounds margin up', () => {
    // NT$1,000,000 × 0.1425 % = NT$1,425 exactly
    expect(ppmFloorToMajor(100_000_000, 1_425)).toBe(142_500);
    // NT$10,001 × 0.1425 % = 14.251425 → NT$14
    expect(ppmFloorToMajor(1_000_100, 1_425)).toBe(1_400);
    expect(divCeil(1_000_001, 10)).toBe(100_001);
    expect(divCeil(1_000_000, 10)).toBe(100_000);
  });
  it('round-trips any amount', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => toMinor(minorToDecimal(n)) === n));
  });
});

describe('commission and tax', () => {
  it('has a NT$20 minimum commission', () => {
    // NT$10,000 × 0.1425 % = NT$14.25 → below the minimum → NT$20
    expect(commissionMinor(1_000_000)).toBe(2_000);
    // NT$14,035.09 would be 20.0002; NT$14,036 → 20.0013 → NT$20; NT$14,737 → 21.0002 → NT$21
    expect(commissionMinor(1_473_700)).toBe(2_100);
  });
  it('taxes the seller 0.3 % on stocks and 0.1 % on ETFs', () => {
    // 1 lot at NT$1,005 = NT$1,005,000 → tax NT$3,015; ETF NT$1,005
    expect(sellTaxMinor(100_500_000, 'stock')).toBe(301_500);
    expect(sellTaxMinor(100_500_000, 'etf')).toBe(100_500);
  });
  it('computes opening costs: long pays commission, short also pays tax', () => {
    // 2 lots at NT$1,005, leverage 5: notional 2,010,000; margin 402,000; fee 2,864.25 → 2,864
    const long = openCosts({ priceMinor: 100_500, lots: 2, leverage: 5, side: 'long', kind: 'stock' });
    expect(long).toEqual({
      notionalMinor: 201_000_000,
      marginMinor: 40_200_000,
      feeMinor: 286_400,
      taxMinor: 0,
      requiredMinor: 40_486_400,
    });
    const short = openCosts({ priceMinor: 100_500, lots: 2, leverage: 5, side: 'short', kind: 'stock' });
    expect(short.taxMinor).toBe(603_000);
    expect(short.requiredMinor).toBe(40_200_000 + 286_400 + 603_000);
  });
  it('computes closing P&L, fee and tax for both sides', () => {
    // long 1 lot 1,000 → 1,010: +10,000; sale of 1,010,000: fee 1,439.25 → 1,439, tax 3,030
    expect(
      closeResult({
        openValueMinor: 100_000 * 1000,
        closePriceMinor: 101_000,
        shares: 1000,
        side: 'long',
        kind: 'stock',
      }),
    ).toEqual({
      notionalMinor: 101_000_000,
      pnlMinor: 1_000_000,
      feeMinor: 143_900,
      taxMinor: 303_000,
    });
    // short closes with a purchase: no tax; the price rise is a loss
    const s = closeResult({
      openValueMinor: 100_000 * 1000,
      closePriceMinor: 101_000,
      shares: 1000,
      side: 'short',
      kind: 'stock',
    });
    expect(s.pnlMinor).toBe(-1_000_000);
    expect(s.taxMinor).toBe(0);
    expect(unrealisedPnlMinor('short', 100_000 * 2000, 99_500, 2000)).toBe(1_000_000);
  });
});
