/**
 * Mirroring a mentor's orders into follows (docs/copy-trading.md "Mirroring"), run by the copy
 * trader's pass (copier.ts) every second.
 *
 * A copy opens in ONE transaction per follow: the follow's cash moves to `available`
 * (`followTransfer`), the trading engine opens the copy at market (engine openAtMarket: the same
 * checks and ledger as a member's market order), and what the copy did not use moves back. When
 * the copy would cost (with its opening reserve) more than the follow's cash, the transaction
 * rolls back and the copy is recorded `skipped/margin`: the member's own wallet never pays for a
 * copy. Lots: floor(mentor lots × follow amount ÷ mentor equity) (rules.ts copyLots), mentor
 * equity = available + frozen + margin + debt (≤ 0) when the pass runs.
 *
 * Every mentor order a follow does not copy is recorded `skipped` with its reason (zeroLots,
 * margin, refused with the engine's refusal key, paused, mentorClosedFirst) and, in the same
 * transaction, the follower gets an account notice (`copySkipped`, notices/notify.ts) naming the
 * order and the reason (for zeroLots, the smallest amount that would have copied one lot).
 *
 * Closes: copies whose mentor order closed close at market (stop.ts closeCopy, `mentorClosed`);
 * a follow whose equity (cash + each open copy's margin + unrealised P&L at the bid for a long,
 * the ask for a short) is at or below amount × (1 − stop_loss_bps ÷ 10,000) has all its copies
 * closed (`stopLoss`); follows past their deadline end. Each close settles in its own transaction
 * through the engine's onClose hook (settlement.ts).
 */
import { and, asc, eq, gt, gte, inArray } from 'drizzle-orm';
import type { CopyReason } from '../../../contract/copy-trading';
import type { Tx } from '../../db/client';
import { followCopies, follows, memberNotices, mentors, orders } from '../../db/schema';
import { notionalMinor } from '../../../contract/money';
import { AppError } from '../common/errors';
import { move, post } from '../ledger/ledger';
import type { OrderRow } from '../trading/engine';
import { nicknameOf } from './mentors';
import {
  availableAcc,
  followAcc,
  followRef,
  lockFollow,
  openCopies,
  userOf,
  type CopyDeps,
  type CopyRow,
  type FollowRow,
} from './pool';
import { bpsOf, copyLots, minCopyAmountMinor } from './rules';
import { equityOf } from './stats';
import { closeCopy, endFollow, settleClosedElsewhere } from './stop';

/** What a skip records: the mentor order, the lots it would have had, the reason and the refusal key. */
interface Skip {
  m: Pick<OrderRow, 'id' | 'symbol' | 'side' | 'lots'>;
  f: FollowRow;
  lots: number;
  mentorEquityMinor: number;
  reason: CopyReason;
  refusal?: string | null;
}

/** The columns every record of mentor order `m` for follow `f` has. */
const recordOf = (s: Pick<Skip, 'm' | 'f' | 'lots' | 'mentorEquityMinor'>, nowMs: number) => ({
  followId: s.f.id,
  mentorOrderId: s.m.id,
  symbol: s.m.symbol,
  side: s.m.side,
  mentorLots: s.m.lots,
  lots: s.lots,
  mentorEquityMinor: s.mentorEquityMinor,
  allocationMinor: s.f.amountMinor,
  createdAt: new Date(nowMs),
});

const skipRow = (s: Skip, nowMs: number) => ({
  ...recordOf(s, nowMs),
  status: 'skipped' as const,
  reason: s.reason,
  refusal: s.refusal ?? null,
});

/** The `copySkipped` notice of a skip (contract/notices.ts for its params). */
const skipNotice = (s: Skip, mentor: string) => ({
  userId: s.f.userId,
  kind: 'copySkipped' as const,
  params: JSON.stringify({
    followId: s.f.id,
    mentorOrderId: s.m.id,
    mentor,
    symbol: s.m.symbol,
    side: s.m.side,
    mentorLots: s.m.lots,
    lots: s.lots,
    copyReason: s.reason,
    refusal: s.refusal ?? '',
    amountMinor: s.reason === 'zeroLots' ? (minCopyAmountMinor(s.m.lots, s.mentorEquityMinor) ?? 0) : 0,
    currency: 'TWD',
  }),
});

