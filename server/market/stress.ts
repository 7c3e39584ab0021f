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
import type { Candle, ClockState, Depth, DepthLevel, Instrument, Quote, Trade } from '../../contract/market';
import {
  floorToTick,
  limitDownMinor,
  limitUpMinor,
  SHARES_PER_LOT,
  stepTicks,
  type InstrumentKind,
} from '../../contract/market-rules';
import type { Db } from '../db/client';
import { dailyCandles, instruments } from '../db/schema';
import { breadthOf, marketLookup } from './breadth';
import { taipeiDate } from './calendar';
import { dailyCandle, INTRADAY_PERIOD_MS, type DailyRow } from './candles';
import {
  candleWindow,
  dailyCandlesOf,
  dailyRowsBefore,
  dailyRowsCache,
  feedTimer,
  inferSide,
  TRADES_RING,
  TradeRing,
  type MarketFeed,
} from './feed';
import { createFeedListeners } from './feed-listeners';
import { loadIndices, type IndexItem } from './indices';
import { loadInstruments } from './instruments';
import { createRng, hashSeed, mix32 } from './prng';

/** Wall ms between stress ticks. */
export const STRESS_SLICE_MS = 10;
/** Longest wall gap a tick makes up for; beyond it the updates are dropped. */
export const MAX_CATCHUP_MS = 100;
/** One-minute bars kept per instrument. */
export const STRESS_BARS = 300;
/** Book levels per side. */
const DEPTH_LEVELS = 5;

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

interface Sym {
  symbol: string;
  name: string;
  kind: InstrumentKind;
  refMinor: number;
  upMinor: number;
  downMinor: number;
  /** Best bid; the ask is one tick above. */
  bidMinor: number;
  askMinor: number;
  openMinor: number;
  highMinor: number;
  lowMinor: number;
  lastMinor: number;
  volumeShares: number;
  turnoverMinor: number;
  /** Trades so far (seeds the book volumes). */
  n: number;
  salt: number;
  quote: Quote;
  /** Book memo for `n` (built on demand). */
  depth: Depth | null;
  depthN: number;
  tape: TradeRing;
  /** One-minute bars, oldest first, at most STRESS_BARS; the last is the current one. */
  bars: Candle[];
  /** True once bars were dropped from the front (aggregates may then start partial). */
  dropped: boolean;
  /** Current 3m/15m/30m bars. */
  cur: Record<'3m' | '15m' | '30m', Candle | null>;
  /** Touched in the current tick. */
  touched: boolean;
}

const synthCode = (i: number) => `S${String(i).padStart(5, '0')}`;

/** A new bar starting at `ts` with one print. */
function newBar(ts: number, price: number, shares: number): Candle {
  return {
    ts,
    openMinor: price,
    highMinor: price,
    lowMinor: price,
    closeMinor: price,
    volumeShares: shares,
    turnoverMinor: price * shares,
  };
}

function addToBar(c: Candle, price: number, shares: number): void {
  if (price > c.highMinor) c.highMinor = price;
  if (price < c.lowMinor) c.lowMinor = price;
  c.closeMinor = price;
  c.volumeShares += shares;
  c.turnoverMinor = (c.turnoverMinor ?? 0) + price * shares;
}

/**
 * Aggregates ascending one-minute bars into `periodMs` bars (ts = period start), leaving out the
 * first one when `partialHead` says its start is not covered.
 */
export function aggregateMinuteBars(
  bars: readonly Candle[],
  periodMs: number,
  partialHead: boolean,
): Candle[] {
  const out: Candle[] = [];
  for (const b of bars) {
    const ts = b.ts - (b.ts % periodMs);
    const last = out[out.length - 1];
    if (last && last.ts === ts) {
      if (b.highMinor > last.highMinor) last.highMinor = b.highMinor;
      if (b.lowMinor < last.lowMinor) last.lowMinor = b.lowMinor;
      last.closeMinor = b.closeMinor;
      last.volumeShares += b.volumeShares;
      last.turnoverMinor = (last.turnoverMinor ?? 0) + (b.turnoverMinor ?? 0);
    } else out.push({ ...b, ts });
  }
  if (partialHead && out.length > 0 && bars.length > 0 && out[0]!.ts < bars[0]!.ts) out.shift();
  return out;
}

