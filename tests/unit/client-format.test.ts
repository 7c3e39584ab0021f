import { describe, expect, it } from 'vitest';
import { changeColor, direction, GREEN, RED, FLAT, upDownColors } from '../../src/lib/colors';
import {
  formatCompact,
  formatMinor,
  formatMoney,
  formatPercent,
  formatSignedMinor,
  shortenMiddle,
} from '../../src/lib/format';

describe('formatMoney (spec §9: 2 decimals, separators, 0.00 for empty/non-numeric)', () => {
  it.each([
    [0, '0.00'],
    [1, '1.00'],
    [1234.5, '1,234.50'],
    [1234567.891, '1,234,567.89'],
    [-9876543.2, '-9,876,543.20'],
    ['1005.5', '1,005.50'],
    [' 42 ', '42.00'],
    [999.999, '1,000.00'],
  ])('%s → %s', (input, out) => expect(formatMoney(input)).toBe(out));

  it.each([[null], [undefined], [''], ['   '], ['abc'], ['12abc'], [Number.NaN], [Infinity], [{}], [[]]])(
    '%s → 0.00',
    (input) => expect(formatMoney(input)).toBe('0.00'),
  );

  it('formats integer minor units exactly', () => {
    expect(formatMinor(123_456_789)).toBe('1,234,567.89');
    expect(formatMinor(5)).toBe('0.05');
    expect(formatMinor(-100_050)).toBe('-1,000.50');
    expect(formatMinor(null)).toBe('0.00');
    expect(formatMinor(Number.NaN)).toBe('0.00');
    // Beyond float-precise decimals: still exact because it is string arithmetic.
    expect(formatMinor(900_719_925_474_099)).toBe('9,007,199,254,740.99');
    expect(formatSignedMinor(250)).toBe('+2.50');
    expect(formatSignedMinor(-250)).toBe('-2.50');
    expect(formatSignedMinor(0)).toBe('0.00');
  });

  it('formats a change as a signed percentage', () => {
    expect(formatPercent(50, 1000)).toBe('+5.00%');
    expect(formatPercent(-3, 1000)).toBe('-0.30%');
    expect(formatPercent(1, 0)).toBe('0.00%');
  });
});

describe('formatCompact (萬/億 in tw, K/M in en)', () => {
  it('tw', () => {
    expect(formatCompact(999, 'tw')).toBe('999');
    expect(formatCompact(12_345, 'tw')).toBe('1.23萬');
    expect(formatCompact(1_234_567, 'tw')).toBe('123.46萬');
    expect(formatCompact(123_456_789, 'tw')).toBe('1.23億');
  });
  it('en', () => {
    expect(formatCompact(999, 'en')).toBe('999');
    expect(formatCompact(12_345, 'en')).toBe('12.35K');
    expect(formatCompact(1_234_567, 'en')).toBe('1.23M');
  });
  it('missing values', () => {
    expect(formatCompact(null, 'en')).toBe('0');
    expect(formatCompact(Number.NaN, 'tw')).toBe('0');
  });
});

describe('shortenMiddle (long strings > 20 → first 6 + … + last 6)', () => {
  it('keeps strings of up to 20 characters', () => {
    expect(shortenMiddle('12345678901234567890')).toBe('12345678901234567890');
    expect(shortenMiddle('short')).toBe('short');
    expect(shortenMiddle('')).toBe('');
    expect(shortenMiddle(null)).toBe('');
  });
  it('shortens longer ones', () => {
    expect(shortenMiddle('123456789012345678901')).toBe('123456…678901');
    expect(shortenMiddle('ORD-20240516-000000012345')).toBe('ORD-20…012345');
  });
});

describe('colour rule (TWD up red / down green, USD the opposite)', () => {
  it('TWD', () => {
    expect(changeColor(5)).toBe(RED);
    expect(changeColor(-5)).toBe(GREEN);
    expect(changeColor(0)).toBe(FLAT);
    expect(changeColor(5, 'TWD')).toBe(RED);
    expect(upDownColors('TWD')).toEqual({ up: RED, down: GREEN });
  });
  it('USD', () => {
    expect(changeColor(5, 'USD')).toBe(GREEN);
    expect(changeColor(-5, 'USD')).toBe(RED);
    expect(upDownColors('USD')).toEqual({ up: GREEN, down: RED });
  });
  it('direction', () => {
    expect(direction(null)).toBe('flat');
    expect(direction(Number.NaN)).toBe('flat');
    expect(direction(1)).toBe('up');
    expect(direction(-1)).toBe('down');
  });
});
