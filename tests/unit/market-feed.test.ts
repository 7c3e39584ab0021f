/**
 * Market feed (server/market/feed.ts) over real data for 2330, 2317 and 0050 in a throw-away
 * PGlite, driven by an injected wall clock: contract shapes, a seeded fuzz test of live candle
 * aggregation against a from-scratch recomputation, session rollover, session builds spread
 * over ticks (counted per tick, never timed), the tape (onTrade/trades), daily/monthly candles
 * from daily_candles, `since`, exchange mode, and the TAIEX item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  candleSchema,
  clockStateSchema,
  depthSchema,
  indexItemSchema,
  quoteSchema,
  tradeSchema,
  type Candle,
  type CandlePeriod,
  type Quote,
  type Trade,
} from '../../contract/market';
import type { Database } from '../../server/db/client';
import { memoryDatabase } from '../support/db-template';
import { importMarketData } from '../../server/market/import';
import { dayStartMs, SESSION_MS, sessionStartMs } from '../../server/market/calendar';
import { aggregateTrades, INTRADAY_PERIODS, type DailyRow } from '../../server/market/candles';
import { createClock, DEFAULT_ANCHOR_MS } from '../../server/market/clock';
import {
  ADVANCE_CHUNK_TRADES,
  createMarketFeed,
  loadDailyRows,
  MAX_BUILD_TRADES_PER_TICK,
  TICK_INTERVAL_MS,
  TRADES_RING,
  type MarketFeed,
} from '../../server/market/feed';
import { createRng } from '../../server/market/prng';
import {
  dayReference,
  loadCorporateActions,
  replayDayOf,
  type CorporateActions,
} from '../../server/market/reference';
import {
  bookAt,
  buildSession,
  expectedTradeCount,
  lastTradeAt,
  type ReplaySession,
} from '../../server/market/replay';
import {
  replayWindow,
  WINDOW_FIRST_DATE,
  WINDOW_LAST_DATE,
  type ReplayWindow,
} from '../../server/market/window';

const SYMBOLS = ['2330', '2317', '0050'];
const KIND: Record<string, 'stock' | 'etf'> = { '2330': 'stock', '2317': 'stock', '0050': 'etf' };
const SEED = 7;
const tpe = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h - 8, mi, s);

let database: Database;
const rows: Record<string, DailyRow[]> = {};
const feeds: MarketFeed[] = [];
let win: ReplayWindow;
let actions: CorporateActions;

beforeAll(async () => {
  database = (await memoryDatabase()).database;
  await importMarketData(database.db, { symbols: SYMBOLS });
  for (const s of SYMBOLS) {
    rows[s] = await loadDailyRows(database.db, s);
  }
  const inWindow = (d: string) => d >= WINDOW_FIRST_DATE && d <= WINDOW_LAST_DATE;
  win = replayWindow(
    [...new Set(SYMBOLS.flatMap((s) => rows[s]!.map((r) => r.date).filter(inWindow)))].sort(),
  );
  actions = await loadCorporateActions();
});

/** Trades printed once market time reaches `offsetMs` (feed.ts: prints strictly before it; the close at the end). */
const printedAt = (s: ReplaySession, offsetMs: number): number =>
  offsetMs >= SESSION_MS ? s.count : lastTradeAt(s, offsetMs - 1) + 1;
afterAll(async () => {
  for (const f of feeds) f.stop();
  await database?.close();
});

/**
 * The session the feed should be replaying for `symbol` in clock session k (independent rebuild:
 * the window's day k, the previous traded row in the window as the previous close).
 */
function expectedSession(symbol: string, k: number): ReplaySession {
  const date = win.dateOf(k);
  const list = rows[symbol]!.filter((r) => r.date >= WINDOW_FIRST_DATE && r.date <= date);
  const bar = list.at(-1)!;
  if (bar.date !== date) throw new Error(`${symbol} not traded on ${date}`);
  const prev = list.at(-2)!;
  const d = win.dates.indexOf(date);
  const ref = dayReference({
    code: symbol,
    date,
    kind: KIND[symbol]!,
    limitClass: { cls: KIND[symbol]!, multiple: 1 },
    bar,
    prevCloseMinor: prev.closeMinor,
    afterGap: prev.date !== win.dates[d - 1],
    actions,
  })!;
  return buildSession({ seed: SEED, symbol, kind: KIND[symbol]!, day: replayDayOf(bar, ref) });
}

async function replayFeed(wall: { ms: number }, speed = 60): Promise<MarketFeed> {
  const clock = createClock({ mode: 'replay', speed, now: () => wall.ms });
  const feed = createMarketFeed({ db: database.db, clock, seed: SEED, symbols: SYMBOLS });
  await feed.start({ timer: false });
  feeds.push(feed);
  return feed;
}

