/**
 * Real-name verification (KYC; product-spec §3 "Real-name record", §4 "KYC", §5 "Real-name",
 * §8 "Identity"). A member submits name, ID number and the two ID photos (uploads with purposes
 * kycFront and kycBack); an operator approves or rejects with a reason; a rejected member may
 * submit again. The newest kyc_records row of a member is the member's status; no row = unverified.
 *
 * States: unverified → review → verified | rejected; rejected → review (resubmission).
 * One identity per ID number across users, without telling a member whether a number belongs to
 * someone else: a submission of a number verified or under review for another member is taken
 * like any other (the same answer, status `review`); the operator's queue marks it
 * (`duplicateId`) so it is rejected, and the unique index kyc_verified_id_uq refuses to approve a
 * second verified record of a number whatever happens (alreadyVerified).
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { KycStatus } from '../../../contract/constants';
import { maskIdNumber } from '../../../contract/identity-rules';
import type { Db, Tx } from '../../db/client';
import { kycRecords, uploads, users } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { audit } from '../common/audit';
import { auditSelfReview } from '../four-eyes/four-eyes';
import { reviewer } from '../four-eyes/review';
import { isUniqueViolation } from '../common/db-errors';
import { pageOf } from '../common/paging';
import { notifyMember } from '../notices/notify';

export type KycRow = typeof kycRecords.$inferSelect;

/** The member's newest KYC submission, or undefined when there is none. */
export async function latestKyc(db: Db | Tx, userId: number): Promise<KycRow | undefined> {
  const [row] = await db
    .select()
    .from(kycRecords)
    .where(eq(kycRecords.userId, userId))
    .orderBy(desc(kycRecords.id))
    .limit(1);
  return row;
}

/** The member's KYC status: the newest submission's status, 'unverified' without one. */
export async function kycStatusOf(db: Db | Tx, userId: number): Promise<KycStatus> {
  const row = await latestKyc(db, userId);
  return (row?.status as KycStatus | undefined) ?? 'unverified';
}

/** The member's verified real name, or null when the member is not verified. */
export async function verifiedNameOf(db: Db | Tx, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ name: kycRecords.name })
    .from(kycRecords)
    .where(and(eq(kycRecords.userId, userId), eq(kycRecords.status, 'verified')))
    .orderBy(desc(kycRecords.id))
    .limit(1);
  return row?.name ?? null;
}

/**
 * The member's verified ID number (the identity the exchange counts one application per), or
 * null when the member is not verified. A verified record never changes status and the unique
 * index kyc_verified_id_uq keeps an ID number verified for one member only.
 */
export async function verifiedIdNumberOf(db: Db | Tx, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ idNumber: kycRecords.idNumber })
    .from(kycRecords)
    .where(and(eq(kycRecords.userId, userId), eq(kycRecords.status, 'verified')))
    .orderBy(desc(kycRecords.id))
    .limit(1);
  return row?.idNumber ?? null;
}

/**
 * Takes a transaction-scoped lock on a hash of `idNumber` under `scope` (PostgreSQL advisory
 * lock, released at commit or rollback), so checks over every account of one person run one
 * after another whatever account they come from.
 */
