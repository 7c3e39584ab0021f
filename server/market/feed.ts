/**
 * The market feed the rest of the server uses: quotes, 5-level depth, candles, breadth, the
 * TAIEX and the market clock for every instrument of the full-market window, produced by
 * replaying ONE real trading day for the whole market at a time (replay.ts, window.ts) on the
 * market clock (clock.ts).
 *
 * - The day: clock session k replays window.dateOf(k) (2025-04-07 → 2025-07-18, cycling; the
 *   window's first day only supplies reference prices) for every instrument at once. An
 *   instrument with a row that day trades: its session (replay.ts buildSession) ends exactly at
 *   the row's O/H/L/C and volume. Without a row it is not traded: its quote shows the reference
 *   price, volume 0, bid/ask 0 and `traded: false`; no prints, no depth. An instrument with no
 *   earlier row in the window and none that day is not listed yet: no quote, not tradable.
 * - Reference price and limits of each day: reference.ts dayReference (previous traded close,
 *   the exchange's ex-rights reference, a split's reference) with the instrument's price-limit
 *   class on that date (contract/dated-rules.ts: reference/etf_classes.csv via rule-classes.ts,
 *   and a first listing's first 5 days); the quote says whether limits apply (`priceLimits`),
 *   whether the reference is an estimate (`referenceEstimated`) and the sale's tax kind.
 * - Figures: while the session runs the quote's volume and turnover are the simulated prints'
 *   running sums; from the 13:30 closing print the volume is the real day's (by construction)
 *   and the turnover the real day's from daily_candles.
 * - Exchange: marketOf gives the exchange as of the replayed date (codes_*.csv's dated rows),
 *   which breadth() and the rankings use.
 * - Print timing: trade i prints once market time has passed its offset (offset < offsetMs), so
 *   at offsetMs 0 (before 09:00, the pre-open) every instrument shows its cursor-0 quote; the
 *   09:00:00 print (the opening call) goes out just after 09:00, and the 13:30:00 closing-call
 *   print when offsetMs reaches SESSION_MS. No prints fall in 13:25–13:30 (replay.ts).
 * - When the session changes, the remaining trades of the old session are emitted (its closing
 *   print), every instrument installs the new day at cursor 0 and emits that quote; a jump of
 *   more than one session (server paused, start) rebuilds silently and emits one snapshot.
 * - tick() emits every trade whose market time has passed: onTrade and onQuote once per trade;
 *   onDepth once per instrument per tick (the latest book; per 4,096-trade chunk in a sliced
 *   catch-up); onCandle once per changed candle per tick for 1m/3m/15m/30m and 1d.
 * - Trades (the tape): aggressor side inferred from the book just before the print; trades()
 *   serves the latest TRADES_RING prints of the current session per instrument.
 * - Session builds are spread over ticks: a tick builds sessions worth at most
 *   `buildTradesPerTick` expected trades (at least one). In the last PREBUILD_WINDOW_MS of a
 *   session the spare budget prepares the next day (its reference and its built session), so a
 *   rollover swaps in ready days at O(1) per instrument. An instrument whose session is not built
 *   yet shows its cursor-0 quote until a later tick builds it and catches up.
 * - Work slices (timer mode): a tick works for at most SLICE_MS (8 ms) of wall time, then yields
 *   and continues on setImmediate from the instrument where it stopped; one advance applies at
 *   most ADVANCE_CHUNK_TRADES trades, so a catch-up after a late build is split too, and a slice
 *   starts a build only with time left (or as its first work, so every slice progresses). Every
 *   instrument still gets every print in order; only the wall instant of emission spreads over a
 *   few slices (instruments late in symbol order by a few ms). A directly called tick() (tests,
 *   no timer) does everything due at once unless MarketFeedOptions.slice is given.
 * - start(): the directory (400-row pages), the window's days and its rows by primary-key
 *   symbol ranges (10 instruments a query) with a setImmediate yield before every query (PGlite
 *   answers in-process: awaited back-to-back queries would run as one long task), corporate
 *   actions and the TAIEX file, then every instrument's day installed in SLICE_MS slices; with
 *   the timer it returns then (sessions build in slices); without (tests) it builds them all.
 * - Candles: intraday periods from the current session's trades (candles.ts; ts = period start
 *   in market time). 1d/1M/1y from daily_candles strictly before the replay date plus the
 *   in-progress day (ts = 00:00 Asia/Taipei of the replay date).
 * - indices(): the TAIEX of the replayed date (indices.ts; an estimate pinned to the official
 *   close while the session runs). breadth(): breadth.ts over the current quotes.
 *
 * Units: prices minor (1 NT$ = 100), volumes shares, depth volumes lots, times epoch ms.
 * Memory: 12 bytes a trade (replay.ts); two days held during the pre-build window; the window's
 * rows ≈ 40 bytes per instrument-day (~7 MB). Measured numbers: docs/benchmarks.md "Replay feed
 * stalls"; the design: docs/adr/0007-replay-feed-one-market-day.md.
 *
 * Module layout (one seam each; this file composes them and keeps the public API):
 * - feed-state.ts: FeedState/SymbolState, the day of an instrument (dayFor, installDay), rollover;
 * - feed-step.ts: tick() — the pass over every instrument, session builds, slicing, pre-build;
 * - feed-advance.ts: the print loop (apply due prints, emit trades/quotes/depth/candles, snapshots);
 * - feed-snapshot.ts: quote/depth/print/daily-row views and the TAIEX computation;
 * - feed-start.ts: start()'s loading and installation; feed-history.ts: daily_candles reads;
 * - feed-shared.ts and feed-listeners.ts: the pieces the stress feed (stress.ts) shares.
 */