describe('feed basics', () => {
  it('lists the tradable instruments with contract-valid quotes, depth and clock', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS + 60_000 }; // speed 60: one hour into session 0
    const feed = await replayFeed(wall);
    const quotes = feed.listQuotes();
    expect(quotes.map((q) => q.symbol)).toEqual(['0050', '2317', '2330']);
    for (const q of quotes) {
      quoteSchema.parse(q);
      const d = depthSchema.parse(feed.depth(q.symbol));
      expect([d.bids[0]!.priceMinor, d.asks[0]!.priceMinor]).toEqual([q.bidMinor, q.askMinor]);
      expect(q.bidMinor <= q.lastMinor && q.lastMinor <= q.askMinor).toBe(true);
      expect(q.phase).toBe('open');
      expect(q.ts).toBeLessThanOrEqual(sessionStartMs(q.replayDate!) + 60 * 60_000);
      expect(q.ts).toBeGreaterThanOrEqual(sessionStartMs(q.replayDate!));
    }
    expect(feed.isTradable('2330')).toBe(true);
    expect(feed.isTradable('1101')).toBe(false);
    expect(feed.kind('0050')).toBe('etf');
    expect(feed.kind('2330')).toBe('stock');
    expect(feed.kind('9999')).toBeUndefined();
    expect(feed.quote('9999')).toBeUndefined();
    const clock = clockStateSchema.parse(feed.clock());
    expect(clock).toMatchObject({ mode: 'replay', phase: 'open', speed: 60 });
    // market time = 10:00 on the replay date most instruments share; here all three differ
    // (0050 2025, 2317 2026-05/06, 2330 2026-07), so the tie goes to the latest: 2330's.
    expect(clock.now).toBe(sessionStartMs(feed.quote('2330')!.replayDate!) + 60 * 60_000);
  });

  it('TAIEX of the replayed date: its previous close before the open (an estimate), its official close once the day is done', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS }; // 09:00 of session 0 = 2025-04-07
    const feed = await replayFeed(wall);
    const items = feed.indices();
    expect(items).toHaveLength(1);
    expect(indexItemSchema.parse(items[0])).toEqual({
      code: 'TAIEX',
      name: '發行量加權股價指數',
      lastMinor: 2_129_822, // nothing printed yet: the previous close
      prevCloseMinor: 2_129_822, // 2025-04-02 close 21,298.22 (04-03/04 were holidays)
      date: '2025-04-07',
      estimate: true,
    });
    wall.ms = wallAt60(0, SESSION_MS); // 13:30: the day is done
    feed.tick();
    expect(indexItemSchema.parse(feed.indices()[0])).toEqual({
      code: 'TAIEX',
      name: '發行量加權股價指數',
      lastMinor: 1_923_235, // 2025-04-07 official close 19,232.35
      prevCloseMinor: 2_129_822,
      date: '2025-04-07',
      estimate: false,
    });
  });
});

