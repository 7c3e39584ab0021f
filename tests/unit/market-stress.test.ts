/**
 * Stress source (server/market/stress.ts) on a throw-away PGlite with three real instruments,
 * padded with synthetic ones, driven by a virtual wall clock and explicit tick() calls: the
 * universe and reference prices, determinism per seed, every price on the tick table and within
 * the limits, whole lots, the emitted rate per second of virtual time (and the bounded catch-up
 * after a stall), candles that equal a recomputation from the prints, and the clock label.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import {
  candleSchema,
  clockStateSchema,
  depthSchema,
  quoteSchema,
  tradeSchema,
  type Candle,
  type Depth,
  type Quote,
  type Trade,
} from '../../contract/market';
import { isOnTick, limitUpMinor, SHARES_PER_LOT, stepTicks } from '../../contract/market-rules';
import type { Database } from '../../server/db/client';
import { memoryDatabase } from '../support/db-template';
import { importMarketData } from '../../server/market/import';
import { dailyCandles, instruments } from '../../server/db/schema';
import type { MarketFeed } from '../../server/market/feed';
import { createStressFeed, MAX_CATCHUP_MS, STRESS_SLICE_MS } from '../../server/market/stress';

const REAL = ['0050', '2317', '2330'];
const T0 = Date.UTC(2026, 10, 20, 2, 0); // 10:00 Asia/Taipei, a virtual wall clock
let database: Database;
const feeds: MarketFeed[] = [];

beforeAll(async () => {
  database = (await memoryDatabase()).database;
  await importMarketData(database.db, { symbols: REAL });
});
afterAll(async () => {
  for (const f of feeds) f.stop();
  await database?.close();
});

/** A stress feed on a virtual clock, recording everything it emits. */
async function stressFeed(opts: { seed?: number; symbols?: number; rate?: number } = {}) {
  const wall = { ms: T0 };
  const feed = createStressFeed({
    db: database.db,
    seed: opts.seed ?? 1,
    symbols: opts.symbols ?? 20,
    rate: opts.rate ?? 2_000,
    now: () => wall.ms,
  });
  await feed.start({ timer: false });
  feeds.push(feed);
  const quotes: Quote[] = [];
  const trades: Array<[string, Trade]> = [];
  const books: Depth[] = [];
  const candles: Array<[string, string, Candle]> = [];
  feed.onQuote((q) => quotes.push(q));
  feed.onTrade((s, t) => trades.push([s, t]));
  feed.onDepth((d) => books.push(d));
  feed.onCandle((s, p, c) => candles.push([s, p, c]));
  /** Advances the virtual clock by `ms` in STRESS_SLICE_MS ticks. */
  const run = (ms: number) => {
    for (let t = 0; t < ms; t += STRESS_SLICE_MS) {
      wall.ms += STRESS_SLICE_MS;
      feed.tick();
    }
  };
  return { feed, wall, run, quotes, trades, books, candles };
}

