/**
 * The operator's side of credit loans: the review queue (admin/creditLoans) and the decision
 * (admin/approveCreditLoan, admin/rejectCreditLoan). Four eyes: an operator never reviews their
 * own application (four-eyes/four-eyes.ts; refused 403 selfReview with nothing changed, the attempt
 * audited). A decision is a conditional update of a pending row (a second decision finds nothing:
 * 409 operationFailed) with its audit entry (`credit.approve` / `credit.reject`); an approval
 * re-checks the member's limit now (the member's users row locked, as applications do) and
 * disburses the principal in the same transaction (loans.ts table).
 */
import { desc, eq } from 'drizzle-orm';
import type { AdminCreditLoan, CreditSettings } from '../../../contract/credit';
import type { Db, Tx } from '../../db/client';
import { creditLoans, users } from '../../db/schema';
import { fail } from '../common/errors';
import { audit } from '../common/audit';
import { pageOf } from '../common/paging';
import { auditSelfReview } from '../four-eyes/four-eyes';
import { reviewer, rowOf } from '../four-eyes/review';
import { move, post } from '../ledger/ledger';
import { exposureOf, standingOf, toLoanDto, type LoanRow } from './loans';

async function adminView(
  db: Db | Tx,
  settings: CreditSettings,
  l: LoanRow,
  account: string,
  nowMs: number,
  today: number,
): Promise<AdminCreditLoan> {
  const s = await standingOf(db, settings, l.userId, nowMs, today);
  return { ...toLoanDto(l, today), userId: l.userId, account, score: s.score, limitMinor: s.limitMinor };
}

/** admin/creditLoans: pending ones or all, newest first, with each applicant's score and limit now. */
export async function adminLoans(
  db: Db,
  settings: CreditSettings,
  q: { status: 'pending' | 'all'; page: number; pageSize: number },
  nowMs: number,
  today: number,
) {
  const where = q.status === 'pending' ? eq(creditLoans.status, 'pending') : undefined;
  const rows = db
    .select({ l: creditLoans, account: users.account })
    .from(creditLoans)
    .innerJoin(users, eq(users.id, creditLoans.userId))
    .where(where)
    .orderBy(desc(creditLoans.id));
  const page = await pageOf(db, rows, { table: creditLoans, where }, q);
  const items: AdminCreditLoan[] = [];
  for (const r of page.items) items.push(await adminView(db, settings, r.l, r.account, nowMs, today));
  return { ...page, items };
}

const auditView = (l: LoanRow) => ({
  status: l.status,
  principalMinor: l.principalMinor,
  dueDay: l.dueDay,
  reason: l.reason,
});

const creditLoan = {
  table: creditLoans,
  type: 'creditLoan',
  pending: 'pending',
  notPending: 'operationFailed',
} as const;
const reviewCreditLoan = reviewer(creditLoan, rowOf(creditLoan, false));

/**
 * The checks of a decision on loan `peek` (read unlocked), once the operator is known not to be its
 * member: the member's row locked first, then the loan's (the order and lock strength applications
 * use, loans.ts); the loan must still be pending, and an approval within the member's limit now.
 * Answers the locked loan, the member's account and, for an approval, the disbursement columns.
 * @throws AppError operationFailed (409), insufficientCredit (422)
 */
async function lockAndCheck(
  tx: Tx,
  settings: CreditSettings,
  peek: LoanRow,
  args: { id: number; decision: 'lending' | 'rejected'; nowMs: number; today: number },
) {
  const [u] = await tx
    .select({ account: users.account })
    .from(users)
    .where(eq(users.id, peek.userId))
    .for('no key update');
  const [before] = await tx.select().from(creditLoans).where(eq(creditLoans.id, args.id)).for('update');
  if (before!.status !== 'pending') throw fail('operationFailed');
  if (args.decision === 'rejected') return { before: before!, account: u!.account };
  const { limitMinor } = await standingOf(tx, settings, before!.userId, args.nowMs, args.today);
  const e = await exposureOf(tx, before!.userId, before!.id);
  if (e.lendingPrincipal + before!.principalMinor > limitMinor) throw fail('insufficientCredit');
  const columns = {
    disbursedDay: args.today,
    dueDay: args.today + before!.termDays,
    accruedThroughDay: args.today,
  };
  return { before: before!, account: u!.account, columns };
}

/**
 * Decides pending loan `id` on trading day `today`. Approval: the member's lending principal plus
 * this one must stay within the limit now (else 422 insufficientCredit), then the principal is
 * disbursed (`loan`, key `creditDisburse:<id>`), due on today + term.
 * @throws notFound (404); selfReview (403); operationFailed (409); insufficientCredit (422)
 */
export async function reviewLoan(
  db: Db,
  settings: CreditSettings,
  args: {
    id: number;
    operatorId: number;
    decision: 'lending' | 'rejected';
    reason: string | null;
    nowMs: number;
    today: number;
  },
): Promise<AdminCreditLoan> {
  return db
    .transaction(async (tx) => {
      const approved = args.decision === 'lending';
      const { after, prepared } = await reviewCreditLoan(tx, {
        id: args.id,
        operatorId: args.operatorId,
        status: args.decision,
        reason: args.reason,
        reviewedAt: new Date(args.nowMs),
        prepare: (peek) => lockAndCheck(tx, settings, peek, args),
      });
      const { before, account } = prepared;
      if (approved)
        await post(tx, {
          type: 'loan',
          refType: 'creditLoan',
          refId: after.id,
          idempotencyKey: `creditDisburse:${after.id}`,
          actorUserId: args.operatorId,
          postings: [
            ...move(
              { platform: 'loan_receivable', currency: 'TWD' },
              { userId: after.userId, purpose: 'available', currency: 'TWD' },
              after.principalMinor,
            ),
          ],
        });
      await audit(tx, {
        actorUserId: args.operatorId,
        action: approved ? 'credit.approve' : 'credit.reject',
        targetType: 'creditLoan',
        targetId: args.id,
        before: auditView(before),
        after: auditView(after),
        reason: args.reason,
      });
      return adminView(tx, settings, after, account, args.nowMs, args.today);
    })
    .catch(auditSelfReview(db, args.operatorId));
}
