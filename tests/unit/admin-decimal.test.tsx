// @vitest-environment jsdom
/**
 * The operator console turns typed decimals into the contract's integers exactly (no float on the
 * way): exchange rates into parts per million, money into minor units, channel and site-setting
 * forms into their request bodies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { channelRequest } from '../../src/admin/channels-panel';
import { MAX_RATE_PPM } from '../../contract/admin';
import { minorToDecimal, parseAmountToMinor, parseRateToPpm, ppmToDecimal } from '../../contract/money';
import { checkRatePair } from '../../src/admin/rates-panel';
import { settingValue } from '../../src/admin/settings-panel';

describe('parseRateToPpm', () => {
  it.each([
    ['31.475', 31_475_000],
    ['31.4750', 31_475_000],
    [' 32 ', 32_000_000],
    ['0.000001', 1],
    ['0.1', 100_000],
    // 0.1 + 0.2 style traps: a float multiply would give 4_354_999.999… or 1_005_999.999….
    ['4.355', 4_355_000],
    ['1.006', 1_006_000],
    ['1000000000', 1e15],
  ])('%s → %d ppm', (text, ppm) => {
    expect(parseRateToPpm(text, MAX_RATE_PPM)).toBe(ppm);
  });

  it.each(['', '0', '0.000000', '-1', '1.0000001', '1e3', '31,475', 'abc', '.5', '1.', '1000000000.000001'])(
    'refuses %j',
    (text) => {
      expect(parseRateToPpm(text, MAX_RATE_PPM)).toBeNull();
    },
  );

  it('round-trips every ppm value through its display text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e15 }), (ppm) => {
        expect(parseRateToPpm(ppmToDecimal(ppm), MAX_RATE_PPM)).toBe(ppm);
      }),
    );
  });

  it('shows at least two decimals and drops the trailing zeros beyond them', () => {
    expect(ppmToDecimal(31_475_000)).toBe('31.475');
    expect(ppmToDecimal(32_000_000)).toBe('32.00');
    expect(ppmToDecimal(1)).toBe('0.000001');
  });
});

describe('parseAmountToMinor', () => {
  it.each([
    ['1000', 100_000],
    ['1000.5', 100_050],
    ['1,000.05', 100_005],
    ['0.01', 1],
    ['1.15', 115],
    ['90071992547409.91', 9_007_199_254_740_991],
  ])('%s → %d minor', (text, minor) => {
    expect(parseAmountToMinor(text)).toBe(minor);
  });

  it.each(['', '0', '0.00', '-5', '1.005', '1e2', 'NT$5', '90071992547409.92'])('refuses %j', (text) => {
    expect(parseAmountToMinor(text)).toBeNull();
  });

  it('round-trips minor units through the input text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (minor) => {
        expect(parseAmountToMinor(minorToDecimal(minor))).toBe(minor);
      }),
    );
  });
});

describe('form bodies', () => {
  it('a rate pair needs sell ≥ buy', () => {
    expect(checkRatePair('31.475', '31.575')).toEqual({ buyPpm: 31_475_000, sellPpm: 31_575_000 });
    expect(checkRatePair('31.5', '31.5')).toEqual({ buyPpm: 31_500_000, sellPpm: 31_500_000 });
    expect(checkRatePair('31.6', '31.5')).toEqual({ error: 'sellBelowBuy' });
    expect(checkRatePair('31.5', 'x')).toEqual({ error: 'rateInvalid' });
  });

  const fields = {
    name: ' Main ',
    accountName: 'TW Trade Ltd',
    accountNumber: '0123456789',
    bankName: 'Bank of Taiwan',
    branch: 'Xinyi',
    currency: 'TWD' as const,
    min: '1000',
    max: '2000000.5',
    password: 'abc',
    enabled: true,
  };

  it('a channel: exact minor units; the password kept, set or removed', () => {
    const keep = channelRequest(7, fields, 'keep');
    expect(keep).toEqual({
      id: 7,
      name: 'Main',
      accountName: 'TW Trade Ltd',
      accountNumber: '0123456789',
      bankName: 'Bank of Taiwan',
      branch: 'Xinyi',
      currency: 'TWD',
      minMinor: 100_000,
      maxMinor: 200_000_050,
      enabled: true,
    });
    expect(keep).not.toHaveProperty('password');
    expect(channelRequest(7, fields, 'set')).toMatchObject({ password: 'abc' });
    expect(channelRequest(7, fields, 'remove')).toMatchObject({ password: '' });
    expect(channelRequest(undefined, fields, 'keep')).not.toHaveProperty('id');
  });

  it('a channel whose minimum is above its maximum, or whose amount has 3 decimals, is not sent', () => {
    expect(channelRequest(undefined, { ...fields, min: '5000', max: '4000' }, 'keep')).toBeNull();
    expect(channelRequest(undefined, { ...fields, min: '1000.001' }, 'keep')).toBeNull();
  });

  it('site settings: money in minor units, times as HH:MM, switches as true/false', () => {
    expect(settingValue('money', '1000.5')).toBe('100050');
    expect(settingValue('money', '1000.505')).toBeNull();
    expect(settingValue('time', '09:30')).toBe('09:30');
    expect(settingValue('time', '24:00')).toBeNull();
    expect(settingValue('bool', 'false')).toBe('false');
    expect(settingValue('text', '  ')).toBeNull();
  });
});
