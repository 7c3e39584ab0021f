/**
 * Day-trading applications (table day_trade_applications): a member applies; an eligible member
 * (eligibility.ts) is approved at once (`granted_by = 'auto'`), anyone else waits as `pending`
 * for an operator, who approves (`granted_by = 'operator'`) or rejects with a reason. Each
 * operator decision writes one audit entry in the same transaction. A member has at most one
 * open (pending or approved) application: the partial unique index day_trade_apps_one_open_uq
 * makes that hold under concurrency too; after a rejection the member may apply again.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type {
  AdminDayTradeApplication,
  DayTradeApplication,
  DayTradeGrant,
} from '../../../contract/day-trading';
import type { Db, Tx } from '../../db/client';
import { dayTradeApplications, users } from '../../db/schema';
import type { AuthUser } from '../common/context';
import { fail } from '../common/errors';
import { audit } from '../common/audit';
import { auditSelfReview } from '../four-eyes/four-eyes';
import { reviewer } from '../four-eyes/review';
import { isUniqueViolation } from '../common/db-errors';
import { pageOf } from '../common/paging';
import type { DayTradeConfig } from './config';
import { eligibilityOf } from './eligibility';
import { notifyMember } from '../notices/notify';

export type ApplicationRow = typeof dayTradeApplications.$inferSelect;

const ms = (d: Date | null) => (d ? d.getTime() : null);

/** A row as its member sees it (contract dayTradeApplicationSchema). */
export function toApplicationDto(row: ApplicationRow): DayTradeApplication {
  return {
    id: row.id,
    status: row.status as DayTradeApplication['status'],
    grantedBy: (row.grantedBy as DayTradeGrant | null) ?? null,
    reason: row.reason,
    createdAt: row.createdAt.getTime(),
    reviewedAt: ms(row.reviewedAt),
  };
}

/** The member's latest application, or null. */
export async function latestApplication(db: Db | Tx, userId: number): Promise<ApplicationRow | null> {
  const [row] = await db
    .select()
    .from(dayTradeApplications)
    .where(eq(dayTradeApplications.userId, userId))
    .orderBy(desc(dayTradeApplications.id))
    .limit(1);
  return row ?? null;
}

/** True when the member holds an approved application (may day trade). */
export async function isDayTradeApproved(db: Db | Tx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: dayTradeApplications.id })
    .from(dayTradeApplications)
    .where(and(eq(dayTradeApplications.userId, userId), eq(dayTradeApplications.status, 'approved')))
    .limit(1);
  return row !== undefined;
}

/**
 * Applies for day trading at `nowMs`: approved at once when eligible, else pending.
 * @throws cannotWithdrawOrTrade (403) for a trade-banned or frozen member;
 *   dayTradeAlreadyApplied (409) while a pending or approved application exists
 */
export async function applyForDayTrading(
  db: Db,
  cfg: DayTradeConfig,
  user: AuthUser,
  nowMs: number,
): Promise<ApplicationRow> {
  if (user.tradeBanned) throw fail('cannotWithdrawOrTrade');
  try {
    return await db.transaction(async (tx) => {
      // Serialises one member's applications: two at once cannot both find none open.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
      const open = await tx
        .select({ id: dayTradeApplications.id })
        .from(dayTradeApplications)
        .where(
          and(
            eq(dayTradeApplications.userId, user.id),
            inArray(dayTradeApplications.status, ['pending', 'approved']),
          ),
        );
      if (open.length > 0) throw fail('dayTradeAlreadyApplied');
      const e = await eligibilityOf(tx, cfg, user.id, nowMs);
      const [row] = await tx
        .insert(dayTradeApplications)
        .values(
          e.eligible
            ? {
                userId: user.id,
                status: 'approved',
                grantedBy: 'auto',
                reviewedAt: new Date(nowMs),
                createdAt: new Date(nowMs),
              }
            : { userId: user.id, status: 'pending', createdAt: new Date(nowMs) },
        )
        .returning();
      return row!;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'day_trade_apps_one_open_uq')) throw fail('dayTradeAlreadyApplied');
    throw err;
  }
}

