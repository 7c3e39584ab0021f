/**
 * Credit loans of a member (table credit_loans; docs/credit.md). Days are market-calendar trading
 * days (runner.ts CreditRunner.today, handlers: ctx.services.credit). Every money movement is one
 * ledger transaction in the same database transaction as the loan row's change (TWD minor units):
 *
 * | when           | ledger                                                 | fund-flow type    |
 * |----------------|--------------------------------------------------------|-------------------|
 * | approval       | platform loan_receivable → member available: principal | loan              |
 * | each day change| platform loan_receivable → interest_revenue: interest  | loan (interest)   |
 * | repayment      | member available → platform loan_receivable: amount    | creditRepayment   |
 *
 * (`a → b: x` posts −x to a and +x to b.) So −(loan_receivable balance) = Σ over lending loans of
 * (principal − repaid + accrued − paid), and interest_revenue is the interest accrued in all.
 *
 * Accrual (`accrueLoan`): on trading day `today`, a lending loan accrued through day A gets
 * (today − A) × ⌊outstanding principal × rate ÷ (10,000 × 365)⌋ (contract/credit.ts
 * dailyInterestMinor); the principal cannot change between A and today because every repayment
 * accrues first. Disbursal sets A to the day of approval, so the first interest is counted at
 * the next day change.
 *
 * Concurrency: an application locks the member's users row (two applications of one member are
 * decided one after the other, so together they never exceed the limit); a repayment and an
 * accrual lock the loan row (a repayment never pays more than is owed).
 */
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import {
  dailyInterestMinor,
  limitForScore,
  splitRepayment,
  type CreditLoan,
  type CreditSettings,
} from '../../../contract/credit';
import type { Db, Tx } from '../../db/client';
import { creditLoans, users } from '../../db/schema';
import type { AuthUser } from '../common/context';
import { fail } from '../common/errors';
import { pageOf } from '../common/paging';
import { move, post } from '../ledger/ledger';
import { creditRecordOf, overdueCount, scoreOf } from './score';

export type LoanRow = typeof creditLoans.$inferSelect;

const CURRENCY = 'TWD';
const ms = (d: Date | null) => (d ? d.getTime() : null);

/** principal − repaid (minor). */
export const principalOwed = (l: LoanRow) => l.principalMinor - l.principalRepaidMinor;
/** accrued − paid interest (minor). */
export const interestOwed = (l: LoanRow) => l.interestAccruedMinor - l.interestPaidMinor;
const isOverdue = (l: LoanRow, today: number) =>
  l.status === 'lending' && l.dueDay !== null && l.dueDay < today;

/** A loan as its member sees it (contract creditLoanSchema). */
export function toLoanDto(l: LoanRow, today: number): CreditLoan {
  return {
    id: l.id,
    status: l.status,
    principalMinor: l.principalMinor,
    annualRateBps: l.annualRateBps,
    termDays: l.termDays,
    principalRepaidMinor: l.principalRepaidMinor,
    interestAccruedMinor: l.interestAccruedMinor,
    interestPaidMinor: l.interestPaidMinor,
    owedMinor: l.status === 'lending' ? principalOwed(l) + interestOwed(l) : 0,
    disbursedDay: l.disbursedDay,
    dueDay: l.dueDay,
    overdue: isOverdue(l, today),
    reason: l.reason,
    createdAt: l.createdAt.getTime(),
    reviewedAt: ms(l.reviewedAt),
    completedAt: ms(l.completedAt),
  };
}

/** What a member has drawn on the limit and owes (minor). */
export async function exposureOf(db: Db | Tx, userId: number, excludeLoanId?: number) {
  const rows = await db
    .select()
    .from(creditLoans)
    .where(and(eq(creditLoans.userId, userId), inArray(creditLoans.status, ['pending', 'lending'])));
  let lendingPrincipal = 0;
  let pendingPrincipal = 0;
  let debt = 0;
  for (const l of rows) {
    if (l.id === excludeLoanId) continue;
    if (l.status === 'pending') pendingPrincipal += l.principalMinor;
    else {
      lendingPrincipal += principalOwed(l);
      debt += principalOwed(l) + interestOwed(l);
    }
  }
  return { lendingPrincipal, pendingPrincipal, debt };
}

/** The member's score, factors and limit now. */
export async function standingOf(
  db: Db | Tx,
  settings: CreditSettings,
  userId: number,
  nowMs: number,
  today: number,
) {
  const { score, factors } = scoreOf(await creditRecordOf(db, userId, nowMs, today));
  return { score, factors, limitMinor: limitForScore(score, settings.bands) };
}

/**
 * Brings a locked lending loan's interest up to trading day `today` (see the module docstring),
 * posting the interest (`loan` with refType `creditLoanInterest`, key `creditInterest:<id>:<today>`). Returns the row as
 * updated (unchanged when nothing was due).
 */
export async function accrueLoan(tx: Tx, l: LoanRow, today: number): Promise<LoanRow> {
  if (l.status !== 'lending' || l.accruedThroughDay === null || l.accruedThroughDay >= today) return l;
  const days = today - l.accruedThroughDay;
  const interest = days * dailyInterestMinor(principalOwed(l), l.annualRateBps);
  if (!Number.isSafeInteger(interest)) throw new RangeError(`interest not a safe integer: ${interest}`);
  const [after] = await tx
    .update(creditLoans)
    .set({ interestAccruedMinor: l.interestAccruedMinor + interest, accruedThroughDay: today })
    .where(eq(creditLoans.id, l.id))
    .returning();
  if (interest > 0)
    await post(tx, {
      type: 'loan',
      refType: 'creditLoanInterest',
      refId: l.id,
      idempotencyKey: `creditInterest:${l.id}:${today}`,
      actorUserId: l.userId,
      memo: `days ${l.accruedThroughDay}..${today - 1}`,
      postings: move(
        { platform: 'loan_receivable', currency: CURRENCY },
        { platform: 'interest_revenue', currency: CURRENCY },
        interest,
      ),
    });
  return after!;
}

