/**
 * Replay source (server/market/replay.ts) on real 2330 and 0050 days (the merged seed rows that
 * importMarketData stores): day selection, the simulated trades (inside the real [low, high], on the tick table,
 * O/H/L/C and volume equal to the real day at the end), determinism, and the synthesized book.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  isOnTick,
  limitDownMinor,
  limitUpMinor,
  SHARES_PER_LOT,
  stepTicks,
} from '../../contract/market-rules';
import { readSeedMarketData } from '../../server/db/import';
import { SESSION_MS } from '../../server/market/calendar';
import {
  bookAt,
  buildSession,
  depthAt,
  lastTradeAt,
  MAX_TRADES,
  MIN_TRADES,
  REPLAY_DAYS,
  selectReplayDays,
  type DailyBar,
  type ReplayDay,
  type ReplaySession,
} from '../../server/market/replay';

const bars: Record<string, DailyBar[]> = {};

beforeAll(async () => {
  // The rows importMarketData would store (same merge), without a database.
  const { candles } = await readSeedMarketData({ symbols: ['2330', '0050'] });
  for (const symbol of ['2330', '0050']) bars[symbol] = candles.filter((c) => c.symbol === symbol);
});

/** Checks every invariant of a built session against its real day. */
function checkSession(s: ReplaySession): void {
  const { day, kind } = s;
  expect(s.count).toBeGreaterThanOrEqual(
    Math.min(MIN_TRADES / 2, Math.floor(day.volumeShares / SHARES_PER_LOT / 2)),
  );
  expect(s.count).toBeLessThanOrEqual(MAX_TRADES * 1.2);
  expect(s.offsets[0]).toBe(0);
  expect(s.prices[0]).toBe(day.openMinor);
  expect(s.offsets[s.count - 1]).toBe(SESSION_MS);
  expect(s.prices[s.count - 1]).toBe(day.closeMinor);
  expect(s.prices[s.highIndex]).toBe(day.highMinor);
  expect(s.prices[s.lowIndex]).toBe(day.lowMinor);
  let volume = 0;
  let turnover = 0;
  let hi = -Infinity;
  let lo = Infinity;
  for (let i = 0; i < s.count; i++) {
    const p = s.prices[i]!;
    // plain checks in the hot loop (thousands of expect() calls would dominate the run time)
    if (!Number.isInteger(p) || p < day.lowMinor || p > day.highMinor || !isOnTick(p, kind)) {
      throw new Error(
        `${s.symbol} ${day.date} trade ${i}: price ${p} outside [${day.lowMinor}, ${day.highMinor}] or off tick`,
      );
    }
    if (p < day.limitDownMinor || p > day.limitUpMinor)
      throw new Error(`trade ${i}: ${p} outside the daily limits`);
    if (i > 0 && s.offsets[i]! < s.offsets[i - 1]!) throw new Error(`offsets not ascending at ${i}`);
    const sh = s.shares[i]!;
    if (i < s.count - 1 && (sh <= 0 || sh % SHARES_PER_LOT !== 0))
      throw new Error(`trade ${i}: ${sh} shares is not whole lots`);
    volume += sh;
    turnover += p * sh;
    hi = Math.max(hi, p);
    lo = Math.min(lo, p);
  }
  expect(s.shares[s.count - 1]! % SHARES_PER_LOT).toBe(day.volumeShares % SHARES_PER_LOT);
  expect(volume).toBe(day.volumeShares);
  expect(s.cumVolume[s.count - 1]).toBe(day.volumeShares);
  expect(s.cumTurnover[s.count - 1]).toBe(turnover);
  expect(Number.isSafeInteger(turnover)).toBe(true);
  expect([hi, lo]).toEqual([day.highMinor, day.lowMinor]);
  expect(s.runHigh[s.count - 1]).toBe(day.highMinor);
  expect(s.runLow[s.count - 1]).toBe(day.lowMinor);
}

