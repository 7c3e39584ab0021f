/**
 * A job the market calendar's runners (credit interest, dividends, public subscriptions, stock
 * lending, news) run at start and then every `intervalMs` of wall time.
 *
 * `run()` never overlaps another run: a call while one is in progress runs after it, and a failed
 * run does not stop the next (its error reaches only its own caller; the timer's runs log it with
 * `what`). `start()` runs once and waits for it (catching up on what fell due while the server was
 * down), then starts the timer unless `timer: false` (tests drive `run()` after moving the clock).
 * Each job's steps are idempotent, so a restart mid-run neither skips nor repeats one.
 */

/** The runner surface every calendar runner shares. */
export interface PeriodicJob {
  start(opts?: { timer?: boolean }): Promise<void>;
  stop(): void;
  /** One run now; resolves with the job's count (rows written, loans accrued, …). */
  run(): Promise<number>;
}

/** `once` as a PeriodicJob (see the module docstring); `what` names it in the log ("… failed"). */
export function periodicJob(
  once: () => Promise<number>,
  opts: { intervalMs: number; what: string; log?: (msg: string, err?: unknown) => void },
): PeriodicJob {
  let running: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | null = null;
  const run = () => {
    running = running.catch(() => 0).then(once);
    return running;
  };
  return {
    async start(o = {}) {
      await run();
      if (o.timer ?? true)
        timer = setInterval(() => {
          run().catch((err) => opts.log?.(`${opts.what} failed`, err));
        }, opts.intervalMs);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    run,
  };
}
