/**
 * Follows (contract/copy-trading.ts): starting one, pausing, the member's and the operator's
 * lists and a follow's records. Mirroring is mirroring.ts, a copy's money settlement.ts, stopping
 * stop.ts, the pieces they share pool.ts.
 *
 * Money: following moves the amount from the member's `available` into their `follow` ledger
 * account (`followAllocate`), in the transaction that inserts the follow; the follow's part of
 * that account is follows.cash_minor, changed only together with a posting on the account.
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Copy, Follow } from '../../../contract/copy-trading';
import type { Db, Tx } from '../../db/client';
import { followCopies, follows, mentors, orders, users } from '../../db/schema';
import type { AuthUser } from '../common/context';
import { fail } from '../common/errors';
import { pageOf } from '../common/paging';
import { ensureSubAccount, move, post } from '../ledger/ledger';
import { nicknameOf } from './mentors';
import { availableAcc, followAcc, followRef, type CopyRow, type FollowRow } from './pool';

const DAY_MS = 86_400_000;

/** A follow row as its member sees it. */
export async function toFollowDto(_db: Db | Tx, row: FollowRow): Promise<Follow> {
  return {
    id: row.id,
    mentorId: row.mentorId,
    mentorNickname: nicknameOf(row.mentorId),
    status: row.status,
    paused: row.paused,
    amountMinor: row.amountMinor,
    cashMinor: row.cashMinor,
    highWaterMinor: row.highWaterMinor,
    realisedMinor: row.realisedMinor,
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
  refusal: r.refusal,
  cashFlowMinor: r.cashFlowMinor,
  pnlMinor: r.pnlMinor,
  profitShareMinor: r.profitShareMinor,
  createdAt: r.createdAt.getTime(),
  closedAt: r.closedAt?.getTime() ?? null,
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
      ...followRef(row!),
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

/** The member's follows, newest first. */
export async function memberFollows(d: Db, userId: number, page: number, pageSize: number) {
  const where = eq(follows.userId, userId);
  const rows = d.select().from(follows).where(where).orderBy(desc(follows.id));
  const p = await pageOf(d, rows, { table: follows, where }, { page, pageSize });
  return { ...p, items: await Promise.all(p.items.map((r) => toFollowDto(d, r))) };
}

/** admin/follows: every follow (or one mentor's), newest first, with the member's account. */
export async function adminFollows(d: Db, q: { mentorId?: number; page: number; pageSize: number }) {
  const where = q.mentorId === undefined ? undefined : eq(follows.mentorId, q.mentorId);
  const rows = d
    .select({ f: follows, account: users.account })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.userId))
    .where(where)
    .orderBy(desc(follows.id));
  const page = await pageOf(d, rows, { table: follows, where }, q);
  return {
    ...page,
    items: await Promise.all(
      page.items.map(async (r) => ({
        ...(await toFollowDto(d, r.f)),
        userId: r.f.userId,
        account: r.account,
      })),
    ),
  };
}

/**
 * A follow's records (copies and skips), newest first: one follow's (`followId`), or without it
 * the records of all the member's follows; a member's own only (`userId`), an operator's any
 * follow (`userId` null, `followId` required). @throws notFound
 */
export async function followRecords(
  d: Db,
  userId: number | null,
  q: { followId?: number; page: number; pageSize: number },
) {
  let where: SQL | undefined;
  if (q.followId !== undefined) {
    const [f] = await d
      .select({ id: follows.id })
      .from(follows)
      .where(
        userId === null
          ? eq(follows.id, q.followId)
          : and(eq(follows.id, q.followId), eq(follows.userId, userId)),
      );
    if (!f) throw fail('notFound');
    where = eq(followCopies.followId, f.id);
  } else {
    if (userId === null) throw fail('notFound');
    where = inArray(
      followCopies.followId,
      d.select({ id: follows.id }).from(follows).where(eq(follows.userId, userId)),
    );
  }
  const rows = d.select().from(followCopies).where(where).orderBy(desc(followCopies.id));
  const page = await pageOf(d, rows, { table: followCopies, where }, q);
  return { ...page, items: page.items.map(toCopyDto) };
}

/**
 * Which of `orderIds` are the member's copies (any follow, open or closed), with the follow and
 * the mentor's nickname: the positions' "copy" tag.
 */
export async function copyOrders(d: Db, userId: number, orderIds: number[]) {
  if (orderIds.length === 0) return { copies: [] };
  const rows = await d
    .select({ orderId: followCopies.orderId, followId: followCopies.followId, mentorId: follows.mentorId })
    .from(followCopies)
    .innerJoin(follows, eq(follows.id, followCopies.followId))
    .where(and(eq(follows.userId, userId), inArray(followCopies.orderId, orderIds)));
  return {
    copies: rows.map((r) => ({
      orderId: r.orderId!,
      followId: r.followId,
      mentorNickname: nicknameOf(r.mentorId),
    })),
  };
}