describe('live aggregation (seeded fuzz)', () => {
  it('candles emitted through tick() at random steps equal a recomputation from the trades', async () => {
    const rng = createRng('feed-fuzz', 1);
    // start 37 % into session 3 at speed 60 (1 wall ms = 60 market ms)
    const wall = { ms: wallAt60(3, Math.floor(0.37 * SESSION_MS)) };
    const feed = await replayFeed(wall);
    const clock = createClock({ mode: 'replay', speed: 60, now: () => wall.ms });

    const emitted = new Map<string, Candle>(); // `${symbol}|${period}|${ts}` → last emission
    const quotes = new Map<string, Quote[]>(SYMBOLS.map((s) => [s, []]));
    feed.onCandle((symbol, period, c) => {
      candleSchema.parse(c);
      emitted.set(`${symbol}|${period}|${c.ts}`, c);
    });
    feed.onQuote((q) => quotes.get(q.symbol)!.push(q));

    // Before any tick: candles since 09:00 of session 3 are already there (start mid-session).
    for (const s of SYMBOLS) {
      const sess = expectedSession(s, 3);
      const n = printedAt(sess, clock.position().offsetMs);
      const base = sessionStartMs(sess.day.date);
      for (const p of INTRADAY_PERIODS)
        expect(await feed.candles(s, p, 1000)).toEqual(aggregateTrades(sess, n, p, base));
    }

    let steps = 0;
    while (clock.position().session < 5 || clock.position().offsetMs < 0.5 * SESSION_MS) {
      // random wall step 0 … 12 s (0 … 12 market minutes), sometimes exactly 0, sometimes 200 ms
      const r = rng.next();
      wall.ms += r < 0.1 ? 0 : r < 0.4 ? 200 : Math.floor(rng.next() * 12_000);
      feed.tick();
      steps++;
      if (steps % 25 === 0) {
        const pos = clock.position();
        const sess = expectedSession('2330', pos.session);
        const n = printedAt(sess, pos.offsetMs);
        expect(await feed.candles('2330', '3m', 1000)).toEqual(
          aggregateTrades(sess, n, '3m', sessionStartMs(sess.day.date)),
        );
      }
    }
    expect(steps).toBeGreaterThan(100);

    for (const s of SYMBOLS) {
      // Session 4 ran entirely live: every bucket was emitted, and its final state is exact.
      const s4 = expectedSession(s, 4);
      const base4 = sessionStartMs(s4.day.date);
      for (const p of INTRADAY_PERIODS) {
        const expected = aggregateTrades(s4, s4.count, p, base4);
        const got = [...emitted.entries()]
          .filter(([k]) => k.startsWith(`${s}|${p}|`))
          .map(([, c]) => c)
          .filter((c) => c.ts >= base4 && c.ts < base4 + SESSION_MS)
          .sort((a, b) => a.ts - b.ts);
        expect(got, `${s} ${p}`).toEqual(expected);
        // 1m: the closing call (13:25–13:30) has no continuous prints, so the buckets 13:25–13:28
        // are empty and the 13:30 close lands in the 13:29 bucket: 270 − 4; longer periods all print.
        expect(expected).toHaveLength(p === '1m' ? 266 : 270 / Number.parseInt(p, 10));
      }
      // one quote per trade; the last one reproduces the real day
      // the new day's reference quote (cursor 0, pre-open), then one quote per trade
      const q4all = quotes.get(s)!.filter((q) => q.replayDate === s4.day.date);
      expect(q4all[0]).toMatchObject({ lastMinor: s4.day.prevCloseMinor, volumeShares: 0 });
      const q4 = q4all.slice(1);
      expect(q4).toHaveLength(s4.count);
      expect(q4.at(-1)).toMatchObject({
        openMinor: s4.day.openMinor,
        highMinor: s4.day.highMinor,
        lowMinor: s4.day.lowMinor,
        lastMinor: s4.day.closeMinor,
        volumeShares: s4.day.volumeShares,
        prevCloseMinor: s4.day.prevCloseMinor,
        ts: base4 + SESSION_MS,
      });
      // the 1d candle emitted for session 4 ends equal to the real daily bar
      expect(emitted.get(`${s}|1d|${dayStartMs(s4.day.date)}`)).toMatchObject({
        openMinor: s4.day.openMinor,
        highMinor: s4.day.highMinor,
        lowMinor: s4.day.lowMinor,
        closeMinor: s4.day.closeMinor,
        volumeShares: s4.day.volumeShares,
      });

      // Session 3 (started mid-way): the emitted buckets equal the recomputation.
      const s3 = expectedSession(s, 3);
      const base3 = sessionStartMs(s3.day.date);
      const full3 = aggregateTrades(s3, s3.count, '1m', base3);
      const got3 = [...emitted.entries()]
        .filter(([k]) => k.startsWith(`${s}|1m|`))
        .map(([, c]) => c)
        .filter((c) => c.ts >= base3 && c.ts < base3 + SESSION_MS);
      expect(got3.length).toBeGreaterThan(100);
      for (const c of got3) expect(c).toEqual(full3.find((x) => x.ts === c.ts));

      // Session 5 (in progress): live state equals the recomputation of the trades so far.
      const pos = clock.position();
      const s5 = expectedSession(s, 5);
      const n5 = printedAt(s5, pos.offsetMs);
      for (const p of INTRADAY_PERIODS) {
        expect(await feed.candles(s, p, 1000)).toEqual(
          aggregateTrades(s5, n5, p, sessionStartMs(s5.day.date)),
        );
      }
      const q5 = quotes.get(s)!.filter((q) => q.replayDate === s5.day.date && q.volumeShares > 0);
      expect(q5[0]).toMatchObject({
        prevCloseMinor: s5.day.prevCloseMinor,
        lastMinor: s5.day.openMinor,
        ts: sessionStartMs(s5.day.date),
      });
      expect(feed.quote(s)).toEqual(q5.at(-1));
    }
  });
});

