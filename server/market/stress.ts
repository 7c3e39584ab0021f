/**
 * Stress source (`MARKET_SOURCE=stress`): a synthetic market of STRESS_SYMBOLS instruments
 * trading STRESS_RATE times per second in total, for load tests and benchmarks. It implements
 * the same MarketFeed interface as the replay feed (feed.ts), so the whole app (market list,
 * detail, orders, the /ws gateway) runs on it. The UI labels it simulated (`source: 'stress'`).
 *
 * - Universe: the first STRESS_SYMBOLS rows of the `instruments` table by symbol (real codes and
 *   names). When the table has fewer, synthetic instruments `S00001`, `S00002`, … (market `SIM`,
 *   kind stock) are inserted into it (idempotent), so orders on them satisfy the foreign keys.
 * - Reference price: the instrument's latest real daily close when daily_candles has one, else a
 *   seeded price on the tick table (log-uniform NT$10–1,000 for stocks, NT$10–150 for ETFs).
 *   Limits are ±10 % of it (contract/market-rules.ts limitUpMinor/limitDownMinor).
 * - Prices: the book is a one-tick spread (ask = bid + one tick) whose bid random-walks ON the
 *   tick table (stepTicks), one tick at a time with a pull back towards the reference, never
 *   beyond the limits; each trade is a buyer lifting the ask or a seller hitting the bid (50/50),
 *   so its side is judged against the book it hit. Sizes: whole lots (1–10, mostly small).
 *   Depth: five levels a tick apart from the best bid/ask (fewer at a limit), seeded volumes.
 * - Time: market time is wall time. Every quote, print, book and candle `ts` is the wall-clock
 *   ms at which the tick generated it (`now()`), so a client can measure feed-to-paint latency
 *   as (paint time − quote.ts). The clock is `{source:'stress', mode:'replay', phase:'open',
 *   speed:1, now}`; quotes carry `replayDate: null` and `phase: 'open'`.
 * - Timer: tick() every STRESS_SLICE_MS emits the trades due since the last tick at `rate` per
 *   second (exact integer accounting: rate × elapsed ms / 1000, remainder carried), each at a
 *   seeded-random instrument. After a stall longer than MAX_CATCHUP_MS only MAX_CATCHUP_MS worth
 *   is emitted (the rest is dropped, not queued), so a pause never causes a burst.
 * - Events: onTrade and onQuote once per trade; onDepth once per touched instrument per tick
 *   (the latest book); onCandle once per touched instrument per tick for 1m/3m/15m/30m and 1d
 *   (plus the final state of any bar that closed during the tick).
 * - Candles: the last STRESS_BARS one-minute bars per instrument (ts = minute start); 3m/15m/30m
 *   are aggregated from them (so they cover the same 300 minutes; a partial oldest bar is left
 *   out). 1d/1M/1y: real daily history strictly before the start day plus the stress day, which
 *   runs from start() (dated by the Asia/Taipei date at start, whatever the hour) with the
 *   reference as the previous close.
 * - Determinism: one PRNG stream seeded by MARKET_SEED (prng.ts); the same seed and the same
 *   sequence of tick() wall times give the same trades.
 *
 * Units: prices minor (1 NT$ = 100), volumes shares, depth volumes lots, times epoch ms.
 * CPU (measured, see docs/adr/0013-stress-market-source.md): ≈ 9 % of one core at 2,000 instruments and 20,000
 * trades/s without clients.
 */
import { desc } from 'drizzle-orm';
import type { ClockState, Instrument, Trade } from '../../contract/market';
import { SHARES_PER_LOT, stepTicks, type InstrumentKind } from '../../contract/market-rules';
import type { Db } from '../db/client';
import { dailyCandles, instruments } from '../db/schema';
import { breadthOf, marketLookup } from './breadth';
import { taipeiDate } from './calendar';
import { dailyCandle, INTRADAY_PERIOD_MS } from './candles';
import { dailyCandlesOf } from './candles';
import type { MarketFeed } from './feed';
import { candleWindow, dailyRowsBefore, dailyRowsCache } from './feed-history';
import { createFeedListeners, type FeedListeners } from './feed-listeners';
import { feedTimer, inferSide, TRADES_RING } from './feed-shared';
import { loadIndices, type IndexItem } from './indices';
import { loadInstruments } from './instruments';
import { createRng, type Rng } from './prng';
import {
  addToBars,
  aggregateMinuteBars,
  depthOf,
  openSym,
  quoteOf,
  seededRef,
  todayRow,
  type Sym,
} from './stress-sym';

