/**
 * Tick table and daily price limits (contract/market-rules.ts) at every band edge.
 * Expected values were worked out by hand from TW-MARKET-RULES "Tick size, stocks / ETFs",
 * "Daily price limit" and "Limit price rounding", and cross-checked against real limit prices
 * published by TWSE MIS (tests/fixtures/exchange: `y` previous close → `u` / `w` limits).
 * All prices in minor units (1 NT$ = 100).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ceilToTick,
  floorToTick,
  isOnTick,
  limitDownMinor,
  limitUpMinor,
  stepTicks,
  tickSizeMinor,
} from '../../contract/market-rules';
import { toMinor } from '../../contract/money';

describe('tick size — stocks (TWSE Art. 62)', () => {
  it.each([
    [1, 1], // 0.01
    [999, 1], // 9.99  → 0.01
    [1_000, 5], // 10.00 → 0.05
    [4_995, 5], // 49.95 → 0.05
    [5_000, 10], // 50.00 → 0.1
    [9_990, 10], // 99.9  → 0.1
    [10_000, 50], // 100   → 0.5
    [49_950, 50], // 499.5 → 0.5
    [50_000, 100], // 500   → 1
    [99_900, 100], // 999   → 1
    [100_000, 500], // 1000 → 5 (the `> 1000` pitfall would say 1)
    [242_500, 500], // 2425 → 5
  ])('price %i → tick %i', (price, tick) => {
    expect(tickSizeMinor(price, 'stock')).toBe(tick);
  });
});

describe('tick size — ETFs', () => {
  it.each([
    [1, 1],
    [4_999, 1], // 49.99 → 0.01
    [5_000, 5], // 50.00 → 0.05
    [9_990, 5], // 99.9 stays 0.05 (no stock-style bands)
    [10_000, 5],
    [100_000, 5],
  ])('price %i → tick %i', (price, tick) => {
    expect(tickSizeMinor(price, 'etf')).toBe(tick);
  });
});

describe('floor / ceil / step across bands', () => {
  it('floorToTick (stock)', () => {
    expect(floorToTick(999)).toBe(999);
    expect(floorToTick(1_003)).toBe(1_000); // 10.03 → 10.00
    expect(floorToTick(1_007)).toBe(1_005);
    expect(floorToTick(4_999)).toBe(4_995); // 49.99 is in the 0.05 band
    expect(floorToTick(5_007)).toBe(5_000); // 50.07 → 50.0
    expect(floorToTick(10_049)).toBe(10_000); // 100.49 → 100.0
    expect(floorToTick(50_099)).toBe(50_000); // 500.99 → 500
    expect(floorToTick(100_499)).toBe(100_000); // 1004.99 → 1000
    expect(floorToTick(100_501)).toBe(100_500);
  });
  it('ceilToTick (stock)', () => {
    expect(ceilToTick(999)).toBe(999);
    expect(ceilToTick(1_001)).toBe(1_005); // 10.01 → 10.05
    expect(ceilToTick(4_996)).toBe(5_000); // 49.96 → 50.00 (band edge)
    expect(ceilToTick(5_001)).toBe(5_010); // 50.01 → 50.1
    expect(ceilToTick(9_991)).toBe(10_000); // 99.91 → 100.0
    expect(ceilToTick(10_001)).toBe(10_050); // 100.01 → 100.5
    expect(ceilToTick(49_951)).toBe(50_000); // 499.51 → 500
    expect(ceilToTick(99_901)).toBe(100_000); // 999.01 → 1000
    expect(ceilToTick(100_001)).toBe(100_500); // 1000.01 → 1005
  });
  it('floor / ceil (ETF)', () => {
    expect(floorToTick(5_003, 'etf')).toBe(5_000);
    expect(ceilToTick(5_001, 'etf')).toBe(5_005);
    expect(ceilToTick(4_999, 'etf')).toBe(4_999);
    expect(floorToTick(18_249, 'etf')).toBe(18_245);
  });
  it('stepTicks walks band by band', () => {
    expect(stepTicks(995, 5)).toBe(1_000); // 9.95 +5 ticks of 0.01
    expect(stepTicks(1_000, -1)).toBe(999); // below 10 the tick is 0.01
    expect(stepTicks(1_000, 1)).toBe(1_005);
    expect(stepTicks(5_000, -1)).toBe(4_995);
    expect(stepTicks(5_000, 1)).toBe(5_010);
    expect(stepTicks(10_000, -1)).toBe(9_990);
    expect(stepTicks(10_000, 1)).toBe(10_050);
    expect(stepTicks(50_000, -1)).toBe(49_950);
    expect(stepTicks(50_000, 1)).toBe(50_100);
    expect(stepTicks(100_000, -1)).toBe(99_900);
    expect(stepTicks(99_900, 3)).toBe(101_000); // 999 → 1000 → 1005 → 1010
    expect(stepTicks(101_000, -3)).toBe(99_900);
    expect(stepTicks(5_000, -1, 'etf')).toBe(4_999);
    expect(stepTicks(4_999, 2, 'etf')).toBe(5_005);
  });
  it('isOnTick', () => {
    expect(isOnTick(1_003)).toBe(false);
    expect(isOnTick(1_005)).toBe(true);
    expect(isOnTick(10_025)).toBe(false); // 100.25: tick 0.5
    expect(isOnTick(10_050)).toBe(true);
    expect(isOnTick(100_100)).toBe(false); // 1001: tick 5
    expect(isOnTick(100_500)).toBe(true);
    expect(isOnTick(5_003, 'etf')).toBe(false);
    expect(isOnTick(4_999, 'etf')).toBe(true);
    expect(isOnTick(0)).toBe(false);
  });
});

describe('daily limits: up = ref×1.1 rounded down to a tick, down = ref×0.9 rounded up', () => {
  it.each([
    // ref, up, down  (comments: exact ×1.1 / ×0.9 in NT$)
    [100_500, 110_500, 90_500], // 1005: 1105.5 → 1105 (tick 5); 904.5 → 905 (tick 1)
    [950, 1_045, 855], // 9.50: 10.45 (tick 0.05, valid); 8.55
    [910, 1_000, 819], // 9.10: 10.01 → 10.00 (crosses into the 0.05 band); 8.19
    [4_550, 5_000, 4_095], // 45.50: 50.05 → 50.0 (0.1 band); 40.95
    [9_100, 10_000, 8_190], // 91.0: 100.1 → 100.0 (0.5 band); 81.9
    [45_500, 50_000, 40_950], // 455: 500.5 → 500 (tick 1); 409.5
    [91_000, 100_000, 81_900], // 910: 1001 → 1000 (tick 5); 819
    [10_000, 11_000, 9_000], // 100: 110.0; 90.0
    [1_111, 1_220, 1_000], // 11.11: 12.221 → 12.20; 9.999 → 10.00 (rounded up across the edge)
    [1_112, 1_220, 1_005], // 11.12: 12.232 → 12.20; 10.008 → 10.05
    [5_555, 6_110, 5_000], // 55.55: 61.105 → 61.1; 49.995 → 50.00
    [99_900, 109_500, 90_000], // 999: 1098.9 → 1095 (tick 5); 899.1 → 900 (tick 1)
  ])('stock ref %i → up %i, down %i', (ref, up, down) => {
    expect(limitUpMinor(ref, 'stock')).toBe(up);
    expect(limitDownMinor(ref, 'stock')).toBe(down);
    expect(isOnTick(up)).toBe(true);
    expect(isOnTick(down)).toBe(true);
  });

  it.each([
    [4_550, 5_005, 4_095], // 45.50: 50.05 is a valid ETF price (tick 0.05 from 50)
    [18_250, 20_075, 16_425], // 182.50: 200.75; 164.25
    [4_600, 5_060, 4_140], // 46.00: 50.60; 41.40
    [4_601, 5_060, 4_141], // 46.01: 50.611 → 50.60; 41.409 → 41.41
  ])('ETF ref %i → up %i, down %i', (ref, up, down) => {
    expect(limitUpMinor(ref, 'etf')).toBe(up);
    expect(limitDownMinor(ref, 'etf')).toBe(down);
  });

  it('matches the limits TWSE MIS published (y → u / w)', () => {
    const dir = fileURLToPath(new URL('../fixtures/exchange', import.meta.url));
    const files = [
      'mis_getStockInfo_tse_2330_20231229_after_close.json',
      'mis_getStockInfo_tse_2330_20240516_104454.json',
      'mis_getStockInfo_tse_2330_20251229_after_close.json',
      'mis_getStockInfo_tse_2330_otc_6547_20260731_after_close.json',
    ];
    let checked = 0;
    for (const f of files) {
      const json = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as {
        msgArray: Array<Record<string, string>>;
      };
      for (const m of json.msgArray) {
        const minor = (s: string) => toMinor(s.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, ''));
        expect(limitUpMinor(minor(m.y!), 'stock'), `${m.c} ${m.d} up`).toBe(minor(m.u!));
        expect(limitDownMinor(minor(m.y!), 'stock'), `${m.c} ${m.d} down`).toBe(minor(m.w!));
        checked++;
      }
    }
    // 2330 593→652/534, 839→922/756, 1510→1660/1360, 2205→2425/1985; 6547 45.60→50.10/41.05
    expect(checked).toBe(5);
  });
});