describe('session rollover and jumps', () => {
  it('moves to the next replay day with its own previous close', async () => {
    const wall = { ms: wallAt60(0, SESSION_MS - 1_000) }; // 1 s before the end of session 0
    const feed = await replayFeed(wall);
    const before = feed.quote('2330')!;
    const s0 = expectedSession('2330', 0);
    const s1 = expectedSession('2330', 1);
    expect(before.replayDate).toBe(s0.day.date);
    const seen: Quote[] = [];
    feed.onQuote((q) => q.symbol === '2330' && seen.push(q));
    wall.ms += 200; // crosses 13:30: the closing print
    feed.tick();
    wall.ms = wallAt60(1, 1_000); // 09:00:01 of session 1
    feed.tick();
    const closing = seen.filter((q) => q.replayDate === s0.day.date).at(-1)!;
    expect(closing).toMatchObject({
      lastMinor: s0.day.closeMinor,
      volumeShares: s0.day.volumeShares,
      ts: sessionStartMs(s0.day.date) + SESSION_MS,
    });
    const q = feed.quote('2330')!;
    expect(q.replayDate).toBe(s1.day.date);
    expect(q.prevCloseMinor).toBe(s1.day.prevCloseMinor);
    expect(q.openMinor).toBe(s1.day.openMinor);
    expect(q.limitUpMinor).toBe(s1.day.limitUpMinor);
    const oneMin = await feed.candles('2330', '1m', 1000);
    expect(oneMin.every((c) => c.ts >= sessionStartMs(s1.day.date))).toBe(true);
  });

  it('a jump of many sessions rebuilds and emits one snapshot per instrument', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS + 1_000 };
    const feed = await replayFeed(wall);
    const seen: Quote[] = [];
    feed.onQuote((q) => seen.push(q));
    wall.ms = wallAt60(10, 61 * 60_000); // + 10 sessions + 1 market hour
    // Builds are spread over ticks (a per-tick budget): tick until every instrument has moved.
    const moved = () => SYMBOLS.every((s) => seen.some((q) => q.symbol === s && q.volumeShares > 0));
    for (let i = 0; i < 5 && !moved(); i++) feed.tick();
    for (const s of SYMBOLS) {
      const sk = expectedSession(s, 10);
      const mine = seen.filter((q) => q.symbol === s);
      // at most the new day's reference quote (cursor 0, not built yet), then one snapshot
      expect(mine.length, s).toBeLessThanOrEqual(2);
      if (mine.length === 2)
        expect(mine[0]).toMatchObject({
          replayDate: sk.day.date,
          lastMinor: sk.day.prevCloseMinor,
          volumeShares: 0,
        });
      expect(mine.at(-1)).toMatchObject({
        replayDate: sk.day.date,
        volumeShares: sk.shares.slice(0, printedAt(sk, 61 * 60_000)).reduce((a, b) => a + b, 0),
      });
      expect(feed.quote(s)).toEqual(mine.at(-1));
    }
  });

  it('stays deterministic across feeds with the same seed', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS + 2 * 60_000 };
    const a = await replayFeed(wall);
    const b = await replayFeed(wall);
    expect(b.listQuotes()).toEqual(a.listQuotes());
    expect(b.depth('2317')).toEqual(a.depth('2317'));
  });
});

describe('daily, monthly and yearly candles', () => {
  it('1d: history strictly before the replay date plus the in-progress day', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS + 30_000 };
    const feed = await replayFeed(wall);
    const q = feed.quote('2330')!;
    const hist = rows['2330']!.filter((r) => r.date < q.replayDate!);
    const d = await feed.candles('2330', '1d', 10);
    expect(d).toHaveLength(10);
    const today = d.at(-1)!;
    expect(today).toMatchObject({
      ts: dayStartMs(q.replayDate!),
      openMinor: q.openMinor,
      highMinor: q.highMinor,
      lowMinor: q.lowMinor,
      closeMinor: q.lastMinor,
      volumeShares: q.volumeShares,
    });
    const prev = hist.at(-1)!;
    expect(d.at(-2)).toEqual({
      ts: dayStartMs(prev.date),
      openMinor: prev.openMinor,
      highMinor: prev.highMinor,
      lowMinor: prev.lowMinor,
      closeMinor: prev.closeMinor,
      volumeShares: prev.volumeShares,
      turnoverMinor: prev.turnoverMinor,
    });
    for (let i = 1; i < d.length; i++) expect(d[i]!.ts).toBeGreaterThan(d[i - 1]!.ts);
    // `before` pages further back
    const older = await feed.candles('2330', '1d', 5, d[0]!.ts);
    expect(older).toHaveLength(5);
    expect(older.at(-1)!.ts).toBeLessThan(d[0]!.ts);
    expect(older.at(-1)!.ts).toBe(dayStartMs(hist.at(-10)!.date)); // d = hist[-9 …] + today
  });

  it('1M / 1y aggregate daily rows with ts at the period start in Asia/Taipei', async () => {
    const feed = await replayFeed({ ms: DEFAULT_ANCHOR_MS + 30_000 });
    const q = feed.quote('2317')!;
    const hist = rows['2317']!.filter((r) => r.date < q.replayDate!);
    const months = await feed.candles('2317', '1M', 2000);
    // a full month before the replay date and the full-market window, recomputed by hand from the rows
    const may = hist.filter((r) => r.date.startsWith('2025-03'));
    const m = months.find((c) => c.ts === tpe(2025, 3, 1))!;
    expect(m).toEqual({
      ts: tpe(2025, 3, 1),
      openMinor: may[0]!.openMinor,
      highMinor: Math.max(...may.map((r) => r.highMinor)),
      lowMinor: Math.min(...may.map((r) => r.lowMinor)),
      closeMinor: may.at(-1)!.closeMinor,
      volumeShares: may.reduce((a, r) => a + r.volumeShares, 0),
      turnoverMinor: null, // 2317 comes from the OHLCV files: no turnover
    });
    // the last month includes the in-progress day and nothing after it
    const last = months.at(-1)!;
    const month = q.replayDate!.slice(0, 7);
    expect(last.ts).toBe(dayStartMs(`${month}-01`));
    expect(last.closeMinor).toBe(q.lastMinor);
    const inMonth = hist.filter((r) => r.date.startsWith(month));
    expect(last.volumeShares).toBe(inMonth.reduce((a, r) => a + r.volumeShares, 0) + q.volumeShares);
    const years = await feed.candles('2317', '1y', 100);
    expect(years.map((c) => c.ts)).toEqual(
      Array.from({ length: Number(q.replayDate!.slice(0, 4)) - 2015 + 1 }, (_, i) => tpe(2015 + i, 1, 1)),
    );
    expect(years[0]!.openMinor).toBe(rows['2317']![0]!.openMinor);
  });

  it('official rows keep their turnover', async () => {
    const feed = await replayFeed({ ms: DEFAULT_ANCHOR_MS }); // replaying 2025-04-07
    const all = await feed.candles('2330', '1d', 2000, tpe(2025, 4, 3));
    // the full-market file's row: 2025-04-02,2330,949.00,952.00,938.00,942.00,25959820,24527234468
    expect(all.at(-1)).toEqual({
      ts: tpe(2025, 4, 2),
      openMinor: 94_900,
      highMinor: 95_200,
      lowMinor: 93_800,
      closeMinor: 94_200,
      volumeShares: 25_959_820,
      turnoverMinor: 2_452_723_446_800,
    });
  });
});

