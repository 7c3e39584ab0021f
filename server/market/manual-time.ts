/**
 * The wall time a `MARKET_CLOCK=manual` market clock reads (server/config.ts; test builds only):
 * it stands still until a test moves it (server/http/test-clock.ts), or runs at a rate the test
 * sets. The replay clock (clock.ts, mode `replay`, speed 1) maps it to market time, so one ms of
 * this time is one market ms and everything the replay does on a jump (prints, candles, triggers,
 * phases, day rollover) follows from the feed's next tick.
 *
 * Units: epoch ms. `now()` = the last set instant + (real ms since) × rate.
 */
import { DEFAULT_ANCHOR_MS, REPLAY_DAY_MS } from './clock';

/** The replayed session a manual clock starts in: 2025-04-14, an ordinary day (not at a limit). */
export const MANUAL_START_SESSION = 5;
/** Where in it: 10:00 market time (market ms after 09:00). */
export const MANUAL_START_OFFSET_MS = 60 * 60_000;

/**
 * The wall instant of `offsetMs` market ms after 09:00 of replay session `session` on a speed-1
 * replay clock with the default anchor (clock.ts wallAt).
 */
export const manualWallAt = (session: number, offsetMs: number): number =>
  DEFAULT_ANCHOR_MS + session * REPLAY_DAY_MS + offsetMs;

/** A settable wall time (see the module docstring). */
export interface ManualTime {
  /** The time now (epoch ms); what the market clock reads. */
  now(): number;
  /** Moves the time to `wallMs` (forward only). @throws RangeError when it is before now(). */
  set(wallMs: number): void;
  /** From now on the time runs at `rate` ms per real ms (0: stands still, the start). */
  run(rate: number): void;
  /** The current rate (ms per real ms). */
  rate(): number;
}

/**
 * A manual time starting at `startMs` (default: MANUAL_START_OFFSET_MS into MANUAL_START_SESSION),
 * standing still. `realNow` is the real clock the rate runs on (default Date.now).
 */
export function createManualTime(
  startMs: number = manualWallAt(MANUAL_START_SESSION, MANUAL_START_OFFSET_MS),
  realNow: () => number = Date.now,
): ManualTime {
  let base = startMs;
  let since = realNow();
  let r = 0;
  const now = (): number => base + (r === 0 ? 0 : (realNow() - since) * r);
  return {
    now,
    set(wallMs) {
      if (!(wallMs >= now())) throw new RangeError(`the manual clock only moves forward: ${wallMs}`);
      base = wallMs;
      since = realNow();
    },
    run(rate) {
      if (!(Number.isFinite(rate) && rate >= 0)) throw new RangeError(`rate must be ≥ 0: ${rate}`);
      base = now();
      since = realNow();
      r = rate;
    },
    rate: () => r,
  };
}
