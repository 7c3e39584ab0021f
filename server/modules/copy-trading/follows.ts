/**
 * Follows and their mirroring (contract/copy-trading.ts).
 *
 * Money: following moves the amount from the member's `available` into their `follow` ledger
 * account (`followAllocate`), in the transaction that inserts the follow; the follow's part of
 * that account is follows.cash_minor, changed only together with a posting on the account.
 * A copy opens in ONE transaction per follow: the follow's cash moves to `available`
 * (`followTransfer`), the trading engine opens the copy at market (engine openAtMarket: the same
 * checks and ledger as a member's market order), and what the copy did not use moves back; when
 * the copy cost (plus its opening reserve) more than the follow's cash the transaction rolls back and the copy is recorded
 * `skipped` with reason `margin` (the member's own wallet never pays for a copy). A copy closes
 * through the engine's forced close (same ledger as a member's close), and in the same
 * transaction its proceeds (margin + P&L − close fee − close tax) go back to the follow's cash, a
 * loss beyond the margin being taken from the follow's cash. A copy closed outside copy trading
 * (the risk monitor's liquidation, the member by hand) is settled `closedElsewhere`: its proceeds
 * go back to the follow's cash, at most what `available` still holds.
 *
 * Ending (member stop, deadline): every open copy is closed first; then, in one transaction, the
 * mentor's profit share (mentors.profit_share_bps of the equity above the follow's high-water
 * mark, truncated) moves follow → the mentor's available (`followRebate`) and the rest follow →
 * the member's available (`followReturn`).
 *
 * Lots: floor(mentor lots × follow amount ÷ mentor equity) (rules.ts copyLots), mentor equity =
 * available + frozen + margin − debt when the mirror runs. Copy stop-loss: when the follow's
 * equity (cash + each open copy's margin + unrealised P&L at bid for a long, ask for a short)
 * falls to amount × (1 − stop_loss_bps ÷ 10,000) or below, all its copies close (`stopLoss`).
 */