describe('stress source', () => {
  it('streams the first instruments of the table, padded with synthetic ones, from real or seeded references', async () => {
    const { feed } = await stressFeed({ symbols: 20 });
    const list = feed.listQuotes();
    expect(list.map((q) => q.symbol)).toEqual([
      ...REAL,
      ...Array.from({ length: 17 }, (_, i) => `S${String(i + 1).padStart(5, '0')}`),
    ]);
    // synthetic instruments exist in the table (orders reference it)
    const synth = await database.db.select().from(instruments).where(eq(instruments.symbol, 'S00017'));
    expect(synth[0]).toMatchObject({ market: 'SIM', kind: 'stock' });
    // a real instrument's reference is its latest real close
    const last = await database.db
      .select({ close: dailyCandles.closeMinor })
      .from(dailyCandles)
      .where(eq(dailyCandles.symbol, '2330'))
      .orderBy(desc(dailyCandles.date))
      .limit(1);
    const q = feed.quote('2330')!;
    expect(q.prevCloseMinor).toBe(last[0]!.close);
    expect(q.name).not.toBe('2330');
    expect(q.limitUpMinor).toBe(limitUpMinor(q.prevCloseMinor, 'stock'));
    expect(feed.quote('0050')!.kind).toBe('etf');
    for (const x of list) {
      quoteSchema.parse(x);
      expect(isOnTick(x.prevCloseMinor, x.kind)).toBe(true);
      expect(x).toMatchObject({ phase: 'open', replayDate: null, ts: T0 });
    }
    expect(clockStateSchema.parse(feed.clock())).toEqual({
      source: 'stress',
      mode: 'replay',
      phase: 'open',
      tradingPhase: 'continuous',
      speed: 1,
      now: T0,
      replayDate: null,
    });
    expect(feed.isTradable('S00017')).toBe(true);
    expect(feed.isTradable('S00018')).toBe(false);
  });

  it('is deterministic per seed', async () => {
    const a = await stressFeed({ seed: 5 });
    const b = await stressFeed({ seed: 5 });
    const c = await stressFeed({ seed: 6 });
    for (const x of [a, b, c]) x.run(1_000);
    expect(b.trades).toEqual(a.trades);
    expect(b.quotes).toEqual(a.quotes);
    expect(b.books).toEqual(a.books);
    expect(c.trades).not.toEqual(a.trades);
  });

  it('keeps every price on the tick table and within the limits; volumes in whole lots', async () => {
    // a high rate on few instruments, for a virtual minute: prices walk far from the reference
    const { feed, run, quotes, trades, books, candles } = await stressFeed({
      seed: 3,
      symbols: 5,
      rate: 5_000,
    });
    run(60_000);
    expect(trades.length).toBe(300_000);
    const ref = new Map(feed.listQuotes().map((q) => [q.symbol, q]));
    const bad: string[] = []; // plain checks in the loops (300,000 expect() calls would be slow)
    const within = (symbol: string, p: number, what: string) => {
      const q = ref.get(symbol)!;
      if (!isOnTick(p, q.kind) || p < q.limitDownMinor || p > q.limitUpMinor)
        bad.push(`${symbol} ${what} ${p}`);
    };
    for (const q of quotes) {
      for (const p of [q.lastMinor, q.bidMinor, q.askMinor, q.highMinor, q.lowMinor, q.openMinor])
        within(q.symbol, p, 'quote');
      if (q.bidMinor >= q.askMinor) bad.push(`${q.symbol} crossed ${q.bidMinor}/${q.askMinor}`);
    }
    const range = new Map<string, [number, number]>();
    trades.forEach(([symbol, t], i) => {
      within(symbol, t.priceMinor, 'trade');
      if (t.volumeShares <= 0 || t.volumeShares % SHARES_PER_LOT !== 0)
        bad.push(`${symbol} volume ${t.volumeShares}`);
      const [lo, hi] = range.get(symbol) ?? [t.priceMinor, t.priceMinor];
      range.set(symbol, [Math.min(lo, t.priceMinor), Math.max(hi, t.priceMinor)]);
      // quote i is the book this print hit: a buyer lifted its ask, a seller hit its bid
      const hit = quotes[i]!;
      if (t.priceMinor !== (t.side === 'buy' ? hit.askMinor : hit.bidMinor))
        bad.push(`${symbol} side ${t.side}`);
    });
    for (const d of books) {
      for (const l of [...d.bids, ...d.asks]) within(d.symbol, l.priceMinor, 'book');
      if (d.bids.length > 5 || d.asks.length > 5) bad.push(`${d.symbol} book too deep`);
    }
    for (const [symbol, p, c] of candles)
      if (p !== '1d')
        for (const x of [c.openMinor, c.highMinor, c.lowMinor, c.closeMinor]) within(symbol, x, p);
    expect(bad.slice(0, 10)).toEqual([]);
    // the walk moves: every instrument's prints span more than 20 ticks
    for (const [symbol, [lo, hi]] of range)
      expect(hi, symbol).toBeGreaterThan(stepTicks(lo, 20, ref.get(symbol)!.kind));
    for (const q of quotes.slice(-5)) quoteSchema.parse(q);
    for (const d of books.slice(-5)) depthSchema.parse(d);
    for (const [, , c] of candles.slice(-5)) candleSchema.parse(c);
    for (const [, t] of trades.slice(-5)) tradeSchema.parse(t);
    expect(trades.every(([, t]) => t.side === 'buy' || t.side === 'sell')).toBe(true);
  });

  it('emits the configured rate per second of virtual time, with a bounded catch-up after a stall', async () => {
    const { wall, feed, run, trades, quotes } = await stressFeed({ symbols: 20, rate: 1_234 });
    run(10_000);
    expect(trades.length).toBe(12_340); // exact: integer accounting of rate × elapsed
    expect(quotes.length).toBe(trades.length);
    // every instrument is picked (uniformly at random)
    const per = new Map<string, number>();
    for (const [s] of trades) per.set(s, (per.get(s) ?? 0) + 1);
    expect(per.size).toBe(20);
    for (const n of per.values()) expect(n).toBeGreaterThan(12_340 / 20 / 2);
    // a 5 s stall: only MAX_CATCHUP_MS worth is made up, not a burst of 5 s
    const before = trades.length;
    wall.ms += 5_000;
    feed.tick();
    expect(trades.length - before).toBe(Math.floor((1_234 * MAX_CATCHUP_MS) / 1_000));
    // quote ts is the wall clock at generation (feed-to-paint latency measurements rely on it)
    expect(quotes.at(-1)!.ts).toBe(wall.ms);
  });

  it('candles equal a recomputation from the prints; trades() serves the latest ones', async () => {
    const { feed, run, trades } = await stressFeed({ seed: 9, symbols: 3, rate: 300 });
    run(7 * 60_000); // seven virtual minutes
    const mine = [...feed.trades('2330', 200)];
    const emitted = trades.filter(([s]) => s === '2330').map(([, t]) => t);
    expect(mine).toEqual(emitted.slice(-200));
    // all prints of 2330: the silent opening print, then the emitted ones
    const all = [
      { ts: T0, priceMinor: feed.quote('2330')!.openMinor, volumeShares: feed.quote('2330')!.volumeShares },
    ];
    all[0]!.volumeShares -= emitted.reduce((a, t) => a + t.volumeShares, 0);
    all.push(...emitted);
    for (const [period, ms] of [
      ['1m', 60_000],
      ['3m', 180_000],
    ] as const) {
      const expected = new Map<number, Candle>();
      for (const t of all) {
        const ts = t.ts - (t.ts % ms);
        const c = expected.get(ts);
        if (!c)
          expected.set(ts, {
            ts,
            openMinor: t.priceMinor,
            highMinor: t.priceMinor,
            lowMinor: t.priceMinor,
            closeMinor: t.priceMinor,
            volumeShares: t.volumeShares,
            turnoverMinor: t.priceMinor * t.volumeShares,
          });
        else {
          c.highMinor = Math.max(c.highMinor, t.priceMinor);
          c.lowMinor = Math.min(c.lowMinor, t.priceMinor);
          c.closeMinor = t.priceMinor;
          c.volumeShares += t.volumeShares;
          c.turnoverMinor! += t.priceMinor * t.volumeShares;
        }
      }
      expect(await feed.candles('2330', period, 1000), period).toEqual([...expected.values()]);
    }
    const days = await feed.candles('2330', '1d', 3);
    expect(days.at(-1)).toMatchObject({
      openMinor: feed.quote('2330')!.prevCloseMinor,
      closeMinor: feed.quote('2330')!.lastMinor,
      volumeShares: feed.quote('2330')!.volumeShares,
    });
    expect(days.at(-2)!.closeMinor).toBe(feed.quote('2330')!.prevCloseMinor);
  });
});
