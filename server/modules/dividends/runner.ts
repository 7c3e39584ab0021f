/**
 * Runs the cash-dividend crediting on the market clock (crediting.ts): at start, catching up on
 * the last CATCH_UP_DAYS replayed days (a restart credits what fell due while the server was
 * down, and never twice: crediting is idempotent per position and ex-day), then every
 * RUN_INTERVAL_MS of wall time for each replayed day the clock has reached. Runs never overlap.
 *
 * Replay clock only: the exchange clock (real 2026 dates) has no ex-rights data, so nothing is
 * credited there; the stress source has no calendar at all.
 */
import type { Db } from '../../db/client';
import { PRE_OPEN_MS, type Clock } from '../../market/clock';
import type { ReplayWindow } from '../../market/window';
import { periodicJob, type PeriodicJob } from '../common/periodic';
import { creditExDate } from './crediting';

/** Wall ms between runs. */
export const RUN_INTERVAL_MS = 5_000;
/** Replayed days looked back at on start. */
export const CATCH_UP_DAYS = 5;

/** The replay calendar the dividend screens and news read: today's session and its dates. */
export interface DividendCalendar {
  /** Today's clock session (0 without a replay clock). */
  today(): number;
  /** The replayed date of session `day`, or null without a replay window. */
  dateOf(day: number): string | null;
  /** Sessions per cycle of the window (73), or 0 without one. */
  cycleDays(): number;
  /** Market time of day (ms after local midnight), or null without a clock. */
  timeOfDayMs(): number | null;
}

/** run() resolves with the positions credited. */
export interface DividendRunner extends PeriodicJob {
  readonly calendar: DividendCalendar;
}

/**
 * Creates the runner (see the module docstring; inert until start(), handlers read its calendar
 * through ctx.services.dividends).
 */
export function createDividendRunner(opts: {
  db: Db;
  clock: Clock | null;
  window: ReplayWindow | null;
  log?: (msg: string, err?: unknown) => void;
}): DividendRunner {
  const { db, clock, window } = opts;
  const replay = clock?.mode === 'replay' && window !== null;
  const calendar: DividendCalendar = {
    today: () => (clock ? clock.position().session : 0),
    dateOf: (day) => (window ? window.dateOf(day) : null),
    cycleDays: () => (window ? window.replayDayIndexes.length : 0),
    timeOfDayMs: () => (clock ? clock.position().timeOfDayMs : null),
  };
  let lastDone: number | null = null;

  async function once(): Promise<number> {
    if (!replay) return 0;
    const today = calendar.today();
    let n = 0;
    for (let day = lastDone === null ? today - CATCH_UP_DAYS : lastDone + 1; day <= today; day++) {
      n += (await creditExDate(db, day, window.dateOf(day), clock.wallAt(day, -PRE_OPEN_MS))).credited;
      lastDone = day;
    }
    return n;
  }
  const runner: DividendRunner = {
    calendar,
    ...periodicJob(once, { intervalMs: RUN_INTERVAL_MS, what: 'dividend crediting', log: opts.log }),
  };
  return runner;
}
