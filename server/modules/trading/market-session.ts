/**
 * The trading session as the engine sees it, on the MARKET clock (the feed's `clock()`), never
 * the server's wall clock, so the replayed market trades at any hour.
 *
 * Phases come from contract/trading-session.ts (TW-MARKET-RULES "Regular session", "Pre-open",
 * "Opening and closing", "After-hours fixed price"). What each market clock has of them:
 *
 * - `exchange` clock (MARKET_CLOCK=exchange): market time is real Asia/Taipei time and the whole
 *   TWSE day exists: pre-open 08:30–09:00, continuous 09:00–13:25, closing call 13:25–13:30,
 *   after-hours entry 14:00–14:30, closed otherwise and on holidays (server/market/calendar.ts).
 *   The replay feed on this clock prints the replayed day's trades 09:00–13:30 (its 09:00 print
 *   is the opening auction's price, its 13:30 print the closing auction's) and shows the finished
 *   session outside those hours, so the day's close is known after 13:30.
 * - `replay` clock (default): the same whole day, on the replayed date: each replayed day runs
 *   08:30 → 14:30 market time (compressed by the speed) and the next one starts at its 08:30
 *   (server/market/clock.ts), so pre-open entry and the 09:00 opening match, continuous trading,
 *   the closing call matched at 13:30, the intermission and the after-hours window with its
 *   14:30 match all happen, with the exchange clock's rules (`fullDay`). The phase comes from the
 *   market time of day (a replayed date is a real trading day); when entry next opens comes from
 *   the TWSE calendar (the replay window is consecutive trading days, so the next replayed day
 *   is the calendar's next trading day, except where the window starts over).
 * - `stress` source: synthetic, always open, wall-clock times with no session shape: always
 *   `continuous`, no calls, no expiry at a close.
 *
 * The trading date of an order is the market's date: the Asia/Taipei date of the exchange
 * clock, or on the replay clock the replayed date of the instrument's session (quotes carry it
 * as their time), which also decides when an ROD order expires.
 */
import type { ClockState, Quote } from '../../../contract/market';
import {
  acceptsOrders,
  nextOpen,
  sessionTimes,
  taipeiIsoDate,
  tradingPhaseAt,
  type EntryMarket,
  type IsTradingDay,
  type SessionTimes,
  type TradingPhase,
} from '../../../contract/trading-session';

/** The engine's view of the market clock at one instant. */
export interface SessionView {
  /** Market time (epoch ms). */
  nowMs: number;
  phase: TradingPhase;
  /** The clock has the whole TWSE day (pre-open, after-hours): the exchange and replay clocks. */
  fullDay: boolean;
  /**
   * The replay clock: an instrument's trading date is the replayed date of its session (its
   * quotes' date), and the replay may start its window over (dates go back).
   */
  replay: boolean;
  /** The source has session times at all (false for the stress source). */
  shaped: boolean;
}

const always: IsTradingDay = () => true;

/** The session view for a feed clock state (see the module docstring). */
export function sessionView(clock: ClockState, isTradingDay: IsTradingDay): SessionView {
  if (clock.source === 'stress')
    return { nowMs: clock.now, phase: 'continuous', fullDay: false, replay: false, shaped: false };
  if (clock.mode === 'exchange')
    return {
      nowMs: clock.now,
      phase: tradingPhaseAt(clock.now, isTradingDay),
      fullDay: true,
      replay: false,
      shaped: true,
    };
  // Replay: market time is 08:30–14:30 of a replayed (real) trading day.
  return {
    nowMs: clock.now,
    phase: tradingPhaseAt(clock.now, always),
    fullDay: true,
    replay: true,
    shaped: true,
  };
}

/**
 * When `market` next takes orders (market time, epoch ms), for the fix of a `nonTradingTime`
 * refusal: the exchange calendar's next opening on the exchange and replay clocks; null on the
 * stress source (its regular market never closes, its after-hours market never opens).
 */
export function opensAt(view: SessionView, isTradingDay: IsTradingDay, market: EntryMarket): number | null {
  return view.fullDay ? nextOpen(view.nowMs, isTradingDay, market) : null;
}

/**
 * True when `market` does not take orders now: trading-session.ts PHASE_RULES of the view's
 * phase on the exchange and replay clocks; on the stress source the regular market always does
 * and the after-hours market never does.
 */
export function entryClosed(view: SessionView, market: EntryMarket): boolean {
  if (!view.fullDay) return market === 'afterHours';
  return !acceptsOrders(view.phase, market);
}

/** Session boundaries of a date, memoised (dates repeat all day). */
const timesCache = new Map<string, SessionTimes>();
export function dayTimes(isoDate: string): SessionTimes {
  let t = timesCache.get(isoDate);
  if (!t) {
    if (timesCache.size > 10_000) timesCache.clear();
    t = sessionTimes(isoDate);
    timesCache.set(isoDate, t);
  }
  return t;
}

/** The market date (YYYY-MM-DD, Asia/Taipei) of an instant. */
export const marketDate = (epochMs: number): string => taipeiIsoDate(epochMs);

/** The trading date a quote belongs to (its print's market date). */
export const quoteDate = (q: Quote): string => marketDate(q.ts);

/** True when the quote is its session's 13:30 closing print (or later): the session has ended. */
export const isClosingPrint = (q: Quote, date: string = quoteDate(q)): boolean =>
  q.ts >= dayTimes(date).regularCloseMs;
