/**
 * Whole-market rankings (server/modules/market/rankings.ts) on hand-made quotes: gainers and
 * losers by change % with the symbol tie-break, volume and turnover, not-traded instruments last
 * and labelled by `traded`, filters (exchange, security type, ETF category, industry), breadth,
 * and the snapshot's refresh: never more than once a second, always within a second of a change.
 */
import { describe, expect, it } from 'vitest';
import type { ClockState, Instrument, Quote } from '../../contract/market';
import type { MarketFeed } from '../../server/market/feed';
import {
  computeBreadth,
  createRankings,
  matchesFilter,
  rankQuotes,
  sessionFinished,
} from '../../server/modules/market/rankings';
import { replayClock } from './support/replay-clock';

const quote = (
  symbol: string,
  lastMinor: number,
  prevCloseMinor: number,
  extra: Partial<Quote> = {},
): Quote => ({
  symbol,
  name: symbol,
  kind: 'stock',
  lastMinor,
  openMinor: prevCloseMinor,
  highMinor: Math.max(lastMinor, prevCloseMinor),
  lowMinor: Math.min(lastMinor, prevCloseMinor),
  prevCloseMinor,
  limitUpMinor: Math.round(prevCloseMinor * 1.1),
  limitDownMinor: Math.round(prevCloseMinor * 0.9),
  bidMinor: lastMinor,
  askMinor: lastMinor,
  volumeShares: 1000,
  turnoverMinor: lastMinor * 1000,
  ts: 0,
  replayDate: '2025-05-02',
  phase: 'open',
  traded: true,
  ...extra,
});

const inst = (
  symbol: string,
  market: 'TWSE' | 'TPEx',
  securityType: Instrument['securityType'] = 'stock',
  industry: string | null = null,
): Instrument => ({
  symbol,
  name: symbol,
  nameEn: null,
  market,
  industry,
  securityType,
  kind: securityType === 'etf' ? 'etf' : 'stock',
  listingDate: null,
});

describe('rankQuotes', () => {
  // A +10 %, B +5 %, C +5 % (other fraction, same value), D −2 %, E not traded, F −2 %.
  const quotes = [
    quote('2002', 10500, 10000),
    quote('1101', 11000, 10000),
    quote('3008', 2100, 2000),
    quote('2330', 9800, 10000, { volumeShares: 5000, turnoverMinor: 49_000_000 }),
    quote('1216', 5000, 5000, { volumeShares: 0, turnoverMinor: 0, traded: false }),
    quote('1301', 4900, 5000, { volumeShares: 5000, turnoverMinor: 24_500_000 }),
  ];

  it('gainers: change % descending, ties by symbol, not-traded last', () => {
    expect(rankQuotes(quotes, 'gainers')).toEqual(['1101', '2002', '3008', '1301', '2330', '1216']);
  });

  it('losers (the loss list): change % ascending, ties by symbol, not-traded last', () => {
    expect(rankQuotes(quotes, 'losers')).toEqual(['1301', '2330', '2002', '3008', '1101', '1216']);
  });

  it('volume and turnover descending with the symbol tie-break; all in code order', () => {
    expect(rankQuotes(quotes, 'volume')).toEqual(['1301', '2330', '1101', '2002', '3008', '1216']);
    expect(rankQuotes(quotes, 'turnover')).toEqual(['2330', '1301', '1101', '2002', '3008', '1216']);
    expect(rankQuotes(quotes, 'all')).toEqual(['1101', '1216', '1301', '2002', '2330', '3008']);
  });

  it('an instrument with no trade that day goes after the traded ones; no reference price is unranked', () => {
    const q = [quote('1111', 1000, 900, { traded: false }), quote('2222', 100, 100), quote('3333', 50, 0)];
    expect(rankQuotes(q, 'gainers')).toEqual(['2222', '1111', '3333']);
  });
});

