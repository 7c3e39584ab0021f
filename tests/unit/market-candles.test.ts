/**
 * Candle helpers (server/market/candles.ts): session buckets (the 13:30:00 close joins the last
 * bucket), live vs from-scratch intraday aggregation, month/year aggregation of daily rows.
 */
import { describe, expect, it } from 'vitest';
import { SESSION_MS } from '../../server/market/calendar';
import {
  aggregateDaily,
  aggregateTrades,
  bucketOf,
  IntradayAggregator,
  INTRADAY_PERIODS,
  lastCandles,
  type DailyRow,
} from '../../server/market/candles';
import { createRng } from '../../server/market/prng';

const tpe = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h - 8, mi);

describe('bucketOf', () => {
  it('buckets from 09:00; the 13:30:00 close stays in the last bucket', () => {
    expect(bucketOf(0, 60_000)).toBe(0);
    expect(bucketOf(59_999, 60_000)).toBe(0);
    expect(bucketOf(60_000, 60_000)).toBe(1);
    expect(bucketOf(SESSION_MS - 1, 60_000)).toBe(269);
    expect(bucketOf(SESSION_MS, 60_000)).toBe(269);
    expect(bucketOf(SESSION_MS, 180_000)).toBe(89);
    expect(bucketOf(SESSION_MS, 900_000)).toBe(17);
    expect(bucketOf(SESSION_MS, 1_800_000)).toBe(8); // 13:00–13:30
  });
});

describe('IntradayAggregator', () => {
  it('matches aggregateTrades on random trades', () => {
    const rng = createRng('agg', 1);
    const n = 3000;
    const offsets = Array.from({ length: n }, () => rng.int(SESSION_MS + 1)).sort((a, b) => a - b);
    offsets[0] = 0;
    offsets[n - 1] = SESSION_MS;
    const prices = offsets.map(() => 50_000 + 100 * rng.int(40));
    const shares = offsets.map(() => 1000 * (1 + rng.int(50)));
    const base = tpe(2026, 7, 9, 9, 0);
    const agg = new IntradayAggregator(base);
    for (let i = 0; i < n; i++) agg.add(offsets[i]!, prices[i]!, shares[i]!);
    for (const p of INTRADAY_PERIODS) {
      expect(agg.series[p]).toEqual(aggregateTrades({ offsets, prices, shares }, n, p, base));
      const list = agg.series[p];
      expect(list.reduce((a, c) => a + c.volumeShares, 0)).toBe(shares.reduce((a, b) => a + b, 0));
    }
    expect(agg.series['30m'].at(-1)!.ts).toBe(tpe(2026, 7, 9, 13, 0));
    expect(agg.series['30m'].at(-1)!.closeMinor).toBe(prices[n - 1]);
  });
});

describe('aggregateDaily', () => {
  const row = (
    date: string,
    o: number,
    h: number,
    l: number,
    c: number,
    v: number,
    t: number | null,
  ): DailyRow => ({
    date,
    openMinor: o,
    highMinor: h,
    lowMinor: l,
    closeMinor: c,
    volumeShares: v,
    turnoverMinor: t,
  });
  const rows = [
    row('2025-12-30', 100, 110, 90, 105, 10, 1000),
    row('2025-12-31', 105, 120, 100, 115, 20, 2000),
    row('2026-01-02', 115, 118, 95, 96, 30, 3000),
    row('2026-01-05', 96, 99, 80, 85, 40, null),
    row('2026-02-02', 85, 86, 84, 86, 5, 500),
  ];
  it('months: open of first, close of last, max/min, sums; turnover null (unknown) when any day lacks it', () => {
    expect(aggregateDaily(rows, '1M')).toEqual([
      {
        ts: tpe(2025, 12, 1),
        openMinor: 100,
        highMinor: 120,
        lowMinor: 90,
        closeMinor: 115,
        volumeShares: 30,
        turnoverMinor: 3000,
      },
      {
        ts: tpe(2026, 1, 1),
        openMinor: 115,
        highMinor: 118,
        lowMinor: 80,
        closeMinor: 85,
        volumeShares: 70,
        turnoverMinor: null,
      },
      {
        ts: tpe(2026, 2, 1),
        openMinor: 85,
        highMinor: 86,
        lowMinor: 84,
        closeMinor: 86,
        volumeShares: 5,
        turnoverMinor: 500,
      },
    ]);
  });
  it('years', () => {
    expect(aggregateDaily(rows, '1y')).toEqual([
      {
        ts: tpe(2025, 1, 1),
        openMinor: 100,
        highMinor: 120,
        lowMinor: 90,
        closeMinor: 115,
        volumeShares: 30,
        turnoverMinor: 3000,
      },
      {
        ts: tpe(2026, 1, 1),
        openMinor: 115,
        highMinor: 118,
        lowMinor: 80,
        closeMinor: 86,
        volumeShares: 75,
        turnoverMinor: null,
      },
    ]);
  });
  it('lastCandles pages with `before`', () => {
    const m = aggregateDaily(rows, '1M');
    expect(lastCandles(m, 2).map((c) => c.ts)).toEqual([tpe(2026, 1, 1), tpe(2026, 2, 1)]);
    expect(lastCandles(m, 5, tpe(2026, 2, 1)).map((c) => c.ts)).toEqual([tpe(2025, 12, 1), tpe(2026, 1, 1)]);
    expect(lastCandles(m, 0)).toEqual([]);
  });
});
