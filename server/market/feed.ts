/**
 * The market feed the rest of the server uses: quotes, 5-level depth, candles and the market
 * clock for every tradable instrument, produced by replaying real trading days (replay.ts) on the
 * market clock (clock.ts).
 *
 * - Tradable instruments: those with rows in daily_candles (optionally restricted by `symbols`)
 *   that have at least one replay day (replay.ts selectReplayDays: up to the 20 most recent real
 *   trading days whose OHLC lies within the daily limits of the previous close).
 * - Each clock session k, an instrument replays its day (k mod its number of replay days). When
 *   the session rolls over, the remaining trades of the old session are emitted (so its closing
 *   print at 13:30:00 goes out), then the next day starts with its own real previous close as
 *   reference price and limits. A jump of more than one session (server paused, clock moved)
 *   rebuilds silently and emits one snapshot per instrument instead of every trade.
 * - tick() emits every trade whose market time has passed: onTrade and onQuote once per trade;
 *   onDepth once per instrument per tick (the latest book); onCandle once per changed candle per
 *   tick for 1m/3m/15m/30m (including the final state of a bucket that closed during the tick)
 *   and 1d.
 * - Trades (the tape): each trade's aggressor side is inferred from the book just before it (at
 *   or above the ask: buy; at or below the bid: sell; in between: null). trades() serves the
 *   latest TRADES_RING prints of the current session per instrument from a ring.
 * - Session builds are spread over ticks: a tick builds sessions worth at most
 *   `buildTradesPerTick` expected trades (default MAX_BUILD_TRADES_PER_TICK ≈ 16 ms; always at
 *   least one session so it progresses). In the last PREBUILD_WINDOW_MS of a session the spare
 *   budget pre-builds the next session, so a rollover normally swaps in ready sessions and costs
 *   nothing. An instrument whose next session is not built yet keeps showing its finished
 *   session until a later tick builds it; it then catches up (adjacent session: emits every
 *   trade since 09:00; jump: silent rebuild plus one snapshot), so no tick blocks for long.
 * - Candles: intraday periods come from the current session's trades only (candles.ts buckets,
 *   ts = period start in market time). 1d/1M/1y come from daily_candles strictly before the
 *   replay date plus the in-progress replayed day (ts = 00:00 Asia/Taipei of the replay date —
 *   also in exchange mode, so the daily series has no gap; there intraday ts are real wall time).
 * - indices(): the TAIEX's latest official close (indices.ts); nothing simulated.
 *
 * Units: prices minor (1 NT$ = 100), volumes shares, depth volumes lots, times epoch ms.
 * CPU: a tick costs O(new trades) plus its bounded share of session builds (~0.27 µs per trade
 * built; all 59 sessions ≈ 1.1 M trades ≈ 0.3–0.6 s, now spread over ~20 ticks before the
 * rollover). Memory: a session ≈ 40 bytes per trade; during the pre-build window two sessions
 * per instrument are held.
 */