import { and, asc, count, desc, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import type { Copy, CopyReason, Follow } from '../../../contract/copy-trading';
import { notionalMinor } from '../../../contract/money';
import { BPS, openingReserveMinor } from '../../../contract/risk';
import type { Db, Tx } from '../../db/client';
import type { MarketFeed } from '../../market/feed';
import { followCopies, follows, mentors, orders, users } from '../../db/schema';
import type { AuthUser } from '../common/context';
import { AppError, fail } from '../common/errors';
import { ensureSubAccount, move, post } from '../ledger/ledger';
import type { OrderRow, TradingEngine } from '../trading/engine';
import { lockedAvailable } from '../trading/fills';
import { nicknameOf } from './mentors';
import { bpsOf, copyLots } from './rules';
import { equityOf } from './stats';

export type FollowRow = typeof follows.$inferSelect;
export type CopyRow = typeof followCopies.$inferSelect;

const DAY_MS = 86_400_000;
const ref = (f: { id: number; userId: number }) => ({
  refType: 'follow',
  refId: f.id,
  actorUserId: f.userId,
});
const followAcc = (userId: number) => ({ userId, purpose: 'follow' as const });
const availableAcc = (userId: number) => ({ userId, purpose: 'available' as const });

/** A follow row as its member sees it. */
export async function toFollowDto(db: Db | Tx, row: FollowRow): Promise<Follow> {
  const [m] = await db
    .select({ account: users.account })
    .from(mentors)
    .innerJoin(users, eq(users.id, mentors.userId))
    .where(eq(mentors.id, row.mentorId));
  return {
    id: row.id,
    mentorId: row.mentorId,
    mentorNickname: nicknameOf(m!.account),
    status: row.status,
    paused: row.paused,
    amountMinor: row.amountMinor,
    cashMinor: row.cashMinor,
    highWaterMinor: row.highWaterMinor,
    stopLossBps: row.stopLossBps,
    deadlineAt: row.deadlineAt.getTime(),
    returnedMinor: row.returnedMinor,
    profitShareMinor: row.profitShareMinor,
    endReason: row.endReason,
    createdAt: row.createdAt.getTime(),
    endedAt: row.endedAt?.getTime() ?? null,
  };
}

export const toCopyDto = (r: CopyRow): Copy => ({
  id: r.id,
  followId: r.followId,
  mentorOrderId: r.mentorOrderId,
  orderId: r.orderId,
  symbol: r.symbol,
  side: r.side,
  mentorLots: r.mentorLots,
  lots: r.lots,
  mentorEquityMinor: r.mentorEquityMinor,
  allocationMinor: r.allocationMinor,
  status: r.status,
  reason: r.reason,
  createdAt: r.createdAt.getTime(),
});

/**
 * Follows mentor `mentorId` with `amountMinor` for `days` days (in the caller's transaction `db`:
 * the request's idempotency transaction, so a retry moves nothing).
 * @throws mentorNotApproved (409), cannotFollowSelf (409), belowMinFollow (422),
 *   cannotWithdrawOrTrade (403), insufficientBalance (422)
 */
export async function startFollow(
  db: Db,
  user: AuthUser,
  body: { mentorId: number; amountMinor: number; days: number; stopLossBps: number },
  nowMs: number,
): Promise<FollowRow> {
  if (user.tradeBanned) throw fail('cannotWithdrawOrTrade');
  return db.transaction(async (tx) => {
    const [m] = await tx.select().from(mentors).where(eq(mentors.id, body.mentorId)).for('share');
    if (!m || m.status !== 'approved') throw fail('mentorNotApproved');
    if (m.userId === user.id) throw fail('cannotFollowSelf');
    if (body.amountMinor < m.minFollowMinor) throw fail('belowMinFollow');
    await ensureSubAccount(tx, user.id, 'follow');
    const [row] = await tx
      .insert(follows)
      .values({
        userId: user.id,
        mentorId: m.id,
        status: 'following',
        amountMinor: body.amountMinor,
        cashMinor: body.amountMinor,
        highWaterMinor: body.amountMinor,
        stopLossBps: body.stopLossBps,
        // Mentor orders placed from now on are copied: those with a greater id.
        sinceOrderId: sql`(select coalesce(max(${orders.id}), 0) from ${orders})`,
        deadlineAt: new Date(nowMs + body.days * DAY_MS),
        createdAt: new Date(nowMs),
      })
      .returning();
    await post(tx, {
      type: 'followAllocate',
      ...ref(row!),
      idempotencyKey: `followAllocate:${row!.id}`,
      postings: move(availableAcc(user.id), followAcc(user.id), body.amountMinor),
    });
    return row!;
  });
}

/** The member's follow, locked. @throws notFound (404) */
async function ownFollow(tx: Tx, userId: number, followId: number): Promise<FollowRow> {
  const [f] = await tx
    .select()
    .from(follows)
    .where(and(eq(follows.id, followId), eq(follows.userId, userId)))
    .for('update');
  if (!f) throw fail('notFound');
  return f;
}

/** Pauses (no new copies; closes still mirror) or resumes a running follow. @throws notFound, followNotRunning */
export async function setPaused(
  db: Db,
  userId: number,
  followId: number,
  paused: boolean,
): Promise<FollowRow> {
  return db.transaction(async (tx) => {
    const f = await ownFollow(tx, userId, followId);
    if (f.status !== 'following') throw fail('followNotRunning');
    const [row] = await tx.update(follows).set({ paused }).where(eq(follows.id, f.id)).returning();
    return row!;
  });
}

/** The engine's refusal mapped to a copy's skip reason. */
const skipReason = (err: unknown): CopyReason =>
  err instanceof AppError && err.key === 'insufficientBalance' ? 'margin' : 'refused';

/** Sentinel: the copy would spend more than the follow's cash. */
class FollowCashShort extends Error {}

/** The services mirroring needs. */
export interface CopyDeps {
  db: Db;
  trading: TradingEngine;
  feed: MarketFeed;
  now: () => number;
  /**
   * Opening margin in bps (config OPENING_MARGIN_BPS, contract/risk.ts openingReserveMinor): a
   * copy must leave its reserve in the follow's cash, as an order must in the member's wallet,
   * so that no copy opens its follow's risk pool into a margin call (risk/account-risk.ts).
   * Default 10,000: none.
   */
  openingMarginBps?: number;
  log?: (msg: string, err?: unknown) => void;
}

async function userOf(db: Db | Tx, userId: number): Promise<AuthUser> {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  return {
    id: u!.id,
    account: u!.account,
    role: u!.role,
    tradeBanned: u!.tradeBanned || u!.frozen,
    withdrawBanned: u!.withdrawBanned || u!.frozen,
    frozen: u!.frozen,
  };
}

/**
 * Mirrors mentor order `m` (holding) for follow `followId` in a transaction of its own. Idempotent:
 * a (mentor order, follow) pair already recorded is left alone (row lock on the follow plus the
 * unique index follow_copies_mentor_order_follow_uq). Returns the copy row (open or skipped).
 */
export async function mirrorOpen(
  deps: CopyDeps,
  m: OrderRow,
  followId: number,
  mentorEquityMinor: number,
): Promise<CopyRow | null> {
  const { db } = deps;
  const base = (f: FollowRow, lots: number) => ({
    followId: f.id,
    mentorOrderId: m.id,
    symbol: m.symbol,
    side: m.side,
    mentorLots: m.lots,
    lots,
    mentorEquityMinor,
    allocationMinor: f.amountMinor,
    createdAt: new Date(deps.now()),
  });
  let failure: { reason: CopyReason; lots: number } | null = null;
  try {
    const row = await db.transaction(async (tx) => {
      const [f] = await tx.select().from(follows).where(eq(follows.id, followId)).for('update');
      if (!f || f.status !== 'following') return null;
      const [done] = await tx
        .select()
        .from(followCopies)
        .where(and(eq(followCopies.mentorOrderId, m.id), eq(followCopies.followId, f.id)));
      if (done) return done;
      const lots = copyLots(m.lots, f.amountMinor, mentorEquityMinor);
      const skip = async (reason: CopyReason) =>
        (
          await tx
            .insert(followCopies)
            .values({ ...base(f, lots), status: 'skipped', reason })
            .returning()
        )[0]!;
      if (f.paused) return skip('paused');
      if (lots === 0) return skip('zeroLots');
      const cash = f.cashMinor;
      await post(tx, {
        type: 'followTransfer',
        ...ref(f),
        postings: move(followAcc(f.userId), availableAcc(f.userId), cash),
      });
      let opened: OrderRow;
      try {
        opened = await deps.trading.openAtMarket(tx, await userOf(tx, f.userId), {
          symbol: m.symbol,
          side: m.side,
          lots,
          leverage: m.leverage,
        });
      } catch (err) {
        // A refusal is recorded; anything else (a bug, the database) is thrown as it came.
        if (err instanceof AppError) failure = { reason: skipReason(err), lots };
        throw err;
      }
      const cost = opened.marginMinor + opened.openFeeMinor + opened.openTaxMinor;
      if (cost + openingReserveMinor(opened.marginMinor, deps.openingMarginBps ?? BPS) > cash) {
        failure = { reason: 'margin', lots };
        throw new FollowCashShort();
      }
      await post(tx, {
        type: 'followTransfer',
        ...ref(f),
        postings: move(availableAcc(f.userId), followAcc(f.userId), cash - cost),
      });
      await tx
        .update(follows)
        .set({ cashMinor: cash - cost })
        .where(eq(follows.id, f.id));
      return (
        await tx
          .insert(followCopies)
          .values({ ...base(f, lots), orderId: opened.id, status: 'open' })
          .returning()
      )[0]!;
    });
    return row;
  } catch (err) {
    if (!failure) throw err;
    const why: { reason: CopyReason; lots: number } = failure;
    // The copy's transaction rolled back: record the skip with its reason in one of its own.
    return db.transaction(async (tx) => {
      const [f] = await tx.select().from(follows).where(eq(follows.id, followId)).for('update');
      const [row] = await tx
        .insert(followCopies)
        .values({ ...base(f!, why.lots), status: 'skipped', reason: why.reason })
        .onConflictDoNothing()
        .returning();
      return row ?? null;
    });
  }
}

/**
 * Marks copy `c` closed with `reason` and returns its position's proceeds (margin + P&L − close
 * fee − close tax of `closed`) from the member's `available` to the follow's cash, in `tx`. A loss
 * beyond the margin is taken from the follow's cash (at most all of it). `bounded`: the position
 * was closed outside copy trading (liquidation, by hand) earlier, so the member may have spent
 * the proceeds: at most `available` moves. Nothing moves when the copy was already marked.
 */
async function settleCopy(
  tx: Tx,
  c: CopyRow,
  closed: OrderRow,
  reason: CopyReason,
  nowMs: number,
  bounded: boolean,
): Promise<void> {
  const [f] = await tx.select().from(follows).where(eq(follows.id, c.followId)).for('update');
  const marked = await tx
    .update(followCopies)
    .set({ status: 'closed', reason, closedAt: new Date(nowMs) })
    .where(and(eq(followCopies.id, c.id), eq(followCopies.status, 'open')))
    .returning();
  if (marked.length === 0) return;
  const proceeds = closed.marginMinor + (closed.pnlMinor ?? 0) - closed.closeFeeMinor - closed.closeTaxMinor;
  let back = proceeds >= 0 ? proceeds : -Math.min(-proceeds, f!.cashMinor);
  if (bounded && back > 0) back = Math.min(back, Math.max(0, await lockedAvailable(tx, f!.userId)));
  if (back !== 0)
    await post(tx, {
      type: 'followTransfer',
      ...ref(f!),
      postings:
        back > 0
          ? move(availableAcc(f!.userId), followAcc(f!.userId), back)
          : move(followAcc(f!.userId), availableAcc(f!.userId), -back),
    });
  await tx
    .update(follows)
    .set({ cashMinor: f!.cashMinor + back })
    .where(eq(follows.id, f!.id));
}

/** Settles copy `c` whose position is already closed (closedElsewhere); false when it is still open. */
async function settleClosedElsewhere(deps: CopyDeps, c: CopyRow): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [o] = await tx.select().from(orders).where(eq(orders.id, c.orderId!)).for('update');
    if (!o || o.status !== 'closed') return false;
    await settleCopy(tx, c, o, 'closedElsewhere', deps.now(), true);
    return true;
  });
}

