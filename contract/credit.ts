/**
 * Credit (信用; product-spec §2 "Credit loans", §3 "Credit loan", §4 "Loan: in lending,
 * completed" and "Withdrawal and loan requests: pending review, passed, rejected", §8 "Money"):
 * a credit score computed from the member's own record, a credit limit from the score, credit
 * loans within the available limit reviewed by an operator, interest accrued each trading day of
 * the market calendar, repayments interest first. docs/credit.md states every rule and formula.
 *
 * Units: money in TWD minor units (1 NT$ = 100), rates in basis points (1 bps = 0.01 %), days in
 * market-calendar trading days (the market clock's session number), times epoch ms.
 */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { mulDivFloor } from './money';
import { pageQuery, paged } from './envelope';

const minor = z.number().int();

/** Largest loan or repayment a request may name: NT$10,000,000,000 (far above any limit band). */
export const CREDIT_AMOUNT_MAX_MINOR = 1_000_000_000_000;

/**
 * A positive amount in TWD minor units, each rule its own key: a missing one is
 * `loanAmountRequired` (product-spec §5 "Loan: amount required"), a fraction of a minor unit
 * (more than 2 decimals) `amountTooManyDecimals`, zero or negative `amountNotPositive`.
 */
const loanAmount = z
  .number({ error: 'loanAmountRequired' })
  .int({ error: 'amountTooManyDecimals' })
  .positive({ error: 'amountNotPositive' })
  .max(CREDIT_AMOUNT_MAX_MINOR);

/**
 * Loan states: `pending` (pending review), `rejected`, `lending` (in lending: disbursed, money
 * owed), `completed` (everything repaid). `overdue` is not a state: a lending loan past its due
 * day (CreditLoan.overdue).
 */
export const CREDIT_LOAN_STATUSES = ['pending', 'rejected', 'lending', 'completed'] as const;
export type CreditLoanStatus = (typeof CREDIT_LOAN_STATUSES)[number];

/** The score's range (clamped). */
export const CREDIT_SCORE_MIN = 0;
export const CREDIT_SCORE_MAX = 1000;
/** Day basis of the annual rate: daily interest = principal × rate ÷ (10,000 × 365). */
export const CREDIT_DAY_BASIS = 365;

/** The factors of the score, in display order (docs/credit.md "Score"). */
export const CREDIT_FACTORS = [
  'base',
  'kycVerified',
  'accountAge',
  'deposits',
  'trading',
  'onTimeRepayments',
  'lateRepayments',
  'liquidations',
  'overdueLoans',
] as const;
export type CreditFactorKey = (typeof CREDIT_FACTORS)[number];

/** One factor: what was counted (`value`, in the factor's unit) and the points it gave. */
export const creditFactorSchema = z.object({
  key: z.enum(CREDIT_FACTORS),
  /** kycVerified: 1/0; accountAge: days; deposits: TWD minor; others: a count. */
  value: z.number().int(),
  points: z.number().int(),
  /** Most points the factor can give (positive) or take (negative). */
  capPoints: z.number().int(),
});
export type CreditFactor = z.infer<typeof creditFactorSchema>;

/** A score band: from `minScore` up, the credit limit is `limitMinor`. */
export const creditBandSchema = z.object({
  minScore: z.number().int().min(CREDIT_SCORE_MIN).max(CREDIT_SCORE_MAX),
  limitMinor: z.number().int().min(0).max(CREDIT_AMOUNT_MAX_MINOR),
});
export type CreditBand = z.infer<typeof creditBandSchema>;

/** Operator settings (admin/creditSettings): rate, term, bands (ascending minScore, distinct). */
export const creditSettingsSchema = z.object({
  /** Annual interest rate, basis points (1,825 = 18.25 % a year). */
  annualRateBps: z.number().int().min(0).max(10_000),
  /** Trading days from disbursal to the due day. */
  termDays: z.number().int().min(1).max(3_650),
  bands: z
    .array(creditBandSchema)
    .min(1)
    .max(20)
    .refine((b) => b.every((x, i) => i === 0 || x.minScore > b[i - 1]!.minScore), {
      message: 'parameterError',
    }),
});
export type CreditSettings = z.infer<typeof creditSettingsSchema>;