export { aggregateMinuteBars, STRESS_BARS } from './stress-sym';

/** Wall ms between stress ticks. */
export const STRESS_SLICE_MS = 10;
/** Longest wall gap a tick makes up for; beyond it the updates are dropped. */
export const MAX_CATCHUP_MS = 100;

/** createStressFeed options. */
export interface StressFeedOptions {
  db: Db;
  /** MARKET_SEED. */
  seed: number;
  /** STRESS_SYMBOLS: instruments streamed (≥ 1). */
  symbols: number;
  /** STRESS_RATE: trades per second across all instruments (≥ 0). */
  rate: number;
  /** Wall clock (epoch ms); default Date.now. Tests inject a virtual one and call tick(). */
  now?: () => number;
}

/** Everything one stress feed holds; its functions below read and update it in place. */
interface StressState {
  readonly db: Db;
  readonly seed: number;
  readonly now: () => number;
  /** Trades per second (integer ≥ 0). */
  readonly rate: number;
  /** Instruments streamed (≥ 1). */
  readonly count: number;
  /** The one PRNG stream of the trades. */
  readonly rng: Rng;
  readonly kinds: Map<string, InstrumentKind>;
  readonly bySymbol: Map<string, Sym>;
  /** The streamed instruments in symbol order. */
  order: Sym[];
  readonly loadHistory: ReturnType<typeof dailyRowsCache>;
  directory: Instrument[];
  marketOfDirectory: (symbol: string) => Instrument['market'] | undefined;
  indexItems: IndexItem[];
  started: boolean;
  timer: { start(): void; stop(): void };
  /** Wall ms of the last tick. */
  lastMs: number;
  /** rate × ms not yet turned into trades (integer; < 1000 after each tick). */
  owedMilli: number;
  /** The stress day (Asia/Taipei date at start, YYYY-MM-DD). */
  today: string;
  /** Instruments touched in the current tick. */
  readonly touched: Sym[];
  readonly listeners: FeedListeners;
}

const synthCode = (i: number) => `S${String(i).padStart(5, '0')}`;

/** One trade at instrument `s` at wall time `ts`. */
function trade(f: StressState, s: Sym, ts: number): void {
  const { rng, listeners } = f;
  // Move the book by a tick with probability 0.3, pulled back towards the reference.
  if (rng.next() < 0.3) {
    const dev = (s.lastMinor - s.refMinor) / Math.max(1, s.upMinor - s.refMinor);
    const up = rng.next() < 0.5 - 0.15 * dev;
    const bid = stepTicks(s.bidMinor, up ? 1 : -1, s.kind);
    const ask = stepTicks(bid, 1, s.kind);
    if (bid >= s.downMinor && ask <= s.upMinor) {
      s.bidMinor = bid;
      s.askMinor = ask;
    }
  }
  const buyer = rng.next() < 0.5;
  const price = buyer ? s.askMinor : s.bidMinor;
  const lots = 1 + Math.floor(rng.exp() * 2) + (rng.next() < 0.02 ? rng.int(8) : 0);
  const shares = Math.min(lots, 10) * SHARES_PER_LOT;
  const t: Trade = {
    ts,
    priceMinor: price,
    volumeShares: shares,
    side: inferSide(price, s.bidMinor, s.askMinor),
  };
  s.n++;
  s.lastMinor = price;
  if (price > s.highMinor) s.highMinor = price;
  if (price < s.lowMinor) s.lowMinor = price;
  s.volumeShares += shares;
  s.turnoverMinor += price * shares;
  s.quote = quoteOf(s, ts);
  s.tape.push(t);
  addToBars(s, ts, price, shares, listeners.candleFns.size > 0 ? listeners.emitCandle : null);
  listeners.emitTrade(s.symbol, t);
  listeners.emitQuote(s.quote);
  if (!s.touched) {
    s.touched = true;
    f.touched.push(s);
  }
}