describe('exchange mode', () => {
  it('closed on a Saturday with the last session complete; opens at 09:00 on the next trading day', async () => {
    const wall = { ms: tpe(2026, 7, 11, 12, 0) }; // Saturday; 07-10 was an unscheduled closure
    const clock = createClock({ mode: 'exchange', now: () => wall.ms });
    const feed = createMarketFeed({ db: database.db, clock, seed: SEED, symbols: SYMBOLS });
    await feed.start({ timer: false });
    feeds.push(feed);
    expect(feed.clock()).toEqual({
      source: 'replay',
      mode: 'exchange',
      phase: 'closed',
      tradingPhase: 'closed',
      speed: 1,
      now: wall.ms,
      replayDate: expect.any(String),
    });
    const k = clock.position().session;
    const s = expectedSession('2330', k);
    expect(feed.quote('2330')).toMatchObject({
      phase: 'closed',
      replayDate: s.day.date,
      lastMinor: s.day.closeMinor,
      volumeShares: s.day.volumeShares,
      ts: tpe(2026, 7, 9, 13, 30), // real time of Thursday's close
    });

    const seen: Quote[] = [];
    feed.onQuote((q) => seen.push(q));
    wall.ms = tpe(2026, 7, 13, 8, 59, 59);
    feed.tick();
    expect(seen).toHaveLength(0);
    wall.ms = tpe(2026, 7, 13, 9, 0);
    feed.tick();
    const next = expectedSession('2330', k + 1);
    // 09:00:00.000: the new day at its reference, nothing printed yet (prints strictly before now)
    expect(feed.quote('2330')).toMatchObject({
      phase: 'open',
      replayDate: next.day.date,
      lastMinor: next.day.prevCloseMinor,
      volumeShares: 0,
      prevCloseMinor: next.day.prevCloseMinor,
    });
    expect(seen.filter((q) => q.symbol === '2330')).toHaveLength(1);
    wall.ms = tpe(2026, 7, 13, 9, 0, 1);
    feed.tick();
    expect(seen.filter((q) => q.symbol === '2330')[1]).toMatchObject({
      phase: 'open',
      replayDate: next.day.date,
      lastMinor: next.day.openMinor, // the opening call's print
      prevCloseMinor: next.day.prevCloseMinor,
      ts: tpe(2026, 7, 13, 9, 0),
    });
    wall.ms = tpe(2026, 7, 13, 13, 30);
    feed.tick();
    expect(feed.quote('2330')).toMatchObject({
      phase: 'closed',
      lastMinor: next.day.closeMinor,
      volumeShares: next.day.volumeShares,
    });
    const periods: CandlePeriod[] = ['1m', '30m'];
    for (const p of periods) {
      const c = await feed.candles('2330', p, 1000);
      expect(c[0]!.ts).toBe(tpe(2026, 7, 13, 9, 0));
      expect(c.at(-1)!.ts).toBe(p === '1m' ? tpe(2026, 7, 13, 13, 29) : tpe(2026, 7, 13, 13, 0));
    }
  });
});