describe('filters and breadth', () => {
  const dir = [
    inst('2330', 'TWSE', 'stock', '半導體業'),
    inst('6547', 'TPEx', 'stock', '生技醫療業'),
    inst('0050', 'TWSE', 'etf'),
    inst('00679B', 'TPEx', 'etf'),
    inst('00631L', 'TWSE', 'etf'),
  ];
  const bySym = new Map(dir.map((i) => [i.symbol, i]));
  const pick = (f: Parameters<typeof matchesFilter>[1]) =>
    dir.filter((i) => matchesFilter(bySym.get(i.symbol), f)).map((i) => i.symbol);

  it('narrow by exchange, type, ETF category and industry; an unknown symbol only passes no filter', () => {
    expect(pick({ market: 'TPEx' })).toEqual(['6547', '00679B']);
    expect(pick({ securityType: 'etf' })).toEqual(['0050', '00679B', '00631L']);
    expect(pick({ securityType: 'etf', market: 'TWSE' })).toEqual(['0050', '00631L']);
    expect(pick({ etfCategory: 'bond' })).toEqual(['00679B']);
    expect(pick({ etfCategory: 'leveraged', market: 'TPEx' })).toEqual([]);
    expect(pick({ industry: '半導體業' })).toEqual(['2330']);
    expect(pick({})).toEqual(dir.map((i) => i.symbol));
    expect(matchesFilter(undefined, {})).toBe(true);
    expect(matchesFilter(undefined, { market: 'TWSE' })).toBe(false);
  });

  it('breadth counts advancers, decliners, unchanged, not traded, per exchange', () => {
    const b = computeBreadth(
      [
        quote('2330', 101, 100),
        quote('6547', 99, 100, { volumeShares: 2000, turnoverMinor: 198_000 }),
        quote('0050', 100, 100),
        quote('00679B', 100, 100, { volumeShares: 0, turnoverMinor: 0, traded: false }),
      ],
      (s) => bySym.get(s)?.market,
    );
    expect(b.all).toEqual({
      advancers: 1,
      decliners: 1,
      unchanged: 1,
      notTraded: 1,
      volumeShares: 4000,
      turnoverMinor: 101_000 + 198_000 + 100_000,
    });
    expect(b.byMarket.TPEx).toMatchObject({ advancers: 0, decliners: 1, unchanged: 0, notTraded: 1 });
    expect(b.byMarket.TWSE).toMatchObject({ advancers: 1, decliners: 0, unchanged: 1, notTraded: 0 });
  });
});

describe('estimated references and finished days', () => {
  it('an estimated reference is not ranked among gainers or losers, but in volume and turnover', () => {
    const quotes = [
      quote('6918', 13_500, 11_500, { referenceEstimated: true, volumeShares: 9_000 }),
      quote('2330', 10_200, 10_000),
      quote('2317', 9_900, 10_000),
    ];
    expect(rankQuotes(quotes, 'gainers')).toEqual(['2330', '2317', '6918']);
    expect(rankQuotes(quotes, 'losers')).toEqual(['2317', '2330', '6918']);
    expect(rankQuotes(quotes, 'volume')[0]).toBe('6918');
  });

  it('a session is finished after 13:30 on the replay clock, in the closed phase of the exchange clock', () => {
    const at = (c: Partial<ClockState>) => sessionFinished({ ...replayClock('2025-06-10'), ...c });
    expect(at({ tradingPhase: 'continuous' })).toBe(false);
    expect(at({ tradingPhase: 'closingCall' })).toBe(false);
    expect(at({ tradingPhase: 'intermission' })).toBe(true);
    expect(at({ tradingPhase: 'afterHoursEntry' })).toBe(true);
    expect(at({ tradingPhase: 'preOpen' })).toBe(false);
    expect(at({ mode: 'exchange', tradingPhase: 'closed' })).toBe(true);
    expect(at({ source: 'stress', tradingPhase: 'closed' })).toBe(false);
    expect(at({ replayDate: null, tradingPhase: 'intermission' })).toBe(false);
  });
});