/** MarketFeed.tick: the trades owed since the last tick, then depth and candles per touched instrument. */
function tick(f: StressState): void {
  if (!f.started) return;
  const t = f.now();
  let elapsed = t - f.lastMs;
  if (elapsed <= 0) return;
  f.lastMs = t;
  if (elapsed > MAX_CATCHUP_MS) elapsed = MAX_CATCHUP_MS;
  f.owedMilli += f.rate * elapsed;
  const n = Math.floor(f.owedMilli / 1000);
  f.owedMilli -= n * 1000;
  const order = f.order;
  for (let k = 0; k < n; k++) trade(f, order[f.rng.int(order.length)]!, t);
  const { depthFns, candleFns, emitDepth, emitCandle } = f.listeners;
  for (const s of f.touched) {
    s.touched = false;
    if (depthFns.size > 0) emitDepth(depthOf(s));
    if (candleFns.size > 0) {
      emitCandle(s.symbol, '1m', { ...s.bars[s.bars.length - 1]! });
      for (const p of ['3m', '15m', '30m'] as const) emitCandle(s.symbol, p, { ...s.cur[p]! });
      emitCandle(s.symbol, '1d', dailyCandle(todayRow(s, f.today)));
    }
  }
  f.touched.length = 0;
}

/** Orders by symbol (code-unit order). */
const bySymbolOrder = (a: { symbol: string }, b: { symbol: string }) =>
  a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0;

/**
 * The first `count` instruments by symbol, topped up with synthetic `S00001`, … inserted into
 * the instruments table (idempotent); returns the universe (symbol order), the directory rows
 * read and the synthetic rows added.
 */
async function loadUniverse(f: StressState): Promise<{
  universe: Array<{ symbol: string; name: string; kind: InstrumentKind }>;
  rows: Instrument[];
  synth: Array<typeof instruments.$inferInsert>;
}> {
  const rows = await loadInstruments(f.db);
  for (const r of rows) f.kinds.set(r.symbol, r.kind);
  const universe = rows.slice(0, f.count).map((r) => ({ ...r, kind: f.kinds.get(r.symbol)! }));
  const synth: Array<typeof instruments.$inferInsert> = [];
  for (let i = 1; universe.length < f.count; i++) {
    const code = synthCode(i);
    if (f.kinds.has(code)) continue; // inserted by an earlier start: already in `rows`
    const r = {
      symbol: code,
      name: `Stress ${code}`,
      kind: 'stock' as const,
      market: 'SIM' as const,
      nameEn: null,
      industry: null,
      securityType: 'stock' as const,
      listingDate: null,
    };
    universe.push(r);
    f.kinds.set(code, 'stock');
    synth.push({ ...r, isin: null });
  }
  for (let i = 0; i < synth.length; i += 1_000)
    await f.db
      .insert(instruments)
      .values(synth.slice(i, i + 1_000))
      .onConflictDoNothing();
  universe.sort(bySymbolOrder);
  return { universe, rows, synth };
}

/** Every instrument's latest real daily close (minor) by symbol. */
async function latestCloses(db: Db): Promise<Map<string, number>> {
  return new Map(
    (
      await db
        .selectDistinctOn([dailyCandles.symbol], {
          symbol: dailyCandles.symbol,
          close: dailyCandles.closeMinor,
        })
        .from(dailyCandles)
        .orderBy(dailyCandles.symbol, desc(dailyCandles.date))
    ).map((r) => [r.symbol, r.close]),
  );
}

/** MarketFeed.start: the universe, references, opening states, directory and indices; then the timer. */
async function startStress(f: StressState, startOpts?: { timer?: boolean }): Promise<void> {
  if (f.started) return;
  const { universe, rows, synth } = await loadUniverse(f);
  const closes = await latestCloses(f.db);
  const t0 = f.now();
  f.today = taipeiDate(t0);
  for (const u of universe) {
    const refMinor = closes.get(u.symbol) ?? seededRef(f.seed, u.symbol, u.kind);
    f.bySymbol.set(u.symbol, openSym(f.seed, u, refMinor, t0));
  }
  f.order = universe.map((u) => f.bySymbol.get(u.symbol)!);
  f.directory = [...rows, ...synth.map(({ isin: _isin, ...r }) => r as Instrument)].sort(bySymbolOrder);
  f.marketOfDirectory = marketLookup(f.directory);
  f.indexItems = await loadIndices();
  f.lastMs = t0;
  f.started = true;
  if (startOpts?.timer !== false) f.timer.start();
}

