/**
 * Replay source (server/market/replay.ts) on real 2330 and 0050 days (the merged seed rows that
 * importMarketData stores) with their reference prices (server/market/reference.ts): reference
 * classes, the simulated trades (inside the real [low, high], on the tick table, O/H/L/C and
 * volume equal to the real day at the end, no prints in the closing call), thin days,
 * determinism, and the synthesized book.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  isOnTick,
  limitDownMinor,
  limitUpMinor,
  SHARES_PER_LOT,
  stepTicks,
} from '../../contract/market-rules';
import { readSeedMarketData } from '../../server/market/import';
import { previousTradingDay, SESSION_MS } from '../../server/market/calendar';
import {
  dayReference,
  loadCorporateActions,
  NO_LIMIT_BAND,
  replayDayOf,
  type CorporateActions,
} from '../../server/market/reference';
import {
  bookAt,
  buildSession,
  CLOSING_CALL_MS,
  depthAt,
  lastTradeAt,
  MAX_TRADES,
  MIN_TRADES,
  sessionStats,
  type DailyBar,
  type ReplayDay,
  type ReplaySession,
} from '../../server/market/replay';

const bars: Record<string, DailyBar[]> = {};
let actions: CorporateActions;

beforeAll(async () => {
  // The rows importMarketData would store (same merge), without a database.
  const { candles } = await readSeedMarketData({ symbols: ['2330', '0050'] });
  for (const symbol of ['2330', '0050']) bars[symbol] = candles.filter((c) => c.symbol === symbol);
  actions = await loadCorporateActions();
});

/**
 * Every bar of `symbol` after its first as a ReplayDay with its reference (reference.ts, the
 * previous row as the previous traded day), keeping the last 20 days whose band is the exchange's rule.
 */
function replayDays(symbol: string, kind: 'stock' | 'etf'): ReplayDay[] {
  const list = bars[symbol]!;
  const out: ReplayDay[] = [];
  for (let i = 1; i < list.length; i++) {
    const bar = list[i]!;
    const prev = list[i - 1]!;
    if (bar.volumeShares < 4) continue;
    const ref = dayReference({
      code: symbol,
      date: bar.date,
      kind,
      limitClass: { cls: kind, multiple: 1 },
      bar,
      prevCloseMinor: prev.closeMinor,
      afterGap: prev.date !== previousTradingDay(bar.date),
      actions,
    })!;
    if (ref.fit === 'rule') out.push(replayDayOf(bar, ref));
  }
  return out.slice(-20);
}

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
  // The closing call: no prints in 13:25–13:30 but the single 13:30:00 print.
  expect(s.offsets[s.count - 2]).toBeLessThan(CLOSING_CALL_MS);
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
    const thin = day.volumeShares < s.count * SHARES_PER_LOT;
    if (sh <= 0 || (!thin && i < s.count - 1 && sh % SHARES_PER_LOT !== 0))
      throw new Error(`trade ${i}: ${sh} shares is not whole lots`);
    volume += sh;
    turnover += p * sh;
    hi = Math.max(hi, p);
    lo = Math.min(lo, p);
  }
  if (day.volumeShares >= s.count * SHARES_PER_LOT)
    expect(s.shares[s.count - 1]! % SHARES_PER_LOT).toBe(day.volumeShares % SHARES_PER_LOT);
  expect(volume).toBe(day.volumeShares);
  expect(sessionStats(s, s.count)).toEqual({
    volumeShares: day.volumeShares,
    turnoverMinor: turnover,
    highMinor: day.highMinor,
    lowMinor: day.lowMinor,
  });
  expect(Number.isSafeInteger(turnover)).toBe(true);
  expect([hi, lo]).toEqual([day.highMinor, day.lowMinor]);
}