/**
 * Records skips (one per (mentor order, follow); a pair already recorded is left alone) and gives
 * each follower its notice, in `tx`. Returns the rows written.
 */
async function recordSkips(tx: Tx, skips: Skip[], nowMs: number): Promise<CopyRow[]> {
  if (skips.length === 0) return [];
  const rows = await tx
    .insert(followCopies)
    .values(skips.map((s) => skipRow(s, nowMs)))
    .onConflictDoNothing()
    .returning();
  const written = new Set(rows.map((r) => `${r.mentorOrderId}:${r.followId}`));
  const notices = [];
  for (const s of skips) {
    if (!written.has(`${s.m.id}:${s.f.id}`)) continue;
    notices.push(skipNotice(s, nicknameOf(s.f.mentorId)));
  }
  if (notices.length > 0) await tx.insert(memberNotices).values(notices);
  return rows;
}

/** The engine's refusal mapped to a copy's skip reason. */
const skipReason = (err: unknown): CopyReason =>
  err instanceof AppError && (err.key === 'insufficientBalance' || err.key === 'belowOpeningLine')
    ? 'margin'
    : 'refused';

/** Sentinel: the copy would spend more than the follow's cash. */
class FollowCashShort extends Error {}

/**
 * Mirrors mentor order `m` (holding) for follow `followId` in a transaction of its own. Idempotent:
 * a (mentor order, follow) pair already recorded is left alone (row lock on the follow plus the
 * unique index follow_copies_mentor_order_follow_uq). Returns the copy row (open or skipped), or
 * null when the follow is not running.
 */
export async function mirrorOpen(
  deps: CopyDeps,
  m: OrderRow,
  followId: number,
  mentorEquityMinor: number,
): Promise<CopyRow | null> {
  const { db } = deps;
  let failure: { reason: CopyReason; lots: number; refusal: string | null } | null = null;
  try {
    return await db.transaction(async (tx) => {
      const f = await lockFollow(tx, followId);
      if (!f || f.status !== 'following') return null;
      const [done] = await tx
        .select()
        .from(followCopies)
        .where(and(eq(followCopies.mentorOrderId, m.id), eq(followCopies.followId, f.id)));
      if (done) return done;
      const lots = copyLots(m.lots, f.amountMinor, mentorEquityMinor);
      const skip = async (reason: CopyReason) =>
        (await recordSkips(tx, [{ m, f, lots, mentorEquityMinor, reason }], deps.now()))[0] ?? null;
      if (f.paused) return skip('paused');
      if (lots === 0) return skip('zeroLots');
      const cash = f.cashMinor;
      await post(tx, {
        type: 'followTransfer',
        ...followRef(f),
        postings: move(followAcc(f.userId), availableAcc(f.userId), cash),
      });
      let opened: OrderRow;
      try {
        opened = await deps.trading.openAtMarket(tx, await userOf(tx, f.userId), {
          symbol: m.symbol,
          side: m.side,
          lots,
          leverage: m.leverage,
          followId: f.id,
        });
      } catch (err) {
        // A refusal is recorded; anything else (a bug, the database) is thrown as it came.
        if (err instanceof AppError) {
          const reason = skipReason(err);
          failure = { reason, lots, refusal: reason === 'refused' ? err.key : null };
        }
        throw err;
      }
      const cost = opened.marginMinor + opened.openFeeMinor + opened.openTaxMinor;
      // The engine judged the follow's pool against its opening line (followId); its cash must
      // still pay the costs themselves.
      if (cost > cash) {
        failure = { reason: 'margin', lots, refusal: null };
        throw new FollowCashShort();
      }
      await post(tx, {
        type: 'followTransfer',
        ...followRef(f),
        postings: move(availableAcc(f.userId), followAcc(f.userId), cash - cost),
      });
      await tx
        .update(follows)
        .set({ cashMinor: cash - cost })
        .where(eq(follows.id, f.id));
      return (
        await tx
          .insert(followCopies)
          .values({
            ...recordOf({ m, f, lots, mentorEquityMinor }, deps.now()),
            orderId: opened.id,
            status: 'open',
          })
          .returning()
      )[0]!;
    });
  } catch (err) {
    if (!failure) throw err;
    const why: { reason: CopyReason; lots: number; refusal: string | null } = failure;
    // The copy's transaction rolled back: record the skip with its reason in one of its own.
    return db.transaction(async (tx) => {
      const f = await lockFollow(tx, followId);
      const skip: Skip = { m, f: f!, mentorEquityMinor, ...why };
      return (await recordSkips(tx, [skip], deps.now()))[0] ?? null;
    });
  }
}