/** MarketFeed.candles of the stress feed: 1m bars, their 3m/15m/30m aggregates, daily history + today. */
async function stressCandles(
  f: StressState,
  ...[symbol, period, limit, before, since]: Parameters<MarketFeed['candles']>
): ReturnType<MarketFeed['candles']> {
  const s = f.bySymbol.get(symbol);
  if (!s || limit <= 0) return [];
  if (period === '1m') return candleWindow(s.bars, limit, before, since);
  if (period === '3m' || period === '15m' || period === '30m')
    return candleWindow(
      aggregateMinuteBars(s.bars, INTRADAY_PERIOD_MS[period], s.dropped),
      limit,
      before,
      since,
    );
  const rows = dailyRowsBefore(await f.loadHistory(symbol), f.today);
  return candleWindow(dailyCandlesOf([...rows, todayRow(s, f.today)], period), limit, before, since);
}

/** The query methods of the stress feed's MarketFeed. */
function stressQueries(
  f: StressState,
): Omit<MarketFeed, 'start' | 'stop' | 'tick' | 'clock' | 'onQuote' | 'onDepth' | 'onCandle' | 'onTrade'> {
  return {
    listQuotes: () => f.order.map((s) => s.quote),
    settled: () => true, // one endless session
    quote: (symbol) => f.bySymbol.get(symbol)?.quote,
    depth(symbol) {
      const s = f.bySymbol.get(symbol);
      return s ? depthOf(s) : undefined;
    },
    kind: (symbol) => f.kinds.get(symbol),
    isTradable: (symbol) => f.bySymbol.has(symbol),
    // One endless synthetic session: every day has today's reference.
    referenceAt: (symbol) => f.bySymbol.get(symbol)?.quote.prevCloseMinor ?? null,
    candles: (...args) => stressCandles(f, ...args),
    trades: (symbol, limit) => f.bySymbol.get(symbol)?.tape.latest(Math.min(limit, TRADES_RING)) ?? [],
    indices: () => f.indexItems.map((x) => ({ ...x })),
    breadth() {
      return breadthOf(
        f.order.map((s) => s.quote),
        f.marketOfDirectory,
      );
    },
    instruments: () => f.directory,
    marketOf: (symbol) => f.marketOfDirectory(symbol),
  };
}

/** Creates the stress feed; call start() before use. See the module docstring. */
export function createStressFeed(opts: StressFeedOptions): MarketFeed {
  const now = opts.now ?? Date.now;
  const f: StressState = {
    db: opts.db,
    seed: opts.seed,
    now,
    rate: Math.max(0, Math.floor(opts.rate)),
    count: Math.max(1, Math.floor(opts.symbols)),
    rng: createRng(opts.seed, 'stress'),
    kinds: new Map(),
    bySymbol: new Map(),
    order: [],
    loadHistory: dailyRowsCache(opts.db),
    directory: [],
    marketOfDirectory: () => undefined,
    indexItems: [],
    started: false,
    timer: { start() {}, stop() {} },
    lastMs: 0,
    owedMilli: 0,
    today: '',
    touched: [],
    listeners: createFeedListeners('stress feed'),
  };
  f.timer = feedTimer(() => tick(f), STRESS_SLICE_MS);
  const { onQuote, onDepth, onCandle, onTrade } = f.listeners;
  return {
    start: (startOpts) => startStress(f, startOpts),
    stop: f.timer.stop,
    tick: () => tick(f),
    clock(): ClockState {
      return {
        source: 'stress',
        mode: 'replay',
        phase: 'open',
        tradingPhase: 'continuous',
        speed: 1,
        now: now(),
        replayDate: null,
      };
    },
    ...stressQueries(f),
    onQuote,
    onDepth,
    onCandle,
    onTrade,
  };
}
