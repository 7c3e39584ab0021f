/**
 * Credit loans end to end through the HTTP API on the harness's manual market clock (PGlite by
 * default, PostgreSQL with TEST_DB=postgres), docs/credit.md:
 * - the score is computed from the member's record (KYC verified, deposits …) with its factors,
 *   the limit from the score's band; an application above the available limit is refused
 *   (insufficientCredit), a missing amount is loanAmountRequired (zero or negative
 *   amountNotPositive, a fraction of a minor unit amountTooManyDecimals), a retried application with the
 *   same idempotency key is answered with the first loan;
 * - four eyes: the applicant, as an operator, cannot review their own loan (audited);
 * - approval disburses the principal into the TWD wallet; interest accrues per replayed trading
 *   day; a partial repayment pays interest first; past the due day withdrawals are refused
 *   (unpaidCreditLoan) and the score drops; a repayment above what is owed is refused; the full
 *   repayment completes the loan and withdrawals work again; the ledger reconciles throughout and
 *   −loan_receivable equals what members owe;
 * - concurrency: 30 applications at once never exceed the limit, 30 approvals at once never
 *   disburse beyond it, 30 repayments at once never repay more than is owed.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { auditLog, creditLoans } from '../../server/db/schema';
import { SelfReviewError } from '../../server/modules/four-eyes/four-eyes';
import { isClean, memberBalances, platformBalance, reconcile } from '../../server/modules/ledger/ledger';
import { reviewLoan } from '../../server/modules/credit/review';
import { creditSettingsOf } from '../../server/modules/credit/settings';
import { FUNDS_PASSWORD, idem, startHarness, type Harness } from './harness';

const FUNDS = 20_000_000; // NT$200,000 deposited
const LIMIT = 5_000_000; // band 500 → NT$50,000 (score 550, see below)
let h: Harness;
let op: string;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, key?: string) {
  const r = await h.call(name, body, token, key === undefined ? {} : idem(key));
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
async function refused(name: Parameters<Harness['call']>[0], body: unknown, token: string, key?: string) {
  const r = await h.call(name, body, token, key === undefined ? {} : idem(key));
  expect(r.body.status).toBe(0);
  return r.body.msg as string;
}
const runner = () => h.services.credit;
/** Moves the market clock `days` replayed trading days on and runs the accrual. */
async function advance(days: number): Promise<number> {
  h.wall.now += days * REPLAY_DAY_MS;
  h.feed.tick();
  return runner().run();
}
const clean = async () => expect(isClean(await reconcile(h.database.db))).toBe(true);
/** −loan_receivable must equal Σ over lending loans of (principal − repaid + accrued − paid). */
async function receivableMatchesLoans() {
  const rows = await h.database.db.select().from(creditLoans).where(eq(creditLoans.status, 'lending'));
  const owed = rows.reduce(
    (s, l) => s + l.principalMinor - l.principalRepaidMinor + l.interestAccruedMinor - l.interestPaidMinor,
    0,
  );
  expect(0 - (await platformBalance(h.database.db, 'loan_receivable'))).toBe(owed);
}

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
  // A short term so the scenario reaches the due day in a few replayed days; 18.25 % a year.
  await ok('admin/saveCreditSettings', { ...(await creditSettingsOf(h.database.db)), termDays: 3 }, op);
});
afterAll(async () => {
  await h?.close();
});