/** How far back a pass looks for mentor orders that opened and closed between two passes. */
export const MISSED_WINDOW_MS = 86_400_000;

/**
 * Mentor orders of `mentorUserId` that opened after a follow started and closed before any pass
 * saw them holding (within MISSED_WINDOW_MS): recorded for each such follow as skipped with
 * reason `mentorClosedFirst` (with its notice), never silently dropped. Lots: what the copy would
 * have been at the mentor's equity now.
 */
async function recordMissed(deps: CopyDeps, mentorUserId: number, fs: FollowRow[], sinceId: number) {
  const closed = await deps.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, mentorUserId),
        eq(orders.status, 'closed'),
        gt(orders.id, sinceId),
        gte(orders.closedAt, new Date(deps.now() - MISSED_WINDOW_MS)),
      ),
    );
  if (closed.length === 0) return;
  const seen = await deps.db
    .select({ m: followCopies.mentorOrderId, f: followCopies.followId })
    .from(followCopies)
    .where(
      inArray(
        followCopies.mentorOrderId,
        closed.map((o) => o.id),
      ),
    );
  const have = new Set(seen.map((r) => `${r.m}:${r.f}`));
  const missing = closed.flatMap((o) =>
    fs.filter((f) => o.id > f.sinceOrderId && !have.has(`${o.id}:${f.id}`)).map((f) => ({ o, f })),
  );
  if (missing.length === 0) return;
  const equity = await equityOf(deps.db, mentorUserId);
  await deps.db.transaction((tx) =>
    recordSkips(
      tx,
      missing.map(({ o, f }) => ({
        m: o,
        f,
        lots: copyLots(o.lots, f.amountMinor, equity),
        mentorEquityMinor: equity,
        reason: 'mentorClosedFirst' as const,
      })),
      deps.now(),
    ),
  );
}

/** The follow's equity now: cash + each open copy's margin + unrealised P&L (bid for long, ask for short). */
export async function followEquity(deps: CopyDeps, f: FollowRow): Promise<number> {
  const open = await deps.db
    .select({ o: orders })
    .from(followCopies)
    .innerJoin(orders, eq(orders.id, followCopies.orderId))
    .where(and(eq(followCopies.followId, f.id), eq(followCopies.status, 'open')));
  let total = f.cashMinor;
  for (const { o } of open) {
    const q = deps.feed.quote(o.symbol);
    const px = q ? (o.side === 'long' ? q.bidMinor : q.askMinor) : 0;
    // No price: marked at cost (no unrealised P&L).
    const diff = px > 0 ? notionalMinor(px, o.shares) - (o.openValueMinor ?? 0) : 0;
    total += o.marginMinor + (o.side === 'long' ? diff : -diff);
  }
  return total;
}

/** Refusals that only mean "not now" (outside continuous trading, no price yet). */
const WAIT_FOR_MARKET: ReadonlySet<string> = new Set([
  'nonTradingTime',
  'priceUnavailable',
  'followHasOpenCopies',
]);

