/**
 * The pure parts of placing subscriptions on the replay (docs/adr/0004-ipo-offers-on-the-replay.md):
 * - ipoOfferPriceMinor: the lowest tick at or above reference × ratio, across tick bands, exact;
 *   ipoDiscountBps of 3037's real ratio (116 ÷ 220.00) is 47.27 %;
 * - announcedClose: the last real close before the subscription, only when at most 7 days old;
 * - listing proxies: comparables are the window's own new listings (listed in the window, on
 *   their first traded day, from day 10, 20+ days); codes are dealt evenly over their exchange's
 *   comparables; prices scale to the nearest tick, monotone, the first open onto the offer; a
 *   comparable's ex-dividend drop is taken out of the proxy (its holders get no dividend).
 */
import { describe, expect, it } from 'vitest';
import { IPO_RULE_RATIO, ipoDiscountBps, ipoOfferPriceMinor } from '../../contract/ipo';
import { isOnTick } from '../../contract/market-rules';
import {
  assignComparables,
  fillListingProxies,
  findComparables,
  proxyPriceMinor,
  type Comparable,
} from '../../server/market/listing-proxies';
import { announcedClose, type CloseSeries } from '../../server/modules/ipo/pricing';

describe('offer price on the replay', () => {
  it('is the lowest tick at or above reference × ratio', () => {
    // 98.60 × 116/220 = 51.989…: tick 0.1 in 50–100 → 52.00.
    expect(ipoOfferPriceMinor(9_860, 11_600, 22_000)).toBe(5_200);
    // 84.70 × 70 % = 59.29 → 59.30; exactly on a tick stays.
    expect(ipoOfferPriceMinor(8_470, IPO_RULE_RATIO.num, IPO_RULE_RATIO.den)).toBe(5_930);
    expect(ipoOfferPriceMinor(10_000, 70, 100)).toBe(7_000);
    // Band edges: 71.43 × 70 % = 50.001 → 50.10 (tick 0.1); 14.29 × 70 % = 10.003 → 10.05.
    expect(ipoOfferPriceMinor(7_143, 70, 100)).toBe(5_010);
    expect(ipoOfferPriceMinor(1_429, 70, 100)).toBe(1_005);
    for (let ref = 100; ref < 300_000; ref += 997) {
      const p = ipoOfferPriceMinor(ref, 70, 100);
      expect(isOnTick(p)).toBe(true);
      expect(p * 100).toBeGreaterThanOrEqual(ref * 70);
    }
    expect(ipoDiscountBps(11_600, 22_000)).toBe(4_727);
    expect(ipoDiscountBps(70, 100)).toBe(3_000);
    expect(() => ipoOfferPriceMinor(10_000, 0, 100)).toThrow(RangeError);
  });

  it('computes the real ratio only from a close just before the subscription', () => {
    const closes: CloseSeries = new Map([
      [
        '3037',
        [
          ['2025-12-30', 21_950],
          ['2025-12-31', 22_000],
          ['2026-01-02', 21_900],
        ],
      ],
      ['9999', [['2025-06-23', 5_000]]],
    ]);
    expect(announcedClose({ code: '3037', applyStart: '2026-01-02' }, closes)).toEqual({
      closeMinor: 22_000,
      closeDate: '2025-12-31',
    });
    expect(announcedClose({ code: '9999', applyStart: '2026-07-01' }, closes)).toBeNull();
    expect(announcedClose({ code: '1234', applyStart: '2026-07-01' }, closes)).toBeNull();
  });
});

