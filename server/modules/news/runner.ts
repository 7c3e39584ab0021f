/**
 * Writes the generated news items on the market clock (generate.ts): at start and then every
 * RUN_INTERVAL_MS of wall time, for today's replayed session `k`: the ex-dividend notices of the
 * ex-dates in sessions k−BACKFILL_DAYS … k+EX_NOTICE_DAYS, the public subscriptions whose apply
 * days start in k−BACKFILL_DAYS … k+1, and, from 13:30 market time, today's market summary from
 * the feed's rankings. Each item is written once (unique source key); runs never overlap.
 */
import { SESSION_BOUNDARIES } from '../../../contract/trading-session';
import type { Db } from '../../db/client';
import type { MarketFeed } from '../../market/feed';
import type { Rankings } from '../market/rankings';
import type { DividendCalendar } from '../dividends/runner';
import { periodicJob, type PeriodicJob } from '../common/periodic';
import { writeGenerated, type GeneratedItem } from './articles';
import { EX_NOTICE_DAYS, exDividendItem, ipoItems, marketSummaryItem } from './generate';

/** Wall ms between runs. */
export const RUN_INTERVAL_MS = 5_000;
/** Replayed days before today still given their items (a start or a restart fills them in). */
export const BACKFILL_DAYS = 2;

/** run() resolves with the items written. */
export type NewsRunner = PeriodicJob;

/** Creates the runner (see the module docstring). */
export function createNewsRunner(opts: {
  db: Db;
  feed: MarketFeed;
  calendar: DividendCalendar;
  now: () => number;
  /** The app's rankings (the market summary's movers and breadth). */
  rankings: Pick<Rankings, 'snapshot'>;
  log?: (msg: string, err?: unknown) => void;
}): NewsRunner {
  const { db, feed, calendar: cal, now, rankings } = opts;
  /** Source keys known written (skips their queries on later runs). */
  const done = new Set<string>();

  const write = async (item: GeneratedItem | null): Promise<number> => {
    if (!item || done.has(item.sourceKey)) return 0;
    const wrote = await writeGenerated(db, item, new Date(now()));
    done.add(item.sourceKey);
    return wrote ? 1 : 0;
  };

  async function once(): Promise<number> {
    const today = cal.today();
    if (cal.dateOf(today) === null) return 0;
    let n = 0;
    for (let d = today - BACKFILL_DAYS; d <= today + EX_NOTICE_DAYS; d++) {
      if (done.has(`exDividend:${d}`)) continue;
      const item = await exDividendItem(db, d, cal.dateOf(d)!);
      if (item) n += await write(item);
      else done.add(`exDividend:${d}`);
    }
    // From the first apply day on: an offering's price comes from the close before it.
    for (const item of await ipoItems(db, today - BACKFILL_DAYS, today, cal.dateOf)) n += await write(item);
    const t = cal.timeOfDayMs();
    const key = `marketSummary:${today}`;
    if (t !== null && t >= SESSION_BOUNDARIES.regularClose && !done.has(key)) {
      const snap = rankings.snapshot();
      if (snap.replayDate !== null && snap.replayDate === cal.dateOf(today))
        n += await write(marketSummaryItem(today, snap.replayDate, snap, (s) => feed.quote(s)));
    }
    return n;
  }
  return periodicJob(once, { intervalMs: RUN_INTERVAL_MS, what: 'news generation', log: opts.log });
}