/** Creates the stress feed; call start() before use. See the module docstring. */
export function createStressFeed(opts: StressFeedOptions): MarketFeed {
  const { db, seed } = opts;
  const now = opts.now ?? Date.now;
  const rate = Math.max(0, Math.floor(opts.rate));
  const count = Math.max(1, Math.floor(opts.symbols));
  const rng = createRng(seed, 'stress');
  const kinds = new Map<string, InstrumentKind>();
  const bySymbol = new Map<string, Sym>();
  let order: Sym[] = [];
  const loadHistory = dailyRowsCache(db);
  let directory: Instrument[] = [];
  let marketOfDirectory: (symbol: string) => Instrument['market'] | undefined = () => undefined;
  let indexItems: IndexItem[] = [];
  let started = false;
  const timer = feedTimer(tick, STRESS_SLICE_MS);
  let lastMs = 0;
  /** rate × ms not yet turned into trades (integer; < 1000 after each tick). */
  let owedMilli = 0;
  let today = '';
  const touched: Sym[] = [];

  const listeners = createFeedListeners('stress feed');
  const { depthFns, candleFns, emitQuote, emitDepth, emitCandle, emitTrade } = listeners;

  function quoteOf(s: Sym, ts: number): Quote {
    return {
      symbol: s.symbol,
      name: s.name,
      kind: s.kind,
      lastMinor: s.lastMinor,
      openMinor: s.openMinor,
      highMinor: s.highMinor,
      lowMinor: s.lowMinor,
      prevCloseMinor: s.refMinor,
      limitUpMinor: s.upMinor,
      limitDownMinor: s.downMinor,
      bidMinor: s.bidMinor,
      askMinor: s.askMinor,
      volumeShares: s.volumeShares,
      turnoverMinor: s.turnoverMinor,
      ts,
      replayDate: null,
      phase: 'open',
      traded: true,
      // Synthetic instruments: the ±10 % rule band around a reference of their own, no bond ETFs.
      priceLimits: true,
      referenceEstimated: false,
      taxKind: s.kind,
    };
  }

  function depthOf(s: Sym): Depth {
    if (s.depth && s.depthN === s.n) return s.depth;
    const bids: DepthLevel[] = [];
    const asks: DepthLevel[] = [];
    let p = s.bidMinor;
    for (let k = 0; k < DEPTH_LEVELS && p >= s.downMinor && p > 0; k++) {
      bids.push({ priceMinor: p, volumeLots: 1 + (mix32(s.salt, s.n * 16 + k) % (20 + 10 * k)) });
      p = stepTicks(p, -1, s.kind);
    }
    p = s.askMinor;
    for (let k = 0; k < DEPTH_LEVELS && p <= s.upMinor; k++) {
      asks.push({ priceMinor: p, volumeLots: 1 + (mix32(s.salt, s.n * 16 + 8 + k) % (20 + 10 * k)) });
      p = stepTicks(p, 1, s.kind);
    }
    s.depth = { symbol: s.symbol, bids, asks, ts: s.quote.ts };
    s.depthN = s.n;
    return s.depth;
  }

  /** Records a print into the bars; emits the final state of a bar it closes. */
  function addToBars(s: Sym, ts: number, price: number, shares: number, emit: boolean): void {
    const minute = ts - (ts % 60_000);
    const last = s.bars[s.bars.length - 1];
    if (last && last.ts === minute) addToBar(last, price, shares);
    else {
      if (last && emit) emitCandle(s.symbol, '1m', { ...last });
      s.bars.push(newBar(minute, price, shares));
      if (s.bars.length > STRESS_BARS) {
        s.bars.shift();
        s.dropped = true;
      }
    }
    for (const p of ['3m', '15m', '30m'] as const) {
      const periodMs = INTRADAY_PERIOD_MS[p];
      const start = ts - (ts % periodMs);
      const c = s.cur[p];
      if (c && c.ts === start) addToBar(c, price, shares);
      else {
        if (c && emit) emitCandle(s.symbol, p, { ...c });
        s.cur[p] = newBar(start, price, shares);
      }
    }
  }

  /** The stress day as a daily row. */
  function todayRow(s: Sym): DailyRow {
    return {
      date: today,
      openMinor: s.openMinor,
      highMinor: s.highMinor,
      lowMinor: s.lowMinor,
      closeMinor: s.lastMinor,
      volumeShares: s.volumeShares,
      turnoverMinor: s.turnoverMinor,
    };
  }

  /** One trade at instrument `s` at wall time `ts`. */
  function trade(s: Sym, ts: number): void {
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
    addToBars(s, ts, price, shares, candleFns.size > 0);
    emitTrade(s.symbol, t);
    emitQuote(s.quote);
    if (!s.touched) {
      s.touched = true;
      touched.push(s);
    }
  }

  function tick(): void {
    if (!started) return;
    const t = now();
    let elapsed = t - lastMs;
    if (elapsed <= 0) return;
    lastMs = t;
    if (elapsed > MAX_CATCHUP_MS) elapsed = MAX_CATCHUP_MS;
    owedMilli += rate * elapsed;
    const n = Math.floor(owedMilli / 1000);
    owedMilli -= n * 1000;
    for (let k = 0; k < n; k++) trade(order[rng.int(order.length)]!, t);
    for (const s of touched) {
      s.touched = false;
      if (depthFns.size > 0) emitDepth(depthOf(s));
      if (candleFns.size > 0) {
        emitCandle(s.symbol, '1m', { ...s.bars[s.bars.length - 1]! });
        for (const p of ['3m', '15m', '30m'] as const) emitCandle(s.symbol, p, { ...s.cur[p]! });
        emitCandle(s.symbol, '1d', dailyCandle(todayRow(s)));
      }
    }
    touched.length = 0;
  }

  /** Seeded reference price on the tick table (log-uniform). */
  function seededRef(symbol: string, kind: InstrumentKind): number {
    const r = createRng(seed, 'stress-ref', symbol);
    const hi = kind === 'etf' ? 15_000 : 100_000;
    return floorToTick(Math.round(1_000 * Math.exp(r.next() * Math.log(hi / 1_000))), kind);
  }

  return {
    async start(startOpts) {
      if (started) return;
      const rows = await loadInstruments(db);
      for (const r of rows) kinds.set(r.symbol, r.kind);
      const universe = rows.slice(0, count).map((r) => ({ ...r, kind: kinds.get(r.symbol)! }));
      const synth: Array<typeof instruments.$inferInsert> = [];
      for (let i = 1; universe.length < count; i++) {
        const code = synthCode(i);
        if (kinds.has(code)) continue; // inserted by an earlier start: already in `rows`
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
        kinds.set(code, 'stock');
        synth.push({ ...r, isin: null });
      }
      for (let i = 0; i < synth.length; i += 1_000)
        await db
          .insert(instruments)
          .values(synth.slice(i, i + 1_000))
          .onConflictDoNothing();
      universe.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));

      const closes = new Map(
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
      const t0 = now();
      today = taipeiDate(t0);
      for (const u of universe) {
        const kind = u.kind;
        const refMinor = closes.get(u.symbol) ?? seededRef(u.symbol, kind);
        const opening = createRng(seed, 'stress-open', u.symbol);
        const shares = (1 + opening.int(50)) * SHARES_PER_LOT;
        const s: Sym = {
          symbol: u.symbol,
          name: u.name,
          kind,
          refMinor,
          upMinor: limitUpMinor(refMinor, kind),
          downMinor: limitDownMinor(refMinor, kind),
          bidMinor: refMinor,
          askMinor: stepTicks(refMinor, 1, kind),
          openMinor: refMinor,
          highMinor: refMinor,
          lowMinor: refMinor,
          lastMinor: refMinor,
          volumeShares: shares,
          turnoverMinor: refMinor * shares,
          n: 1,
          salt: hashSeed(seed, 'stress-book', u.symbol)[0],
          quote: undefined as unknown as Quote, // set below
          depth: null,
          depthN: -1,
          tape: new TradeRing(TRADES_RING),
          bars: [],
          dropped: false,
          cur: { '3m': null, '15m': null, '30m': null },
          touched: false,
        };
        if (s.askMinor > s.upMinor) {
          s.askMinor = s.upMinor;
          s.bidMinor = stepTicks(s.upMinor, -1, kind);
        }
        // The opening print, silent: every instrument has a quote from the start.
        s.quote = quoteOf(s, t0);
        s.tape.push({ ts: t0, priceMinor: refMinor, volumeShares: shares, side: null });
        addToBars(s, t0, refMinor, shares, false);
        bySymbol.set(u.symbol, s);
      }
      order = universe.map((u) => bySymbol.get(u.symbol)!);
      directory = [...rows, ...synth.map(({ isin: _isin, ...r }) => r as Instrument)].sort((a, b) =>
        a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0,
      );
      marketOfDirectory = marketLookup(directory);
      indexItems = await loadIndices();
      lastMs = t0;
      started = true;
      if (startOpts?.timer !== false) timer.start();
    },
    stop: timer.stop,
    tick,
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
    listQuotes() {
      return order.map((s) => s.quote);
    },
    settled() {
      return true; // one endless session
    },
    quote(symbol) {
      return bySymbol.get(symbol)?.quote;
    },
    depth(symbol) {
      const s = bySymbol.get(symbol);
      return s ? depthOf(s) : undefined;
    },
    kind(symbol) {
      return kinds.get(symbol);
    },
    isTradable(symbol) {
      return bySymbol.has(symbol);
    },
    referenceAt(symbol) {
      // One endless synthetic session: every day has today's reference.
      return bySymbol.get(symbol)?.quote.prevCloseMinor ?? null;
    },
    async candles(symbol, period, limit, before, since) {
      const s = bySymbol.get(symbol);
      if (!s || limit <= 0) return [];
      if (period === '1m') return candleWindow(s.bars, limit, before, since);
      if (period === '3m' || period === '15m' || period === '30m')
        return candleWindow(
          aggregateMinuteBars(s.bars, INTRADAY_PERIOD_MS[period], s.dropped),
          limit,
          before,
          since,
        );
      const rows = dailyRowsBefore(await loadHistory(symbol), today);
      return candleWindow(dailyCandlesOf([...rows, todayRow(s)], period), limit, before, since);
    },
    trades(symbol, limit) {
      return bySymbol.get(symbol)?.tape.latest(Math.min(limit, TRADES_RING)) ?? [];
    },
    onQuote: listeners.onQuote,
    onDepth: listeners.onDepth,
    onCandle: listeners.onCandle,
    onTrade: listeners.onTrade,
    indices() {
      return indexItems.map((x) => ({ ...x }));
    },
    breadth() {
      return breadthOf(
        order.map((s) => s.quote),
        marketOfDirectory,
      );
    },
    instruments() {
      return directory;
    },
    marketOf(symbol) {
      return marketOfDirectory(symbol);
    },
  };
}