describe('session builds spread over ticks', () => {
  /** A feed whose session builds are counted per tick. */
  async function countingFeed(wall: { ms: number }, buildTradesPerTick?: number) {
    const clock = createClock({ mode: 'replay', speed: 60, now: () => wall.ms });
    let built: ReplaySession[] = [];
    const feed = createMarketFeed({
      db: database.db,
      clock,
      seed: SEED,
      symbols: SYMBOLS,
      buildTradesPerTick,
      buildSession: (args) => {
        const s = buildSession(args);
        built.push(s);
        return s;
      },
    });
    await feed.start({ timer: false });
    feeds.push(feed);
    built = [];
    /** Ticks once; returns the sessions built during that tick. */
    const tick = () => {
      built = [];
      feed.tick();
      return built;
    };
    return { feed, clock, tick };
  }

  it('a tick builds at most its budget; the pre-build window leaves nothing to build at the rollover', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS + (0.5 * SESSION_MS) / 60 }; // mid-session 0, outside the window
    const { feed, clock, tick } = await countingFeed(wall);
    // Session 1's three days together exceed one tick's budget, so their builds must be spread.
    const need = SYMBOLS.map((s) => expectedTradeCount(expectedSession(s, 1).day));
    expect(need.reduce((a, b) => a + b, 0)).toBeGreaterThan(MAX_BUILD_TRADES_PER_TICK);

    const perTick: Array<{ session: number; built: ReplaySession[] }> = [];
    while (clock.position().session < 1 || clock.position().offsetMs < 60_000) {
      wall.ms += TICK_INTERVAL_MS;
      perTick.push({ session: clock.position().session, built: tick() });
    }
    for (const { built } of perTick) {
      const work = built.reduce((a, s) => a + expectedTradeCount(s.day), 0);
      expect(
        built.length <= 1 || work <= MAX_BUILD_TRADES_PER_TICK,
        `${built.length} builds, ${work} trades`,
      ).toBe(true);
    }
    const buildTicks = perTick.filter((t) => t.built.length > 0);
    expect(buildTicks.length).toBeGreaterThanOrEqual(2); // spread, not all in one tick
    expect(buildTicks.flatMap((t) => t.built.map((s) => s.symbol)).sort()).toEqual([...SYMBOLS].sort());
    expect(buildTicks.every((t) => t.session === 0)).toBe(true); // all pre-built before the rollover
    const rolloverTick = perTick.findIndex((t) => t.session === 1);
    expect(perTick[rolloverTick]!.built).toEqual([]);
    for (const s of SYMBOLS) expect(feed.quote(s)!.replayDate).toBe(expectedSession(s, 1).day.date);
  });

  it('without pre-built sessions a rollover builds one per tick (budget 1) and late instruments catch up trade by trade', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS + (0.1 * SESSION_MS) / 60 };
    const { feed, tick } = await countingFeed(wall, 1);
    const seen: Quote[] = [];
    feed.onQuote((q) => seen.push(q));
    wall.ms = wallAt60(1, 10 * 60_000); // 09:10 of session 1, in one step

    const first = tick();
    expect(first.map((s) => s.symbol)).toEqual(['0050']);
    // every instrument got its closing print of session 0 …
    for (const s of SYMBOLS) {
      const s0 = expectedSession(s, 0);
      expect(seen.filter((q) => q.symbol === s && q.replayDate === s0.day.date).at(-1)).toMatchObject({
        lastMinor: s0.day.closeMinor,
        volumeShares: s0.day.volumeShares,
      });
    }
    // … and the ones not built yet show the new day at its reference (cursor 0, nothing printed)
    const s1ref = expectedSession('2330', 1).day;
    expect(feed.quote('2330')).toMatchObject({
      replayDate: s1ref.date,
      lastMinor: s1ref.prevCloseMinor,
      volumeShares: 0,
    });
    expect(tick().map((s) => s.symbol)).toEqual(['2317']);
    expect(tick().map((s) => s.symbol)).toEqual(['2330']);
    expect(tick()).toEqual([]);

    for (const s of SYMBOLS) {
      const s1 = expectedSession(s, 1);
      const n = printedAt(s1, 10 * 60_000);
      const q1 = seen.filter((q) => q.symbol === s && q.replayDate === s1.day.date);
      // at most one quote at the reference (cursor 0, before the build), then one per trade since
      // 09:00, none skipped
      const atRef = q1.filter((q) => q.volumeShares === 0);
      expect(atRef.length, s).toBeLessThanOrEqual(1);
      for (const q of atRef) expect(q).toEqual(q1[0]);
      for (const q of atRef) expect(q.lastMinor).toBe(s1.day.prevCloseMinor);
      const printed = q1.slice(atRef.length);
      expect(printed, s).toHaveLength(n);
      expect(printed[0]).toMatchObject({ lastMinor: s1.day.openMinor, ts: sessionStartMs(s1.day.date) });
      expect(feed.quote(s)).toEqual(q1.at(-1));
    }
  });
});