/** The member's applications, newest first. */
export async function memberApplications(db: Db, userId: number, page: number, pageSize: number) {
  const where = eq(dayTradeApplications.userId, userId);
  const rows = db.select().from(dayTradeApplications).where(where).orderBy(desc(dayTradeApplications.id));
  const p = await pageOf(db, rows, { table: dayTradeApplications, where }, { page, pageSize });
  return { ...p, items: p.items.map(toApplicationDto) };
}

/** Rows joined with the account, with each applicant's standing against the rule at `nowMs`. */
async function adminViews(
  db: Db | Tx,
  cfg: DayTradeConfig,
  rows: Array<{ a: ApplicationRow; account: string }>,
  nowMs: number,
): Promise<AdminDayTradeApplication[]> {
  const out: AdminDayTradeApplication[] = [];
  for (const r of rows) {
    const e = await eligibilityOf(db, cfg, r.a.userId, nowMs);
    out.push({
      ...toApplicationDto(r.a),
      userId: r.a.userId,
      account: r.account,
      accountDays: e.accountDays,
      tradesLastYear: e.tradesLastYear,
      eligible: e.eligible,
    });
  }
  return out;
}

/** admin/dayTradeApplications: pending ones (oldest waiting last: newest first) or all. */
export async function adminApplications(
  db: Db,
  cfg: DayTradeConfig,
  q: { status: 'pending' | 'all'; page: number; pageSize: number },
  nowMs: number,
) {
  const where = q.status === 'pending' ? eq(dayTradeApplications.status, 'pending') : undefined;
  const rows = db
    .select({ a: dayTradeApplications, account: users.account })
    .from(dayTradeApplications)
    .innerJoin(users, eq(users.id, dayTradeApplications.userId))
    .where(where)
    .orderBy(desc(dayTradeApplications.id));
  const page = await pageOf(db, rows, { table: dayTradeApplications, where }, q);
  return { ...page, items: await adminViews(db, cfg, page.items, nowMs) };
}

const auditView = (r: ApplicationRow) => ({
  status: r.status,
  grantedBy: r.grantedBy,
  reason: r.reason,
});

const reviewDayTradeApplication = reviewer({
  table: dayTradeApplications,
  type: 'dayTradeApplication',
  pending: 'pending',
  notPending: 'dayTradeNotPending',
});

/**
 * An operator's decision on a pending application (conditional update: a second decision on the
 * same application finds nothing to update), with its audit entry (`dayTrade.approve` /
 * `dayTrade.reject`).
 * @throws notFound (404) for no such application; selfReview (403) for the operator's own (the
 *   attempt audited as `review.selfRefused`, four-eyes/four-eyes.ts);
 *   dayTradeNotPending (409) when it was already decided
 */
export async function reviewApplication(
  db: Db,
  cfg: DayTradeConfig,
  args: {
    id: number;
    operatorId: number;
    decision: 'approved' | 'rejected';
    reason: string | null;
    nowMs: number;
  },
): Promise<AdminDayTradeApplication> {
  return db
    .transaction(async (tx) => {
      const { before, after } = await reviewDayTradeApplication(tx, {
        id: args.id,
        operatorId: args.operatorId,
        status: args.decision,
        reason: args.reason,
        reviewedAt: new Date(args.nowMs),
        columns: { grantedBy: args.decision === 'approved' ? 'operator' : null },
      });
      await notifyMember(
        tx,
        after.userId,
        args.decision === 'approved' ? 'dayTradeApproved' : 'dayTradeRejected',
        args.reason ? { reason: args.reason } : {},
      );
      await audit(tx, {
        actorUserId: args.operatorId,
        action: args.decision === 'approved' ? 'dayTrade.approve' : 'dayTrade.reject',
        targetType: 'dayTradeApplication',
        targetId: args.id,
        before: auditView(before),
        after: auditView(after),
        reason: args.reason,
      });
      const [u] = await tx.select({ account: users.account }).from(users).where(eq(users.id, after.userId));
      return (await adminViews(tx, cfg, [{ a: after, account: u!.account }], args.nowMs))[0]!;
    })
    .catch(auditSelfReview(db, args.operatorId));
}