describe('reference prices (reference.ts)', () => {
  const bar = (o: number, h: number, l: number, c: number) => ({
    openMinor: o,
    highMinor: h,
    lowMinor: l,
    closeMinor: c,
  });
  const stock = { cls: 'stock', multiple: 1 } as const;
  const base = { kind: 'stock' as const, afterGap: false, limitClass: stock };

  it('previous close; an ex-dividend day opens on the exchange reference (2330 2025-06-12: 1,065 → 1,060.49)', () => {
    const normal = dayReference({
      ...base,
      code: '9999',
      date: '2026-07-09',
      bar: bar(8_900, 9_790, 8_900, 9_790),
      prevCloseMinor: 8_900,
      actions,
    });
    expect(normal).toMatchObject({ referenceMinor: 8_900, limitUpMinor: 9_790, limitDownMinor: 8_010 });
    expect(normal).toMatchObject({ basis: 'previousClose', fit: 'rule', referenceEstimated: false });
    const jun12 = bars['2330']!.find((b) => b.date === '2025-06-12')!;
    const ex = dayReference({
      ...base,
      code: '2330',
      date: '2025-06-12',
      bar: jun12,
      prevCloseMinor: 106_500,
      actions,
    })!;
    expect(ex).toMatchObject({
      referenceMinor: 106_049,
      basis: 'exRights',
      fit: 'rule',
      referenceEstimated: false,
    });
    expect([ex.limitUpMinor, ex.limitDownMinor]).toEqual([limitUpMinor(106_049), limitDownMinor(106_049)]);
  });

  it('a split day (0050 2025-06-18, 1:4) takes last close ÷ 4, flagged as an estimate (no published reference)', () => {
    const jun18 = bars['0050']!.find((b) => b.date === '2025-06-18')!;
    const r = dayReference({
      ...base,
      kind: 'etf',
      limitClass: { cls: 'etf', multiple: 1 },
      afterGap: true,
      code: '0050',
      date: '2025-06-18',
      bar: jun18,
      prevCloseMinor: 18_865,
      actions,
    })!;
    expect(r).toMatchObject({ referenceMinor: 4_716, basis: 'split', fit: 'rule', referenceEstimated: true });
    expect([r.limitUpMinor, r.limitDownMinor]).toEqual([
      limitUpMinor(4_716, 'etf'),
      limitDownMinor(4_716, 'etf'),
    ]);
    expect(jun18.openMinor).toBeGreaterThanOrEqual(r.limitDownMinor!);
  });

  it('a face-value change (4763 2025-06-30, NT$10 → NT$1: 1 → 10) takes last close × 1 ÷ 10', () => {
    expect(actions.splits.get('4763|2025-06-30')).toEqual({
      lastTradeDate: '2025-06-18',
      oldShares: 1,
      newShares: 10,
      referenceMinor: null,
    });
    const r = dayReference({
      ...base,
      afterGap: true,
      code: '4763',
      date: '2025-06-30',
      bar: bar(9_020, 9_350, 8_890, 9_050),
      prevCloseMinor: 88_500,
      actions,
    })!;
    expect(r).toMatchObject({ referenceMinor: 8_850, basis: 'split', referenceEstimated: true });
  });

  it('days outside their band: capital change after a gap (open, estimated), otherwise widened and flagged; never a clamp', () => {
    const after = dayReference({
      ...base,
      afterGap: true,
      code: '9999',
      date: '2026-07-09',
      bar: bar(1_165, 1_235, 1_105, 1_125),
      prevCloseMinor: 317,
      actions,
    })!;
    expect(after).toMatchObject({
      referenceMinor: 1_165,
      basis: 'open',
      fit: 'capitalChange',
      referenceEstimated: true,
    });
    const odd = dayReference({
      ...base,
      kind: 'etf',
      limitClass: { cls: 'etf', multiple: 1 },
      code: '020027',
      date: '2025-04-08',
      bar: bar(450, 450, 450, 450),
      prevCloseMinor: 503,
      actions,
    })!;
    expect(odd).toMatchObject({ referenceMinor: 503, fit: 'unexplained', referenceEstimated: true });
    expect([odd.limitUpMinor, odd.limitDownMinor]).toEqual([limitUpMinor(503, 'etf'), 450]);
    expect(
      dayReference({ ...base, code: '9999', date: '2026-07-09', bar: null, prevCloseMinor: null, actions }),
    ).toBeNull();
  });

  it('the class, not the day, sets the band: a 2× ETF ±20 %, a foreign-index ETF and a new listing none', () => {
    const lev = dayReference({
      ...base,
      kind: 'etf',
      limitClass: { cls: 'leveragedEtf', multiple: 2 },
      code: '00631L',
      date: '2025-04-07',
      bar: bar(16_025, 16_025, 16_025, 16_025),
      prevCloseMinor: 20_030,
      actions,
    })!;
    expect(lev).toMatchObject({ referenceMinor: 20_030, limitClass: 'leveragedEtf', fit: 'rule' });
    expect([lev.limitUpMinor, lev.limitDownMinor]).toEqual([24_035, 16_025]);
    const foreign = dayReference({
      ...base,
      kind: 'etf',
      limitClass: { cls: 'foreignIndexEtf', multiple: 1 },
      code: '00941',
      date: '2025-04-07',
      bar: bar(1_000, 1_123, 1_000, 1_111),
      prevCloseMinor: 1_297,
      actions,
    })!;
    expect(foreign).toMatchObject({
      limitUpMinor: null,
      limitDownMinor: null,
      fit: 'rule',
      referenceEstimated: false,
    });
    const listing = dayReference({
      ...base,
      limitClass: { cls: 'newListing', multiple: 1 },
      code: '6918',
      date: '2025-06-10',
      bar: bar(11_500, 13_600, 11_500, 13_500),
      prevCloseMinor: null,
      actions,
    })!;
    expect(listing).toMatchObject({
      referenceMinor: 11_500,
      basis: 'open',
      limitClass: 'newListing',
      limitUpMinor: null,
      referenceEstimated: true,
    });
    expect(
      replayDayOf(
        { date: '2025-06-10', ...listing, ...bar(11_500, 13_600, 11_500, 13_500), volumeShares: 9_000 },
        listing,
      ),
    ).toMatchObject({
      limitUpMinor: NO_LIMIT_BAND.upMinor,
      limitDownMinor: NO_LIMIT_BAND.downMinor,
      turnoverMinor: null,
    });
  });
});

