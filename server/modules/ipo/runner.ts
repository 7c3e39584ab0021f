/**
 * Runs the public-subscription steps on the market clock: at start (catching up on every step that
 * fell due while the server was down) and then every RUN_INTERVAL_MS of wall time, it creates the
 * seeded offerings around today (schedule.ts scheduleSeeded) and runs the steps due (service.ts
 * runDue, then the auctions' steps: server/modules/primary/auction.ts runAuctionsDue). Runs never
 * overlap (a run in progress is awaited by the next call). Steps are idempotent by their stage,
 * so a restart mid-run neither skips nor repeats one. Seeded offerings are priced from the feed's
 * replayed closes and comparables (schedule.ts ReplayPlacement); without them (the stress feed)
 * none is scheduled.
 */
import type { Db } from '../../db/client';
import type { IpoAnnouncement } from '../../market/import';
import type { Clock } from '../../market/clock';
import type { ReplayWindow } from '../../market/window';
import type { MarketFeed } from '../../market/feed';
import { announcedClose, loadAnnouncementCloses } from './pricing';
import { scheduleSeeded, seedSchedule, type ReplayPlacement, type SeedSchedule } from './schedule';
import { runDue, type IpoCalendar } from './service';
import { runAuctionsDue } from '../primary/auction';
import { periodicJob, type PeriodicJob } from '../common/periodic';

/** Wall ms between runs (a replayed day lasts minutes even at high speeds). */
export const RUN_INTERVAL_MS = 5_000;

/** start() schedules the seeded offerings first; run() resolves with the steps taken. */
export interface IpoRunner extends PeriodicJob {
  readonly calendar: IpoCalendar;
}

/**
 * The replay's side of placing seeded offerings (schedule.ts ReplayPlacement): the feed's replayed
 * closes and comparables, the window's length, and the announcements' real closes (read once from
 * the 2026 daily files). Null without a window or on a feed without them (the stress feed).
 */
export async function replayPlacement(
  feed: Partial<Pick<MarketFeed, 'closeBefore' | 'listingProxy'>>,
  window: ReplayWindow | null,
  announcements: readonly IpoAnnouncement[],
): Promise<ReplayPlacement | null> {
  const { closeBefore, listingProxy } = feed;
  if (!window || !closeBefore || !listingProxy) return null;
  const closes = await loadAnnouncementCloses(new Set(announcements.map((a) => a.code)));
  return {
    closeBefore: (symbol, session) => closeBefore(symbol, session),
    listingProxy: (symbol) => listingProxy(symbol),
    cycle: window.replayDayIndexes.length,
    announcedClose: (a) => announcedClose(a, closes),
  };
}

/**
 * Creates the runner for `feed` (inert until start(); handlers read its calendar through
 * ctx.services.ipo). `clock` null (the stress source has no business days): today
 * is day 0 and no seeded offering is scheduled.
 */
export function createIpoRunner(opts: {
  db: Db;
  feed: Partial<Pick<MarketFeed, 'closeBefore' | 'listingProxy'>>;
  clock: Clock | null;
  window: ReplayWindow | null;
  announcements: readonly IpoAnnouncement[];
  now: () => number;
  log?: (msg: string, err?: unknown) => void;
}): IpoRunner {
  const { db, clock, window } = opts;
  const calendar: IpoCalendar = {
    today: () => (clock ? clock.position().session : 0),
    label: (day) => (window ? window.dateOf(day) : ''),
    now: opts.now,
    timeOfDayMs: () => (clock ? clock.position().timeOfDayMs : null),
  };
  let schedule: SeedSchedule | null = null;
  let place: ReplayPlacement | null = null;
  let lastScheduled: number | null = null;
  /** Seeded rounds this process has written (scheduleSeeded skips them on later days). */
  const created = new Set<string>();

  async function once(): Promise<number> {
    const today = calendar.today();
    if (clock && schedule && lastScheduled !== today) {
      place ??= await replayPlacement(opts.feed, window, opts.announcements);
      if (place) await scheduleSeeded(db, schedule, today, place, created);
      lastScheduled = today;
    }
    return (await runDue(db, calendar)) + (await runAuctionsDue(db, calendar));
  }
  const job = periodicJob(once, {
    intervalMs: RUN_INTERVAL_MS,
    what: 'public subscription steps',
    log: opts.log,
  });
  const runner: IpoRunner = {
    calendar,
    ...job,
    start(o) {
      if (clock && opts.announcements.length)
        schedule = seedSchedule(
          opts.announcements,
          (code) =>
            !opts.feed.listingProxy?.(code) && opts.feed.closeBefore?.(code, calendar.today()) != null,
        );
      return job.start(o);
    },
  };
  return runner;
}