describe('the snapshot', () => {
  /** A feed double whose quotes the test changes; counts listQuotes calls (one per recompute). */
  function fakeFeed(quotes: Map<string, Quote>, dir: Instrument[]) {
    let builds = 0;
    const state = { settled: true };
    const clock = replayClock(null);
    const feed = {
      listQuotes: () => {
        builds++;
        return [...quotes.values()];
      },
      quote: (s: string) => quotes.get(s),
      instruments: () => dir,
      marketOf: (s: string) => dir.find((i) => i.symbol === s)?.market,
      clock: () => clock,
      settled: () => state.settled,
    } as unknown as MarketFeed;
    return { feed, clock, state, builds: () => builds };
  }

  it('is recomputed at most once a second, and a change shows within a second', () => {
    const quotes = new Map([
      ['1101', quote('1101', 10100, 10000)],
      ['2330', quote('2330', 10200, 10000)],
    ]);
    const { feed, builds } = fakeFeed(quotes, [inst('1101', 'TWSE'), inst('2330', 'TWSE')]);
    const wall = { ms: 1_000_000 };
    const r = createRankings({ feed, now: () => wall.ms });
    expect(r.list('gainers', {}).symbols).toEqual(['2330', '1101']);
    expect(builds()).toBe(1);

    // The live feed moves 1101 ahead: requests within the second see the same snapshot …
    quotes.set('1101', quote('1101', 10500, 10000));
    for (let t = 0; t < 999; t += 111) {
      wall.ms = 1_000_000 + t;
      expect(r.list('gainers', {}).symbols).toEqual(['2330', '1101']);
      expect(r.list('volume', { market: 'TWSE' }).snapshot.computedAt).toBe(1_000_000);
    }
    expect(builds()).toBe(1);
    // … and the first request a second later sees the change.
    wall.ms = 1_001_000;
    expect(r.list('gainers', {}).symbols).toEqual(['1101', '2330']);
    expect(builds()).toBe(2);
    // Many requests and filters in the next second: still one recompute.
    for (let t = 0; t < 1000; t += 50) {
      wall.ms = 1_001_000 + t;
      r.list('losers', { securityType: 'stock' });
      r.snapshot();
    }
    expect(builds()).toBe(2);
  });

  it('keeps the last whole day while a session change is half installed, then moves to the new day', () => {
    const quotes = new Map([
      ['1101', quote('1101', 10100, 10000)],
      ['2330', quote('2330', 10200, 10000)],
    ]);
    const fake = fakeFeed(quotes, [inst('1101', 'TWSE'), inst('2330', 'TWSE')]);
    fake.clock.replayDate = '2025-05-05';
    const wall = { ms: 1_000_000 };
    const r = createRankings({ feed: fake.feed, now: () => wall.ms });
    expect(r.list('gainers', {}).symbols).toEqual(['2330', '1101']);
    // 08:30: the clock names the next day, 1101 is already on it (at its reference), 2330 not yet.
    fake.state.settled = false;
    fake.clock.replayDate = '2025-05-06';
    quotes.set('1101', quote('1101', 10100, 10100));
    for (const t of [1_000, 1_500, 3_000]) {
      wall.ms = 1_000_000 + t;
      const { snapshot, symbols } = r.list('gainers', {});
      expect(symbols).toEqual(['2330', '1101']);
      expect(snapshot.replayDate).toBe('2025-05-05');
      expect(snapshot.computedAt).toBe(1_000_000);
    }
    expect(fake.builds()).toBe(1);
    // Every instrument on the new day: the next request recomputes, labelled with it.
    fake.state.settled = true;
    quotes.set('2330', quote('2330', 10000, 10000));
    const next = r.list('gainers', {});
    expect(next.snapshot.replayDate).toBe('2025-05-06');
    expect(next.snapshot.computedAt).toBe(1_003_000);
    expect(fake.builds()).toBe(2);
  });

  it("labels the snapshot with the clock's replayed day", () => {
    const quotes = new Map([['2330', quote('2330', 1, 1, { replayDate: '2025-05-05' })]]);
    const fake = fakeFeed(quotes, []);
    const r = createRankings({ feed: fake.feed, now: () => 0 });
    expect(r.snapshot().replayDate).toBeNull(); // the fake clock has none (a live or stress source)
    fake.clock.replayDate = '2025-05-05';
    expect(createRankings({ feed: fake.feed, now: () => 0 }).snapshot().replayDate).toBe('2025-05-05');
  });

  it('lists industries by count', () => {
    const { feed } = fakeFeed(new Map(), [
      inst('2330', 'TWSE', 'stock', '半導體業'),
      inst('2454', 'TWSE', 'stock', '半導體業'),
      inst('6547', 'TPEx', 'stock', '生技醫療業'),
      inst('0050', 'TWSE', 'etf'),
    ]);
    expect(createRankings({ feed, now: () => 0 }).industries()).toEqual([
      { name: '半導體業', count: 2 },
      { name: '生技醫療業', count: 1 },
    ]);
  });
});
