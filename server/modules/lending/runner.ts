/**
 * Runs the stock-lending steps (service.ts runLendingDue: fees of the days that are over,
 * expiries, allocations to shorts) at start and every RUN_INTERVAL_MS of wall time, on the
 * business days of the public-subscription runner's calendar. Runs never overlap; the steps are
 * idempotent, so a restart neither skips nor repeats a day's fee.
 */
import type { Db } from '../../db/client';
import type { MarketFeed } from '../../market/feed';
import { periodicJob, type PeriodicJob } from '../common/periodic';
import { runLendingDue, type LendingCalendar, type ReferencePrice } from './service';

/** Wall ms between runs (a short is allocated its borrow within this time of opening). */
export const RUN_INTERVAL_MS = 2_000;

/** run() resolves with the loans changed. */
export type LendingRunner = PeriodicJob;

/** The reference price of `symbol` on business day (clock session) `day` from the feed, or null. */
export function referenceOf(feed: Pick<MarketFeed, 'referenceAt'>): ReferencePrice {
  return (symbol, day) => {
    const price = feed.referenceAt(symbol, day);
    return price !== null && price > 0 ? price : null;
  };
}

/** Today's reference price (prevCloseMinor) the feed shows for `symbol`, or null. */
export function currentReferenceOf(feed: Pick<MarketFeed, 'quote'>): (symbol: string) => number | null {
  return (symbol) => {
    const q = feed.quote(symbol);
    return q && q.prevCloseMinor > 0 ? q.prevCloseMinor : null;
  };
}

export function createLendingRunner(opts: {
  db: Db;
  feed: Pick<MarketFeed, 'referenceAt'>;
  calendar: LendingCalendar;
  log?: (msg: string, err?: unknown) => void;
}): LendingRunner {
  const reference = referenceOf(opts.feed);
  return periodicJob(() => runLendingDue(opts.db, opts.calendar, reference), {
    intervalMs: RUN_INTERVAL_MS,
    what: 'stock lending steps',
    log: opts.log,
  });
}
