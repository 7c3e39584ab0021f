/**
 * Each instrument's current trading day as the engine sees it from its quotes (pure state, no
 * database): the day's boundaries, whether its opening and closing matches have run, the date an
 * order entered now belongs to, and whether daily price limits apply (a new listing's first five
 * trading days have none). engine.ts module docstring says how the matches use it.
 */
import type { Quote } from '../../../contract/market';
import { hasPriceLimits } from '../../../contract/market-rules';
import type { IsTradingDay } from '../../../contract/trading-session';
import type { MarketFeed } from '../../market/feed';
import { dayTimes, marketDate, type SessionView } from './market-session';

const MS_PER_DAY = 86_400_000;

/** One instrument's current trading day as seen from its quotes. */
export interface DayState {
  date: string;
  /** [startMs, endMs): the Asia/Taipei calendar day of `date` (no DST in Taipei). */
  startMs: number;
  endMs: number;
  callMs: number;
  closeMs: number;
  /** The closing match of `date` has run; its price. */
  closeDone: boolean;
  closePriceMinor: number | null;
  /** The previous day's closing match (for a close queued just before it ran). */
  prevClose: { date: string; priceMinor: number } | null;
  /**
   * The opening match of `date` has run. false while only pre-open quotes of the day were seen
   * (the reference price before any print, or a print the feed showed before 09:00): orders of
   * `date` queue for the opening match until the day's first print in continuous trading.
   */
  opened: boolean;
}

/**
 * The day state of the market date of `ts` (epoch ms), carrying `prev`'s closing match forward
 * (DayState.prevClose). `opened`: whether its opening match has run.
 */
export function newDayState(ts: number, prev: DayState | undefined, opened = true): DayState {
  const date = marketDate(ts);
  const t = dayTimes(date);
  // Taipei is UTC+8 all year: the calendar day is [08:30 − 8.5 h, + 24 h).
  const startMs = t.preOpenMs - (8 * 60 + 30) * 60_000;
  return {
    date,
    startMs,
    endMs: startMs + MS_PER_DAY,
    callMs: t.closingCallMs,
    closeMs: t.regularCloseMs,
    closeDone: false,
    closePriceMinor: null,
    opened,
    prevClose:
      prev && prev.closeDone && prev.closePriceMinor !== null
        ? { date: prev.date, priceMinor: prev.closePriceMinor }
        : (prev?.prevClose ?? null),
  };
}

/**
 * True when `q` is not yet a print of an opened day: no volume yet (the reference price a feed
 * shows before the opening), or a quote of an unfinished day seen during the pre-open (a feed
 * that shows the 09:00 opening print early). Such quotes never match anything.
 */
export function awaitingOpen(q: Quote, v: SessionView): boolean {
  if (!v.shaped) return false;
  if (q.volumeShares === 0) return true;
  return v.phase === 'preOpen' && q.ts < dayTimes(marketDate(q.ts)).regularCloseMs;
}

/** The instruments' trading days (createSessionDays). */
export interface SessionDays {
  /** symbol → its current day; written by the quote handling (matching.ts). */
  readonly days: Map<string, DayState>;
  /** symbol → listing date (YYYY-MM-DD), loaded at start. */
  readonly listingDates: Map<string, string>;
  /** The instrument's day state, created from its current quote when first needed. */
  dayOf(symbol: string): DayState | undefined;
  /**
   * The trading date an order entered now for `symbol` belongs to: the exchange clock's date; on
   * the replay clock the replayed date of the instrument's session (its quotes' date).
   */
  tradeDateFor(v: SessionView, symbol: string): string;
  /**
   * Whether daily price limits apply to an order on `symbol` for `date`: the quote's own flag when
   * its source gives one (the replay: none for foreign-index ETFs and a first listing's first 5
   * days, contract/dated-rules.ts), else the listing rule.
   */
  limitsFor(q: Quote, symbol: string, date: string): boolean;
}

/** Most cached (symbol, date) price-limit answers before the cache starts over. */
const LIMITS_CACHE_MAX = 50_000;

/** The trading days of `feed`'s instruments on the market clock `view`. */
export function createSessionDays(
  feed: MarketFeed,
  isTradingDay: IsTradingDay,
  view: () => SessionView,
): SessionDays {
  const days = new Map<string, DayState>();
  const listingDates = new Map<string, string>();
  const limitsCache = new Map<string, boolean>();

  function dayOf(symbol: string): DayState | undefined {
    let st = days.get(symbol);
    if (!st) {
      const q = feed.quote(symbol);
      if (!q) return undefined;
      st = newDayState(q.ts, undefined, !awaitingOpen(q, view()));
      days.set(symbol, st);
    }
    return st;
  }

  /** Whether daily price limits apply to `symbol` on `date` (none in a new listing's first 5 days). */
  function limitsApply(symbol: string, date: string): boolean {
    const listing = listingDates.get(symbol);
    if (!listing || listing > date) return true;
    const key = `${symbol}|${date}`;
    let v = limitsCache.get(key);
    if (v === undefined) {
      try {
        v = hasPriceLimits({ listingDate: listing, today: date, isTradingDay });
      } catch {
        v = true; // not trading yet by the calendar: keep the limits
      }
      if (limitsCache.size > LIMITS_CACHE_MAX) limitsCache.clear();
      limitsCache.set(key, v);
    }
    return v;
  }

  return {
    days,
    listingDates,
    dayOf,
    tradeDateFor(v, symbol) {
      if (!v.replay) return marketDate(v.nowMs);
      return dayOf(symbol)?.date ?? marketDate(v.nowMs);
    },
    limitsFor: (q, symbol, date) => q.priceLimits ?? limitsApply(symbol, date),
  };
}
