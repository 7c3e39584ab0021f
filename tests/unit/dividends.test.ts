/** contract/dividends.ts: exact dividend parsing and the per-position rounding, by hand. */
import { describe, expect, it } from 'vitest';
import {
  dividendAmountMinor,
  dividendPerShareMinor,
  dividendYieldBps,
  microsToDecimal,
  parseDividendMicros,
} from '../../contract/dividends';
import { mulDivRound } from '../../contract/money';
import { formatDividend } from '../../src/features/dividends/components/parts';

describe('dividend arithmetic', () => {
  it('parses up to 6 decimals exactly and prints them back', () => {
    expect(parseDividendMicros('4.50002')).toBe(4_500_020);
    expect(parseDividendMicros('16.461228')).toBe(16_461_228);
    expect(parseDividendMicros('2')).toBe(2_000_000);
    expect(() => parseDividendMicros('1.0000001')).toThrow(RangeError);
    expect(() => parseDividendMicros('-1')).toThrow(RangeError);
    expect(microsToDecimal(4_500_020)).toBe('4.50002');
    expect(microsToDecimal(2_000_000)).toBe('2');
    expect(microsToDecimal(68_000)).toBe('0.068');
  });

  it('rounds each position once, half away from zero, to the cent', () => {
    // 1,000 × 4.50002 = 4,500.02 exactly.
    expect(dividendAmountMinor(1000, 4_500_020)).toBe(450_002);
    // 1 × 4.50002 = 4.50002 → 4.50.
    expect(dividendAmountMinor(1, 4_500_020)).toBe(450);
    // 500 × 9.998651 = 4,999.3255 → 4,999.33 (the half cent rounds up).
    expect(dividendAmountMinor(500, 9_998_651)).toBe(499_933);
    // 1 × 0.005 = 0.005 → 0.01; 1 × 0.004999 → 0.00.
    expect(dividendAmountMinor(1, 5_000)).toBe(1);
    expect(dividendAmountMinor(1, 4_999)).toBe(0);
    expect(mulDivRound(-1, 5_000, 10_000)).toBe(-1);
    expect(Object.is(mulDivRound(-1, 4_999, 10_000), 0)).toBe(true);
  });

  it('yield in basis points at a price', () => {
    // 4.50002 / 1,065.00 = 0.4225 % → 42 bps.
    expect(dividendYieldBps(4_500_020, 106_500)).toBe(42);
    expect(dividendYieldBps(2_000_000, 0)).toBe(0);
  });
});

describe('dividend per share for display', () => {
  it('rounds to the currency’s 2 decimals, half away from zero', () => {
    expect(dividendPerShareMinor('4.500020')).toBe(450);
    expect(dividendPerShareMinor('16.461228')).toBe(1_646);
    expect(dividendPerShareMinor('0.005')).toBe(1);
    expect(dividendPerShareMinor('0.004999')).toBe(0);
    expect(dividendPerShareMinor(2_000_000)).toBe(200);
  });
  it('shows 2 decimals, never the data’s 6', () => {
    expect(formatDividend('16.461228')).toBe('16.46');
    expect(formatDividend('2')).toBe('2.00');
    expect(formatDividend(null)).toBe('--');
  });
});
