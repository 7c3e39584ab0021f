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
 * - tick() emits every trade whose market time has passed: onQuote once per trade; onDepth once
 *   per instrument per tick (the latest book); onCandle once per changed candle per tick for
 *   1m/3m/15m/30m (including the final state of a bucket that closed during the tick) and 1d.
 * - Candles: intraday periods come from the current session's trades only (candles.ts buckets,
 *   ts = period start in market time). 1d/1M/1y come from daily_candles strictly before the
 *   replay date plus the in-progress replayed day (ts = 00:00 Asia/Taipei of the replay date —
 *   also in exchange mode, so the daily series has no gap; there intraday ts are real wall time).
 * - indices(): the TAIEX's latest official close (indices.ts); nothing simulated.
 *
 * Units: prices minor (1 NT$ = 100), volumes shares, depth volumes lots, times epoch ms.
 * CPU: a tick costs O(new trades); a session build ~1 ms per instrument (60 instruments ≈ 60 ms
 * once per session, every 4.5 min at speed 60).
 */
import { asc, desc, eq } from 'drizzle-orm';
import type { Candle, CandlePeriod, ClockState, Depth, Quote } from '../../contract/market';
import type { InstrumentKind } from '../../contract/market-rules';
import type { Db } from '../db/client';
import { dailyCandles, instruments } from '../db/schema';
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
import { loadIndices, type IndexItem } from './indices';
import {
  bookAt,
  buildSession,
  depthAt,
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
  /** The last `limit` candles (ascending, ts < before when given); [] for an unknown symbol. */
  candles(symbol: string, period: CandlePeriod, limit: number, before?: number): Promise<Candle[]>;
  /** Called for every trade (returns unsubscribe). */
  onQuote(fn: (q: Quote) => void): () => void;
  /** Called once per instrument per tick with trades, with the latest book. */
  onDepth(fn: (d: Depth) => void): () => void;
  /** The updated current candle (and any candle closed in the same tick) for 1m/3m/15m/30m and 1d. */
  onCandle(fn: (symbol: string, period: CandlePeriod, c: Candle) => void): () => void;
  /** TAIEX latest official close and previous close, labelled with its date. */
  indices(): IndexItem[];
}

