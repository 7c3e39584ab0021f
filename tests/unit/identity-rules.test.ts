/**
 * Taiwan identity numbers (contract/identity-rules.ts): the national ID and both resident
 * certificate formats with their check digit, and the masking shown to members.
 */
import { describe, expect, it } from 'vitest';
import { isValidTaiwanId, maskCardNumber, maskIdNumber } from '../../contract/identity-rules';

describe('isValidTaiwanId', () => {
  it('accepts the Ministry of the Interior sample national ID A123456789', () => {
    expect(isValidTaiwanId('A123456789')).toBe(true);
  });

  it('refuses the same number with its check digit changed', () => {
    for (const d of '012345678') expect(isValidTaiwanId(`A12345678${d}`)).toBe(false);
  });

  it('refuses a changed digit in the body (the weighted sum no longer ends in 0)', () => {
    expect(isValidTaiwanId('A123456779')).toBe(false);
    expect(isValidTaiwanId('B123456789')).toBe(false);
  });

  it('accepts the 2021 resident-certificate format (second character 8 or 9)', () => {
    // A=10 → 1·1 + 0·9, then 8·8, zeros, 1·1 and the check digit: 66 + 4 = 70.
    expect(isValidTaiwanId('A800000014')).toBe(true);
    expect(isValidTaiwanId('A900000016')).toBe(true);
    expect(isValidTaiwanId('A800000015')).toBe(false);
  });

  it('accepts the old two-letter resident format (second letter A–D counts as its code’s last digit)', () => {
    // InvestTaiwan (National Development Council) FAQ "uniform ID No.": HD12345678 is a valid
    // sample; its other sample AC12345678 is illustrative only and fails the check digit.
    expect(isValidTaiwanId('HD12345678')).toBe(true);
    expect(isValidTaiwanId('AC12345678')).toBe(false);
  });

  it('refuses malformed numbers', () => {
    for (const bad of [
      '',
      'A12345678',
      'A1234567890',
      '1123456789',
      'A323456789',
      'AE12345678',
      'A12345678X',
    ])
      expect(isValidTaiwanId(bad)).toBe(false);
  });

  it('is case-insensitive on the letters', () => {
    expect(isValidTaiwanId('a123456789')).toBe(true);
    expect(isValidTaiwanId('hd12345678')).toBe(true);
  });
});

describe('maskIdNumber', () => {
  it('keeps the first and last two characters', () => {
    expect(maskIdNumber('A123456789')).toBe('A1******89');
    expect(maskIdNumber('HD12345678')).toBe('HD******78');
  });

  it('masks short values entirely', () => {
    expect(maskIdNumber('A12')).toBe('***');
    expect(maskIdNumber('')).toBe('');
  });
});

describe('maskCardNumber', () => {
  it('keeps only the last four digits', () => {
    expect(maskCardNumber('1234567890123456')).toBe('**** 3456');
  });
});