describe('selectReplayDays', () => {
  it('2330: the 20 most recent valid days, previous close from the previous trading day', () => {
    const days = selectReplayDays(bars['2330']!, 'stock');
    expect(days).toHaveLength(REPLAY_DAYS);
    // Data: 2330 official July 2026 (22 rows, 07-10 closed); 07-01's previous row is 06-23
    // (gap 06-24 … 06-30), so 07-01 has no reference price and the window is 07-03 … 07-31.
    expect(days[0]!.date).toBe('2026-07-03');
    expect(days.at(-1)!.date).toBe('2026-07-31');
    expect(days.map((d) => d.date)).not.toContain('2026-07-10');
    const jul13 = days.find((d) => d.date === '2026-07-13')!;
    const jul09 = bars['2330']!.find((b) => b.date === '2026-07-09')!;
    expect(jul13.prevCloseMinor).toBe(jul09.closeMinor);
    const jul31 = days.at(-1)!;
    // Real day: prev close 2205 → limit-up 2425, and 2330 closed limit-up at 2425 (MIS fixture).
    expect(jul31).toMatchObject({
      prevCloseMinor: 220_500,
      limitUpMinor: 242_500,
      limitDownMinor: 198_500,
      closeMinor: 242_500,
    });
    for (let i = 1; i < days.length; i++) expect(days[i]!.date > days[i - 1]!.date).toBe(true);
  });

  it('skips days outside the limits of the previous close (ex-rights) and days without a previous trading day', () => {
    const mk = (date: string, o: number, h: number, l: number, c: number): DailyBar => ({
      date,
      openMinor: o,
      highMinor: h,
      lowMinor: l,
      closeMinor: c,
      volumeShares: 5_000_000,
    });
    const series = [
      mk('2026-07-06', 10_000, 10_100, 9_950, 10_000),
      mk('2026-07-07', 8_600, 8_800, 8_500, 8_700), // −14 % gap: below limit-down 90.00 → skipped
      mk('2026-07-08', 8_700, 9_000, 8_600, 8_900),
      mk('2026-07-09', 8_900, 9_790, 8_900, 9_790), // 8.9 × 1.1 = 97.9 limit-up exactly → kept
      mk('2026-07-13', 9_790, 9_800, 9_700, 9_750), // previous trading day 07-09 (07-10 closed) → kept
      mk('2026-07-15', 9_750, 9_800, 9_700, 9_750), // 07-14 missing → no reference → skipped
    ];
    const days = selectReplayDays(series, 'stock');
    expect(days.map((d) => d.date)).toEqual(['2026-07-08', '2026-07-09', '2026-07-13']);
    expect(days[1]).toMatchObject({ prevCloseMinor: 8_900, limitUpMinor: 9_790, limitDownMinor: 8_010 });
  });

  it('0050 (ETF): limits and ticks of the ETF table', () => {
    const days = selectReplayDays(bars['0050']!, 'etf');
    expect(days).toHaveLength(REPLAY_DAYS);
    for (const d of days) {
      expect(d.limitUpMinor).toBe(limitUpMinor(d.prevCloseMinor, 'etf'));
      expect(d.limitDownMinor).toBe(limitDownMinor(d.prevCloseMinor, 'etf'));
    }
  });
});

describe('buildSession', () => {
  it('2330: every replay day replays inside the real [low, high], on ticks, with exact O/H/L/C and volume', () => {
    const days = selectReplayDays(bars['2330']!, 'stock');
    for (const day of days) checkSession(buildSession({ seed: 1, symbol: '2330', kind: 'stock', day }));
  });

  it('0050: ETF tick table', () => {
    const days = selectReplayDays(bars['0050']!, 'etf');
    for (const day of days.slice(-5))
      checkSession(buildSession({ seed: 3, symbol: '0050', kind: 'etf', day }));
  });

  it('many seeds on one day keep every invariant', () => {
    const day = selectReplayDays(bars['2330']!, 'stock').at(-3)!;
    for (let seed = 100; seed < 115; seed++)
      checkSession(buildSession({ seed, symbol: '2330', kind: 'stock', day }));
  });

  it('a low-volume day: fewer trades than lots, odd-share remainder on the last trade', () => {
    const day: ReplayDay = {
      date: '2026-07-09',
      openMinor: 2_000,
      highMinor: 2_050,
      lowMinor: 1_990,
      closeMinor: 2_010,
      volumeShares: 57_321, // 57 lots + 321 odd shares
      prevCloseMinor: 2_000,
      limitUpMinor: limitUpMinor(2_000),
      limitDownMinor: limitDownMinor(2_000),
    };
    const s = buildSession({ seed: 9, symbol: '9999', kind: 'stock', day });
    expect(s.count).toBeLessThanOrEqual(57);
    checkSession(s);
    expect(s.shares[s.count - 1]! % 1000).toBe(321);
  });

  it('same seed → identical trades; different seed → different path (same O/H/L/C)', () => {
    const day = selectReplayDays(bars['2330']!, 'stock').at(-1)!;
    const a = buildSession({ seed: 42, symbol: '2330', kind: 'stock', day });
    const b = buildSession({ seed: 42, symbol: '2330', kind: 'stock', day });
    const c = buildSession({ seed: 43, symbol: '2330', kind: 'stock', day });
    expect(Array.from(b.offsets)).toEqual(Array.from(a.offsets));
    expect(Array.from(b.prices)).toEqual(Array.from(a.prices));
    expect(Array.from(b.shares)).toEqual(Array.from(a.shares));
    expect(depthAt(b, 100)).toEqual(depthAt(a, 100));
    expect(Array.from(c.prices)).not.toEqual(Array.from(a.prices));
    expect(Array.from(c.offsets)).not.toEqual(Array.from(a.offsets));
    expect([c.prices[0], c.prices[c.count - 1]]).toEqual([a.prices[0], a.prices[a.count - 1]]);
  });

  it('lastTradeAt finds the last trade at or before an offset', () => {
    const s = buildSession({
      seed: 5,
      symbol: '2330',
      kind: 'stock',
      day: selectReplayDays(bars['2330']!, 'stock')[0]!,
    });
    expect(lastTradeAt(s, 0)).toBe(0);
    expect(lastTradeAt(s, SESSION_MS)).toBe(s.count - 1);
    expect(lastTradeAt(s, SESSION_MS - 1)).toBe(s.count - 2);
    const mid = s.offsets[500]!;
    const i = lastTradeAt(s, mid);
    expect(s.offsets[i]).toBe(mid);
    expect(i === s.count - 1 || s.offsets[i + 1]! > mid).toBe(true);
  });
});

