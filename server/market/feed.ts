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
 */
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type {
  Candle,
  CandlePeriod,
  ClockState,
  Depth,
  Instrument,
  Quote,
  Trade,
} from '../../contract/market';
import { limitClassOf, taxKindOf, type EtfClass } from '../../contract/dated-rules';
import { listingTradingDayNumber, type InstrumentKind } from '../../contract/market-rules';
import { yieldToEventLoop, type Db } from '../db/client';
import { dailyCandles } from '../db/schema';
import { dailyHistoryCache, withToday } from './daily-history';
export { dailyCandlesOf } from './candles';
import { breadthOf, marketLookup, type Breadth } from './breadth';
import { isTradingDay, SESSION_MS } from './calendar';
import {
  dailyCandle,
  INTRADAY_PERIODS,
  IntradayAggregator,
  isIntradayPeriod,
  lastCandles,
  type DailyRow,
  type IntradayPeriod,
} from './candles';
import type { Clock, ClockPosition } from './clock';
import { createFeedListeners } from './feed-listeners';
import { loadTaiexCloses, taiexEstimate, taiexItem, type IndexItem, type TaiexCloses } from './indices';
import { loadInstruments } from './instruments';
import { fillListingProxies, type ListingProxy } from './listing-proxies';
import {
  dayReference,
  loadCorporateActions,
  replayDayOf,
  type CorporateActions,
  type DayReference,
} from './reference';
import {
  bookAt,
  buildSession,
  depthAt,
  expectedTradeCount,
  lastTradeAt,
  type ReplayDay,
  type ReplaySession,
} from './replay';
import { loadEtfClasses, loadMarketHistory, type MarketOn } from './rule-classes';
import {
  loadWindowDates,
  replayWindow,
  WINDOW_FIRST_DATE,
  WINDOW_LAST_DATE,
  type ReplayWindow,
} from './window';

/** Re-exported so consumers import the feed's types from one module. */
export type { IndexItem } from './indices';
export type { Breadth, BreadthCounts } from './breadth';

/** Wall ms between timer ticks. */
export const TICK_INTERVAL_MS = 200;
/** Prints kept per instrument for trades() (the tape snapshot). */
export const TRADES_RING = 200;
/**
 * Default budget of session builds per tick, in expected trades (replay.ts expectedTradeCount):
 * ~0.27 µs a trade, so ≈ 16 ms; one MAX_TRADES session fits.
 */
export const MAX_BUILD_TRADES_PER_TICK = 60_000;
/** Market ms before a session's end from which ticks pre-build the next session. */
export const PREBUILD_WINDOW_MS = SESSION_MS / 4;
/**
 * Timer mode: wall ms of work one slice of a tick does before it yields (setImmediate) and
 * resumes where it stopped, so no task of the feed comes near 50 ms. One session build is not
 * divided (~5 ms for MAX_TRADES on an idle core, ~20 ms under load) and may overrun it once.
 */
export const SLICE_MS = 8;
/** Sliced mode: trades one advance applies at most, so one instrument's catch-up splits too. */
export const ADVANCE_CHUNK_TRADES = 4_096;

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

/**
 * A bounded ring of prints, oldest first (capacity `cap`): O(1) push, the oldest dropped when
 * full. Shared by the replay and stress feeds.
 */
export class TradeRing {
  private readonly buf: Trade[] = [];
  private head = 0;

  constructor(readonly cap: number = TRADES_RING) {}

  push(t: Trade): void {
    if (this.buf.length < this.cap) this.buf.push(t);
    else {
      this.buf[this.head] = t;
      this.head = (this.head + 1) % this.cap;
    }
  }

  /** The latest min(limit, size) prints, oldest first. */
  latest(limit: number): Trade[] {
    const n = this.buf.length;
    const k = Math.max(0, Math.min(limit, n));
    const out: Trade[] = new Array<Trade>(k);
    for (let j = 0; j < k; j++) out[j] = this.buf[(this.head + n - k + j) % n]!;
    return out;
  }

  clear(): void {
    this.buf.length = 0;
    this.head = 0;
  }
}

/**
 * Aggressor side of a print against the book just before it: at or above the ask → buy, at or
 * below the bid → sell, strictly inside → null.
 */
export function inferSide(priceMinor: number, bidMinor: number, askMinor: number): Trade['side'] {
  if (priceMinor >= askMinor) return 'buy';
  if (priceMinor <= bidMinor) return 'sell';
  return null;
}

