/**
 * Mentor applications (table mentors): a member applies and is checked against MENTOR_CRITERIA
 * (rules.ts) at once; one who meets them waits `review` for an operator, who approves or rejects
 * with a reason, never their own application (four-eyes/four-eyes.ts). Each decision writes an audit
 * entry in its transaction. One open (review or approved) application per member: the partial
 * unique index mentors_one_open_uq holds that under concurrency too.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AdminMentor, Mentor, MentorLevel } from '../../../contract/copy-trading';
import type { Db, Tx } from '../../db/client';
import { mentors, users } from '../../db/schema';
import { audit } from '../common/audit';
import { auditSelfReview } from '../four-eyes/four-eyes';
import { reviewer } from '../four-eyes/review';
import type { AuthUser } from '../common/context';
import { isUniqueViolation } from '../common/db-errors';
import { fail } from '../common/errors';
import { pageOf, pageOfList } from '../common/paging';
import { levelOf, MENTOR_CRITERIA, MENTOR_DEFAULTS } from './rules';
import { mentorStats } from './stats';

export type MentorRow = typeof mentors.$inferSelect;

const DAY_MS = 86_400_000;

/**
 * The name a mentor is shown by to other members: a handle from the mentor number (public
 * anyway: the id every mentor route takes), e.g. M0007. Never derived from the account, which is
 * the member's mobile number, nor from the internal user id.
 */
export const nicknameOf = (mentorId: number): string => `M${String(mentorId).padStart(4, '0')}`;

/**
 * The member's standing against MENTOR_CRITERIA at `nowMs`; `minAccountDays`: the account age
 * required (config MENTOR_MIN_ACCOUNT_DAYS, default MENTOR_CRITERIA's).
 */
export async function criteriaOf(
  db: Db | Tx,
  userId: number,
  nowMs: number,
  minAccountDays: number = MENTOR_CRITERIA.minAccountDays,
) {
  const [u] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId));
  const s = await mentorStats(db, userId, null, nowMs);
  // Never negative: a market clock behind the registration (a replay set in the past) reads 0.
  const accountDays = Math.max(0, Math.floor((nowMs - u!.createdAt.getTime()) / DAY_MS));
  return {
    minAccountDays,
    minClosedTrades: MENTOR_CRITERIA.minClosedTrades,
    maxDrawdownBps: MENTOR_CRITERIA.maxDrawdownBps,
    accountDays,
    closedTrades: s.closedTrades,
    drawdownBps: s.maxDrawdownBps,
    eligible:
      accountDays >= minAccountDays &&
      s.closedTrades >= MENTOR_CRITERIA.minClosedTrades &&
      s.maxDrawdownBps <= MENTOR_CRITERIA.maxDrawdownBps,
  };
}

/**
 * A mentors row with its figures and level now (contract mentorSchema): what any member may see,
 * so no user id and nothing of the account (the mobile number).
 */
export async function toMentorDto(db: Db | Tx, row: MentorRow, nowMs: number): Promise<Mentor> {
  const stats = await mentorStats(db, row.userId, row.id, nowMs);
  const level: MentorLevel = levelOf(stats);
  return {
    id: row.id,
    nickname: nicknameOf(row.id),
    status: row.status,
    level,
    minFollowMinor: row.minFollowMinor,
    profitShareBps: row.profitShareBps,
    stats,
    reason: row.reason,
    createdAt: row.createdAt.getTime(),
    reviewedAt: row.reviewedAt?.getTime() ?? null,
  };
}

/** toMentorDto with the member's user id and account, for operators (contract adminMentorSchema). */
export async function toAdminMentorDto(db: Db | Tx, row: MentorRow, nowMs: number): Promise<AdminMentor> {
  const [u] = await db.select({ account: users.account }).from(users).where(eq(users.id, row.userId));
  return { ...(await toMentorDto(db, row, nowMs)), userId: row.userId, account: u!.account };
}

/** The member's latest application, or null. */
export async function latestMentorRow(db: Db | Tx, userId: number): Promise<MentorRow | null> {
  const [row] = await db
    .select()
    .from(mentors)
    .where(eq(mentors.userId, userId))
    .orderBy(desc(mentors.id))
    .limit(1);
  return row ?? null;
}

/**
 * Applies to be a mentor at `nowMs`.
 * @throws cannotWithdrawOrTrade (403) for a trade-banned member; mentorAlreadyApplied (409) while
 *   one is under review or approved; mentorCriteriaNotMet (409) below MENTOR_CRITERIA (account
 *   age: `minAccountDays`, config MENTOR_MIN_ACCOUNT_DAYS)
 */