import type {
  Candle,
  CandlePeriod,
  ClockState,
  Depth,
  Instrument,
  Quote,
  Trade,
} from '../../contract/market';
import type { InstrumentKind } from '../../contract/market-rules';
import type { Db } from '../db/client';
import { dailyHistoryCache, withToday } from './daily-history';
import { breadthOf, type Breadth } from './breadth';
import { isIntradayPeriod } from './candles';
import type { Clock } from './clock';
import { candleWindow, dailyRowsBefore, dailyRowsCache } from './feed-history';
import { createFeedListeners } from './feed-listeners';
import { feedTimer, TRADES_RING } from './feed-shared';
import { currentTaiex, depthOf, marketOnDay, quoteAt, todayRow } from './feed-snapshot';
import { dayFor, type FeedState } from './feed-state';
import { MAX_BUILD_TRADES_PER_TICK, TICK_INTERVAL_MS, tick } from './feed-step';
import { startFeed } from './feed-start';
import type { IndexItem } from './indices';
import type { ListingProxy } from './listing-proxies';
import { buildSession } from './replay';
import { WINDOW_FIRST_DATE, WINDOW_LAST_DATE } from './window';

export { dailyCandlesOf } from './candles';
export { TRADES_RING, TradeRing, inferSide, feedTimer } from './feed-shared';
export { loadDailyRows, dailyRowsBefore, dailyRowsCache, candleWindow } from './feed-history';
export {
  TICK_INTERVAL_MS,
  MAX_BUILD_TRADES_PER_TICK,
  PREBUILD_WINDOW_MS,
  SLICE_MS,
  ADVANCE_CHUNK_TRADES,
} from './feed-step';
/** Re-exported so consumers import the feed's types from one module. */
export type { IndexItem } from './indices';
export type { Breadth, BreadthCounts } from './breadth';

