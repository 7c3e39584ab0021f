/**
 * Runs the public-subscription steps on the market clock: at start (catching up on every step that
 * fell due while the server was down) and then every RUN_INTERVAL_MS of wall time, it creates the
 * seeded offerings around today (schedule.ts scheduleSeeded) and runs the steps due (service.ts
 * runDue, then the auctions' steps: server/modules/primary/auction.ts runAuctionsDue). Runs never overlap (a run in progress is awaited by the next call). Steps are
 * idempotent by their stage, so a restart mid-run neither skips nor repeats one.
 */
import type { Db } from '../../db/client';
import type { IpoAnnouncement } from '../../db/import';
import type { Clock } from '../../market/clock';
import type { ReplayWindow } from '../../market/window';
import { scheduleSeeded, seedSchedule, type SeedSchedule } from './schedule';
import { runDue, type IpoCalendar } from './service';
import { runAuctionsDue } from '../primary/auction';

/** Wall ms between runs (a replayed day lasts minutes even at high speeds). */
export const RUN_INTERVAL_MS = 5_000;

export interface IpoRunner {
  readonly calendar: IpoCalendar;
  /** Schedules the seeded offerings, runs what is due, starts the timer (unless `timer: false`). */
  start(opts?: { timer?: boolean }): Promise<void>;
  stop(): void;
  /** One run now (tests call it after moving the clock); resolves when written. */
  run(): Promise<number>;
}

const runners = new WeakMap<object, IpoRunner>();

/** The runner attached to `feed` (handlers reach it through ctx.feed). */
export function ipoRunnerOf(feed: object): IpoRunner | undefined {
  return runners.get(feed);
}

/**
 * Creates the runner for `feed`. `clock` null (the stress source has no business days): today
 * is day 0 and no seeded offering is scheduled.
 */
export function createIpoRunner(opts: {
  db: Db;
  feed: object;
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
  let lastScheduled: number | null = null;
  let running: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | null = null;

  async function once(): Promise<number> {
    const today = calendar.today();
    if (clock && schedule && lastScheduled !== today) {
      await scheduleSeeded(db, schedule, today);
      lastScheduled = today;
    }
    return (await runDue(db, calendar)) + (await runAuctionsDue(db, calendar));
  }
  const run = () => {
    running = running.catch(() => 0).then(once);
    return running;
  };

  const runner: IpoRunner = {
    calendar,
    async start(o = {}) {
      if (clock && opts.announcements.length) schedule = seedSchedule(opts.announcements);
      await run();
      if (o.timer ?? true)
        timer = setInterval(() => {
          run().catch((err) => opts.log?.('public subscription steps failed', err));
        }, RUN_INTERVAL_MS);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    run,
  };
  runners.set(opts.feed, runner);
  return runner;
}
