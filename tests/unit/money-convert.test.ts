/**
 * Currency conversion through USD (contract/money.ts convertMinorFloor, decimalToPpm): exact
 * integer arithmetic, rounded down to the minor unit. Expected values are worked out by hand.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertMinorFloor, decimalToPpm, PPM } from '../../contract/money';

describe('decimalToPpm', () => {
  it('parses the real sample rates exactly', () => {
    expect(decimalToPpm('31.475')).toBe(31_475_000); // Bank of Taiwan USD buy, 2026-01-23
    expect(decimalToPpm('31.99')).toBe(31_990_000); // Bank of Taiwan USD sell, 2026-03-13
    expect(decimalToPpm('7.83585')).toBe(7_835_850); // TAIFEX usd_hkd, 2023-01-30
    expect(decimalToPpm('4.464224')).toBe(4_464_224); // TAIFEX cny_twd (6 decimals)
    expect(decimalToPpm('129.925')).toBe(129_925_000); // TAIFEX usd_jpy
    expect(decimalToPpm('1')).toBe(1_000_000);
  });
  it('refuses what it cannot represent exactly', () => {
    for (const bad of ['1.0000001', '-1', 'abc', '', '1.', '.5', '1e3'])
      expect(() => decimalToPpm(bad)).toThrow(RangeError);
  });
});

describe('convertMinorFloor', () => {
  it('buys USD at the selling rate, rounding down', () => {
    // NT$31,990.00 at 31.99 per USD = US$1,000.00 exactly
    expect(convertMinorFloor(3_199_000, 31_990_000, 'toUsd')).toBe(100_000);
    // NT$100.00 / 31.99 = US$3.12597… → US$3.12
    expect(convertMinorFloor(10_000, 31_990_000, 'toUsd')).toBe(312);
    // NT$0.31 / 31.99 = US$0.0096… → 0 (the handler refuses a zero result)
    expect(convertMinorFloor(31, 31_990_000, 'toUsd')).toBe(0);
    // NT$0.32 / 31.99 = US$0.01000…3 → US$0.01
    expect(convertMinorFloor(32, 31_990_000, 'toUsd')).toBe(1);
  });
  it('sells USD at the buying rate, rounding down', () => {
    // US$1.00 × 31.84 = NT$31.84
    expect(convertMinorFloor(100, 31_840_000, 'fromUsd')).toBe(3_184);
    // US$0.01 × 31.84 = NT$0.3184 → NT$0.31
    expect(convertMinorFloor(1, 31_840_000, 'fromUsd')).toBe(31);
    // US$10.00 × 7.83585 = HK$78.3585 → HK$78.35
    expect(convertMinorFloor(1_000, 7_835_850, 'fromUsd')).toBe(7_835);
    expect(convertMinorFloor(0, 31_840_000, 'fromUsd')).toBe(0);
  });
  it('keeps full precision for large amounts (BigInt inside)', () => {
    // 2^53 − 1 minor TWD at 31.99: a float division would be off in the last digits.
    const max = Number.MAX_SAFE_INTEGER;
    const expected = (BigInt(max) * 1_000_000n) / 31_990_000n;
    expect(convertMinorFloor(max, 31_990_000, 'toUsd')).toBe(Number(expected));
    expect(() => convertMinorFloor(max, 129_925_000, 'fromUsd')).toThrow(RangeError);
  });
  it('refuses negative or non-integer amounts and non-positive rates', () => {
    expect(() => convertMinorFloor(-1, 31_990_000, 'toUsd')).toThrow(RangeError);
    expect(() => convertMinorFloor(1.5, 31_990_000, 'toUsd')).toThrow(RangeError);
    expect(() => convertMinorFloor(100, 0, 'toUsd')).toThrow(RangeError);
    expect(() => convertMinorFloor(100, 31.99, 'fromUsd')).toThrow(RangeError);
  });
  it('is the floor of the exact quotient, and a round trip never gains (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 1_000, max: 200_000_000 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        (amount, buyPpm, spread) => {
          const sellPpm = buyPpm + spread;
          const usd = convertMinorFloor(amount, sellPpm, 'toUsd');
          // usd × rate ≤ amount × 10^6 < (usd + 1) × rate
          const a = BigInt(amount) * BigInt(PPM);
          expect(BigInt(usd) * BigInt(sellPpm) <= a).toBe(true);
          expect(BigInt(usd + 1) * BigInt(sellPpm) > a).toBe(true);
          const back = convertMinorFloor(usd, buyPpm, 'fromUsd');
          expect(BigInt(back) * BigInt(PPM) <= BigInt(usd) * BigInt(buyPpm)).toBe(true);
          expect(back).toBeLessThanOrEqual(amount);
        },
      ),
      { seed: 20260101, numRuns: 500 },
    );
  });
});