/** The market data interface the rest of the server uses (see the module docstring). */
export interface MarketFeed {
  /**
   * Loads the directory, the window's rows (a few queries), corporate actions and the TAIEX;
   * installs the current day for every instrument. Unless `timer: false`, starts a
   * TICK_INTERVAL_MS timer calling tick() and returns: sessions build in slices meanwhile
   * (instruments show their cursor-0 quote until built). With `timer: false` it builds every
   * current session up to the clock's position (without emitting) before returning.
   */
  start(opts?: { timer?: boolean }): Promise<void>;
  /** Stops the timer (state is kept; tick() still works when called directly). */
  stop(): void;
  /** Advances to clock.position(): emits every trade whose market time has passed. */
  tick(): void;
  /** Timer mode: true while a sliced tick still has work scheduled (not every due print is out yet). */
  busy?(): boolean;
  /** Contract ClockState at the last tick. */
  clock(): ClockState;
  /** Quotes of all listed instruments (traded today or not), symbol order. */
  listQuotes(): Quote[];
  /**
   * Whether every instrument is on the clock's current session. False only for the few slices of
   * a session change (08:30) in which some instruments still show the previous day: a whole-market
   * computation (rankings, breadth) made then would mix two days. O(instruments).
   */
  settled(): boolean;
  quote(symbol: string): Quote | undefined;
  depth(symbol: string): Depth | undefined;
  /** Kind of any known instrument (tradable or not). */
  kind(symbol: string): InstrumentKind | undefined;
  /** Known to the feed and listed on the replayed day (it may still be not traded today: quote.traded). */
  isTradable(symbol: string): boolean;
  /**
   * The reference price (TWD minor) of `symbol` on the day clock session `session` replays (a past
   * or later session too: reference.ts dayReference, the price limits' base), or null when the
   * feed has none; the stress source answers its one reference. So a charge of a past day (a stock
   * lending fee) is priced on that day.
   */
  referenceAt(symbol: string, session: number): number | null;
  /**
   * The last `limit` candles (ascending) with `since` ≤ ts < `before` (each bound optional);
   * [] for an unknown symbol.
   */
  candles(
    symbol: string,
    period: CandlePeriod,
    limit: number,
    before?: number,
    since?: number,
  ): Promise<Candle[]>;
  /**
   * The latest `limit` prints of the current session (at most TRADES_RING), oldest first; [] for
   * an unknown symbol. The objects are the ones onTrade emitted (shared: do not mutate), so a
   * consumer can find an emitted print in the list by identity.
   */
  trades(symbol: string, limit: number): Trade[];
  /** Called for every trade (returns unsubscribe). */
  onQuote(fn: (q: Quote) => void): () => void;
  /** Called once per instrument per tick with trades, with the latest book. */
  onDepth(fn: (d: Depth) => void): () => void;
  /** The updated current candle (and any candle closed in the same tick) for 1m/3m/15m/30m and 1d. */
  onCandle(fn: (symbol: string, period: CandlePeriod, c: Candle) => void): () => void;
  /** Called for every print, after trades() includes it (returns unsubscribe). */
  onTrade(fn: (symbol: string, t: Trade) => void): () => void;
  /** TAIEX of the replayed day (replay) or its latest official close (stress), labelled with its date. */
  indices(): IndexItem[];
  /** Advancers/decliners/unchanged/not traded and turnover of the replayed day so far (breadth.ts). */
  breadth(): Breadth;
  /** Every listed instrument (instruments.ts loadInstruments, loaded at start), symbol order. */
  instruments(): readonly Instrument[];
  /**
   * The comparable path a symbol absent from the window lists on (listing-proxies.ts), or null
   * for an instrument with real rows (and on the stress feed, which has none).
   */
  listingProxy?(symbol: string): ListingProxy | null;
  /**
   * The last close (minor) the replay shows before clock session `session` (the latest traded
   * session in the window's pass before it, at most one pass back) and that session; null when
   * the symbol never trades in the window. Sessions in the future work too (the window is data).
   */
  closeBefore?(symbol: string, session: number): { closeMinor: number; session: number } | null;
  /**
   * The exchange an instrument is listed on as of the day shown: the replayed date's market from
   * the window's dated rows (rule-classes.ts loadMarketHistory; 6589 is TPEx in 2025's window,
   * TWSE in the directory), else the directory's. undefined for an unknown symbol.
   */
  marketOf(symbol: string): Instrument['market'] | undefined;
}