/** The daily_candles columns of a DailyRow (prices minor, volume shares, turnover minor or null). */
const dailyRowColumns = {
  date: dailyCandles.date,
  openMinor: dailyCandles.openMinor,
  highMinor: dailyCandles.highMinor,
  lowMinor: dailyCandles.lowMinor,
  closeMinor: dailyCandles.closeMinor,
  volumeShares: dailyCandles.volumeShares,
  turnoverMinor: dailyCandles.turnoverMinor,
};

/** An instrument's whole daily history from the database, oldest first (prices minor, volume shares). */
export function loadDailyRows(db: Db, symbol: string): Promise<DailyRow[]> {
  return db
    .select(dailyRowColumns)
    .from(dailyCandles)
    .where(eq(dailyCandles.symbol, symbol))
    .orderBy(asc(dailyCandles.date));
}

/** Daily rows strictly before `date` (YYYY-MM-DD), by binary search on the ascending list. */
export function dailyRowsBefore(rows: readonly DailyRow[], date: string): DailyRow[] {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.date < date) lo = mid + 1;
    else hi = mid;
  }
  return rows.slice(0, lo);
}

/**
 * loadDailyRows memoized per symbol (one query per symbol for the feed's life); a failed load is
 * forgotten, so the next call retries. Loads run one at a time, a macrotask apart: on PGlite a
 * query runs synchronously in-process (ten years of one instrument ≈ 100 ms on a loaded core), so
 * the loads of a `sub` of a hundred daily-candle streams, issued together, blocked the event loop
 * for seconds; one after another, requests are answered between them.
 */
export function dailyRowsCache(db: Db): (symbol: string) => Promise<DailyRow[]> {
  const history = new Map<string, Promise<DailyRow[]>>();
  let queue: Promise<unknown> = Promise.resolve();
  return (symbol) => {
    let h = history.get(symbol);
    if (!h) {
      const load = queue
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(() => loadDailyRows(db, symbol));
      queue = load.catch(() => undefined);
      h = load;
      h.catch(() => history.delete(symbol));
      history.set(symbol, h);
    }
    return h;
  };
}

/** The last `limit` candles with since ≤ ts < before (ascending copies). */
export function candleWindow(
  candles: readonly Candle[],
  limit: number,
  before?: number,
  since?: number,
): Candle[] {
  // lastCandles keeps a suffix of the ts < before bars; the ts ≥ since bars are a suffix too.
  const out = lastCandles(candles, limit, before);
  return since === undefined ? out : out.filter((c) => c.ts >= since);
}

/**
 * The feed timer: start() calls `tick` every `intervalMs` wall ms (unref'd, so it does not keep
 * the process alive); stop() clears it.
 */
