/**
 * Market clock: maps wall time to a position in the replayed market.
 *
 * - `replay` (default): always open. Market elapsed = (wall − anchor) × speed; session index
 *   k = floor(elapsed / 270 min), session offset = elapsed mod 270 min. Each instrument replays
 *   its replay day number (k mod its number of replay days); market timestamps are that replay
 *   date's 09:00 Asia/Taipei + offset. The default anchor is a fixed instant
 *   (2026-01-01T00:00+08:00), so a restarted server resumes at the same point. speed 60 → one
 *   270-minute session every 4.5 wall minutes.
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
import {
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

/** Default anchor: 2026-01-01T00:00 Asia/Taipei. */
export const DEFAULT_ANCHOR_MS = DateTime.fromISO('2026-01-01T00:00', { zone: MARKET_ZONE }).toMillis();

/** Where the market stands at one wall instant. */
export interface ClockPosition {
  mode: ClockMode;
  phase: SessionPhase;
  /**
   * Session number: replay → k = floor(elapsed / SESSION_MS) (may be negative before the
   * anchor); exchange → trading days from the anchor's date to `sessionDate`. Consecutive
   * sessions have consecutive numbers.
   */
  session: number;
  /** Market ms since 09:00 within the session, 0 … SESSION_MS (SESSION_MS once it has ended). */
  offsetMs: number;
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
   * Epoch ms of 09:00 market time for the session at `pos`, for an instrument replaying
   * `replayDate`: replay → replayDate 09:00 Asia/Taipei; exchange → sessionDate 09:00.
   */
  sessionBaseMs(pos: ClockPosition, replayDate: string): number;
  /**
   * Contract ClockState at `pos`. In replay mode `now` is market time on `referenceDate` (the
   * replay date the feed presents as "today"); in exchange mode it is the wall time.
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
      const elapsed = Math.floor((wallMs - anchorMs) * speed);
      const session = Math.floor(elapsed / SESSION_MS);
      return {
        mode,
        phase: 'open',
        session,
        offsetMs: elapsed - session * SESSION_MS,
        sessionDate: null,
        wallMs,
      };
    }
    const date = taipeiDate(wallMs);
    const t = wallMs - sessionStartMs(date);
    if (isTradingDay(date) && t >= 0) {
      return {
        mode,
        phase: t < SESSION_MS ? 'open' : 'closed',
        session: dayIndex(date),
        offsetMs: Math.min(t, SESSION_MS),
        sessionDate: date,
        wallMs,
      };
    }
    const last = previousTradingDay(date);
    return {
      mode,
      phase: 'closed',
      session: dayIndex(last),
      offsetMs: SESSION_MS,
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
    sessionBaseMs: (pos, replayDate) => sessionStartMs(pos.sessionDate ?? replayDate),
    state: (pos, referenceDate) => ({
      mode,
      phase: pos.phase,
      speed,
      now:
        mode === 'exchange'
          ? Math.floor(pos.wallMs)
          : sessionStartMs(referenceDate ?? anchorDate) + pos.offsetMs,
    }),
  };
}