/** createMarketFeed options. */
export interface MarketFeedOptions {
  db: Db;
  clock: Clock;
  /** Seed of the simulated paths (same seed → same trades). */
  seed: number;
  /** Restrict the tradable set to these symbols. */
  symbols?: string[];
  /** Session-build budget per tick in expected trades (default MAX_BUILD_TRADES_PER_TICK). */
  buildTradesPerTick?: number;
  /** Session builder (default replay.ts buildSession); tests wrap it to count builds per tick. */
  buildSession?: typeof buildSession;
  /**
   * Work slicing: a tick stops once `now()` has advanced `budgetMs` since it began and the next
   * tick (a setImmediate in timer mode) resumes at the instrument where it stopped; an advance
   * applies at most ADVANCE_CHUNK_TRADES trades. Default: SLICE_MS of performance.now() in timer
   * mode; none without the timer (a directly called tick() does everything due). Tests pass a
   * counting `now` to check the slicing deterministically.
   */
  slice?: WorkSlice;
  /**
   * Public-subscription codes and offer prices (minor): those that never trade in the window are
   * listed on a comparable's path (listing-proxies.ts). Kept out of breadth and rankings.
   */
  listingProxies?: ReadonlyArray<{ symbol: string; offerMinor: number }>;
}

/** A work-slice budget (MarketFeedOptions.slice): `budgetMs` of the `now()` clock (ms). */
export interface WorkSlice {
  budgetMs: number;
  now: () => number;
}

/** The fresh state of a feed (nothing loaded; see feed-state.ts FeedState). */
function createFeedState(opts: MarketFeedOptions): FeedState {
  const loadHistory = dailyRowsCache(opts.db);
  const f: FeedState = {
    db: opts.db,
    clock: opts.clock,
    seed: opts.seed,
    opts,
    build: opts.buildSession ?? buildSession,
    buildBudget: opts.buildTradesPerTick ?? MAX_BUILD_TRADES_PER_TICK,
    states: new Map(),
    order: [],
    dailyHistory: dailyHistoryCache(async (symbol, date) => dailyRowsBefore(await loadHistory(symbol), date)),
    taiex: new Map(),
    directory: [],
    marketOf: () => undefined,
    win: null,
    rows: null,
    actions: { exRights: new Map(), splits: new Map() },
    proxies: new Map(),
    etfClasses: new Map(),
    marketOn: () => undefined,
    started: false,
    ticking: false,
    timerOn: false,
    catchUpScheduled: false,
    timer: { start() {}, stop() {} },
    slicer: opts.slice ?? null,
    scanAt: 0,
    pending: 0,
    pos: null,
    currentSession: 0,
    replayDate: null,
    listeners: createFeedListeners('market feed'),
  };
  f.timer = feedTimer(() => tick(f), TICK_INTERVAL_MS);
  return f;
}

/** The lifecycle part of the MarketFeed API: start, stop, tick, busy, clock, settled. */
function feedControls(
  f: FeedState,
): Pick<MarketFeed, 'start' | 'stop' | 'tick' | 'busy' | 'clock' | 'settled'> {
  return {
    start: (startOpts) => startFeed(f, startOpts),
    stop() {
      f.timerOn = false;
      f.timer.stop();
    },
    tick: () => tick(f),
    busy: () => f.catchUpScheduled,
    clock() {
      return {
        source: 'replay' as const,
        ...f.clock.state(f.pos ?? f.clock.position(), f.replayDate),
        replayDate: f.replayDate,
      };
    },
    settled() {
      if (!f.started) return false;
      for (const st of f.order) if (st.sessionIndex !== f.currentSession) return false;
      return true;
    },
  };
}