describe('a credit loan from application to full repayment', () => {
  let m: { token: string; userId: number; cardId: number };
  let loanId: number;
  let d0: number;

  it('computes the score from the record and refuses what exceeds the limit', async () => {
    m = await h.withdrawer('0920000001', FUNDS);
    const s = await ok('credit/summary', {}, m.token);
    // base 300 + KYC verified 100 + deposits NT$200,000 → 20 × 10 = 200, capped at 150; a new
    // account (0 days) with no trades, loans or liquidations: 550 → the 500 band, NT$50,000.
    const points = Object.fromEntries(
      s.factors.map((f: { key: string; points: number }) => [f.key, f.points]),
    );
    expect(points).toMatchObject({ base: 300, kycVerified: 100, accountAge: 0, deposits: 150, trading: 0 });
    expect(s.score).toBe(550);
    expect(s).toMatchObject({ limitMinor: LIMIT, availableMinor: LIMIT, borrowedMinor: 0, debtMinor: 0 });
    expect(await refused('credit/apply', { amountMinor: LIMIT + 1 }, m.token, 'apply-too-much-1')).toBe(
      'insufficientCredit',
    );
    expect(await refused('credit/apply', {}, m.token, 'apply-no-amount-1')).toBe('loanAmountRequired');
    // Each rule its own key: zero or negative, and more than 2 decimals, are not "enter an amount".
    expect(await refused('credit/apply', { amountMinor: 0 }, m.token, 'apply-zero-amount-1')).toBe(
      'amountNotPositive',
    );
    expect(await refused('credit/apply', { amountMinor: -500 }, m.token, 'apply-negative-1')).toBe(
      'amountNotPositive',
    );
    expect(await refused('credit/apply', { amountMinor: 1_000_055.5 }, m.token, 'apply-decimals-1')).toBe(
      'amountTooManyDecimals',
    );
  });

  it('applies (idempotent), then a rejected application gives the limit back', async () => {
    const first = await ok('credit/apply', { amountMinor: LIMIT }, m.token, 'apply-full-limit-1');
    const retry = await ok('credit/apply', { amountMinor: LIMIT }, m.token, 'apply-full-limit-1');
    expect(retry.id).toBe(first.id);
    expect(first.status).toBe('pending');
    expect((await ok('credit/summary', {}, m.token)).availableMinor).toBe(0);
    expect(await refused('credit/apply', { amountMinor: 100 }, m.token, 'apply-over-pending')).toBe(
      'insufficientCredit',
    );
    const rej = await ok('admin/rejectCreditLoan', { id: first.id, reason: 'test rejection' }, op);
    expect(rej).toMatchObject({ status: 'rejected', reason: 'test rejection' });
    expect(await refused('admin/approveCreditLoan', { id: first.id }, op)).toBe('operationFailed');
    expect((await ok('credit/summary', {}, m.token)).availableMinor).toBe(LIMIT);
    loanId = (await ok('credit/apply', { amountMinor: LIMIT }, m.token, 'apply-full-limit-2')).id;
  });

  it('four eyes: the applicant cannot review their own loan (refused, audited, nothing changed)', async () => {
    const args = {
      id: loanId,
      operatorId: m.userId,
      reason: null,
      nowMs: h.wall.now,
      today: runner().today(),
    };
    const settings = await creditSettingsOf(h.database.db);
    await expect(
      reviewLoan(h.database.db, settings, { ...args, decision: 'lending' }),
    ).rejects.toBeInstanceOf(SelfReviewError);
    const audits = await h.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'review.selfRefused'), eq(auditLog.targetType, 'creditLoan')));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorUserId).toBe(m.userId);
    const [row] = await h.database.db.select().from(creditLoans).where(eq(creditLoans.id, loanId));
    expect(row!.status).toBe('pending');
    expect(await refused('admin/approveCreditLoan', { id: loanId }, m.token)).toBe('forbidden');
  });

  it('approval disburses the principal into the wallet against loan_receivable', async () => {
    d0 = runner().today();
    const a = await ok('admin/approveCreditLoan', { id: loanId }, op);
    expect(a).toMatchObject({ status: 'lending', disbursedDay: d0, dueDay: d0 + 3, owedMinor: LIMIT });
    expect((await memberBalances(h.database.db, m.userId)).available).toBe(FUNDS + LIMIT);
    expect(await platformBalance(h.database.db, 'loan_receivable')).toBe(-LIMIT);
    const s = await ok('credit/summary', {}, m.token);
    expect(s).toMatchObject({ borrowedMinor: LIMIT, availableMinor: 0, debtMinor: LIMIT, overdue: false });
    // The same day's accrual run owes nothing yet.
    expect(await runner().run()).toBe(0);
    await clean();
    await receivableMatchesLoans();
  });

  it('accrues interest each replayed trading day; a partial repayment pays interest first', async () => {
    expect(await advance(2)).toBe(1);
    // By hand: daily interest = ⌊5,000,000 × 1,825 ÷ (10,000 × 365)⌋ = ⌊9,125,000,000 ÷ 3,650,000⌋
    // = 2,500 minor (NT$25); two day changes (d0 → d0+2) → 5,000.
    let [row] = await h.database.db.select().from(creditLoans).where(eq(creditLoans.id, loanId));
    expect(row!.interestAccruedMinor).toBe(5_000);
    expect(await runner().run()).toBe(0); // idempotent on the same day
    // Repay NT$10,050: 5,000 interest first, then 1,000,000 principal → owes 4,000,000.
    const r = await ok('credit/repay', { loanId, amountMinor: 1_005_000 }, m.token, 'repay-part-1');
    expect(r).toMatchObject({
      status: 'lending',
      interestPaidMinor: 5_000,
      principalRepaidMinor: 1_000_000,
      owedMinor: 4_000_000,
    });
    // Retried with the same key: the same answer, nothing paid twice.
    const again = await ok('credit/repay', { loanId, amountMinor: 1_005_000 }, m.token, 'repay-part-1');
    expect(again.principalRepaidMinor).toBe(1_000_000);
    [row] = await h.database.db.select().from(creditLoans).where(eq(creditLoans.id, loanId));
    expect(row!.principalRepaidMinor).toBe(1_000_000);
    expect((await memberBalances(h.database.db, m.userId)).available).toBe(FUNDS + LIMIT - 1_005_000);
    expect(await platformBalance(h.database.db, 'interest_revenue')).toBe(5_000);
    await clean();
    await receivableMatchesLoans();
  });

  it('past the due day: withdrawals refused, score down; over-repayment refused', async () => {
    const w = { amountMinor: 100_000, fundsPassword: FUNDS_PASSWORD, cardId: m.cardId };
    expect(await advance(2)).toBe(1); // d0 + 4 > due day d0 + 3
    // By hand: ⌊4,000,000 × 1,825 ÷ 3,650,000⌋ = 2,000 a day × 2 days = 4,000 → owes 4,004,000.
    const loans = await ok('credit/loans', {}, m.token);
    expect(loans.items[0]).toMatchObject({ id: loanId, overdue: true, interestAccruedMinor: 9_000 });
    expect(loans.items[0].owedMinor).toBe(4_004_000);
    const before = await h.moneyState();
    expect(await refused('user/withdraw', w, m.token, 'withdraw-overdue-1')).toBe('unpaidCreditLoan');
    expect(await h.moneyState()).toEqual(before);
    const s = await ok('credit/summary', {}, m.token);
    expect(s.overdue).toBe(true);
    expect(s.factors.find((f: { key: string }) => f.key === 'overdueLoans')).toMatchObject({
      value: 1,
      points: -150,
    });
    expect(s.score).toBe(400);
    // No new loan while one is overdue.
    expect(await refused('credit/apply', { amountMinor: 100 }, m.token, 'apply-overdue-1')).toBe(
      'unpaidCreditLoan',
    );
    expect(await refused('credit/repay', { loanId, amountMinor: 4_004_001 }, m.token, 'repay-over-1')).toBe(
      'repaymentExceedsLoan',
    );
  });

  it('the full repayment completes the loan; withdrawals work again; the ledger reconciles', async () => {
    const r = await ok('credit/repay', { loanId, amountMinor: 4_004_000 }, m.token, 'repay-full-1');
    expect(r).toMatchObject({ status: 'completed', owedMinor: 0, interestPaidMinor: 9_000 });
    expect(await refused('credit/repay', { loanId, amountMinor: 1 }, m.token, 'repay-after-1')).toBe(
      'operationFailed',
    );
    const w = { amountMinor: 100_000, fundsPassword: FUNDS_PASSWORD, cardId: m.cardId };
    expect((await ok('user/withdraw', w, m.token, 'withdraw-after-1')).status).toBe('pending');
    // Principal 5,000,000 + interest 9,000 repaid in all.
    expect((await memberBalances(h.database.db, m.userId)).available).toBe(FUNDS - 9_000 - 100_000);
    expect(await platformBalance(h.database.db, 'loan_receivable')).toBe(0);
    expect(await platformBalance(h.database.db, 'interest_revenue')).toBe(9_000);
    const s = await ok('credit/summary', {}, m.token);
    // Repaid after the due day: −40 (late), no longer overdue: 550 − 40 = 510.
    expect(s.factors.find((f: { key: string }) => f.key === 'lateRepayments')).toMatchObject({
      value: 1,
      points: -40,
    });
    expect(s).toMatchObject({ score: 510, debtMinor: 0, borrowedMinor: 0, overdue: false });
    const flows = await ok('user/fundRecords', { tab: 'credit' }, m.token);
    const types = (flows.items as Array<{ type: string }>).map((i) => i.type);
    expect(types).toEqual(expect.arrayContaining(['loan', 'creditRepayment']));
    // The accrual's legs are the platform's only: not a record of the member's.
    expect(types.filter((x) => x === 'loan')).toHaveLength(1);
    await clean();
    await receivableMatchesLoans();
  });
});