/**
 * One mirroring pass over every approved mentor with running follows: opens copies of the
 * mentor's holding orders placed after each follow started (id above follows.since_order_id) and
 * not yet recorded for it, closes copies whose mentor order closed (`mentorClosed`), settles
 * copies closed without settlement (settleClosedElsewhere), fires copy stop-losses (`stopLoss`)
 * and ends follows past their deadline. Each copy in a transaction of its own: one follower's
 * failure is recorded (skipped with its reason) or logged and never blocks the others.
 */
export async function mirrorPass(deps: CopyDeps): Promise<void> {
  const write = deps.log ?? (() => {});
  // Closes wait for the market: a refusal for the session or the price is retried next pass, not logged.
  const log = (msg: string, err: unknown) => {
    if (err instanceof AppError && WAIT_FOR_MARKET.has(err.key)) return;
    write(msg, err);
  };
  const running = await deps.db
    .select({ f: follows, mentorUserId: mentors.userId })
    .from(follows)
    .innerJoin(mentors, eq(mentors.id, follows.mentorId))
    .where(eq(follows.status, 'following'))
    .orderBy(asc(follows.id));
  const byMentor = new Map<number, FollowRow[]>();
  for (const r of running) byMentor.set(r.mentorUserId, [...(byMentor.get(r.mentorUserId) ?? []), r.f]);
  for (const [mentorUserId, fs] of byMentor) {
    const sinceId = fs.reduce((m, f) => Math.min(m, f.sinceOrderId), Infinity);
    const holding = await deps.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, mentorUserId), eq(orders.status, 'holding'), gt(orders.id, sinceId)))
      .orderBy(asc(orders.id));
    if (holding.length > 0) {
      const equity = await equityOf(deps.db, mentorUserId);
      for (const m of holding)
        for (const f of fs) {
          if (m.id <= f.sinceOrderId) continue;
          try {
            await mirrorOpen(deps, m, f.id, equity);
          } catch (err) {
            log(`copy of order ${m.id} for follow ${f.id} failed`, err);
          }
        }
    }
    await recordMissed(deps, mentorUserId, fs, sinceId).catch((err) =>
      log(`recording missed orders of mentor ${mentorUserId} failed`, err),
    );
  }
  // Mentor closes close the copies.
  const toClose = await deps.db
    .select({ c: followCopies })
    .from(followCopies)
    .innerJoin(orders, eq(orders.id, followCopies.mentorOrderId))
    .where(and(eq(followCopies.status, 'open'), inArray(orders.status, ['closed', 'cancelled'])));
  for (const { c } of toClose)
    await closeCopy(deps, c, 'mentorClosed').catch((err) => log(`closing copy ${c.id} failed`, err));
  // Copies whose position was closed without being settled (closes written before the engine's hook).
  const unsettled = await deps.db
    .select({ c: followCopies })
    .from(followCopies)
    .innerJoin(orders, eq(orders.id, followCopies.orderId))
    .where(and(eq(followCopies.status, 'open'), eq(orders.status, 'closed')));
  for (const { c } of unsettled)
    await settleClosedElsewhere(deps, c).catch((err) => log(`settling copy ${c.id} failed`, err));
  // Copy stop-loss and deadlines.
  for (const { f: f0 } of running) {
    const [f] = await deps.db.select().from(follows).where(eq(follows.id, f0.id));
    if (!f || f.status !== 'following') continue;
    if (f.deadlineAt.getTime() <= deps.now()) {
      await endFollow(deps, f.id, 'deadline').catch((err) => log(`ending follow ${f.id} failed`, err));
      continue;
    }
    const floor = f.amountMinor - bpsOf(f.amountMinor, f.stopLossBps);
    const open = await openCopies(deps.db, f.id);
    if (open.length === 0 || (await followEquity(deps, f)) > floor) continue;
    for (const c of open)
      await closeCopy(deps, c, 'stopLoss').catch((err) => log(`stop-loss of copy ${c.id} failed`, err));
  }
}
