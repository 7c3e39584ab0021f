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
 * - `replay` clock (default): one 270-minute session (09:00–13:30 market time of the replayed
 *   date) follows the next with no gap (server/market/clock.ts). So there is no pre-open and no
 *   after-hours window: the phase is `continuous` until 13:25 and `closingCall` 13:25–13:30 of each
 *   replayed session; after-hours orders are refused (`nonTradingTime`, opening time null) rather
 *   than pretending a window the replay does not have. The replay prints trades during its
 *   13:25–13:30 minutes (it simulates a continuous tape); the engine treats them as the call's
 *   indicative prices and matches once at the 13:30 print, as the exchange does.
 * - `stress` source: synthetic, always open, wall-clock times with no session shape: always
 *   `continuous`, no calls, no expiry at a close.
 *
 * The trading date of an order is the market's date: the Asia/Taipei date of the exchange
 * clock, or on the replay clock the replayed date of the instrument's session (quotes carry it
 * as their time), which also decides when an ROD order expires.
 */
import type { ClockState, Quote } from '../../../contract/market';
import {
  nextOpen,
  orderEntryRejection,
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
  /** The clock has the whole TWSE day (pre-open, after-hours): the exchange clock. */
  fullDay: boolean;
  /** The source has session times at all (false for the stress source). */
  shaped: boolean;
}

const always: IsTradingDay = () => true;

/** The session view for a feed clock state (see the module docstring). */
export function sessionView(clock: ClockState, isTradingDay: IsTradingDay): SessionView {
  if (clock.source === 'stress')
    return { nowMs: clock.now, phase: 'continuous', fullDay: false, shaped: false };
  if (clock.mode === 'exchange')
    return { nowMs: clock.now, phase: tradingPhaseAt(clock.now, isTradingDay), fullDay: true, shaped: true };
  // Replay: market time is always inside a replayed (real) trading day's 09:00–13:30.
  const phase = tradingPhaseAt(clock.now, always);
  return {
    nowMs: clock.now,
    phase: phase === 'closingCall' ? 'closingCall' : 'continuous',
    fullDay: false,
    shaped: true,
  };
}

/**
 * When `market` next takes orders, for the fix of a `nonTradingTime` refusal: the exchange
 * calendar's next opening on the exchange clock; null where this clock never opens that market
 * (after-hours on the replay clock or the stress source; their regular market never closes).
 */
export function opensAt(view: SessionView, isTradingDay: IsTradingDay, market: EntryMarket): number | null {
  return view.fullDay ? nextOpen(view.nowMs, isTradingDay, market) : null;
}

/**
 * True when `market` does not take orders now (trading-session.ts PHASE_RULES on the exchange
 * clock; on the replay clock and the stress source the regular market always does and the
 * after-hours market never does).
 */
export function entryClosed(view: SessionView, isTradingDay: IsTradingDay, market: EntryMarket): boolean {
  if (!view.fullDay) return market === 'afterHours';
  return orderEntryRejection(view.nowMs, isTradingDay, market) !== null;
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