/**
 * Closes open copy `c` at market (engine forceClose) with `reason`, its proceeds back to the
 * follow's cash in the same transaction (settleCopy), a savepoint of `deps.db` when that is a
 * transaction (follow/stop's request transaction). A copy whose position was already closed
 * outside copy trading is settled as `closedElsewhere` instead. Resolves false when nothing was
 * closed here. @throws the engine's refusal (nonTradingTime, priceUnavailable).
 */
export async function closeCopy(deps: CopyDeps, c: CopyRow, reason: CopyReason): Promise<boolean> {
  if (await settleClosedElsewhere(deps, c)) return false;
  const closed = await deps.trading.forceClose(
    c.orderId!,
    'user',
    (tx, o) => settleCopy(tx, c, o, reason, deps.now(), false),
    undefined,
    deps.db,
  );
  if (!closed) await settleClosedElsewhere(deps, c);
  return closed !== null;
}

/** The follow's equity now: cash + each open copy's margin + unrealised P&L (bid for long, ask for short). */
export async function followEquity(deps: CopyDeps, f: FollowRow): Promise<number> {
  const open = await deps.db
    .select({ o: orders })
    .from(followCopies)
    .innerJoin(orders, eq(orders.id, followCopies.orderId))
    .where(and(eq(followCopies.followId, f.id), eq(followCopies.status, 'open')));
  let eq_ = f.cashMinor;
  for (const { o } of open) {
    const q = deps.feed.quote(o.symbol);
    const px = q ? (o.side === 'long' ? q.bidMinor : q.askMinor) : 0;
    // No price: marked at cost (no unrealised P&L).
    const diff = px > 0 ? notionalMinor(px, o.shares) - (o.openValueMinor ?? 0) : 0;
    eq_ += o.marginMinor + (o.side === 'long' ? diff : -diff);
  }
  return eq_;
}