describe('work slices (timer mode budget, counted, never timed)', () => {
  /**
   * Two feeds over the same wall times: `plain` does everything due in each tick; `sliced` has a
   * counting work clock (each read = 1 "ms") with a budget of 1, so each tick brings exactly one
   * instrument forward and applies at most ADVANCE_CHUNK_TRADES trades.
   */
  async function pair(wall: { ms: number }) {
    const clock = createClock({ mode: 'replay', speed: 60, now: () => wall.ms });
    let reads = 0;
    const make = (slice?: { budgetMs: number; now: () => number }) =>
      createMarketFeed({ db: database.db, clock, seed: SEED, symbols: SYMBOLS, slice });
    const plain = make();
    const sliced = make({ budgetMs: 1, now: () => reads++ });
    await plain.start({ timer: false });
    await sliced.start({ timer: false });
    feeds.push(plain, sliced);
    const log = (feed: MarketFeed) => {
      const quotes: Quote[] = [];
      const trades: Array<{ symbol: string; t: Trade }> = [];
      feed.onQuote((q) => quotes.push(q));
      feed.onTrade((symbol, t) => trades.push({ symbol, t }));
      return { quotes, trades };
    };
    return { plain, sliced, plainLog: log(plain), slicedLog: log(sliced) };
  }

  /**
   * Ticks `feed` with the wall time standing still until 20 ticks in a row emit nothing (a
   * silent catch-up emits nothing until its snapshot); returns the symbols and trade counts of
   * each tick that emitted.
   */
  function drain(feed: MarketFeed, logged: { quotes: Quote[]; trades: unknown[] }) {
    const ticks: Array<{ symbols: Set<string>; trades: number }> = [];
    for (let idle = 0; idle < 20;) {
      const q0 = logged.quotes.length;
      const t0 = logged.trades.length;
      feed.tick();
      const symbols = new Set(logged.quotes.slice(q0).map((q) => q.symbol));
      if (symbols.size === 0) idle++;
      else {
        idle = 0;
        ticks.push({ symbols, trades: logged.trades.length - t0 });
      }
    }
    return ticks;
  }

  const bySymbol = <T extends { symbol: string }>(list: T[], symbol: string) =>
    list.filter((x) => x.symbol === symbol);

  it('a session change and its catch-up are split into one-instrument slices of bounded trades, with the same prints', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS + (0.5 * SESSION_MS) / 60 }; // mid-session 0, no pre-build
    const { plain, sliced, plainLog, slicedLog } = await pair(wall);

    // 11:00 of session 1 in one step: a rollover with no pre-built sessions, two hours of
    // trades to emit per instrument (2330 alone has more than one chunk).
    wall.ms = wallAt60(1, 2 * 3_600_000);
    expect(printedAt(expectedSession('2330', 1), 2 * 3_600_000)).toBeGreaterThan(2 * ADVANCE_CHUNK_TRADES);
    drain(plain, plainLog);
    const ticks = drain(sliced, slicedLog);
    for (const t of ticks) {
      expect(t.symbols.size).toBe(1);
      expect(t.trades).toBeLessThanOrEqual(ADVANCE_CHUNK_TRADES);
    }
    expect(ticks.length).toBeGreaterThan(SYMBOLS.length + 2);
    for (const s of SYMBOLS) {
      expect(bySymbol(slicedLog.quotes, s)).toEqual(bySymbol(plainLog.quotes, s));
      expect(bySymbol(slicedLog.trades, s)).toEqual(bySymbol(plainLog.trades, s));
      expect(sliced.quote(s)).toEqual(plain.quote(s));
      expect(sliced.trades(s, TRADES_RING)).toEqual(plain.trades(s, TRADES_RING));
    }
  });

  it('is not settled while a session change is half installed, and settled once every instrument is on the new day', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS + (0.5 * SESSION_MS) / 60 };
    const { plain, sliced } = await pair(wall);
    expect(plain.settled()).toBe(true);
    expect(sliced.settled()).toBe(true);
    wall.ms = wallAt60(1, 60_000); // 09:01 of session 1
    plain.tick();
    expect(plain.settled()).toBe(true); // everything due in one tick
    const seen: boolean[] = [];
    do {
      sliced.tick();
      seen.push(sliced.settled());
    } while (!sliced.settled() && seen.length < SYMBOLS.length * 50);
    // One instrument per slice: unsettled for the first SYMBOLS.length - 1 slices, then settled.
    expect(seen.slice(0, SYMBOLS.length - 1).every((x) => !x)).toBe(true);
    expect(sliced.settled()).toBe(true);
    expect(sliced.clock().replayDate).toBe(plain.clock().replayDate);
  });

  it('a jump of sessions rebuilds silently in slices: the same snapshots, no prints', async () => {
    const wall = { ms: DEFAULT_ANCHOR_MS + (0.5 * SESSION_MS) / 60 };
    const { plain, sliced, plainLog, slicedLog } = await pair(wall);
    wall.ms = wallAt60(3, 3 * 3_600_000); // 12:00 of session 3
    drain(plain, plainLog);
    const ticks = drain(sliced, slicedLog);
    expect(ticks.every((t) => t.symbols.size === 1 && t.trades === 0)).toBe(true);
    expect(slicedLog.trades).toEqual([]);
    for (const s of SYMBOLS) {
      expect(bySymbol(slicedLog.quotes, s)).toEqual(bySymbol(plainLog.quotes, s));
      expect(sliced.quote(s)).toEqual(plain.quote(s));
      expect(sliced.trades(s, TRADES_RING)).toEqual(plain.trades(s, TRADES_RING));
      expect(await sliced.candles(s, '1m', 1000)).toEqual(await plain.candles(s, '1m', 1000));
    }
  });
});