export async function lockIdNumber(tx: Tx, scope: string, idNumber: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${scope + ':' + idNumber}))`);
}

/** KYC status of many users at once (their newest submission), for the operator's user list. */
export async function kycStatusesOf(db: Db | Tx, userIds: number[]): Promise<Map<number, KycStatus>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .selectDistinctOn([kycRecords.userId], { userId: kycRecords.userId, status: kycRecords.status })
    .from(kycRecords)
    .where(inArray(kycRecords.userId, userIds))
    .orderBy(kycRecords.userId, desc(kycRecords.id));
  return new Map(rows.map((r) => [r.userId, r.status as KycStatus]));
}

/** The member's view (ID number masked); `unverified` with nulls when nothing was submitted. */
function memberView(row: KycRow | undefined) {
  if (!row)
    return {
      status: 'unverified' as const,
      name: null,
      idNumberMasked: null,
      reason: null,
      submittedAt: null,
      reviewedAt: null,
    };
  return {
    status: row.status as KycStatus,
    name: row.name,
    idNumberMasked: maskIdNumber(row.idNumber),
    reason: row.reason,
    submittedAt: row.createdAt.getTime(),
    reviewedAt: row.reviewedAt ? row.reviewedAt.getTime() : null,
  };
}

/** The operator's view (full ID number; `duplicateId`: another member's record of the number is verified or in review). */
function adminView(row: KycRow, account: string, duplicateId = false) {
  return {
    id: row.id,
    userId: row.userId,
    account,
    name: row.name,
    idNumber: row.idNumber,
    frontUploadId: row.frontUploadId,
    backUploadId: row.backUploadId,
    status: row.status as KycStatus,
    reason: row.reason,
    createdAt: row.createdAt.getTime(),
    duplicateId,
  };
}

/** Whether another member's record of the row's ID number is verified or in review (SQL, for the queue). */
const duplicateIdSql = sql<boolean>`exists (select 1 from ${kycRecords} other
  where other.id_number = ${kycRecords.idNumber} and other.user_id <> ${kycRecords.userId}
  and other.status in ('verified', 'review'))`;

/** What the audit log keeps of a submission (no photos, the ID number masked). */
const auditView = (row: KycRow) => ({
  status: row.status,
  name: row.name,
  idNumber: maskIdNumber(row.idNumber),
  reason: row.reason,
});

const reviewKyc = reviewer({
  table: kycRecords,
  type: 'kyc',
  pending: 'review',
  notPending: 'operationFailed',
});

/**
 * Moves a submission in review to `status` (conditional update: a second review of the same
 * submission finds nothing to update) and writes the audit entry.
 * @throws AppError notFound (404) when there is no such submission, selfReview (403) for the
 *   operator's own submission (nothing changes; the attempt is audited, four-eyes/four-eyes.ts),
 *   operationFailed (409) when it is not in review, alreadyVerified (409) when approving an ID
 *   number verified for another user
 */
async function review(
  db: Db,
  id: number,
  operatorId: number,
  status: 'verified' | 'rejected',
  reason: string | null,
) {
  try {
    return await db.transaction(async (tx) => {
      const { before, after } = await reviewKyc(tx, { id, operatorId, status, reason });
      await notifyMember(
        tx,
        after.userId,
        status === 'verified' ? 'kycApproved' : 'kycRejected',
        reason ? { reason } : {},
      );
      await audit(tx, {
        actorUserId: operatorId,
        action: status === 'verified' ? 'kyc.approve' : 'kyc.reject',
        targetType: 'kyc',
        targetId: id,
        before: auditView(before),
        after: auditView(after),
        reason,
      });
      const [u] = await tx.select({ account: users.account }).from(users).where(eq(users.id, after.userId));
      return adminView(after, u!.account);
    });
  } catch (err) {
    // Another member's submission with this ID number was approved first.
    if (isUniqueViolation(err, 'kyc_verified_id_uq')) throw fail('alreadyVerified');
    return auditSelfReview(db, operatorId)(err);
  }
}

/** user/kyc, user/submitKyc, admin/kyc, admin/approveKyc, admin/rejectKyc. */
export const kycHandlers: Pick<
  Handlers,
  'user/kyc' | 'user/submitKyc' | 'admin/kyc' | 'admin/approveKyc' | 'admin/rejectKyc'
> = {
  async 'user/kyc'(_body, ctx) {
    const user = requireUser(ctx);
    return memberView(await latestKyc(ctx.db, user.id));
  },

  /**
   * Submits (or, after a rejection, resubmits) a real-name record.
   * A number verified or under review for another member is taken like any other (the answer
   * never says whether the number is someone's); the operator's queue marks it (duplicateId).
   * @throws idImagesMissing (422) unless both uploads are the caller's, with purposes kycFront
   *   and kycBack; alreadyVerified (409) when the caller is verified; kycUnderReview (409) while
   *   a submission awaits review.
   */
  async 'user/submitKyc'(body, ctx) {
    const user = requireUser(ctx);
    const row = await ctx.db.transaction(async (tx) => {
      // Serialises a member's submissions: two at once cannot both find "not in review".
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
      const current = await latestKyc(tx, user.id);
      if (current?.status === 'verified') throw fail('alreadyVerified');
      if (current?.status === 'review') throw fail('kycUnderReview');
      const files = await tx
        .select({ id: uploads.id, purpose: uploads.purpose })
        .from(uploads)
        .where(
          and(eq(uploads.userId, user.id), inArray(uploads.id, [body.frontUploadId, body.backUploadId])),
        );
      const purposeOf = new Map(files.map((f) => [f.id, f.purpose]));
      if (purposeOf.get(body.frontUploadId) !== 'kycFront' || purposeOf.get(body.backUploadId) !== 'kycBack')
        throw fail('idImagesMissing');
      const [inserted] = await tx
        .insert(kycRecords)
        .values({
          userId: user.id,
          name: body.name,
          idNumber: body.idNumber,
          frontUploadId: body.frontUploadId,
          backUploadId: body.backUploadId,
          status: 'review',
        })
        .returning();
      return inserted!;
    });
    return memberView(row);
  },

  async 'admin/kyc'(body, ctx) {
    const where = body.status === 'pending' ? eq(kycRecords.status, 'review') : undefined;
    const rows = ctx.db
      .select({ k: kycRecords, account: users.account, duplicateId: duplicateIdSql })
      .from(kycRecords)
      .innerJoin(users, eq(users.id, kycRecords.userId))
      .where(where)
      .orderBy(desc(kycRecords.id));
    const page = await pageOf(ctx.db, rows, { table: kycRecords, where }, body);
    return { ...page, items: page.items.map((r) => adminView(r.k, r.account, Boolean(r.duplicateId))) };
  },

  async 'admin/approveKyc'(body, ctx) {
    const op = requireUser(ctx);
    return review(ctx.db, body.id, op.id, 'verified', null);
  },

  async 'admin/rejectKyc'(body, ctx) {
    const op = requireUser(ctx);
    return review(ctx.db, body.id, op.id, 'rejected', body.reason);
  },
};
