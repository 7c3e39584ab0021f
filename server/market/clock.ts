/**
 * Market clock: maps wall time to a position in the replayed market.
 *
 * - `replay` (default): the whole TWSE day of each replayed date, one after another with no gap:
 *   08:30 → 14:30 market time = REPLAY_DAY_MS (360 min): pre-open 08:30–09:00, continuous
 *   09:00–13:25, closing call 13:25–13:30, intermission 13:30–14:00, after-hours entry
 *   14:00–14:30 (contract/trading-session.ts phases), then the next replayed day's 08:30.
 *   Day elapsed = (wall − anchor) × speed + PRE_OPEN_MS (the anchor instant is 09:00 of day 0);
 *   day k = floor(elapsed / REPLAY_DAY_MS), the time into the day = elapsed mod REPLAY_DAY_MS.
 *   The feed sees `session` = k and `offsetMs` = market ms after 09:00 clamped to
 *   0 … SESSION_MS (0 through the pre-open, SESSION_MS from 13:30 on); market timestamps are
 *   the replay date's 09:00 Asia/Taipei + offset. The default anchor is a fixed instant
 *   (2026-01-01T00:00+08:00), so a restarted server resumes at the same point. speed 60 → one
 *   360-minute day every 6 wall minutes; speed 1 → one every 6 wall hours.
 * - `exchange`: follows real Asia/Taipei hours and the TWSE calendar (calendar.ts): open only
 *   09:00 ≤ t < 13:30 on trading days (TW-MARKET-RULES "Regular session"); otherwise closed, with
 *   the last session shown complete (its last price frozen at its close). The replayed day number
 *   is the count of trading days from the anchor's date to the session's date (mod the
 *   instrument's replay days). Timestamps are the real wall time; `speed` is ignored (reported 1).
 *
 * Wall time is injectable (`now`) so tests drive the clock deterministically. All times epoch ms.
 */
import { DateTime } from 'luxon';
import type { ClockState } from '../../contract/market';
import { SESSION_BOUNDARIES, tradingPhaseAt, type TradingPhase } from '../../contract/trading-session';
import {
  dayStartMs,
  isTradingDay,
  MARKET_ZONE,
  previousTradingDay,
  SESSION_MS,
  sessionStartMs,
  taipeiDate,
  tradingDaysBetween,
  type SessionPhase,
} from './calendar';

/** contract ClockState.mode. */
export type ClockMode = 'replay' | 'exchange';

/** Any midnight: replay phases are those of a trading day at the replayed time of day. */
const REPLAY_PHASE_DAY = Date.UTC(2026, 0, 1, -8);

/** Default anchor: 2026-01-01T00:00 Asia/Taipei. */
export const DEFAULT_ANCHOR_MS = DateTime.fromISO('2026-01-01T00:00', { zone: MARKET_ZONE }).toMillis();

/** Replay: market ms of the pre-open, 08:30 → 09:00 (TW-MARKET-RULES "Pre-open"). */
export const PRE_OPEN_MS = SESSION_BOUNDARIES.continuous - SESSION_BOUNDARIES.preOpen;
/** Replay: market ms of one replayed day, 08:30 → 14:30 (after-hours match) = 360 min. */
export const REPLAY_DAY_MS = SESSION_BOUNDARIES.afterHoursMatch - SESSION_BOUNDARIES.preOpen;

/** A replayed date is a real trading day by construction. */
const replayedDayTrades = (): boolean => true;

/** Where the market stands at one wall instant. */
export interface ClockPosition {
  mode: ClockMode;
  /** 'open' while the regular session prints (09:00 ≤ t < 13:30 of a trading day), else 'closed'. */
  phase: SessionPhase;
  /** The TWSE phase of the market time (contract/trading-session.ts TradingPhase). */
  tradingPhase: TradingPhase;
  /**
   * Session number: replay → day k = floor(day elapsed / REPLAY_DAY_MS) (may be negative before
   * the anchor); exchange → trading days from the anchor's date to `sessionDate`. Consecutive
   * sessions have consecutive numbers.
   */
  session: number;
  /**
   * Market ms since 09:00 within the session, clamped to 0 … SESSION_MS: 0 before 09:00 (the
   * pre-open), SESSION_MS once 13:30 has passed.
   */
  offsetMs: number;
  /**
   * Market time of day, ms after local midnight of the session's date (replay: 08:30 …
   * 14:30 of the replayed day; exchange: the wall time of day, or 24 h on a later day).
   */
  timeOfDayMs: number;
  /** exchange: the real date (YYYY-MM-DD) of the current or last session; replay: null. */
  sessionDate: string | null;
  /** The wall instant this position was computed for. */
  wallMs: number;
}