/** Lending loans accrued through a day before `today`, at most `limit` per run. */
export const ACCRUAL_BATCH = 500;

/**
 * Accrues every lending loan behind `today`, each in its own transaction (row locked, re-read).
 * Returns how many loans were brought up to date.
 */
export async function accrueDue(db: Db, today: number): Promise<number> {
  const due = await db
    .select({ id: creditLoans.id })
    .from(creditLoans)
    .where(and(eq(creditLoans.status, 'lending'), lt(creditLoans.accruedThroughDay, today)))
    .limit(ACCRUAL_BATCH);
  for (const { id } of due)
    await db.transaction(async (tx) => {
      const [l] = await tx.select().from(creditLoans).where(eq(creditLoans.id, id)).for('update');
      if (l) await accrueLoan(tx, l, today);
    });
  return due.length;
}

/**
 * Refuses with `unpaidCreditLoan` (422) when the member has a lending loan past its due day on
 * trading day `today` (the withdrawal request checks this, funds/withdrawals.ts).
 */
export async function refuseWhenOverdue(db: Db | Tx, userId: number, today: number): Promise<void> {
  if ((await overdueCount(db, userId, today)) > 0) throw fail('unpaidCreditLoan');
}

/**
 * Applies for `amountMinor` on trading day `today` with the settings' rate and term: a `pending`
 * loan for an operator to review.
 * @throws cannotWithdrawOrTrade (403) for a frozen member; unpaidCreditLoan (422) with an overdue
 *   loan; insufficientCredit (422) when the amount exceeds limit − lending principal − pending
 *   principal
 */
export async function applyForLoan(
  db: Db | Tx,
  settings: CreditSettings,
  user: AuthUser,
  amountMinor: number,
  nowMs: number,
  today: number,
): Promise<LoanRow> {
  if (user.frozen) throw fail('cannotWithdrawOrTrade');
  return db.transaction(async (tx) => {
    // Serialises one member's applications: each sees the ones decided before it. NO KEY UPDATE,
    // not UPDATE: the request's idempotency_keys row holds a KEY SHARE lock on the same users row
    // (its foreign key), which UPDATE would wait on while the other request waits on ours.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('no key update');
    await refuseWhenOverdue(tx, user.id, today);
    const { limitMinor } = await standingOf(tx, settings, user.id, nowMs, today);
    const e = await exposureOf(tx, user.id);
    if (amountMinor > limitMinor - e.lendingPrincipal - e.pendingPrincipal) throw fail('insufficientCredit');
    const [row] = await tx
      .insert(creditLoans)
      .values({
        userId: user.id,
        status: 'pending',
        principalMinor: amountMinor,
        annualRateBps: settings.annualRateBps,
        termDays: settings.termDays,
        createdAt: new Date(nowMs),
      })
      .returning();
    return row!;
  });
}

/**
 * Repays `amountMinor` of the member's loan on trading day `today`: interest accrued first (to
 * today), then the amount pays interest, then principal; the loan is `completed` when nothing is
 * owed.
 * @throws notFound (404) for no such loan of the member; operationFailed (409) unless it is
 *   lending; repaymentExceedsLoan (422) above what is owed; insufficientBalance (422) without the
 *   cash available
 */
export async function repayLoan(
  db: Db | Tx,
  user: AuthUser,
  loanId: number,
  amountMinor: number,
  nowMs: number,
  today: number,
): Promise<LoanRow> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(creditLoans)
      .where(and(eq(creditLoans.id, loanId), eq(creditLoans.userId, user.id)))
      .for('update');
    if (!locked) throw fail('notFound');
    if (locked.status !== 'lending') throw fail('operationFailed');
    const l = await accrueLoan(tx, locked, today);
    if (amountMinor > principalOwed(l) + interestOwed(l)) throw fail('repaymentExceedsLoan');
    const split = splitRepayment(amountMinor, interestOwed(l), principalOwed(l));
    const done = amountMinor === principalOwed(l) + interestOwed(l);
    const [after] = await tx
      .update(creditLoans)
      .set({
        interestPaidMinor: l.interestPaidMinor + split.interestMinor,
        principalRepaidMinor: l.principalRepaidMinor + split.principalMinor,
        ...(done ? { status: 'completed' as const, completedDay: today, completedAt: new Date(nowMs) } : {}),
      })
      .where(eq(creditLoans.id, l.id))
      .returning();
    await post(tx, {
      type: 'creditRepayment',
      refType: 'creditLoan',
      refId: l.id,
      actorUserId: user.id,
      memo: `interest ${split.interestMinor} principal ${split.principalMinor}`,
      postings: move(
        { userId: user.id, purpose: 'available', currency: CURRENCY },
        { platform: 'loan_receivable', currency: CURRENCY },
        amountMinor,
      ),
    });
    return after!;
  });
}

/** The member's loans, newest first. */
export async function memberLoans(db: Db, userId: number, page: number, pageSize: number, today: number) {
  const where = eq(creditLoans.userId, userId);
  const rows = db.select().from(creditLoans).where(where).orderBy(desc(creditLoans.id));
  const p = await pageOf(db, rows, { table: creditLoans, where }, { page, pageSize });
  return { ...p, items: p.items.map((l) => toLoanDto(l, today)) };
}