/** Open copies of follow `followId`. */
const openCopies = (d: Db | Tx, followId: number) =>
  d
    .select()
    .from(followCopies)
    .where(and(eq(followCopies.followId, followId), eq(followCopies.status, 'open')))
    .orderBy(asc(followCopies.id));

/**
 * Ends a follow: closes its open copies (`followStopped`), then settles in one transaction: the
 * mentor's share of the equity above the high-water mark (`followRebate`) and the rest back to the
 * member's wallet (`followReturn`). `deps.db` may be a request's idempotency transaction
 * (follow/stop): every close and the settlement then commit with the stored answer, so a retry
 * with the same key gets that answer and moves nothing.
 * @throws notFound (404), followNotRunning (409), followHasOpenCopies (409: a copy could not be
 *   closed now, e.g. outside trading hours; nothing was settled)
 */
export async function endFollow(
  deps: CopyDeps,
  followId: number,
  endReason: 'member' | 'deadline' | 'operator',
  ownerId?: number,
): Promise<FollowRow> {
  const [f0] = await deps.db.select().from(follows).where(eq(follows.id, followId));
  if (!f0 || (ownerId !== undefined && f0.userId !== ownerId)) throw fail('notFound');
  if (f0.status !== 'following') throw fail('followNotRunning');
  for (const c of await openCopies(deps.db, followId)) {
    try {
      await closeCopy(deps, c, 'followStopped');
    } catch {
      throw fail('followHasOpenCopies');
    }
  }
  return deps.db.transaction(async (tx) => {
    const [f] = await tx.select().from(follows).where(eq(follows.id, followId)).for('update');
    if (f!.status !== 'following') throw fail('followNotRunning');
    if ((await openCopies(tx, f!.id)).length > 0) throw fail('followHasOpenCopies');
    const [m] = await tx.select().from(mentors).where(eq(mentors.id, f!.mentorId));
    const equity = f!.cashMinor;
    const share = equity > f!.highWaterMinor ? bpsOf(equity - f!.highWaterMinor, m!.profitShareBps) : 0;
    if (share > 0)
      await post(tx, {
        type: 'followRebate',
        ...ref(f!),
        idempotencyKey: `followRebate:${f!.id}`,
        postings: move(followAcc(f!.userId), availableAcc(m!.userId), share),
      });
    if (equity - share > 0)
      await post(tx, {
        type: 'followReturn',
        ...ref(f!),
        idempotencyKey: `followReturn:${f!.id}`,
        postings: move(followAcc(f!.userId), availableAcc(f!.userId), equity - share),
      });
    const [row] = await tx
      .update(follows)
      .set({
        status: endReason === 'operator' ? 'cancelled' : 'ended',
        endReason,
        cashMinor: 0,
        returnedMinor: equity - share,
        profitShareMinor: share,
        highWaterMinor: Math.max(f!.highWaterMinor, equity),
        endedAt: new Date(deps.now()),
      })
      .where(eq(follows.id, f!.id))
      .returning();
    return row!;
  });
}