import { asc, desc, eq } from 'drizzle-orm';
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
import { dailyCandles } from '../db/schema';
import { SESSION_MS } from './calendar';
import {
  aggregateDaily,
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
import { loadIndices, type IndexItem } from './indices';
import { loadInstruments } from './instruments';
import {
  bookAt,
  buildSession,
  depthAt,
  expectedTradeCount,
  lastTradeAt,
  REPLAY_DAYS,
  selectReplayDays,
  type DailyBar,
  type ReplayDay,
  type ReplaySession,
} from './replay';

/** Re-exported so consumers import the feed's types from one module. */
export type { IndexItem } from './indices';

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

/** The market data interface the rest of the server uses (see the module docstring). */
export interface MarketFeed {
  /**
   * Loads instruments and recent daily candles from the DB, selects replay days, builds the
   * current sessions up to the clock's position (without emitting), and unless `timer: false`
   * starts a TICK_INTERVAL_MS timer calling tick().
   */
  start(opts?: { timer?: boolean }): Promise<void>;
  /** Stops the timer (state is kept; tick() still works when called directly). */
  stop(): void;
  /** Advances to clock.position(): emits every trade whose market time has passed. */
  tick(): void;
  /** Contract ClockState at the last tick. */
  clock(): ClockState;
  /** Quotes of all tradable instruments, symbol order. */
  listQuotes(): Quote[];
  quote(symbol: string): Quote | undefined;
  depth(symbol: string): Depth | undefined;
  /** Kind of any known instrument (tradable or not). */
  kind(symbol: string): InstrumentKind | undefined;
  isTradable(symbol: string): boolean;
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
  /** TAIEX latest official close and previous close, labelled with its date. */
  indices(): IndexItem[];
  /** Every listed instrument (instruments.ts loadInstruments, loaded at start), symbol order. */
  instruments(): readonly Instrument[];
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

interface InstrumentInfo {
  name: string;
  kind: InstrumentKind;
}

interface SymbolState {
  symbol: string;
  name: string;
  kind: InstrumentKind;
  days: ReplayDay[];
  /** The clock session `session` replays. */
  sessionIndex: number;
  session: ReplaySession;
  /** 09:00 market time of the session (epoch ms). */
  baseMs: number;
  /** Trades applied so far (≥ 1 once advanced). */
  cursor: number;
  agg: IntradayAggregator;
  /** The latest prints of `session`. */
  tape: TradeRing;
  /** The next session, pre-built during the pre-build window. */
  next: { sessionIndex: number; session: ReplaySession } | null;
}

/** Rows fetched per symbol when selecting replay days (enough for 20 valid days in practice). */
const RECENT_ROWS = 60;

const mod = (a: number, n: number) => ((a % n) + n) % n;

/** An instrument's whole daily history from the database, oldest first (prices minor, volume shares). */
export function loadDailyRows(db: Db, symbol: string): Promise<DailyRow[]> {
  return db
    .select({
      date: dailyCandles.date,
      openMinor: dailyCandles.openMinor,
      highMinor: dailyCandles.highMinor,
      lowMinor: dailyCandles.lowMinor,
      closeMinor: dailyCandles.closeMinor,
      volumeShares: dailyCandles.volumeShares,
      turnoverMinor: dailyCandles.turnoverMinor,
    })
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
 * forgotten, so the next call retries.
 */
export function dailyRowsCache(db: Db): (symbol: string) => Promise<DailyRow[]> {
  const history = new Map<string, Promise<DailyRow[]>>();
  return (symbol) => {
    let h = history.get(symbol);
    if (!h) {
      h = loadDailyRows(db, symbol);
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

/** Ascending daily rows as `period` candles: one per row for 1d, else aggregated (1M/1y). */
export function dailyCandlesOf(rows: readonly DailyRow[], period: '1d' | '1M' | '1y'): Candle[] {
  return period === '1d' ? rows.map(dailyCandle) : aggregateDaily(rows, period);
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

/** Creates the feed; call start() before use. */
export function createMarketFeed(opts: MarketFeedOptions): MarketFeed {
  const { db, clock, seed } = opts;
  const build = opts.buildSession ?? buildSession;
  const buildBudget = opts.buildTradesPerTick ?? MAX_BUILD_TRADES_PER_TICK;
  const info = new Map<string, InstrumentInfo>();
  const states = new Map<string, SymbolState>();
  let order: SymbolState[] = [];
  const loadHistory = dailyRowsCache(db);
  let indexItems: IndexItem[] = [];
  let directory: Instrument[] = [];
  let started = false;
  let ticking = false;
  const timer = feedTimer(tick, TICK_INTERVAL_MS);
  let pos: ClockPosition | null = null;
  let currentSession = 0;
  let referenceDate: string | null = null;

  const listeners = createFeedListeners('market feed');
  const { quoteFns, depthFns, candleFns, tradeFns, emitQuote, emitDepth, emitCandle, emitTrade } = listeners;

  // ---------- building state ----------

  async function loadBars(symbol: string, limit: number): Promise<DailyBar[]> {
    const rows = await db
      .select({
        date: dailyCandles.date,
        openMinor: dailyCandles.openMinor,
        highMinor: dailyCandles.highMinor,
        lowMinor: dailyCandles.lowMinor,
        closeMinor: dailyCandles.closeMinor,
        volumeShares: dailyCandles.volumeShares,
      })
      .from(dailyCandles)
      .where(eq(dailyCandles.symbol, symbol))
      .orderBy(desc(dailyCandles.date))
      .limit(limit);
    return rows.reverse();
  }

  const dayOf = (st: { days: ReplayDay[] }, k: number): ReplayDay => st.days[mod(k, st.days.length)]!;

  const buildFor = (st: { symbol: string; kind: InstrumentKind; days: ReplayDay[] }, k: number) =>
    build({ seed, symbol: st.symbol, kind: st.kind, day: dayOf(st, k) });

  /** Makes `session` (clock session k) the instrument's current one, at cursor 0. */
  function install(st: SymbolState, k: number, session: ReplaySession, p: ClockPosition): void {
    st.sessionIndex = k;
    st.session = session;
    st.baseMs = clock.sessionBaseMs(p, session.day.date);
    st.cursor = 0;
    st.agg = new IntradayAggregator(st.baseMs);
    st.tape.clear();
    if (st.next && st.next.sessionIndex <= k) st.next = null;
  }

  /** Moves to clock session p.session: picks the reference date (no building here). */
  function rollover(p: ClockPosition): void {
    // ClockState.now in replay mode: the replay date most instruments share (ties → latest).
    const counts = new Map<string, number>();
    for (const st of order) {
      const d = dayOf(st, p.session).date;
      counts.set(d, (counts.get(d) ?? 0) + 1);
    }
    let best: string | null = null;
    let bestN = 0;
    for (const [d, n] of counts)
      if (n > bestN || (n === bestN && best !== null && d > best)) [best, bestN] = [d, n];
    referenceDate = best;
    currentSession = p.session;
  }

  // ---------- snapshots ----------

  function quoteAt(st: SymbolState, i: number): Quote {
    const s = st.session;
    const { bidMinor, askMinor } = bookAt(s, i);
    return {
      symbol: st.symbol,
      name: st.name,
      kind: st.kind,
      lastMinor: s.prices[i]!,
      openMinor: s.prices[0]!,
      highMinor: s.runHigh[i]!,
      lowMinor: s.runLow[i]!,
      prevCloseMinor: s.day.prevCloseMinor,
      limitUpMinor: s.day.limitUpMinor,
      limitDownMinor: s.day.limitDownMinor,
      bidMinor,
      askMinor,
      volumeShares: s.cumVolume[i]!,
      turnoverMinor: s.cumTurnover[i]!,
      ts: st.baseMs + s.offsets[i]!,
      replayDate: s.day.date,
      phase: pos?.phase ?? 'closed',
    };
  }

  /** Print i, its side judged against the book after print i − 1 (the first print: its own book). */
  function tradeAt(st: SymbolState, i: number): Trade {
    const s = st.session;
    const { bidMinor, askMinor } = bookAt(s, i > 0 ? i - 1 : 0);
    const priceMinor = s.prices[i]!;
    return {
      ts: st.baseMs + s.offsets[i]!,
      priceMinor,
      volumeShares: s.shares[i]!,
      side: inferSide(priceMinor, bidMinor, askMinor),
    };
  }

  function depthOf(st: SymbolState): Depth {
    const i = Math.max(0, st.cursor - 1);
    const { bids, asks } = depthAt(st.session, i);
    return { symbol: st.symbol, bids, asks, ts: st.baseMs + st.session.offsets[i]! };
  }

  /** The in-progress replayed day as a daily row (after `cursor` trades). */
  function todayRow(st: SymbolState): DailyRow {
    const s = st.session;
    const i = Math.max(0, st.cursor - 1);
    return {
      date: s.day.date,
      openMinor: s.prices[0]!,
      highMinor: s.runHigh[i]!,
      lowMinor: s.runLow[i]!,
      closeMinor: s.prices[i]!,
      volumeShares: s.cumVolume[i]!,
      turnoverMinor: s.cumTurnover[i]!,
    };
  }

  // ---------- advancing ----------

  /**
   * Applies trades up to `offsetMs`; when `emit`, emits per-trade prints and quotes and per-tick
   * depth/candles. The tape gets every print when emitting, else only the last TRADES_RING.
   */
  function advance(st: SymbolState, offsetMs: number, emit: boolean): void {
    const s = st.session;
    const end = lastTradeAt(s, offsetMs) + 1;
    if (end <= st.cursor) return;
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
      st.agg.add(s.offsets[i]!, s.prices[i]!, s.shares[i]!);
      if (i >= tapeFrom) {
        const t = tradeAt(st, i);
        st.tape.push(t);
        if (wantTrades) emitTrade(st.symbol, t);
      }
      if (wantQuotes) {
        st.cursor = i + 1;
        emitQuote(quoteAt(st, i));
      }
    }
    st.cursor = end;
    if (!emit) return;
    if (depthFns.size > 0) emitDepth(depthOf(st));
    if (candleFns.size > 0) {
      for (const p of INTRADAY_PERIODS) {
        const list = st.agg.series[p];
        for (let k = Math.max(0, lenBefore[p] - 1); k < list.length; k++)
          emitCandle(st.symbol, p, { ...list[k]! });
      }
      emitCandle(st.symbol, '1d', dailyCandle(todayRow(st)));
    }
  }

  /** Emits the current state of one instrument (after a silent rebuild). */
  function emitSnapshot(st: SymbolState): void {
    if (st.cursor === 0) return;
    emitQuote(quoteAt(st, st.cursor - 1));
    if (depthFns.size > 0) emitDepth(depthOf(st));
    for (const p of INTRADAY_PERIODS) {
      const c = st.agg.current(p);
      if (c) emitCandle(st.symbol, p, { ...c });
    }
    emitCandle(st.symbol, '1d', dailyCandle(todayRow(st)));
  }

  function tick(): void {
    if (!started || ticking) return;
    ticking = true;
    try {
      const p = clock.position();
      pos = p;
      if (p.session !== currentSession) rollover(p);
      // Build budget of this tick, in expected trades; the first build always goes ahead.
      let used = 0;
      const affordable = (day: ReplayDay): boolean => {
        const est = expectedTradeCount(day);
        if (used > 0 && used + est > buildBudget) return false;
        used += est;
        return true;
      };
      for (const st of order) {
        if (st.sessionIndex === p.session) {
          advance(st, p.offsetMs, true);
          continue;
        }
        // Stale: finish the previous session (its closing prints), then start this one when
        // it is pre-built or the budget allows; otherwise a later tick does.
        const adjacent = st.sessionIndex === p.session - 1;
        if (adjacent) advance(st, SESSION_MS, true);
        let session: ReplaySession;
        if (st.next?.sessionIndex === p.session) session = st.next.session;
        else if (affordable(dayOf(st, p.session))) session = buildFor(st, p.session);
        else continue;
        install(st, p.session, session, p);
        advance(st, p.offsetMs, adjacent);
        if (!adjacent) emitSnapshot(st);
      }
      if (p.offsetMs >= SESSION_MS - PREBUILD_WINDOW_MS) {
        const k = p.session + 1;
        for (const st of order) {
          if (st.sessionIndex !== p.session || st.next?.sessionIndex === k) continue;
          if (!affordable(dayOf(st, k))) break;
          st.next = { sessionIndex: k, session: buildFor(st, k) };
        }
      }
    } finally {
      ticking = false;
    }
  }

  // ---------- public API ----------

  return {
    async start(startOpts) {
      if (started) return;
      directory = await loadInstruments(db);
      for (const r of directory) info.set(r.symbol, { name: r.name, kind: r.kind });
      const only = opts.symbols ? new Set(opts.symbols) : null;
      const withCandles = (await db.selectDistinct({ symbol: dailyCandles.symbol }).from(dailyCandles))
        .map((r) => r.symbol)
        .filter((s) => (!only || only.has(s)) && info.has(s))
        .sort();
      const p = clock.position();
      pos = p;
      for (const symbol of withCandles) {
        const inst = info.get(symbol)!;
        let bars = await loadBars(symbol, RECENT_ROWS);
        let days = selectReplayDays(bars, inst.kind);
        if (days.length < REPLAY_DAYS && bars.length === RECENT_ROWS) {
          bars = await loadBars(symbol, RECENT_ROWS * 10);
          days = selectReplayDays(bars, inst.kind);
        }
        if (days.length === 0) continue;
        const st: SymbolState = {
          symbol,
          name: inst.name,
          kind: inst.kind,
          days,
          sessionIndex: p.session,
          session: undefined as unknown as ReplaySession, // set by install() below
          baseMs: 0,
          cursor: 0,
          agg: new IntradayAggregator(0),
          tape: new TradeRing(),
          next: null,
        };
        // Start-up may block (no tick runs yet): build the current session, and the next one
        // too when the pre-build window is already open.
        install(st, p.session, buildFor(st, p.session), p);
        if (p.offsetMs >= SESSION_MS - PREBUILD_WINDOW_MS)
          st.next = { sessionIndex: p.session + 1, session: buildFor(st, p.session + 1) };
        states.set(symbol, st);
      }
      order = [...states.keys()].sort().map((s) => states.get(s)!);
      rollover(p);
      for (const st of order) advance(st, p.offsetMs, false);
      indexItems = await loadIndices();
      started = true;
      if (startOpts?.timer !== false) timer.start();
    },
    stop: timer.stop,
    tick,
    clock() {
      return { source: 'replay' as const, ...clock.state(pos ?? clock.position(), referenceDate) };
    },
    listQuotes() {
      return order.filter((st) => st.cursor > 0).map((st) => quoteAt(st, st.cursor - 1));
    },
    quote(symbol) {
      const st = states.get(symbol);
      return st && st.cursor > 0 ? quoteAt(st, st.cursor - 1) : undefined;
    },
    depth(symbol) {
      const st = states.get(symbol);
      return st && st.cursor > 0 ? depthOf(st) : undefined;
    },
    kind(symbol) {
      return info.get(symbol)?.kind;
    },
    isTradable(symbol) {
      return states.has(symbol);
    },
    async candles(symbol, period, limit, before, since) {
      const st = states.get(symbol);
      if (!st || limit <= 0) return [];
      if (isIntradayPeriod(period)) return candleWindow(st.agg.series[period], limit, before, since);
      const replayDate = st.session.day.date;
      const rows = dailyRowsBefore(await loadHistory(symbol), replayDate);
      // Re-read after the await: the session may have rolled over meanwhile.
      const cur = states.get(symbol)!;
      const today = cur.session.day.date === replayDate && cur.cursor > 0 ? [todayRow(cur)] : [];
      return candleWindow(dailyCandlesOf([...rows, ...today], period), limit, before, since);
    },
    trades(symbol, limit) {
      return states.get(symbol)?.tape.latest(Math.min(limit, TRADES_RING)) ?? [];
    },
    onQuote: listeners.onQuote,
    onDepth: listeners.onDepth,
    onCandle: listeners.onCandle,
    onTrade: listeners.onTrade,
    indices() {
      return indexItems.map((x) => ({ ...x }));
    },
    instruments() {
      return directory;
    },
  };
}