/** MarketFeed.candles: intraday from the session's aggregator, daily from the history plus today. */
async function feedCandles(
  f: FeedState,
  symbol: string,
  period: CandlePeriod,
  limit: number,
  before?: number,
  since?: number,
): Promise<Candle[]> {
  const st = f.states.get(symbol);
  if (!st || limit <= 0) return [];
  if (isIntradayPeriod(period)) return candleWindow(st.agg.series[period], limit, before, since);
  const date = st.date;
  const history = await f.dailyHistory(symbol, period, date);
  // Re-read after the await: the session may have rolled over meanwhile.
  const s = st.session;
  const today = st.date === date && s && st.cursor > 0 ? todayRow(st, s) : null;
  return candleWindow(withToday(history, today, period), limit, before, since);
}

/** The per-instrument queries of the MarketFeed API (quotes, depth, references, candles, tape). */
function instrumentQueries(
  f: FeedState,
): Pick<
  MarketFeed,
  | 'listQuotes'
  | 'quote'
  | 'depth'
  | 'kind'
  | 'isTradable'
  | 'referenceAt'
  | 'candles'
  | 'trades'
  | 'closeBefore'
> {
  return {
    listQuotes() {
      const out: Quote[] = [];
      for (const st of f.order) if (st.ref) out.push(quoteAt(f, st));
      return out;
    },
    quote(symbol) {
      const st = f.states.get(symbol);
      return st?.ref ? quoteAt(f, st) : undefined;
    },
    depth(symbol) {
      const st = f.states.get(symbol);
      return st?.ref ? depthOf(st) : undefined;
    },
    kind(symbol) {
      return f.states.get(symbol)?.kind ?? f.directory.find((r) => r.symbol === symbol)?.kind;
    },
    isTradable(symbol) {
      return f.states.get(symbol)?.ref != null;
    },
    referenceAt(symbol, session) {
      const st = f.states.get(symbol);
      if (!st || !f.rows || !f.win) return null;
      if (st.sessionIndex === session) return st.ref?.referenceMinor ?? null;
      return dayFor(f, st, f.win.dayIndexOf(session)).ref?.referenceMinor ?? null;
    },
    candles: (symbol, period, limit, before, since) => feedCandles(f, symbol, period, limit, before, since),
    trades(symbol, limit) {
      return f.states.get(symbol)?.tape.latest(Math.min(limit, TRADES_RING)) ?? [];
    },
    closeBefore(symbol, session) {
      const st = f.states.get(symbol);
      if (!st || !f.win || !f.rows) return null;
      const n = f.win.replayDayIndexes.length;
      for (let k = session - 1; k >= session - n; k--) {
        const c = f.rows.close[st.row * f.rows.days + f.win.dayIndexOf(k)]!;
        if (c > 0) return { closeMinor: c, session: k };
      }
      return null;
    },
  };
}

/** The whole-market queries of the MarketFeed API (indices, breadth, directory, exchanges). */
function marketQueries(
  f: FeedState,
): Pick<MarketFeed, 'indices' | 'breadth' | 'instruments' | 'listingProxy' | 'marketOf'> {
  const marketOf = (symbol: string) => marketOnDay(f, symbol);
  return {
    indices() {
      return currentTaiex(f);
    },
    breadth() {
      return breadthOf(
        f.order.filter((st) => st.ref && !f.proxies.has(st.symbol)).map((st) => quoteAt(f, st)),
        marketOf,
      );
    },
    instruments() {
      return f.directory;
    },
    listingProxy(symbol) {
      return f.proxies.get(symbol) ?? null;
    },
    marketOf,
  };
}

/** Creates the feed; call start() before use. */
export function createMarketFeed(opts: MarketFeedOptions): MarketFeed {
  const f = createFeedState(opts);
  const { onQuote, onDepth, onCandle, onTrade } = f.listeners;
  return {
    ...feedControls(f),
    ...instrumentQueries(f),
    ...marketQueries(f),
    onQuote,
    onDepth,
    onCandle,
    onTrade,
  };
}

/** Re-exported for scripts and tests: the window's bounds. */
export { WINDOW_FIRST_DATE, WINDOW_LAST_DATE };