export function feedTimer(tick: () => void, intervalMs: number): { start(): void; stop(): void } {
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    start() {
      timer = setInterval(tick, intervalMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

/**
 * Instruments per row-loading query. The window loads by symbol ranges through the primary key
 * (symbol, date) — daily_candles has no date index, and on PGlite (in-process) a date-range query
 * scans all ~315k rows while blocking the event loop — in small chunks (~10 × 74 ≈ 740 rows,
 * ~5–10 ms on an idle core; 60 a query blocked 40–100 ms) with a setImmediate yield between them,
 * so the server answers requests while the market loads.
 */
const LOAD_SYMBOLS_PER_QUERY = 10;
/** Directory rows per query at start (instruments.ts loadInstruments pages). */
const LOAD_PAGE_INSTRUMENTS = 400;

/** Instruments per primary-key range of the window-dates scan (window.ts loadWindowDates). */
const DATE_SCAN_SYMBOLS = 50;

/** The window's rows of every instrument, struct of arrays indexed [instrument × days + day]. */
interface WindowRows {
  days: number;
  open: Int32Array;
  high: Int32Array;
  low: Int32Array;
  /** 0: no row (not traded that day). */
  close: Int32Array;
  volume: Float64Array;
  /** NaN: the source has no turnover. */
  turnover: Float64Array;
}

interface SymbolState {
  symbol: string;
  name: string;
  kind: InstrumentKind;
  market: Instrument['market'];
  /**
   * The listing date of a first listing of common shares (no row in the window before it), which
   * has no daily limit in its first 5 trading days; null for other instruments and for a listing
   * date that only records a move between boards or exchanges (6902 traded before its 2025-05-16
   * main-board date).
   */
  firstListingDate: string | null;
  /** reference/etf_classes.csv row (null: not an ETF/ETN/REIT, or a plain domestic one missing there). */
  etf: EtfClass | null;
  /** Row of this instrument in WindowRows. */
  row: number;
  /** The clock session installed. */
  sessionIndex: number;
  date: string;
  /** Reference and limits of `date`; null: not listed yet (no earlier row, none today). */
  ref: DayReference | null;
  /** The real day with its reference; null: not traded on `date`. */
  day: ReplayDay | null;
  /** The built session of `day`; null until built (or when not traded). */
  session: ReplaySession | null;
  /** When the session is built late: emit its trades since 09:00 (adjacent rollover) or snapshot. */
  emitCatchUp: boolean;
  /** ≥ 0: a silent catch-up (emitCatchUp false) applies trades up to this offset, then one snapshot. */
  silentTo: number;
  /** 09:00 market time of the session (epoch ms). */
  baseMs: number;
  /** Trades applied so far. */
  cursor: number;
  /** Running totals after `cursor` trades. */
  volume: number;
  turnover: number;
  high: number;
  low: number;
  agg: IntradayAggregator;
  tape: TradeRing;
  /** The next day's reference and session, prepared during the pre-build window. */
  next: PreparedDay | null;
}

/** A day prepared ahead of its rollover: dayFor's result and, when traded, its built session. */
interface PreparedDay {
  sessionIndex: number;
  ref: DayReference | null;
  day: ReplayDay | null;
  /** null until built (always null when not traded). */
  session: ReplaySession | null;
}

/** Creates the feed; call start() before use. */
export function createMarketFeed(opts: MarketFeedOptions): MarketFeed {
  const { db, clock, seed } = opts;
  const build = opts.buildSession ?? buildSession;
  const buildBudget = opts.buildTradesPerTick ?? MAX_BUILD_TRADES_PER_TICK;
  const states = new Map<string, SymbolState>();
  let order: SymbolState[] = [];
  const loadHistory = dailyRowsCache(db);
  const dailyHistory = dailyHistoryCache(async (symbol, date) =>
    dailyRowsBefore(await loadHistory(symbol), date),
  );
  let taiex: TaiexCloses = new Map();
  let directory: Instrument[] = [];
  let marketOf: (symbol: string) => Instrument['market'] | undefined = () => undefined;
  let win: ReplayWindow | null = null;
  let rows: WindowRows | null = null;
  let actions: CorporateActions = { exRights: new Map(), splits: new Map() };
  /** Symbols listed on a comparable's path (listing-proxies.ts). */
  let proxies = new Map<string, ListingProxy>();
  let etfClasses = new Map<string, EtfClass>();
  let marketOn: MarketOn = () => undefined;
  let started = false;
  let ticking = false;
  let timerOn = false;
  let catchUpScheduled = false;
  const timer = feedTimer(tick, TICK_INTERVAL_MS);
  let slicer: WorkSlice | null = opts.slice ?? null;
  /** Index into `order` where an unfinished pass resumes; 0: the next pass starts afresh. */
  let scanAt = 0;
  /** Session builds deferred (over budget) in the current pass. */
  let pending = 0;
  let pos: ClockPosition | null = null;
  let currentSession = 0;
  let replayDate: string | null = null;

  const listeners = createFeedListeners('market feed');
  const { quoteFns, depthFns, candleFns, tradeFns, emitQuote, emitDepth, emitCandle, emitTrade } = listeners;

  // ---------- loading ----------

  /**
   * The window's rows of `symbols`, loaded by ascending symbol ranges (LOAD_SYMBOLS_PER_QUERY
   * instruments a query, primary-key range scans) with a yield to the event loop between chunks.
   */
  async function loadRows(symbols: string[], dates: readonly string[]): Promise<WindowRows> {
    const days = dates.length;
    const n = symbols.length * days;
    const out: WindowRows = {
      days,
      open: new Int32Array(n),
      high: new Int32Array(n),
      low: new Int32Array(n),
      close: new Int32Array(n),
      volume: new Float64Array(n),
      turnover: new Float64Array(n).fill(NaN),
    };
    const symRow = new Map(symbols.map((s, i) => [s, i]));
    const dayIdx = new Map(dates.map((d, i) => [d, i]));
    const sorted = [...symbols].sort();
    const from = dates[0]!;
    const to = dates[days - 1]!;
    for (let c = 0; c < sorted.length; c += LOAD_SYMBOLS_PER_QUERY) {
      const part = sorted.slice(c, c + LOAD_SYMBOLS_PER_QUERY);
      await yieldToEventLoop();
      const chunk = await db
        .select({ symbol: dailyCandles.symbol, ...dailyRowColumns })
        .from(dailyCandles)
        .where(
          and(
            gte(dailyCandles.symbol, part[0]!),
            lte(dailyCandles.symbol, part.at(-1)!),
            gte(dailyCandles.date, from),
            lte(dailyCandles.date, to),
          ),
        );
      for (const r of chunk) {
        const i = symRow.get(r.symbol);
        const d = dayIdx.get(r.date);
        if (i === undefined || d === undefined) continue;
        const k = i * days + d;
        out.open[k] = r.openMinor;
        out.high[k] = r.highMinor;
        out.low[k] = r.lowMinor;
        out.close[k] = r.closeMinor;
        out.volume[k] = r.volumeShares;
        if (r.turnoverMinor !== null) out.turnover[k] = r.turnoverMinor;
      }
    }
    return out;
  }

  // ---------- days ----------

  /** Reference and (when traded) the replay day of `st` on window day d. */
  function dayFor(st: SymbolState, d: number): { ref: DayReference | null; day: ReplayDay | null } {
    const R = rows!;
    const base = st.row * R.days;
    let j = d - 1;
    while (j >= 0 && R.close[base + j] === 0) j--;
    const traded = R.close[base + d]! > 0;
    const date = win!.dates[d]!;
    let listingDay: number | null = null;
    if (st.firstListingDate && st.firstListingDate <= date)
      listingDay = listingTradingDayNumber({ listingDate: st.firstListingDate, today: date, isTradingDay });
    const bar = traded
      ? {
          openMinor: R.open[base + d]!,
          highMinor: R.high[base + d]!,
          lowMinor: R.low[base + d]!,
          closeMinor: R.close[base + d]!,
        }
      : null;
    const ref = dayReference({
      code: st.symbol,
      date,
      kind: st.kind,
      limitClass: limitClassOf({ kind: st.kind, etf: st.etf, firstListingDay: listingDay }),
      bar,
      prevCloseMinor: j >= 0 ? R.close[base + j]! : null,
      afterGap: j >= 0 && j !== d - 1,
      actions,
    });
    if (!ref || !bar) return { ref, day: null };
    const turnover = R.turnover[base + d]!;
    return {
      ref,
      day: replayDayOf(
        {
          date,
          ...bar,
          volumeShares: R.volume[base + d]!,
          turnoverMinor: Number.isNaN(turnover) ? null : turnover,
        },
        ref,
      ),
    };
  }

  const buildFor = (st: SymbolState, day: ReplayDay) =>
    build({ seed, symbol: st.symbol, kind: st.kind, day });

  /**
   * Installs clock session p.session's day at cursor 0: the prepared day (reference and
   * pre-built session) when there is one, so a rollover does O(1) per instrument.
   */
  function installDay(st: SymbolState, p: ClockPosition, emitCatchUp: boolean): void {
    const d = win!.dayIndexOf(p.session);
    const prepared = st.next?.sessionIndex === p.session ? st.next : null;
    const { ref, day } = prepared ?? dayFor(st, d);
    st.sessionIndex = p.session;
    st.date = win!.dates[d]!;
    st.ref = ref;
    st.day = day;
    st.session = day && prepared ? prepared.session : null;
    st.next = null;
    st.emitCatchUp = emitCatchUp;
    st.silentTo = -1;
    st.baseMs = clock.sessionBaseMs(p, st.date);
    st.cursor = 0;
    st.volume = 0;
    st.turnover = 0;
    st.high = 0;
    st.low = 0;
    st.agg = new IntradayAggregator(st.baseMs);
    st.tape.clear();
  }

  /** Moves to clock session p.session: the replayed date. */
  function rollover(p: ClockPosition): void {
    currentSession = p.session;
    replayDate = win!.dateOf(p.session);
  }

  // ---------- snapshots ----------

  /** The exchange of `symbol` on the replayed date (MarketFeed.marketOf). */
  function marketOnDay(symbol: string): Instrument['market'] | undefined {
    const date = states.get(symbol)?.date || replayDate;
    return (date ? marketOn(symbol, date) : undefined) ?? marketOf(symbol);
  }

  function quoteAt(st: SymbolState): Quote {
    const ref = st.ref!;
    const s = st.session;
    const i = st.cursor - 1;
    const book = s && i >= 0 ? bookAt(s, i) : { bidMinor: 0, askMinor: 0 };
    const printed = s !== null && i >= 0;
    return {
      symbol: st.symbol,
      name: st.name,
      kind: st.kind,
      lastMinor: printed ? s.prices[i]! : ref.referenceMinor,
      openMinor: printed ? s.prices[0]! : ref.referenceMinor,
      highMinor: printed ? st.high : ref.referenceMinor,
      lowMinor: printed ? st.low : ref.referenceMinor,
      prevCloseMinor: ref.referenceMinor,
      limitUpMinor: ref.limitUpMinor ?? 0,
      limitDownMinor: ref.limitDownMinor ?? 0,
      bidMinor: book.bidMinor,
      askMinor: book.askMinor,
      volumeShares: st.volume,
      turnoverMinor: s ? turnoverOf(st, s) : st.turnover,
      ts: printed ? st.baseMs + s.offsets[i]! : st.baseMs,
      replayDate: st.date,
      phase: pos?.phase ?? 'closed',
      traded: st.day !== null,
      priceLimits: ref.limitUpMinor !== null,
      referenceEstimated: ref.referenceEstimated,
      taxKind: taxKindOf(st.kind, st.etf),
    };
  }

  /** Print i, its side judged against the book after print i − 1 (the first print: its own book). */
  function tradeAt(st: SymbolState, s: ReplaySession, i: number): Trade {
    const { bidMinor, askMinor } = bookAt(s, i > 0 ? i - 1 : 0);
    const priceMinor = s.prices[i]!;
    return {
      ts: st.baseMs + s.offsets[i]!,
      priceMinor,
      volumeShares: s.shares[i]!,
      side: inferSide(priceMinor, bidMinor, askMinor),
    };
  }

  /** The latest book: after the last print; empty before the first; undefined when not traded. */
  function depthOf(st: SymbolState): Depth | undefined {
    if (!st.day) return undefined;
    const s = st.session;
    if (!s || st.cursor === 0) return { symbol: st.symbol, bids: [], asks: [], ts: st.baseMs };
    const i = st.cursor - 1;
    const { bids, asks } = depthAt(s, i);
    return { symbol: st.symbol, bids, asks, ts: st.baseMs + s.offsets[i]! };
  }

  /**
   * Turnover so far (TWD minor): the simulated prints' running sum while the session runs, the
   * exchange's own figure (daily_candles) once the closing print is out (the volume is the real
   * one by construction, replay.ts); the running sum when the source has no turnover.
   */
  function turnoverOf(st: SymbolState, s: ReplaySession): number {
    return st.cursor === s.count ? (s.day.turnoverMinor ?? st.turnover) : st.turnover;
  }

  /** The in-progress replayed day as a daily row (after `cursor` trades). */
  function todayRow(st: SymbolState, s: ReplaySession): DailyRow {
    return {
      date: st.date,
      openMinor: s.prices[0]!,
      highMinor: st.high,
      lowMinor: st.low,
      closeMinor: s.prices[st.cursor - 1]!,
      volumeShares: st.volume,
      turnoverMinor: turnoverOf(st, s),
    };
  }

  // ---------- advancing ----------

  /** Number of trades printed by market time `offsetMs` (prints strictly before it; the close at SESSION_MS). */
  const printedBy = (s: ReplaySession, offsetMs: number): number =>
    offsetMs >= SESSION_MS ? s.count : lastTradeAt(s, offsetMs - 1) + 1;

  /**
   * Applies trades up to `offsetMs`, at most `limit` of them; when `emit`, emits per-trade prints
   * and quotes and per-call depth/candles. The tape gets every print when emitting, else only
   * the last TRADES_RING of the call. Returns false when `limit` stopped it short of `offsetMs`.
   */
  function advance(st: SymbolState, offsetMs: number, emit: boolean, limit: number): boolean {
    const s = st.session;
    if (!s) return true;
    const due = printedBy(s, offsetMs);
    const end = Math.min(due, st.cursor + limit);
    if (end <= st.cursor) return true;
    const lenBefore: Record<IntradayPeriod, number> = {
      '1m': st.agg.series['1m'].length,
      '3m': st.agg.series['3m'].length,
      '15m': st.agg.series['15m'].length,
      '30m': st.agg.series['30m'].length,
    };
    const wantQuotes = emit && quoteFns.size > 0;
    const wantTrades = emit && tradeFns.size > 0;
    const tapeFrom = emit ? st.cursor : Math.max(st.cursor, end - st.tape.cap);
    for (let i = st.cursor; i < end; i++) {
      const p = s.prices[i]!;
      const sh = s.shares[i]!;
      st.agg.add(s.offsets[i]!, p, sh);
      st.volume += sh;
      st.turnover += p * sh;
      if (i === 0 || p > st.high) st.high = p;
      if (i === 0 || p < st.low) st.low = p;
      st.cursor = i + 1;
      if (i >= tapeFrom) {
        const t = tradeAt(st, s, i);
        st.tape.push(t);
        if (wantTrades) emitTrade(st.symbol, t);
      }
      if (wantQuotes) emitQuote(quoteAt(st));
    }
    if (!emit) return end === due;
    if (depthFns.size > 0) emitDepth(depthOf(st)!);
    if (candleFns.size > 0) {
      for (const p of INTRADAY_PERIODS) {
        const list = st.agg.series[p];
        for (let k = Math.max(0, lenBefore[p] - 1); k < list.length; k++)
          emitCandle(st.symbol, p, { ...list[k]! });
      }
      emitCandle(st.symbol, '1d', dailyCandle(todayRow(st, s)));
    }
    return end === due;
  }

  /** Emits the current state of one instrument (a new day at cursor 0, or after a silent rebuild). */
  function emitSnapshot(st: SymbolState): void {
    if (!st.ref) return;
    emitQuote(quoteAt(st));
    const d = depthOf(st);
    if (d && depthFns.size > 0) emitDepth(d);
    const s = st.session;
    if (!s || st.cursor === 0) return;
    for (const p of INTRADAY_PERIODS) {
      const c = st.agg.current(p);
      if (c) emitCandle(st.symbol, p, { ...c });
    }
    emitCandle(st.symbol, '1d', dailyCandle(todayRow(st, s)));
  }

  /** Runs another tick on setImmediate while sessions are still unbuilt (timer mode only). */
  function scheduleCatchUp(): void {
    if (catchUpScheduled || !timerOn) return;
    catchUpScheduled = true;
    setImmediate(() => {
      catchUpScheduled = false;
      tick();
    });
  }

  /**
   * Brings one instrument to `p`: finishes its previous session (closing print) and installs the
   * new day at cursor 0 with its snapshot, builds its session when `canBuild` allows (else counts
   * it in `pending`), then applies its due trades, at most `chunk` per advance. Returns false
   * when a chunk limit stopped it: the next slice resumes this instrument.
   */
  function stepInstrument(
    st: SymbolState,
    p: ClockPosition,
    canBuild: (day: ReplayDay) => boolean,
    chunk: number,
  ): boolean {
    if (st.sessionIndex !== p.session) {
      const adjacent = st.sessionIndex === p.session - 1;
      const before = st.cursor;
      if (adjacent && !advance(st, SESSION_MS, true, chunk)) return false;
      // Sliced: the closing prints took this slice's chunk; the new day starts in the next one.
      if (chunk < Number.POSITIVE_INFINITY && st.cursor > before) return false;
      installDay(st, p, adjacent);
      // Every subscriber sees the new day at once: its reference at cursor 0 (pre-open).
      emitSnapshot(st);
    }
    if (!st.day) return true;
    if (!st.session) {
      if (!canBuild(st.day)) {
        pending++;
        return true;
      }
      st.session = buildFor(st, st.day);
      if (!st.emitCatchUp) st.silentTo = p.offsetMs;
    }
    if (st.silentTo >= 0) {
      // A late build without emission (start, a jump of sessions): apply silently, then one snapshot.
      if (!advance(st, st.silentTo, false, chunk)) return false;
      st.silentTo = -1;
      emitSnapshot(st);
      return true;
    }
    return advance(st, p.offsetMs, true, chunk);
  }

  /**
   * One slice of a pass over every instrument (stepInstrument), then, once the day is built, the
   * pre-build of the next day in the last PREBUILD_WINDOW_MS. `budget`: session builds in expected
   * trades (Infinity: build everything due). With a slicer the slice also stops when its time is
   * up, remembers where (scanAt) and schedules the rest (timer mode).
   */
  function step(budget: number): void {
    const p = clock.position();
    pos = p;
    if (p.session !== currentSession) rollover(p);
    const sl = slicer;
    const deadline = sl ? sl.now() + sl.budgetMs : Number.POSITIVE_INFINITY;
    const overTime = (): boolean => sl !== null && sl.now() >= deadline;
    const chunk = sl ? ADVANCE_CHUNK_TRADES : Number.POSITIVE_INFINITY;
    let used = 0;
    /**
     * Whether a build of `day` fits: within the trade budget after the slice's first build, and
     * (sliced) started before the slice's time is up — unless `forced` (the slice's first piece
     * of work, so every slice makes progress).
     */
    const affordable = (day: ReplayDay, forced: boolean): boolean => {
      const est = expectedTradeCount(day);
      if (used > 0 && used + est > budget) return false;
      if (!forced && overTime()) return false;
      used += est;
      return true;
    };
    if (scanAt === 0) pending = 0;
    for (let i = scanAt; i < order.length; i++) {
      const first = i === scanAt;
      if (
        (!first && overTime()) ||
        !stepInstrument(order[i]!, p, (day) => affordable(day, first && used === 0), chunk)
      ) {
        scanAt = i;
        scheduleCatchUp();
        return;
      }
    }
    scanAt = 0;
    if (p.offsetMs >= SESSION_MS - PREBUILD_WINDOW_MS && pending === 0) {
      const k = p.session + 1;
      const d = win!.dayIndexOf(k);
      let prepared = 0;
      for (const st of order) {
        let next = st.next?.sessionIndex === k ? st.next : null;
        if (next && (next.session || !next.day)) continue;
        if (prepared++ > 0 && overTime()) {
          pending++;
          break;
        }
        if (!next) {
          next = { sessionIndex: k, ...dayFor(st, d), session: null };
          st.next = next;
        }
        if (!next.day) continue;
        if (!affordable(next.day, used === 0)) {
          pending++;
          break;
        }
        next.session = buildFor(st, next.day);
      }
    }
    if (pending > 0) scheduleCatchUp();
  }

  function tick(): void {
    if (!started || ticking) return;
    ticking = true;
    try {
      step(buildBudget);
    } finally {
      ticking = false;
    }
  }

  function currentTaiex(): IndexItem[] {
    if (!replayDate) return [];
    const official = taiex.get(replayDate);
    if (!official) return [];
    const members: Array<{ lastMinor: number; referenceMinor: number; closeMinor: number; weight: number }> =
      [];
    for (const st of order) {
      if (!st.day || st.market !== 'TWSE') continue;
      const ref = st.day.prevCloseMinor;
      const s = st.session;
      members.push({
        lastMinor: s && st.cursor > 0 ? s.prices[st.cursor - 1]! : ref,
        referenceMinor: ref,
        closeMinor: st.day.closeMinor,
        weight: ref * st.day.volumeShares,
      });
    }
    const elapsed = (pos?.offsetMs ?? 0) / SESSION_MS;
    const done = elapsed >= 1;
    return [
      taiexItem(
        replayDate,
        done ? official.closeMinor : taiexEstimate(official, members, elapsed),
        official.prevCloseMinor,
        !done,
      ),
    ];
  }

  // ---------- public API ----------

  return {
    async start(startOpts) {
      if (started) return;
      directory = await loadInstruments(db, { pageSize: LOAD_PAGE_INSTRUMENTS, between: yieldToEventLoop });
      marketOf = marketLookup(directory);
      // Every await below yields to the event loop first: PGlite answers in-process, so
      // back-to-back queries would otherwise run as one long task.
      await yieldToEventLoop();
      const dates = await loadWindowDates(db, {
        rangeStarts: directory.filter((_, i) => i > 0 && i % DATE_SCAN_SYMBOLS === 0).map((r) => r.symbol),
        between: yieldToEventLoop,
      });
      win = replayWindow(dates);
      const only = opts.symbols ? new Set(opts.symbols) : null;
      const candidates = directory.filter((r) => !only || only.has(r.symbol));
      const loaded = await loadRows(
        candidates.map((r) => r.symbol),
        dates,
      );
      actions = await loadCorporateActions();
      etfClasses = await loadEtfClasses();
      marketOn = await loadMarketHistory();
      taiex = await loadTaiexCloses();
      proxies = fillListingProxies(
        loaded,
        candidates,
        dates,
        opts.listingProxies ?? [],
        seed,
        (code, date) => actions.exRights.get(`${code}|${date}`)?.referenceMinor,
      );
      rows = loaded;
      candidates.forEach((inst, row) => {
        let any = false;
        for (let d = 0; d < loaded.days && !any; d++) any = loaded.close[row * loaded.days + d]! > 0;
        if (!any) return;
        // A listing date with trades before it in the window records a move between boards or
        // exchanges, not a first listing: no limit-free first days.
        let tradedBefore = false;
        const listed = proxies.get(inst.symbol)?.listingDate ?? inst.listingDate;
        for (let d = 0; d < loaded.days && listed && dates[d]! < listed && !tradedBefore; d++)
          tradedBefore = loaded.close[row * loaded.days + d]! > 0;
        states.set(inst.symbol, {
          symbol: inst.symbol,
          name: inst.name,
          kind: inst.kind,
          market: inst.market,
          firstListingDate: inst.securityType === 'stock' && listed && !tradedBefore ? listed : null,
          etf: etfClasses.get(inst.symbol) ?? null,
          row,
          sessionIndex: Number.NaN,
          date: '',
          ref: null,
          day: null,
          session: null,
          emitCatchUp: false,
          silentTo: -1,
          baseMs: 0,
          cursor: 0,
          volume: 0,
          turnover: 0,
          high: 0,
          low: 0,
          agg: new IntradayAggregator(0),
          tape: new TradeRing(),
          next: null,
        });
      });
      order = [...states.keys()].sort().map((s) => states.get(s)!);
      const p = clock.position();
      pos = p;
      rollover(p);
      // Install every instrument's day in time-boxed slices (the event loop runs between them).
      let sliceStart = performance.now();
      for (const st of order) {
        if (performance.now() - sliceStart >= SLICE_MS) {
          await yieldToEventLoop();
          sliceStart = performance.now();
        }
        installDay(st, p, false);
      }
      started = true;
      if (startOpts?.timer !== false) {
        slicer ??= { budgetMs: SLICE_MS, now: () => performance.now() };
        timerOn = true;
        timer.start();
        scheduleCatchUp();
      } else {
        // Everything due, at once, whatever the slicing (start without the timer is for tests).
        const sliced = slicer;
        slicer = null;
        step(Number.POSITIVE_INFINITY);
        slicer = sliced;
      }
    },
    stop() {
      timerOn = false;
      timer.stop();
    },
    tick,
    busy: () => catchUpScheduled,
    clock() {
      return {
        source: 'replay' as const,
        ...clock.state(pos ?? clock.position(), replayDate),
        replayDate,
      };
    },
    listQuotes() {
      const out: Quote[] = [];
      for (const st of order) if (st.ref) out.push(quoteAt(st));
      return out;
    },
    settled() {
      if (!started) return false;
      for (const st of order) if (st.sessionIndex !== currentSession) return false;
      return true;
    },
    quote(symbol) {
      const st = states.get(symbol);
      return st?.ref ? quoteAt(st) : undefined;
    },
    depth(symbol) {
      const st = states.get(symbol);
      return st?.ref ? depthOf(st) : undefined;
    },
    kind(symbol) {
      return states.get(symbol)?.kind ?? directory.find((r) => r.symbol === symbol)?.kind;
    },
    isTradable(symbol) {
      return states.get(symbol)?.ref != null;
    },
    referenceAt(symbol, session) {
      const st = states.get(symbol);
      if (!st || !rows || !win) return null;
      if (st.sessionIndex === session) return st.ref?.referenceMinor ?? null;
      return dayFor(st, win.dayIndexOf(session)).ref?.referenceMinor ?? null;
    },
    async candles(symbol, period, limit, before, since) {
      const st = states.get(symbol);
      if (!st || limit <= 0) return [];
      if (isIntradayPeriod(period)) return candleWindow(st.agg.series[period], limit, before, since);
      const date = st.date;
      const history = await dailyHistory(symbol, period, date);
      // Re-read after the await: the session may have rolled over meanwhile.
      const s = st.session;
      const today = st.date === date && s && st.cursor > 0 ? todayRow(st, s) : null;
      return candleWindow(withToday(history, today, period), limit, before, since);
    },
    trades(symbol, limit) {
      return states.get(symbol)?.tape.latest(Math.min(limit, TRADES_RING)) ?? [];
    },
    onQuote: listeners.onQuote,
    onDepth: listeners.onDepth,
    onCandle: listeners.onCandle,
    onTrade: listeners.onTrade,
    indices() {
      return currentTaiex();
    },
    breadth() {
      return breadthOf(order.filter((st) => st.ref && !proxies.has(st.symbol)).map(quoteAt), marketOnDay);
    },
    instruments() {
      return directory;
    },
    listingProxy(symbol) {
      return proxies.get(symbol) ?? null;
    },
    closeBefore(symbol, session) {
      const st = states.get(symbol);
      if (!st || !win || !rows) return null;
      const n = win.replayDayIndexes.length;
      for (let k = session - 1; k >= session - n; k--) {
        const c = rows.close[st.row * rows.days + win.dayIndexOf(k)]!;
        if (c > 0) return { closeMinor: c, session: k };
      }
      return null;
    },
    marketOf: marketOnDay,
  };
}

/** Re-exported for scripts and tests: the window's bounds. */
export { WINDOW_FIRST_DATE, WINDOW_LAST_DATE };