export async function applyAsMentor(
  db: Db,
  user: AuthUser,
  nowMs: number,
  minAccountDays: number = MENTOR_CRITERIA.minAccountDays,
): Promise<MentorRow> {
  if (user.tradeBanned) throw fail('cannotWithdrawOrTrade');
  try {
    return await db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
      const open = await tx
        .select({ id: mentors.id })
        .from(mentors)
        .where(and(eq(mentors.userId, user.id), inArray(mentors.status, ['review', 'approved'])));
      if (open.length > 0) throw fail('mentorAlreadyApplied');
      if (!(await criteriaOf(tx, user.id, nowMs, minAccountDays)).eligible)
        throw fail('mentorCriteriaNotMet');
      const [row] = await tx
        .insert(mentors)
        .values({
          userId: user.id,
          status: 'review',
          minFollowMinor: MENTOR_DEFAULTS.minFollowMinor,
          profitShareBps: MENTOR_DEFAULTS.profitShareBps,
          createdAt: new Date(nowMs),
        })
        .returning();
      return row!;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'mentors_one_open_uq')) throw fail('mentorAlreadyApplied');
    throw err;
  }
}

/** Approved mentors (optionally of one level), newest approval first, with figures now. */
export async function listMentors(
  db: Db,
  q: { level?: MentorLevel; page: number; pageSize: number },
  nowMs: number,
) {
  const rows = await db
    .select()
    .from(mentors)
    .where(eq(mentors.status, 'approved'))
    .orderBy(desc(mentors.reviewedAt), desc(mentors.id));
  const all = await Promise.all(rows.map((r) => toMentorDto(db, r, nowMs)));
  const items = q.level ? all.filter((m) => m.level === q.level) : all;
  return pageOfList(items, q);
}

/** admin/mentors: applications under review, or all. */
export async function adminMentors(
  db: Db,
  q: { status: 'review' | 'all'; page: number; pageSize: number },
  nowMs: number,
) {
  const where = q.status === 'review' ? eq(mentors.status, 'review') : undefined;
  const page = await pageOf(
    db,
    db.select().from(mentors).where(where).orderBy(desc(mentors.id)),
    { table: mentors, where },
    q,
  );
  return { ...page, items: await Promise.all(page.items.map((r) => toAdminMentorDto(db, r, nowMs))) };
}

const auditView = (r: MentorRow) => ({
  status: r.status,
  reason: r.reason,
  minFollowMinor: r.minFollowMinor,
  profitShareBps: r.profitShareBps,
});

const reviewMentorApplication = reviewer({
  table: mentors,
  type: 'mentorApplication',
  pending: 'review',
  notPending: 'mentorNotPending',
});

/**
 * An operator's decision on an application under review (conditional update; audit
 * `mentor.approve` / `mentor.reject`).
 * @throws notFound (404); selfReview (403, audited as review.selfRefused); mentorNotPending (409)
 */
export async function reviewMentor(
  db: Db,
  args: {
    id: number;
    operatorId: number;
    decision: 'approved' | 'rejected';
    reason: string | null;
    nowMs: number;
  },
): Promise<AdminMentor> {
  return db
    .transaction(async (tx) => {
      const { before, after } = await reviewMentorApplication(tx, {
        id: args.id,
        operatorId: args.operatorId,
        status: args.decision,
        reason: args.reason,
        reviewedAt: new Date(args.nowMs),
      });
      await audit(tx, {
        actorUserId: args.operatorId,
        action: args.decision === 'approved' ? 'mentor.approve' : 'mentor.reject',
        targetType: 'mentorApplication',
        targetId: args.id,
        before: auditView(before),
        after: auditView(after),
        reason: args.reason,
      });
      return toAdminMentorDto(tx, after, args.nowMs);
    })
    .catch(auditSelfReview(db, args.operatorId));
}

/**
 * Sets a mentor's minimum follow amount and profit share (audit `mentor.settings`); applies to
 * follows settled from now on. @throws notFound (404)
 */
export async function saveMentorSettings(
  db: Db,
  args: { id: number; operatorId: number; minFollowMinor: number; profitShareBps: number; nowMs: number },
): Promise<AdminMentor> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(mentors).where(eq(mentors.id, args.id)).for('update');
    if (!before) throw fail('notFound');
    const [after] = await tx
      .update(mentors)
      .set({ minFollowMinor: args.minFollowMinor, profitShareBps: args.profitShareBps })
      .where(eq(mentors.id, args.id))
      .returning();
    await audit(tx, {
      actorUserId: args.operatorId,
      action: 'mentor.settings',
      targetType: 'mentorApplication',
      targetId: args.id,
      before: auditView(before),
      after: auditView(after!),
      reason: null,
    });
    return toAdminMentorDto(tx, after!, args.nowMs);
  });
}