describe('listing proxies', () => {
  const dates = Array.from({ length: 40 }, (_, i) => `2025-05-${String(i + 1).padStart(2, '0')}`);
  const traded = (from: number, days: number) => (d: number) => (d >= from && d < from + days ? 100 : 0);
  const series: Record<string, (d: number) => number> = {
    A: traded(12, 25), // a new listing: qualifies
    B: traded(5, 30), // too early in the window
    C: traded(15, 10), // too few days
    D: traded(0, 40), // trades from the window's start (listed before)
    E: traded(20, 20), // listing date is not its first traded day
  };
  const dir = [
    { symbol: 'A', market: 'TWSE', securityType: 'stock', listingDate: dates[12]! },
    { symbol: 'B', market: 'TWSE', securityType: 'stock', listingDate: dates[5]! },
    { symbol: 'C', market: 'TWSE', securityType: 'stock', listingDate: dates[15]! },
    { symbol: 'D', market: 'TWSE', securityType: 'stock', listingDate: '2020-01-01' },
    { symbol: 'E', market: 'TPEx', securityType: 'stock', listingDate: dates[18]! },
  ];

  it('finds the window’s own new listings only', () => {
    const found = findComparables(dir, dates, (s, d) => series[s]?.(d));
    expect(found).toEqual([{ symbol: 'A', market: 'TWSE', firstIndex: 12, listingDate: dates[12] }]);
  });

  it('deals codes evenly over their exchange’s comparables, by the seed', () => {
    const pool: Comparable[] = [
      { symbol: 'X1', market: 'TWSE', firstIndex: 16, listingDate: '2025-04-28' },
      { symbol: 'X2', market: 'TWSE', firstIndex: 32, listingDate: '2025-05-21' },
      { symbol: 'Y1', market: 'TPEx', firstIndex: 18, listingDate: '2025-04-30' },
    ];
    const codes = ['1001', '1002', '1003', '1004', '1005'].map((symbol) => ({ symbol, market: 'TWSE' }));
    const got = assignComparables([...codes, { symbol: '2001', market: 'TPEx' }], pool, 1);
    const counts = new Map<string, number>();
    for (const c of codes)
      counts.set(got.get(c.symbol)!.symbol, (counts.get(got.get(c.symbol)!.symbol) ?? 0) + 1);
    expect([...counts.values()].sort()).toEqual([2, 3]);
    expect(got.get('2001')!.symbol).toBe('Y1');
    // Another seed may deal them the other way round; the same seed always the same way.
    expect(assignComparables(codes, pool, 1)).toEqual(assignComparables(codes, pool, 1));
  });

  it('scales to the nearest tick, monotone; the first open becomes the offer', () => {
    const proxy = { offerMinor: 4_000, anchorMinor: 3_500 };
    expect(proxyPriceMinor(3_500, proxy)).toBe(4_000);
    let prev = 0;
    for (let c = 100; c < 20_000; c += 7) {
      const p = proxyPriceMinor(c, proxy);
      expect(isOnTick(p)).toBe(true);
      expect(p).toBeGreaterThanOrEqual(prev);
      prev = p;
    }
    // An off-tick offer (38.66) opens at the nearest valid price.
    expect(proxyPriceMinor(3_500, { offerMinor: 3_866, anchorMinor: 3_500 })).toBe(3_865);
  });

  it('fills an absent code with its comparable, the dividend drop taken out', () => {
    const days = 30;
    const col = () => new Int32Array(2 * days);
    const rows = {
      days,
      open: col(),
      high: col(),
      low: col(),
      close: col(),
      volume: new Float64Array(2 * days),
    };
    // Row 0: the comparable from day 10, 35.00 flat, then ex-dividend 1.75 on day 20 (35 → 33.25).
    for (let d = 10; d < days; d++) {
      const p = d < 20 ? 3_500 : 3_325;
      rows.open[d] = rows.high[d] = rows.low[d] = rows.close[d] = p;
      rows.volume[d] = 5_000;
    }
    const dates = Array.from({ length: days }, (_, i) => `2025-06-${String(i + 1).padStart(2, '0')}`);
    const instruments = [
      { symbol: 'C', market: 'TWSE', securityType: 'stock', listingDate: dates[10]!, kind: 'stock' as const },
      { symbol: 'X', market: 'TWSE', securityType: 'stock', listingDate: null, kind: 'stock' as const },
    ];
    const got = fillListingProxies(
      rows,
      instruments,
      dates,
      [{ symbol: 'X', offerMinor: 4_000 }],
      1,
      (c, d) => (c === 'C' && d === dates[20] ? 3_325 : undefined),
    );
    expect(got.get('X')).toMatchObject({ comparable: 'C', firstIndex: 10, anchorMinor: 3_500 });
    expect(rows.close[days + 9]).toBe(0);
    expect(rows.open[days + 10]).toBe(4_000);
    // 33.25 × 40/35 = 38.00, × 35/33.25 = 40.00: no drop on the ex-date.
    expect(rows.close[days + 20]).toBe(4_000);
    expect(rows.close[days + 29]).toBe(4_000);
    expect(rows.volume[days + 15]).toBe(5_000);
  });
});