describe('depth', () => {
  function checkDepth(s: ReplaySession, i: number): void {
    const last = s.prices[i]!;
    const { bidMinor, askMinor } = bookAt(s, i);
    const { bids, asks } = depthAt(s, i);
    const { limitUpMinor: up, limitDownMinor: down } = s.day;
    const fail = (msg: string) => {
      throw new Error(`${s.symbol} ${s.day.date} trade ${i}: ${msg}`);
    };
    if (!(bidMinor < askMinor && bidMinor <= last && last <= askMinor))
      fail(`bid ${bidMinor} last ${last} ask ${askMinor}`);
    if (stepTicks(bidMinor, 1, s.kind) !== askMinor) fail('spread is not one tick');
    if (bids[0]!.priceMinor !== bidMinor || asks[0]!.priceMinor !== askMinor)
      fail('book best ≠ quote bid/ask');
    if (bids.length > 5 || asks.length > 5) fail('more than 5 levels');
    if (stepTicks(bidMinor, -4, s.kind) >= down && bids.length !== 5)
      fail('bids cut short away from the limit');
    if (stepTicks(askMinor, 4, s.kind) <= up && asks.length !== 5) fail('asks cut short away from the limit');
    bids.forEach((l, k) => {
      if (l.priceMinor !== stepTicks(bidMinor, -k, s.kind) || l.priceMinor < down)
        fail(`bid level ${k} at ${l.priceMinor}`);
      if (!Number.isInteger(l.volumeLots) || l.volumeLots < 1) fail(`bid level ${k} volume ${l.volumeLots}`);
    });
    asks.forEach((l, k) => {
      if (l.priceMinor !== stepTicks(askMinor, k, s.kind) || l.priceMinor > up)
        fail(`ask level ${k} at ${l.priceMinor}`);
      if (!Number.isInteger(l.volumeLots) || l.volumeLots < 1) fail(`ask level ${k} volume ${l.volumeLots}`);
    });
  }

  it('book invariants after every trade of 2330 and 0050 days', () => {
    for (const day of selectReplayDays(bars['2330']!, 'stock').slice(-2)) {
      const s = buildSession({ seed: 1, symbol: '2330', kind: 'stock', day });
      for (let i = 0; i < s.count; i++) checkDepth(s, i);
    }
    const s2 = buildSession({
      seed: 1,
      symbol: '0050',
      kind: 'etf',
      day: selectReplayDays(bars['0050']!, 'etf').at(-1)!,
    });
    for (let i = 0; i < s2.count; i++) checkDepth(s2, i);
  });

  it('at limit-up (2330 on 2026-07-31) the ask side stops at the limit', () => {
    const day = selectReplayDays(bars['2330']!, 'stock').at(-1)!;
    const s = buildSession({ seed: 1, symbol: '2330', kind: 'stock', day });
    const last = s.count - 1;
    expect(s.prices[last]).toBe(242_500);
    checkDepth(s, last);
    const { bids, asks } = depthAt(s, last);
    expect(asks.map((l) => l.priceMinor)).toEqual([242_500]);
    expect(bids.map((l) => l.priceMinor)).toEqual([242_000, 241_500, 241_000, 240_500, 240_000]);
  });

  it('at limit-down the bid side stops at the limit', () => {
    const day: ReplayDay = {
      date: '2026-07-09',
      openMinor: 10_000,
      highMinor: 10_000,
      lowMinor: 9_000,
      closeMinor: 9_000,
      volumeShares: 2_000_000,
      prevCloseMinor: 10_000,
      limitUpMinor: 11_000,
      limitDownMinor: 9_000,
    };
    const s = buildSession({ seed: 2, symbol: '9999', kind: 'stock', day });
    checkSession(s);
    const { bids, asks } = depthAt(s, s.count - 1);
    expect(bids.map((l) => l.priceMinor)).toEqual([9_000]);
    expect(asks.map((l) => l.priceMinor)).toEqual([9_010, 9_020, 9_030, 9_040, 9_050]);
  });
});
