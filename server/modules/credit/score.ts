/**
 * The credit score: computed on read from the member's own record, never stored or typed in, so
 * it always reflects the record now (docs/credit.md "Score" states the table below and why).
 *
 * | factor            | counted (value)                                        | points            |
 * |-------------------|--------------------------------------------------------|-------------------|
 * | base              | every member                                           | +300              |
 * | kycVerified       | real name verified (kyc_records status verified)       | +100              |
 * | accountAge        | whole days since registration (wall clock)             | +1 per 7 days, ≤ 100 |
 * | deposits          | approved TWD deposits, minor units                     | +10 per NT$10,000, ≤ 150 |
 * | trading           | executions in the last 365 days (day-trading rule)     | +2 each, ≤ 100    |
 * | onTimeRepayments  | loans repaid in full by their due day                  | +30 each, ≤ 150   |
 * | lateRepayments    | loans repaid in full after their due day               | −40 each, ≥ −200  |
 * | liquidations      | forced closes (risk_events kind liquidation)           | −50 each, ≥ −200  |
 * | overdueLoans      | lending loans past their due day now                   | −150 each, ≥ −450 |
 *
 * The score is the sum clamped to CREDIT_SCORE_MIN … CREDIT_SCORE_MAX (0 … 1,000). The weights
 * are ⚠ product choices (no regulation prescribes a broker's internal credit score).
 */
import { and, count, eq, isNotNull, lt, sql } from 'drizzle-orm';
import {
  CREDIT_SCORE_MAX,
  CREDIT_SCORE_MIN,
  type CreditFactor,
  type CreditFactorKey,
} from '../../../contract/credit';
import type { Db, Tx } from '../../db/client';
import { creditLoans, deposits, kycRecords, riskEvents, users } from '../../db/schema';
import { accountAgeDays, tradesLastYear } from '../day-trading/eligibility';

/** What the score is computed from. */
export interface CreditRecord {
  kycVerified: boolean;
  accountDays: number;
  /** Approved TWD deposits, minor units. */
  depositsMinor: number;
  tradesLastYear: number;
  onTimeRepayments: number;
  lateRepayments: number;
  liquidations: number;
  overdueLoans: number;
}

/** One factor's rule: points for a counted value, bounded by `cap` (a maximum, or a minimum when negative). */
interface Rule {
  cap: number;
  points: (value: number) => number;
}

const NT10K_MINOR = 1_000_000;

/** The rules of the module docstring's table. */
export const SCORE_RULES: Record<CreditFactorKey, Rule> = {
  base: { cap: 300, points: () => 300 },
  kycVerified: { cap: 100, points: (v) => (v ? 100 : 0) },
  accountAge: { cap: 100, points: (days) => Math.floor(days / 7) },
  deposits: { cap: 150, points: (m) => Math.floor(m / NT10K_MINOR) * 10 },
  trading: { cap: 100, points: (n) => 2 * n },
  onTimeRepayments: { cap: 150, points: (n) => 30 * n },
  lateRepayments: { cap: -200, points: (n) => -40 * n },
  liquidations: { cap: -200, points: (n) => -50 * n },
  overdueLoans: { cap: -450, points: (n) => -150 * n },
};

const bounded = (points: number, cap: number) => (cap >= 0 ? Math.min(points, cap) : Math.max(points, cap));

/** The factors with their points and the clamped score (pure: the table above). */
export function scoreOf(r: CreditRecord): { score: number; factors: CreditFactor[] } {
  const values: Record<CreditFactorKey, number> = {
    base: 1,
    kycVerified: r.kycVerified ? 1 : 0,
    accountAge: r.accountDays,
    deposits: r.depositsMinor,
    trading: r.tradesLastYear,
    onTimeRepayments: r.onTimeRepayments,
    lateRepayments: r.lateRepayments,
    liquidations: r.liquidations,
    overdueLoans: r.overdueLoans,
  };
  const factors = (Object.keys(SCORE_RULES) as CreditFactorKey[]).map((key) => {
    const rule = SCORE_RULES[key];
    return {
      key,
      value: values[key],
      points: bounded(rule.points(values[key]), rule.cap),
      capPoints: rule.cap,
    };
  });
  const sum = factors.reduce((s, f) => s + f.points, 0);
  return { score: Math.min(CREDIT_SCORE_MAX, Math.max(CREDIT_SCORE_MIN, sum)), factors };
}

const n = (v: unknown) => {
  const x = Number(v ?? 0);
  if (!Number.isSafeInteger(x)) throw new RangeError(`credit record sum not a safe integer: ${String(v)}`);
  return x;
};

/**
 * Reads the member's record at wall time `nowMs` and market-calendar trading day `today`.
 * @throws Error when the user does not exist (callers pass an authenticated user's id)
 */
export async function creditRecordOf(
  db: Db | Tx,
  userId: number,
  nowMs: number,
  today: number,
): Promise<CreditRecord> {
  const [u] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId));
  if (!u) throw new Error(`no user ${userId}`);
  const [kyc] = await db
    .select({ n: count() })
    .from(kycRecords)
    .where(and(eq(kycRecords.userId, userId), eq(kycRecords.status, 'verified')));
  const [dep] = await db
    .select({ s: sql<string>`coalesce(sum(${deposits.amountMinor}), 0)` })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), eq(deposits.status, 'approved'), eq(deposits.currency, 'TWD')));
  const [liq] = await db
    .select({ n: count() })
    .from(riskEvents)
    .where(and(eq(riskEvents.userId, userId), eq(riskEvents.kind, 'liquidation')));
  const [loans] = await db
    .select({
      onTime: sql<string>`count(*) filter (where ${creditLoans.status} = 'completed' and ${creditLoans.completedDay} <= ${creditLoans.dueDay})`,
      late: sql<string>`count(*) filter (where ${creditLoans.status} = 'completed' and ${creditLoans.completedDay} > ${creditLoans.dueDay})`,
    })
    .from(creditLoans)
    .where(and(eq(creditLoans.userId, userId), isNotNull(creditLoans.dueDay)));
  return {
    kycVerified: (kyc?.n ?? 0) > 0,
    accountDays: accountAgeDays(u.createdAt.getTime(), nowMs),
    depositsMinor: n(dep?.s),
    tradesLastYear: await tradesLastYear(db, userId, nowMs),
    onTimeRepayments: n(loans?.onTime),
    lateRepayments: n(loans?.late),
    liquidations: liq?.n ?? 0,
    overdueLoans: await overdueCount(db, userId, today),
  };
}

/** Lending loans of the member past their due day on trading day `today`. */
export async function overdueCount(db: Db | Tx, userId: number, today: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(creditLoans)
    .where(
      and(eq(creditLoans.userId, userId), eq(creditLoans.status, 'lending'), lt(creditLoans.dueDay, today)),
    );
  return row?.n ?? 0;
}
