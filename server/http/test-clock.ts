/**
 * POST /api/test/clock: moves a `MARKET_CLOCK=manual` market (server/config.ts, which allows it
 * only with NODE_ENV=test; buildApp registers this route only then, so a production server answers
 * it 404). End-to-end tests call it to reach the market phase they need instead of waiting.
 *
 * Body (JSON, all optional, market ms and Asia/Taipei market times):
 * - `advanceMs`: move forward this many market ms.
 * - `to`: `HH:MM` (or `HH:MM:SS`) within a replayed day, 08:30 ≤ t < 14:30: the next instant with
 *   that market time of day (today's when it is still ahead, else the next replayed day's);
 *   with `days` n, n replayed days later than that.
 * - `days` alone: move forward n whole replayed days (same time of day).
 * - `speed`: afterwards the market runs at this many market ms per wall ms (0: stands still, the
 *   start; tests that watch a live market set it).
 * Only forward: a target before now is refused (400).
 *
 * A move into the next replayed day goes through its 08:30 first, as the replay would (the old
 * day's remaining prints and closing print emitted, the new day installed); a move of two and
 * more days jumps, with the replay's semantics for a server that was stopped meanwhile: the feed
 * installs the target day silently and emits one snapshot (the days between print nothing, so no
 * resting order fills on them), and the calendar jobs catch up on every step that fell due. Each
 * step brings the risk monitor's holdings index up to date, then ticks the
 * feed until it has caught up (every print of the interval emitted: quotes, depth, candles, the
 * tape, the engine's triggers; a day change emits the old day's closing prints and installs the
 * new day, market/feed.ts), then runs the engine's clock-driven matches, the calendar jobs
 * (corporate actions, dividends, public subscriptions and auctions, credit interest, stock
 * lending) and waits for the risk monitor. The risk monitor evaluates an account once for the
 * prints of a step (at the step's last prices, as the replay's ticks do), so a test that needs a
 * given price seen moves to just after that print.
 * Concurrent calls run one after another.
 *
 * Answer: `{status: 1, msg: 'ok', data: {clock, session}}` (contract ClockState after the move,
 * the replay session number); invalid body → 400 `{status: 0, msg: 'badRequest', data: issues}`.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SESSION_BOUNDARIES } from '../../contract/trading-session';
import { PRE_OPEN_MS, REPLAY_DAY_MS, type Clock } from '../market/clock';
import type { MarketFeed } from '../market/feed';
import { manualWallAt, type ManualTime } from '../market/manual-time';

/** The control route's path. */
export const TEST_CLOCK_PATH = '/api/test/clock';

/** The request body (see the module docstring). */
export const testClockBody = z
  .object({
    advanceMs: z
      .number()
      .int()
      .positive()
      .max(60 * REPLAY_DAY_MS)
      .optional(),
    to: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/)
      .optional(),
    days: z.number().int().min(0).max(60).optional(),
    speed: z.number().min(0).max(100_000).optional(),
  })
  .strict();
export type TestClockBody = z.infer<typeof testClockBody>;

/** What the route drives (buildApp's services). */
export interface TestClockDeps {
  time: ManualTime;
  clock: Clock;
  feed: MarketFeed;
  /** The engine's clock-driven matches (after-hours) and its write queue. */
  trading: { sweep(): Promise<void>; idle(): Promise<void> };
  /** Calendar jobs run after each step, in order. */
  jobs: ReadonlyArray<{ run(): Promise<unknown> }>;
  /** Risk monitor: its holdings index brought up to date first, then its evaluations awaited. */
  risk: { sync(): Promise<void>; idle(): Promise<void>; flush(): Promise<void> };
}

/** Market ms after 09:00 of `HH:MM[:SS]`; null outside a replayed day (08:30 ≤ t < 14:30). */
function offsetOf(hhmm: string): number | null {
  const [h, m, s = 0] = hhmm.split(':').map(Number) as [number, number, number?];
  const tod = ((h * 60 + m) * 60 + s) * 1000;
  if (tod < SESSION_BOUNDARIES.preOpen || tod >= SESSION_BOUNDARIES.afterHoursMatch) return null;
  return tod - SESSION_BOUNDARIES.continuous;
}

/**
 * The manual wall instant a body asks for, from the clock's position now; null when `to` is
 * outside a replayed day. Exported for tests.
 */
export function targetOf(body: TestClockBody, clock: Clock, nowWall: number): number | null {
  const p = clock.position(nowWall);
  if (body.to !== undefined) {
    const off = offsetOf(body.to);
    if (off === null) return null;
    const intoDayNow = p.timeOfDayMs - SESSION_BOUNDARIES.continuous;
    const session = (off > intoDayNow ? p.session : p.session + 1) + (body.days ?? 0);
    return manualWallAt(session, off);
  }
  if (body.advanceMs !== undefined) return nowWall + body.advanceMs + (body.days ?? 0) * REPLAY_DAY_MS;
  if (body.days !== undefined) return nowWall + body.days * REPLAY_DAY_MS;
  return nowWall;
}

/** Registers the route (see the module docstring); call only for a manual clock. */
export function registerTestClock(app: FastifyInstance, deps: TestClockDeps): void {
  const { time, clock, feed, trading, jobs, risk } = deps;

  /** Ticks the feed until it has emitted everything due, then lets the engine and jobs catch up. */
  async function settle(): Promise<void> {
    // Positions opened while the clock stood still are watched before the step's prints arrive.
    await risk.sync();
    feed.tick();
    while (feed.busy?.()) await new Promise((r) => setImmediate(r));
    await trading.sweep();
    await trading.idle();
    for (const job of jobs) await job.run();
    await trading.idle();
    await risk.idle();
    // The throttle skips an account evaluated less than RISK_THROTTLE_MS of wall time ago, and on
    // a clock that stands still no later quote brings it back: evaluate what is marked now.
    await risk.flush();
    await trading.idle();
  }

  /**
   * Moves to `target`: into the next replayed day through its 08:30 (the old day's remaining
   * prints emitted first), or two and more days on in one jump.
   */
  async function moveTo(target: number): Promise<void> {
    const next = clock.position().session + 1;
    if (clock.position(target).session === next) {
      time.set(Math.max(time.now(), manualWallAt(next, -PRE_OPEN_MS)));
      await settle();
    }
    if (target > time.now()) time.set(target);
    await settle();
  }

  let queue: Promise<unknown> = Promise.resolve();
  app.post(TEST_CLOCK_PATH, async (req, reply) => {
    const parsed = testClockBody.safeParse(req.body ?? {});
    if (!parsed.success)
      return reply.code(400).send({ status: 0, msg: 'badRequest', data: parsed.error.issues });
    const body = parsed.data;
    const run = queue.then(async () => {
      // A running clock stops for the move, so the move lands where asked.
      const rate = time.rate();
      time.run(0);
      const target = targetOf(body, clock, time.now());
      if (target === null) return null;
      await moveTo(target);
      time.run(body.speed ?? rate);
      return { clock: feed.clock(), session: clock.position().session };
    });
    queue = run.catch(() => undefined);
    const data = await run;
    if (data === null)
      return reply.code(400).send({ status: 0, msg: 'badRequest', data: 'to: 08:30 ≤ HH:MM < 14:30' });
    return { status: 1, msg: 'ok', data };
  });
}