/** A market clock; wall time is read through the injected `now`. */
export interface Clock {
  readonly mode: ClockMode;
  /** Market ms per wall ms: the configured factor in replay mode, 1 in exchange mode. */
  readonly speed: number;
  readonly anchorMs: number;
  /** Wall time now (epoch ms), from the injected source. */
  wallNow(): number;
  /** Position at a wall instant (default: now). */
  position(wallMs?: number): ClockPosition;
  /**
   * Replay: the wall instant (epoch ms) at which day `session` reaches `offsetMs` market ms after
   * 09:00 (negative: the pre-open, down to −PRE_OPEN_MS; up to REPLAY_DAY_MS − PRE_OPEN_MS for
   * 14:30). Exchange: throws (its wall time is the market time). Inverse of position().
   */
  wallAt(session: number, offsetMs: number): number;
  /**
   * Epoch ms of 09:00 market time for the session at `pos`, for an instrument replaying
   * `replayDate`: replay → replayDate 09:00 Asia/Taipei; exchange → sessionDate 09:00.
   */
  sessionBaseMs(pos: ClockPosition, replayDate: string): number;
  /**
   * Contract ClockState at `pos`. In replay mode `now` is market time on `referenceDate` (the
   * replay date the feed presents as "today": 08:30 … 14:30 of it); in exchange mode it is the
   * wall time. `replayDate` is `referenceDate` (the one replayed date every screen labels).
   */
  state(pos: ClockPosition, referenceDate: string | null): Omit<ClockState, 'source' | 'replayDate'>;
}

/** createClock options (all optional). */
export interface ClockOptions {
  mode?: ClockMode;
  /** Market speed factor (> 0), replay mode only. Default 1. */
  speed?: number;
  /** Wall time source (epoch ms). Default Date.now. */
  now?: () => number;
  /** Replay epoch / exchange day-count origin (epoch ms). Default DEFAULT_ANCHOR_MS. */
  anchorMs?: number;
}

/** Creates a clock; see the module docstring for the two modes. */
export function createClock(opts: ClockOptions = {}): Clock {
  const mode: ClockMode = opts.mode ?? 'replay';
  const configuredSpeed = opts.speed ?? 1;
  if (!(Number.isFinite(configuredSpeed) && configuredSpeed > 0))
    throw new RangeError(`speed must be > 0: ${configuredSpeed}`);
  const speed = mode === 'replay' ? configuredSpeed : 1;
  const now = opts.now ?? Date.now;
  const anchorMs = opts.anchorMs ?? DEFAULT_ANCHOR_MS;
  const anchorDate = taipeiDate(anchorMs);
  const dayIndexCache = new Map<string, number>();

  const dayIndex = (date: string): number => {
    let n = dayIndexCache.get(date);
    if (n === undefined) {
      n = tradingDaysBetween(anchorDate, date);
      dayIndexCache.set(date, n);
    }
    return n;
  };

  const position = (wallMs: number = now()): ClockPosition => {
    if (mode === 'replay') {
      const elapsed = Math.floor((wallMs - anchorMs) * speed) + PRE_OPEN_MS;
      const session = Math.floor(elapsed / REPLAY_DAY_MS);
      const intoDay = elapsed - session * REPLAY_DAY_MS; // ms after 08:30
      const afterOpen = intoDay - PRE_OPEN_MS; // ms after 09:00
      const timeOfDayMs = SESSION_BOUNDARIES.preOpen + intoDay;
      return {
        mode,
        phase: afterOpen >= 0 && afterOpen < SESSION_MS ? 'open' : 'closed',
        tradingPhase: tradingPhaseAt(REPLAY_PHASE_DAY + timeOfDayMs, replayedDayTrades),
        session,
        offsetMs: Math.min(Math.max(afterOpen, 0), SESSION_MS),
        timeOfDayMs,
        sessionDate: null,
        wallMs,
      };
    }
    const date = taipeiDate(wallMs);
    const t = wallMs - sessionStartMs(date);
    const tradingPhase = tradingPhaseAt(wallMs, isTradingDay);
    if (isTradingDay(date) && t >= 0) {
      return {
        mode,
        phase: t < SESSION_MS ? 'open' : 'closed',
        tradingPhase,
        session: dayIndex(date),
        offsetMs: Math.min(t, SESSION_MS),
        timeOfDayMs: wallMs - dayStartMs(date),
        sessionDate: date,
        wallMs,
      };
    }
    const last = previousTradingDay(date);
    return {
      mode,
      phase: 'closed',
      tradingPhase,
      session: dayIndex(last),
      offsetMs: SESSION_MS,
      timeOfDayMs: wallMs - dayStartMs(last),
      sessionDate: last,
      wallMs,
    };
  };

  return {
    mode,
    speed,
    anchorMs,
    wallNow: now,
    position,
    wallAt(session, offsetMs) {
      if (mode !== 'replay') throw new Error('wallAt: replay clock only');
      return anchorMs + (session * REPLAY_DAY_MS + offsetMs) / speed;
    },
    sessionBaseMs: (pos, replayDate) => sessionStartMs(pos.sessionDate ?? replayDate),
    state: (pos, referenceDate) => ({
      mode,
      phase: pos.phase,
      tradingPhase: pos.tradingPhase,
      speed,
      now:
        mode === 'exchange'
          ? Math.floor(pos.wallMs)
          : dayStartMs(referenceDate ?? anchorDate) + pos.timeOfDayMs,
      replayDate: referenceDate,
    }),
  };
}
