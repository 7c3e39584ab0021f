/**
 * Credit interest on the market calendar. The trading day is the market clock's session number
 * (server/market/clock.ts ClockPosition.session): on the replay clock each replayed day is one
 * (day k of the replay, 08:30 → 14:30 market time, then the next replayed day's 08:30), on the
 * exchange clock it counts TWSE trading days from the anchor's date (holidays and weekends do not
 * advance it). The day changes at the replay clock's rollover to the next replayed 08:30, or on
 * the exchange clock at the first instant of the next trading day's date.
 *
 * The runner watches that number: at start (catching up on days that passed while the server was
 * down) and every RUN_INTERVAL_MS of wall time it accrues every lending loan behind today
 * (loans.ts accrueDue). A repayment also accrues its loan first, so what is owed never depends
 * on the timer. The stress source has no calendar (`clock` null): the day stays 0 and nothing
 * accrues.
 */
import type { Db } from '../../db/client';
import type { Clock } from '../../market/clock';
import { periodicJob, type PeriodicJob } from '../common/periodic';
import { accrueDue } from './loans';

/** Wall ms between runs (a replayed day lasts minutes even at high speeds). */
export const RUN_INTERVAL_MS = 5_000;

/** run() resolves with the loans accrued. */
export interface CreditRunner extends PeriodicJob {
  /** The market calendar's trading day now. */
  today(): number;
}

/**
 * Creates the runner on `clock` (null: no calendar, day 0); inert until start(). Handlers read
 * the trading day through ctx.services.credit.today().
 */
export function createCreditRunner(opts: {
  db: Db;
  clock: Clock | null;
  log?: (msg: string, err?: unknown) => void;
}): CreditRunner {
  const today = () => (opts.clock ? opts.clock.position().session : 0);
  const job = periodicJob(() => accrueDue(opts.db, today()), {
    intervalMs: RUN_INTERVAL_MS,
    what: 'credit interest accrual',
    log: opts.log,
  });
  return { today, ...job };
}