describe('buildSession', () => {
  it('2330: every replay day replays inside the real [low, high], on ticks, with exact O/H/L/C and volume', () => {
    const days = replayDays('2330', 'stock');
    for (const day of days) checkSession(buildSession({ seed: 1, symbol: '2330', kind: 'stock', day }));
  });

  it('0050: ETF tick table', () => {
    const days = replayDays('0050', 'etf');
    for (const day of days.slice(-5))
      checkSession(buildSession({ seed: 3, symbol: '0050', kind: 'etf', day }));
  });

  it('many seeds on one day keep every invariant', () => {
    const day = replayDays('2330', 'stock').at(-3)!;
    for (let seed = 100; seed < 115; seed++)
      checkSession(buildSession({ seed, symbol: '2330', kind: 'stock', day }));
  });

  it('a thin day (3 lots): four prints split the shares, exact O/H/L/C and volume', () => {
    const day: ReplayDay = {
      date: '2026-07-09',
      openMinor: 2_000,
      highMinor: 2_050,
      lowMinor: 1_990,
      closeMinor: 2_010,
      volumeShares: 3_100,
      turnoverMinor: null,
      prevCloseMinor: 2_000,
      limitUpMinor: limitUpMinor(2_000),
      limitDownMinor: limitDownMinor(2_000),
    };
    const s = buildSession({ seed: 9, symbol: '9999', kind: 'stock', day });
    expect(s.count).toBe(4);
    checkSession(s);
  });

  it('a low-volume day: fewer trades than lots, odd-share remainder on the last trade', () => {
    const day: ReplayDay = {
      date: '2026-07-09',
      openMinor: 2_000,
      highMinor: 2_050,
      lowMinor: 1_990,
      closeMinor: 2_010,
      volumeShares: 57_321, // 57 lots + 321 odd shares
      turnoverMinor: null,
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
    const day = replayDays('2330', 'stock').at(-1)!;
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
      day: replayDays('2330', 'stock')[0]!,
    });
    expect(lastTradeAt(s, 0)).toBe(0);
    expect(lastTradeAt(s, SESSION_MS)).toBe(s.count - 1);
    expect(lastTradeAt(s, SESSION_MS - 1)).toBe(s.count - 2);
    expect(lastTradeAt(s, CLOSING_CALL_MS)).toBe(s.count - 2);
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
    for (const day of replayDays('2330', 'stock').slice(-2)) {
      const s = buildSession({ seed: 1, symbol: '2330', kind: 'stock', day });
      for (let i = 0; i < s.count; i++) checkDepth(s, i);
    }
    const s2 = buildSession({
      seed: 1,
      symbol: '0050',
      kind: 'etf',
      day: replayDays('0050', 'etf').at(-1)!,
    });
    for (let i = 0; i < s2.count; i++) checkDepth(s2, i);
  });

  it('at limit-up (2330 on 2026-07-31) the ask side stops at the limit', () => {
    const day = replayDays('2330', 'stock').at(-1)!;
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
      turnoverMinor: null,
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