/** createMarketFeed options. */
export interface MarketFeedOptions {
  db: Db;
  clock: Clock;
  /** Seed of the simulated paths (same seed → same trades). */
  seed: number;
  /** Restrict the tradable set to these symbols. */
  symbols?: string[];
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
  session: ReplaySession;
  /** 09:00 market time of the session (epoch ms). */
  baseMs: number;
  /** Trades applied so far (≥ 1 once advanced). */
  cursor: number;
  agg: IntradayAggregator;
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

/** Creates the feed; call start() before use. */
export function createMarketFeed(opts: MarketFeedOptions): MarketFeed {
  const { db, clock, seed } = opts;
  const info = new Map<string, InstrumentInfo>();
  const states = new Map<string, SymbolState>();
  let order: SymbolState[] = [];
  const history = new Map<string, Promise<DailyRow[]>>();
  let indexItems: IndexItem[] = [];
  let started = false;
  let ticking = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  let pos: ClockPosition | null = null;
  let currentSession = 0;
  let referenceDate: string | null = null;

  const quoteFns = new Set<(q: Quote) => void>();
  const depthFns = new Set<(d: Depth) => void>();
  const candleFns = new Set<(symbol: string, period: CandlePeriod, c: Candle) => void>();

  const safe = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      console.error('market feed listener failed', err);
    }
  };

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

  function buildState(
    st: Omit<SymbolState, 'session' | 'baseMs' | 'cursor' | 'agg'>,
    p: ClockPosition,
  ): SymbolState {
    const day = st.days[mod(p.session, st.days.length)]!;
    const session = buildSession({ seed, symbol: st.symbol, kind: st.kind, day });
    const baseMs = clock.sessionBaseMs(p, day.date);
    return { ...st, session, baseMs, cursor: 0, agg: new IntradayAggregator(baseMs) };
  }

  /** Rebuilds every instrument for the session at `p` (cursor 0) and picks the reference date. */
  function buildAll(p: ClockPosition): void {
    const counts = new Map<string, number>();
    for (const [sym, st] of states) {
      const next = buildState(st, p);
      states.set(sym, next);
      counts.set(next.session.day.date, (counts.get(next.session.day.date) ?? 0) + 1);
    }
    order = [...states.keys()].sort().map((s) => states.get(s)!);
    // ClockState.now in replay mode: the replay date most instruments share (ties → latest).
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

  /** Applies trades up to `offsetMs`; emits per-trade quotes and per-tick depth/candles when `emit`. */
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
    for (let i = st.cursor; i < end; i++) {
      st.agg.add(s.offsets[i]!, s.prices[i]!, s.shares[i]!);
      if (wantQuotes) {
        st.cursor = i + 1;
        const q = quoteAt(st, i);
        for (const fn of quoteFns) safe(() => fn(q));
      }
    }
    st.cursor = end;
    if (!emit) return;
    if (depthFns.size > 0) {
      const d = depthOf(st);
      for (const fn of depthFns) safe(() => fn(d));
    }
    if (candleFns.size > 0) {
      for (const p of INTRADAY_PERIODS) {
        const list = st.agg.series[p];
        for (let k = Math.max(0, lenBefore[p] - 1); k < list.length; k++) {
          const c = { ...list[k]! };
          for (const fn of candleFns) safe(() => fn(st.symbol, p, c));
        }
      }
      const c = dailyCandle(todayRow(st));
      for (const fn of candleFns) safe(() => fn(st.symbol, '1d', c));
    }
  }

  /** Emits the current state of one instrument (after a silent rebuild). */
  function emitSnapshot(st: SymbolState): void {
    if (st.cursor === 0) return;
    const q = quoteAt(st, st.cursor - 1);
    for (const fn of quoteFns) safe(() => fn(q));
    if (depthFns.size > 0) {
      const d = depthOf(st);
      for (const fn of depthFns) safe(() => fn(d));
    }
    for (const p of INTRADAY_PERIODS) {
      const c = st.agg.current(p);
      if (c) for (const fn of candleFns) safe(() => fn(st.symbol, p, { ...c }));
    }
    const c = dailyCandle(todayRow(st));
    for (const fn of candleFns) safe(() => fn(st.symbol, '1d', c));
  }

  function tick(): void {
    if (!started || ticking) return;
    ticking = true;
    try {
      const p = clock.position();
      pos = p;
      if (p.session === currentSession) {
        for (const st of order) advance(st, p.offsetMs, true);
        return;
      }
      const adjacent = p.session === currentSession + 1;
      if (adjacent) for (const st of order) advance(st, SESSION_MS, true); // the old session's closing prints
      buildAll(p);
      for (const st of order) advance(st, p.offsetMs, adjacent);
      if (!adjacent) for (const st of order) emitSnapshot(st);
    } finally {
      ticking = false;
    }
  }

  // ---------- daily history ----------

  function loadHistory(symbol: string): Promise<DailyRow[]> {
    let h = history.get(symbol);
    if (!h) {
      h = loadDailyRows(db, symbol);
      h.catch(() => history.delete(symbol));
      history.set(symbol, h);
    }
    return h;
  }

  /** Daily rows strictly before `date` (binary search on the ascending list). */
  function rowsBefore(rows: DailyRow[], date: string): DailyRow[] {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid]!.date < date) lo = mid + 1;
      else hi = mid;
    }
    return rows.slice(0, lo);
  }

  // ---------- public API ----------

  return {
    async start(startOpts) {
      if (started) return;
      const instRows = await db
        .select({ symbol: instruments.symbol, name: instruments.name, kind: instruments.kind })
        .from(instruments);
      for (const r of instRows)
        info.set(r.symbol, { name: r.name, kind: r.kind === 'etf' ? 'etf' : 'stock' });
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
        const partial = { symbol, name: inst.name, kind: inst.kind, days };
        states.set(symbol, buildState(partial, p));
      }
      buildAll(p);
      for (const st of order) advance(st, p.offsetMs, false);
      indexItems = await loadIndices();
      started = true;
      if (startOpts?.timer !== false) {
        timer = setInterval(tick, TICK_INTERVAL_MS);
        timer.unref?.();
      }
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
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
    async candles(symbol, period, limit, before) {
      const st = states.get(symbol);
      if (!st || limit <= 0) return [];
      if (isIntradayPeriod(period)) return lastCandles(st.agg.series[period], limit, before);
      const replayDate = st.session.day.date;
      const rows = rowsBefore(await loadHistory(symbol), replayDate);
      // Re-read after the await: the session may have rolled over meanwhile.
      const cur = states.get(symbol)!;
      const today = cur.session.day.date === replayDate && cur.cursor > 0 ? [todayRow(cur)] : [];
      const all = [...rows, ...today];
      const candles = period === '1d' ? all.map(dailyCandle) : aggregateDaily(all, period);
      return lastCandles(candles, limit, before);
    },
    onQuote(fn) {
      quoteFns.add(fn);
      return () => quoteFns.delete(fn);
    },
    onDepth(fn) {
      depthFns.add(fn);
      return () => depthFns.delete(fn);
    },
    onCandle(fn) {
      candleFns.add(fn);
      return () => candleFns.delete(fn);
    },
    indices() {
      return indexItems.map((x) => ({ ...x }));
    },
  };
}
