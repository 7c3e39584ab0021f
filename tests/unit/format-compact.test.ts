/**
 * formatCompact writes what Intl.NumberFormat's compact short notation writes (zh-TW for tw, en;
 * maximumFractionDigits 2), without building that formatter (30-110 ms on the first page load):
 * compared here with Node's ICU over edge values and a spread of integers, TWD amounts in major
 * units with cents (minor / 100) and fractions.
 */
import { describe, expect, it } from 'vitest';
import { formatCompact, formatCompactMinor, formatLots } from '../../src/lib/format';

const intl = {
  tw: new Intl.NumberFormat('zh-TW', { notation: 'compact', maximumFractionDigits: 2 }),
  en: new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 }),
};

/** A deterministic spread (mulberry32), so a failure names a value that fails again. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EDGES = [
  0,
  -0,
  0.001,
  -0.001,
  0.005,
  0.004,
  0.5,
  1,
  1.005,
  1.015,
  12.345,
  99.995,
  999,
  999.5,
  999.995,
  1000,
  1234,
  9999,
  9999.994,
  9999.995,
  10000,
  12345,
  99999,
  99_995,
  99_994,
  999_999,
  999_995,
  1e6,
  1_234_567,
  9_999_950,
  99_999_999,
  99_995_000,
  1e8,
  123_456_789,
  999_999_999,
  1e9,
  1.2345e12,
  9.99999e11,
  1e15,
  1.2345e16,
  1e18,
  1e20,
  1e21,
  1.5e22,
  0.0000001,
  -12345,
  -999_999,
  -1.005,
  Number.MAX_SAFE_INTEGER,
];

function values(): number[] {
  const next = rng(20261128);
  const out = [...EDGES];
  for (let i = 0; i < 4000; i++) {
    const digits = 1 + Math.floor(next() * 16);
    const int = Math.floor(next() * 10 ** digits);
    out.push(int, int / 100, -int, int + 0.5);
    // Round figures and their neighbours, where rounding moves a number to the next unit.
    const round = 10 ** Math.floor(next() * 16);
    out.push(round - 1, round - 0.005, round * 9.9995, round * 99.995);
  }
  return out;
}

describe('formatCompact', () => {
  for (const lang of ['tw', 'en'] as const) {
    it(`writes what Intl's compact notation writes (${lang})`, () => {
      const wrong: string[] = [];
      for (const v of values()) {
        const want = intl[lang].format(v);
        const got = formatCompact(v, lang);
        if (got !== want) wrong.push(`${v}: ${got} ≠ ${want}`);
      }
      expect(wrong.slice(0, 10)).toEqual([]);
    });
  }

  it('reads 萬/億 in Chinese and K/M/B in English, and 0 for no number', () => {
    expect(formatCompact(12_345, 'tw')).toBe('1.23萬');
    expect(formatCompact(123_456_789, 'tw')).toBe('1.23億');
    expect(formatCompact(12_345, 'en')).toBe('12.35K');
    expect(formatCompact(999_999, 'en')).toBe('1M');
    expect(formatCompact(null, 'en')).toBe('0');
    expect(formatCompact(Number.NaN, 'tw')).toBe('0');
    expect(formatCompactMinor(12_345_678_900, 'tw')).toBe('1.23億');
    expect(formatLots(12_345_000, 'tw')).toBe('1.23萬');
  });
});
