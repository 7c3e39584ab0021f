/**
 * contract/money.ts's text API, the one way rates and amounts become text and back: exact from
 * integers (no float on the way), sign kept, and every parser the inverse of its formatter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bpsToDecimal,
  formatBps,
  formatPpmPercent,
  parseAmountToMinor,
  parsePercentToBps,
  ppmToDecimal,
} from '../../contract/money';

describe('formatBps', () => {
  it.each([
    [13_000, '130.00%'],
    [12_999, '129.99%'],
    [11_005, '110.05%'],
    [5, '0.05%'],
    [0, '0.00%'],
    [-305, '-3.05%'],
    [-3_000, '-30.00%'],
    [null, '--'],
    [undefined, '--'],
    [1.5, '--'],
  ])('%s → %s', (bps, text) => {
    expect(formatBps(bps as number | null | undefined)).toBe(text);
  });

  it('trims trailing zeros and signs a gain when asked', () => {
    expect(formatBps(2_000, { trim: true })).toBe('20%');
    expect(formatBps(1_250, { trim: true })).toBe('12.5%');
    expect(formatBps(5, { trim: true })).toBe('0.05%');
    expect(formatBps(5, { signed: true })).toBe('+0.05%');
    expect(formatBps(-250, { signed: true })).toBe('-2.50%');
    expect(formatBps(0, { signed: true })).toBe('0.00%');
  });
});

describe('formatPpmPercent', () => {
  it.each([
    [1_500, '0.15%'],
    [1_425, '0.1425%'],
    [3_000, '0.3%'],
    [1_000_000, '100%'],
    [1, '0.0001%'],
  ])('%d ppm → %s', (ppm, text) => {
    expect(formatPpmPercent(ppm)).toBe(text);
  });
});

describe('parsePercentToBps', () => {
  it.each([
    ['12.5', 1_250],
    [' 3 ', 300],
    ['0.01', 1],
    ['0', 0],
    ['100', 10_000],
  ])('%s → %d bps', (text, bps) => {
    expect(parsePercentToBps(text)).toBe(bps);
  });

  it.each(['', '1.005', '-1', '1e2', '100.01', 'abc', '.5'])('refuses %j', (text) => {
    expect(parsePercentToBps(text)).toBeNull();
  });

  it('is the inverse of bpsToDecimal up to its cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (bps) => {
        expect(parsePercentToBps(bpsToDecimal(bps))).toBe(bps);
      }),
    );
  });
});

describe('ppmToDecimal and parseAmountToMinor', () => {
  it('keeps two decimals at least and six at most', () => {
    expect(ppmToDecimal(31_000_000)).toBe('31.00');
    expect(ppmToDecimal(214_500)).toBe('0.2145');
    expect(ppmToDecimal(-1)).toBe('-0.000001');
  });

  it('reads typed amounts with separators and refuses what is not payable', () => {
    expect(parseAmountToMinor('1,000.5')).toBe(100_050);
    expect(parseAmountToMinor('0')).toBeNull();
    expect(parseAmountToMinor('1.005')).toBeNull();
  });
});