describe('trades (the tape)', () => {
  it('one print per trade, side judged against the book before it; trades() returns the emitted prints', async () => {
    // 10:00 of session 5 at speed 60 (session 0, 2025-04-07, sat at the limit down: sells only)
    const wall = { ms: wallAt60(5, 3_600_000) };
    const feed = await replayFeed(wall);
    const sess = expectedSession('2330', 5);
    const base = sessionStartMs(sess.day.date);
    const startN = printedAt(sess, 3_600_000);

    // Before any tick: the ring holds the latest prints up to the clock.
    const initial = feed.trades('2330', 50);
    expect(initial).toHaveLength(50);
    expect(initial.at(-1)!.ts).toBe(base + sess.offsets[startN - 1]!);

    const prints: Trade[] = [];
    feed.onTrade((symbol, t) => symbol === '2330' && prints.push(tradeSchema.parse(t) && t));
    for (let i = 0; i < 20; i++) {
      wall.ms += 200;
      feed.tick();
    }
    const endN = printedAt(sess, clockOffset(wall.ms));
    expect(prints).toHaveLength(endN - startN);
    prints.forEach((t, j) => {
      const i = startN + j;
      const before = bookAt(sess, i - 1);
      const price = sess.prices[i]!;
      expect(t).toEqual({
        ts: base + sess.offsets[i]!,
        priceMinor: price,
        volumeShares: sess.shares[i]!,
        side: price >= before.askMinor ? 'buy' : price <= before.bidMinor ? 'sell' : null,
      });
    });
    expect(new Set(prints.map((t) => t.side))).toEqual(new Set(['buy', 'sell']));
    const latest = feed.trades('2330', 50);
    expect(latest).toEqual(prints.slice(-50));
    expect(latest.at(-1)).toBe(prints.at(-1)); // same objects: the gateway dedupes by identity
    expect(feed.trades('2330', 10_000)).toHaveLength(TRADES_RING);
    expect(feed.trades('9999', 10)).toEqual([]);
  });

  it('after a rollover the tape holds only the new session', async () => {
    const wall = { ms: wallAt60(0, SESSION_MS - 1_000) };
    const feed = await replayFeed(wall);
    wall.ms = wallAt60(1, 30_000); // 09:00:30 of session 1
    feed.tick();
    const s1 = expectedSession('0050', 1);
    const tape = feed.trades('0050', 200);
    expect(tape).toHaveLength(printedAt(s1, 30_000));
    expect(tape[0]).toMatchObject({ ts: sessionStartMs(s1.day.date), priceMinor: s1.day.openMinor });
  });
});

describe('candles since', () => {
  it('returns the last `limit` bars with since ≤ ts < before', async () => {
    const feed = await replayFeed({ ms: DEFAULT_ANCHOR_MS + 120_000 }); // 11:00 at speed 60
    const all = await feed.candles('2330', '1m', 1000);
    expect(all.length).toBe(120);
    const since = all[100]!.ts;
    expect(await feed.candles('2330', '1m', 1000, undefined, since)).toEqual(all.slice(100));
    expect(await feed.candles('2330', '1m', 5, undefined, since)).toEqual(all.slice(-5));
    expect(await feed.candles('2330', '1m', 1000, all[110]!.ts, since)).toEqual(all.slice(100, 110));
    const days = await feed.candles('2330', '1d', 2000);
    const dSince = days.at(-3)!.ts;
    expect(await feed.candles('2330', '1d', 2000, undefined, dSince)).toEqual(days.slice(-3));
  });
});

/** Offset into the session (market ms) of the speed-60 replay clock at a wall instant. */
/** Wall ms at which the replay clock at speed 60 reaches `offsetMs` after 09:00 of session `k`. */
function wallAt60(k: number, offsetMs: number): number {
  return createClock({ mode: 'replay', speed: 60 }).wallAt(k, offsetMs);
}

function clockOffset(wallMs: number): number {
  return createClock({ mode: 'replay', speed: 60, now: () => wallMs }).position().offsetMs;
}
