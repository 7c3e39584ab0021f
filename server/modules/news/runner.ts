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
import { rankingsFor } from '../market/rankings';
import type { DividendCalendar } from '../dividends/runner';
import { writeGenerated, type GeneratedItem } from './articles';
import { EX_NOTICE_DAYS, exDividendItem, ipoItems, marketSummaryItem } from './generate';

/** Wall ms between runs. */
export const RUN_INTERVAL_MS = 5_000;
/** Replayed days before today still given their items (a start or a restart fills them in). */
export const BACKFILL_DAYS = 2;

export interface NewsRunner {
  start(opts?: { timer?: boolean }): Promise<void>;
  stop(): void;
  /** One run now (tests call it after moving the clock); resolves with the items written. */
  run(): Promise<number>;
}

/** Creates the runner (see the module docstring). */
export function createNewsRunner(opts: {
  db: Db;
  feed: MarketFeed;
  calendar: DividendCalendar;
  now: () => number;
  log?: (msg: string, err?: unknown) => void;
}): NewsRunner {
  const { db, feed, calendar: cal, now } = opts;
  /** Source keys known written (skips their queries on later runs). */
  const done = new Set<string>();
  let running: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | null = null;

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
    for (const item of await ipoItems(db, today - BACKFILL_DAYS, today + 1, cal.dateOf))
      n += await write(item);
    const t = cal.timeOfDayMs();
    const key = `marketSummary:${today}`;
    if (t !== null && t >= SESSION_BOUNDARIES.regularClose && !done.has(key)) {
      const snap = rankingsFor(feed, now).snapshot();
      if (snap.replayDate !== null && snap.replayDate === cal.dateOf(today))
        n += await write(marketSummaryItem(today, snap.replayDate, snap, (s) => feed.quote(s)));
    }
    return n;
  }
  const run = () => {
    running = running.catch(() => 0).then(once);
    return running;
  };

  return {
    async start(o = {}) {
      await run();
      if (o.timer ?? true)
        timer = setInterval(() => {
          run().catch((err) => opts.log?.('news generation failed', err));
        }, RUN_INTERVAL_MS);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    run,
  };
}
