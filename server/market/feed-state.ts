/**
 * The replay feed's state (feed.ts) and its day seam: one FeedState per feed (what start()
 * loaded, the tick loop's position, the listeners) and one SymbolState per instrument (the day
 * installed, its built session and the running figures after `cursor` prints).
 *
 * - dayFor: an instrument's reference and replay day on a window day (reference.ts dayReference
 *   with its price-limit class on that date; null day when not traded);
 * - installDay: puts clock session p.session's day on an instrument at cursor 0 (the prepared
 *   day when the pre-build made one, so a rollover is O(1) per instrument);
 * - rollover: moves the feed to a clock session (its replayed date).
 *
 * Units: prices minor (1 NT$ = 100), volumes shares, times epoch ms. Errors: none thrown; the
 * functions that read the window assume start() loaded it (`win`, `rows` non-null).
 */
import type { Instrument } from '../../contract/market';
import { limitClassOf, type EtfClass } from '../../contract/dated-rules';
import { listingTradingDayNumber, type InstrumentKind } from '../../contract/market-rules';
import type { Db } from '../db/client';
import { isTradingDay } from './calendar';
import { IntradayAggregator } from './candles';
import type { Clock, ClockPosition } from './clock';
import type { dailyHistoryCache } from './daily-history';
import type { MarketFeedOptions, WorkSlice } from './feed';
import type { WindowRows } from './feed-history';
import type { FeedListeners } from './feed-listeners';
import { TradeRing } from './feed-shared';
import type { TaiexCloses } from './indices';
import type { ListingProxy } from './listing-proxies';
import { dayReference, replayDayOf, type CorporateActions, type DayReference } from './reference';
import type { buildSession, ReplayDay, ReplaySession } from './replay';
import type { MarketOn } from './rule-classes';
import type { ReplayWindow } from './window';

/** One instrument's day in the replay feed (see the module docstring). */
export interface SymbolState {
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
export interface PreparedDay {
  sessionIndex: number;
  ref: DayReference | null;
  day: ReplayDay | null;
  /** null until built (always null when not traded). */
  session: ReplaySession | null;
}

/** Everything one replay feed holds; the feed's modules read and update it in place. */
export interface FeedState {
  readonly db: Db;
  readonly clock: Clock;
  readonly seed: number;
  readonly opts: MarketFeedOptions;
  /** The session builder (MarketFeedOptions.buildSession or replay.ts buildSession). */
  readonly build: typeof buildSession;
  /** Session-build budget per tick in expected trades. */
  readonly buildBudget: number;
  readonly states: Map<string, SymbolState>;
  /** The states in symbol order (the order of every pass). */
  order: SymbolState[];
  /** 1d/1M/1y history before a date, per symbol (daily-history.ts). */
  readonly dailyHistory: ReturnType<typeof dailyHistoryCache>;
  taiex: TaiexCloses;
  directory: Instrument[];
  /** The directory's exchange of a symbol. */
  marketOf: (symbol: string) => Instrument['market'] | undefined;
  win: ReplayWindow | null;
  rows: WindowRows | null;
  actions: CorporateActions;
  /** Symbols listed on a comparable's path (listing-proxies.ts). */
  proxies: Map<string, ListingProxy>;
  etfClasses: Map<string, EtfClass>;
  marketOn: MarketOn;
  started: boolean;
  ticking: boolean;
  timerOn: boolean;
  catchUpScheduled: boolean;
  /** The TICK_INTERVAL_MS timer (feedTimer) calling tick(). */
  timer: { start(): void; stop(): void };
  slicer: WorkSlice | null;
  /** Index into `order` where an unfinished pass resumes; 0: the next pass starts afresh. */
  scanAt: number;
  /** Session builds deferred (over budget) in the current pass. */
  pending: number;
  /** The clock position of the last tick (null before start). */
  pos: ClockPosition | null;
  currentSession: number;
  replayDate: string | null;
  readonly listeners: FeedListeners;
}

/** A fresh state at `row` of the window rows, with no day installed (sessionIndex NaN). */
export function newSymbolState(
  inst: Pick<Instrument, 'symbol' | 'name' | 'kind' | 'market'>,
  row: number,
  firstListingDate: string | null,
  etf: EtfClass | null,
): SymbolState {
  return {
    symbol: inst.symbol,
    name: inst.name,
    kind: inst.kind,
    market: inst.market,
    firstListingDate,
    etf,
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
  };
}

/** Reference and (when traded) the replay day of `st` on window day d. */
export function dayFor(
  f: FeedState,
  st: SymbolState,
  d: number,
): { ref: DayReference | null; day: ReplayDay | null } {
  const R = f.rows!;
  const base = st.row * R.days;
  let j = d - 1;
  while (j >= 0 && R.close[base + j] === 0) j--;
  const traded = R.close[base + d]! > 0;
  const date = f.win!.dates[d]!;
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
    actions: f.actions,
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

/** Builds the session of `day` for `st` with the feed's builder and seed. */
export const buildFor = (f: FeedState, st: SymbolState, day: ReplayDay): ReplaySession =>
  f.build({ seed: f.seed, symbol: st.symbol, kind: st.kind, day });

/**
 * Installs clock session p.session's day at cursor 0: the prepared day (reference and
 * pre-built session) when there is one, so a rollover does O(1) per instrument.
 */
export function installDay(f: FeedState, st: SymbolState, p: ClockPosition, emitCatchUp: boolean): void {
  const d = f.win!.dayIndexOf(p.session);
  const prepared = st.next?.sessionIndex === p.session ? st.next : null;
  const { ref, day } = prepared ?? dayFor(f, st, d);
  st.sessionIndex = p.session;
  st.date = f.win!.dates[d]!;
  st.ref = ref;
  st.day = day;
  st.session = day && prepared ? prepared.session : null;
  st.next = null;
  st.emitCatchUp = emitCatchUp;
  st.silentTo = -1;
  st.baseMs = f.clock.sessionBaseMs(p, st.date);
  st.cursor = 0;
  st.volume = 0;
  st.turnover = 0;
  st.high = 0;
  st.low = 0;
  st.agg = new IntradayAggregator(st.baseMs);
  st.tape.clear();
}

/** Moves to clock session p.session: the replayed date. */
export function rollover(f: FeedState, p: ClockPosition): void {
  f.currentSession = p.session;
  f.replayDate = f.win!.dateOf(p.session);
}