describe('concurrency', () => {
  it('30 applications at once never exceed the limit; 30 approvals at once never disburse beyond it', async () => {
    const token = await h.withdrawer('0920000002', FUNDS).then((x) => x.token);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        h.call('credit/apply', { amountMinor: 500_000 }, token, idem(`conc-apply-${i}`)),
      ),
    );
    const accepted = answers.filter((a) => a.body.status === 1);
    expect(accepted).toHaveLength(LIMIT / 500_000);
    for (const a of answers.filter((x) => x.body.status === 0)) expect(a.body.msg).toBe('insufficientCredit');
    // The operator lowers the bands meanwhile: approvals re-check the limit now (NT$20,000).
    const settings = await creditSettingsOf(h.database.db);
    await ok(
      'admin/saveCreditSettings',
      { ...settings, bands: [{ minScore: 500, limitMinor: 2_000_000 }] },
      op,
    );
    const ids = accepted.map((a) => a.body.data.id as number);
    const reviews = await Promise.all(ids.map((id) => h.call('admin/approveCreditLoan', { id }, op)));
    expect(reviews.filter((r) => r.body.status === 1)).toHaveLength(4);
    for (const r of reviews.filter((x) => x.body.status === 0)) expect(r.body.msg).toBe('insufficientCredit');
    const userId = await h.userId('0920000002');
    const lending = await h.database.db
      .select()
      .from(creditLoans)
      .where(and(eq(creditLoans.userId, userId), eq(creditLoans.status, 'lending')));
    expect(lending.reduce((s, l) => s + l.principalMinor, 0)).toBe(2_000_000);
    expect((await memberBalances(h.database.db, userId)).available).toBe(FUNDS + 2_000_000);
    await ok('admin/saveCreditSettings', settings, op);
    await clean();
    await receivableMatchesLoans();
  });

  it('30 repayments at once never repay more than is owed', async () => {
    const token = await h.withdrawer('0920000003', FUNDS).then((x) => x.token);
    const loan = await ok('credit/apply', { amountMinor: LIMIT }, token, 'conc-repay-apply');
    await ok('admin/approveCreditLoan', { id: loan.id }, op);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        h.call('credit/repay', { loanId: loan.id, amountMinor: 1_000_000 }, token, idem(`conc-repay-${i}`)),
      ),
    );
    expect(answers.filter((a) => a.body.status === 1)).toHaveLength(5);
    for (const a of answers.filter((x) => x.body.status === 0))
      expect(['repaymentExceedsLoan', 'operationFailed']).toContain(a.body.msg);
    const [row] = await h.database.db.select().from(creditLoans).where(eq(creditLoans.id, loan.id));
    expect(row).toMatchObject({ status: 'completed', principalRepaidMinor: LIMIT, interestPaidMinor: 0 });
    const userId = await h.userId('0920000003');
    expect((await memberBalances(h.database.db, userId)).available).toBe(FUNDS);
    await clean();
    await receivableMatchesLoans();
  });
});