/** Refusals that only mean "not now" (outside continuous trading, no price yet). */
const WAIT_FOR_MARKET: ReadonlySet<string> = new Set([
  'nonTradingTime',
  'priceUnavailable',
  'followHasOpenCopies',
]);

/** How far back a pass looks for mentor orders that opened and closed between two passes. */
export const MISSED_WINDOW_MS = 86_400_000;

/**
 * Mentor orders of `mentorUserId` that opened after a follow started and closed before any pass
 * saw them holding (within MISSED_WINDOW_MS): recorded for each such follow as skipped with
 * reason `mentorClosedFirst`, never silently dropped. Lots: what the copy would have been at the
 * mentor's equity now.
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
  await deps.db
    .insert(followCopies)
    .values(
      missing.map(({ o, f }) => ({
        followId: f.id,
        mentorOrderId: o.id,
        symbol: o.symbol,
        side: o.side,
        mentorLots: o.lots,
        lots: copyLots(o.lots, f.amountMinor, equity),
        mentorEquityMinor: equity,
        allocationMinor: f.amountMinor,
        status: 'skipped' as const,
        reason: 'mentorClosedFirst' as const,
        createdAt: new Date(deps.now()),
      })),
    )
    .onConflictDoNothing();
}

/**
 * One mirroring pass over every approved mentor with running follows: opens copies of the
 * mentor's holding orders placed after each follow started (id above follows.since_order_id) and not yet recorded for it, closes
 * copies whose mentor order closed (`mentorClosed`), fires copy stop-losses (`stopLoss`) and ends
 * follows past their deadline. Each copy in a transaction of its own: one follower's failure is
 * recorded (skipped with its reason) or logged and never blocks the others.
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
    await recordMissed(deps, mentorUserId, fs, sinceId);
  }
  // Mentor closes close the copies.
  const toClose = await deps.db
    .select({ c: followCopies })
    .from(followCopies)
    .innerJoin(orders, eq(orders.id, followCopies.mentorOrderId))
    .where(and(eq(followCopies.status, 'open'), inArray(orders.status, ['closed', 'cancelled'])));
  for (const { c } of toClose)
    await closeCopy(deps, c, 'mentorClosed').catch((err) => log(`closing copy ${c.id} failed`, err));
  // Copies whose position was closed outside copy trading (liquidation, by hand): proceeds back.
  const elsewhere = await deps.db
    .select({ c: followCopies })
    .from(followCopies)
    .innerJoin(orders, eq(orders.id, followCopies.orderId))
    .where(and(eq(followCopies.status, 'open'), eq(orders.status, 'closed')));
  for (const { c } of elsewhere)
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

/** The member's follows, newest first. */
export async function memberFollows(d: Db, userId: number, page: number, pageSize: number) {
  const where = eq(follows.userId, userId);
  const rows = await d
    .select()
    .from(follows)
    .where(where)
    .orderBy(desc(follows.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await d.select({ n: count() }).from(follows).where(where);
  return { items: await Promise.all(rows.map((r) => toFollowDto(d, r))), total: total!.n, page, pageSize };
}

/** admin/follows: every follow (or one mentor's), newest first, with the member's account. */
export async function adminFollows(d: Db, q: { mentorId?: number; page: number; pageSize: number }) {
  const where = q.mentorId === undefined ? undefined : eq(follows.mentorId, q.mentorId);
  const rows = await d
    .select({ f: follows, account: users.account })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.userId))
    .where(where)
    .orderBy(desc(follows.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [total] = await d.select({ n: count() }).from(follows).where(where);
  return {
    items: await Promise.all(
      rows.map(async (r) => ({ ...(await toFollowDto(d, r.f)), userId: r.f.userId, account: r.account })),
    ),
    total: total!.n,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/**
 * A follow's records (copies and skips), newest first; a member's own only (`userId`), an
 * operator's any (`userId` null). @throws notFound
 */
export async function followRecords(
  d: Db,
  userId: number | null,
  q: { followId: number; page: number; pageSize: number },
) {
  const [f] = await d
    .select({ id: follows.id })
    .from(follows)
    .where(
      userId === null
        ? eq(follows.id, q.followId)
        : and(eq(follows.id, q.followId), eq(follows.userId, userId)),
    );
  if (!f) throw fail('notFound');
  const where = eq(followCopies.followId, f.id);
  const rows = await d
    .select()
    .from(followCopies)
    .where(where)
    .orderBy(desc(followCopies.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [total] = await d.select({ n: count() }).from(followCopies).where(where);
  return { items: rows.map(toCopyDto), total: total!.n, page: q.page, pageSize: q.pageSize };
}