/** Defaults (docs/credit.md "Limit" and "Interest"): ⚠ product choices, not a regulation. */
export const CREDIT_DEFAULTS: CreditSettings = {
  annualRateBps: 1_825,
  termDays: 30,
  bands: [
    { minScore: 400, limitMinor: 1_000_000 },
    { minScore: 500, limitMinor: 5_000_000 },
    { minScore: 600, limitMinor: 10_000_000 },
    { minScore: 700, limitMinor: 30_000_000 },
    { minScore: 800, limitMinor: 50_000_000 },
  ],
};

/** The limit of the highest band whose minScore ≤ score; 0 below the lowest band. */
export function limitForScore(score: number, bands: readonly CreditBand[]): number {
  let limit = 0;
  for (const b of bands) if (score >= b.minScore) limit = b.limitMinor;
  return limit;
}

/**
 * One trading day's interest on `principalMinor` at `annualRateBps`:
 * ⌊principal × rate ÷ (10,000 × 365)⌋ minor units (contract/money.ts mulDivFloor: rounded down,
 * the member never pays a fraction of a cent).
 */
export function dailyInterestMinor(principalMinor: number, annualRateBps: number): number {
  return mulDivFloor(principalMinor, annualRateBps, 10_000 * CREDIT_DAY_BASIS);
}

/**
 * How a repayment of `amountMinor` splits: interest first, then principal.
 * @throws RangeError when the amount exceeds what is owed (the server refuses it first).
 */
export function splitRepayment(
  amountMinor: number,
  interestOwedMinor: number,
  principalOwedMinor: number,
): { interestMinor: number; principalMinor: number } {
  if (amountMinor > interestOwedMinor + principalOwedMinor)
    throw new RangeError('repayment exceeds the loan');
  const interestMinor = Math.min(amountMinor, interestOwedMinor);
  return { interestMinor, principalMinor: amountMinor - interestMinor };
}

/** credit/summary: the score with its factors, the limit and what is used of it. */
export const creditSummaryRes = z.object({
  score: z.number().int(),
  factors: z.array(creditFactorSchema),
  /** Credit limit from the score's band. */
  limitMinor: minor,
  /** Outstanding principal of lending loans plus principal of pending applications. */
  borrowedMinor: minor,
  /** limit − borrowed, never below 0. */
  availableMinor: minor,
  /** Everything owed now: outstanding principal + unpaid accrued interest. */
  debtMinor: minor,
  /** Some loan is past its due day. */
  overdue: z.boolean(),
  annualRateBps: z.number().int(),
  termDays: z.number().int(),
  bands: z.array(creditBandSchema),
  /** The market calendar's trading day now. */
  today: z.number().int(),
});
export type CreditSummary = z.infer<typeof creditSummaryRes>;

/** One loan as its member sees it (loan records). */
export const creditLoanSchema = z.object({
  id: z.number().int(),
  status: z.enum(CREDIT_LOAN_STATUSES),
  principalMinor: minor,
  annualRateBps: z.number().int(),
  termDays: z.number().int(),
  principalRepaidMinor: minor,
  interestAccruedMinor: minor,
  interestPaidMinor: minor,
  /** principal − repaid + accrued − paid. */
  owedMinor: minor,
  /** Trading day of disbursal and the due day (null until approved). */
  disbursedDay: z.number().int().nullable(),
  dueDay: z.number().int().nullable(),
  /** Lending and past the due day. */
  overdue: z.boolean(),
  reason: z.string().nullable(),
  createdAt: z.number().int(),
  reviewedAt: z.number().int().nullable(),
  completedAt: z.number().int().nullable(),
});
export type CreditLoan = z.infer<typeof creditLoanSchema>;

export const creditApplyReq = z.object({ amountMinor: loanAmount });
export const creditRepayReq = z.object({ loanId: id, amountMinor: loanAmount });
export const creditLoansReq = pageQuery;
export const creditLoansRes = paged(creditLoanSchema);

// ---- operator ----

export const adminCreditLoansReq = pageQuery.extend({
  status: z.enum(['pending', 'all']).default('pending'),
});
/** A loan as the operator reviews it: who applied and their score and limit now. */
export const adminCreditLoanSchema = creditLoanSchema.extend({
  userId: z.number().int(),
  account: z.string(),
  score: z.number().int(),
  limitMinor: minor,
});
export type AdminCreditLoan = z.infer<typeof adminCreditLoanSchema>;
export const adminCreditLoansRes = paged(adminCreditLoanSchema);
export const creditReviewReq = z.object({ id });
export const creditRejectReq = creditReviewReq.extend({ reason: z.string().trim().min(1).max(200) });
