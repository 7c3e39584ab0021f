/**
 * Applies one replayed session's corporate actions (schedule.ts) to everything open: for each
 * action, the instrument-wide part once (corporate_action_runs: the lending quota in shares × the
 * ratio), then every open position and every resting order of the instrument that was opened or
 * entered in an EARLIER session (a position opened on the action's own day is already in the
 * new units), each in its own transaction (positions.ts, resting.ts). Idempotent: safe to repeat,
 * to run concurrently and after a restart.
 *
 * "Earlier session": an order's session is the one whose replayed date is its trade date, the
 * latest such session at or before the session of its fill / entry instant (an after-hours fill
 * of the day before, written a moment after the day changed, is the day before's); without a
 * trade date, the session of the instant.
 *
 * The fraction of a new share is paid at the day's reference: the last close before the day
 * (daily_candles) × oldShares ÷ newShares for a split (reference.ts's own rule), the last close
 * before it as it stands for a window restart (the window's first day supplies it).
 */
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { InstrumentKind } from '../../../contract/market-rules';
import { mulDivRound } from '../../../contract/money';
import { yieldToEventLoop, type Db } from '../../db/client';
import { corporateActionRuns, dailyCandles, lendingQuotas } from '../../db/schema';
import type { OrderRow } from '../trading/fills';
import { adjustOpenPosition, openPositionsOf, settleExRights, type ActionDay } from './positions';
import { adjustRestingLimit, restingOrdersOf } from './resting';
import type { ActionSchedule, UnitChange } from './schedule';

/** What applying needs besides the schedule. */
export interface ApplyEnv {
  db: Db;
  /** The session an order belongs to (module docstring) from its trade date and fill/entry instant. */
  sessionOf(tradeDate: string | null, at: Date | null): number;
  kindOf(symbol: string): InstrumentKind;
  now(): Date;
  /** The trading engine's re-admission of a resting order changed here (absent before it starts). */
  readmit?(row: OrderRow): void;
}

/** What one session's pass did now (not counting what earlier passes did). */
export interface SessionResult {
  positions: number;
  orders: number;
  settled: number;
}

/** The last close of `symbol` before `date` (minor), or null without one. */
async function lastCloseBefore(db: Db, symbol: string, date: string): Promise<number | null> {
  const [r] = await db
    .select({ close: dailyCandles.closeMinor })
    .from(dailyCandles)
    .where(and(eq(dailyCandles.symbol, symbol), lt(dailyCandles.date, date)))
    .orderBy(desc(dailyCandles.date))
    .limit(1);
  return r?.close ?? null;
}

/** The day's reference of a unit change (module docstring). @throws RangeError without a close. */
async function referenceOf(db: Db, a: UnitChange, date: string): Promise<number> {
  const close = await lastCloseBefore(db, a.symbol, date);
  if (close === null) throw new RangeError(`no close of ${a.symbol} before ${date}`);
  return a.kind === 'split' ? mulDivRound(close, a.ratio.oldShares, a.ratio.newShares) : close;
}

/** The instrument-wide part of a unit change, once per (symbol, session, kind). */
async function recordRun(db: Db, day: ActionDay, a: UnitChange): Promise<void> {
  await db.transaction(async (tx) => {
    const [run] = await tx
      .insert(corporateActionRuns)
      .values({
        symbol: a.symbol,
        session: day.session,
        actionDate: day.date,
        kind: a.kind,
        oldShares: a.ratio.oldShares,
        newShares: a.ratio.newShares,
      })
      .onConflictDoNothing()
      .returning({ id: corporateActionRuns.id });
    if (run)
      await tx
        .update(lendingQuotas)
        .set({
          quotaShares: sql`${lendingQuotas.quotaShares} * ${a.ratio.newShares} / ${a.ratio.oldShares}`,
        })
        .where(eq(lendingQuotas.symbol, a.symbol));
  });
}

/** Applies every action of `session` (module docstring). */
export async function applySession(
  env: ApplyEnv,
  schedule: ActionSchedule,
  session: number,
): Promise<SessionResult> {
  const { date, actions } = schedule.on(session);
  const day: ActionDay = { session, date };
  const out: SessionResult = { positions: 0, orders: 0, settled: 0 };
  const earlier = (r: { tradeDate: string | null; at: Date | null }) =>
    env.sessionOf(r.tradeDate, r.at) < session;
  for (const a of actions) {
    if (a.kind === 'exRights') {
      for (const p of (await openPositionsOf(env.db, a.symbol, session, a.kind)).filter(earlier)) {
        await yieldToEventLoop();
        if (await settleExRights(env.db, day, a, p.id)) out.settled++;
      }
      continue;
    }
    await recordRun(env.db, day, a);
    const positions = (await openPositionsOf(env.db, a.symbol, session, a.kind)).filter(earlier);
    const reference = positions.length ? await referenceOf(env.db, a, date) : 0;
    for (const p of positions) {
      await yieldToEventLoop();
      if (await adjustOpenPosition(env.db, day, a.kind, a.ratio, p.id, reference, env.now)) out.positions++;
    }
    for (const o of (await restingOrdersOf(env.db, a.symbol, session, a.kind)).filter(earlier)) {
      const row = await adjustRestingLimit(env.db, day, a.kind, a.ratio, o.id, env.kindOf(a.symbol), env.now);
      if (row) {
        out.orders++;
        env.readmit?.(row);
      }
    }
  }
  return out;
}
