/**
 * Stock lending (借券, product-spec "Stock lending"; states "in loan" → "finished"; fund flows
 * "stock lending" and "lending rebate"; error "lending quota full or channel closed") and the
 * margin loan / short sale view (融資融券, home shortcut "margin loan and short selling").
 *
 * Rules (docs/tw-market-rules.md "Securities lending", "Lending here"):
 * - a member lends shares of one of their long positions that is fully paid (leverage 1), still
 *   holding, not a day trade, up to the position's shares not already in loan;
 * - at an annual rate in basis points of their choosing, at most the operator's cap (default
 *   LENDING_RATE_CAP_BPS = 1,600 = 16 %/yr, TWSE SBL Rules Art. 5's ceiling for competitive
 *   lending), for 1–`maxDays` business days;
 * - the operator sets a quota of shares per instrument and opens or closes the channel; a lend
 *   beyond the quota, or while the channel is closed, is refused `lendingUnavailable`;
 * - while in loan the position cannot be closed by the member (`lendingSharesInLoan`);
 * - the fee accrues per business day on the lent shares' value at that day's own reference price:
 *   lendingFeeMinor (rounded down to the minor unit), paid into the lender's wallet
 *   (`lendingRebate`) once the day is over;
 * - recall by the member, or the end of the term, finishes the loan (in loan → finished).
 * Units: money in TWD minor (1/100 NT$), shares, basis points (1 bps = 0.01 %), business days.
 */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { pageQuery, paged } from './envelope';
import { mulDivFloor, notionalMinor, type Minor } from './money';

/** The rate cap when the operator has set none: 16 %/yr (TWSE SBL Rules Art. 5, ⚠ see the docs). */
export const LENDING_RATE_CAP_BPS = 1_600;
/** Longest term when the operator has set none, business days (TWSE SBL: up to six months). */
export const LENDING_MAX_DAYS = 120;
/** Days per year of the annual rate (simple interest, actual/365 as TWSE SBL fee notices). */
export const LENDING_DAYS_PER_YEAR = 365;
const BPS = 10_000;

/** A lending order's state: `inLoan` (出借中), `finished` (已完成). */
export const LENDING_STATUSES = ['inLoan', 'finished'] as const;
export type LendingStatus = (typeof LENDING_STATUSES)[number];
/** Why a loan finished: the member recalled it, its term ended, or its position was closed by force. */
export const LENDING_FINISH_REASONS = ['recall', 'expired', 'positionClosed'] as const;
export type LendingFinishReason = (typeof LENDING_FINISH_REASONS)[number];
/** An allocation of lent shares to a short position: `open` while the short borrows them. */
export const LENDING_ALLOCATION_STATUSES = ['open', 'returned'] as const;
export type LendingAllocationStatus = (typeof LENDING_ALLOCATION_STATUSES)[number];

/**
 * One business day's lending fee (TWD minor): shares × reference price × rate / 365, rounded
 * down to the minor unit (contract/money.ts mulDivFloor, exact in BigInt).
 * @param shares lent (or borrowed) shares, ≥ 0
 * @param referenceMinor the day's reference price, TWD minor
 * @param rateBps annual rate in basis points
 * @throws RangeError when an input is not a safe non-negative integer
 */
export function lendingFeeMinor(shares: number, referenceMinor: Minor, rateBps: number): Minor {
  return mulDivFloor(notionalMinor(referenceMinor, shares), rateBps, BPS * LENDING_DAYS_PER_YEAR);
}

export const lendingOrderSchema = z.object({
  id: z.number().int(),
  lendingNo: z.string(),
  orderId: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (null when it publishes none, e.g. for ETFs). */
  nameEn: z.string().nullable(),
  shares: z.number().int(),
  rateBps: z.number().int(),
  days: z.number().int(),
  status: z.enum(LENDING_STATUSES),
  finishReason: z.enum(LENDING_FINISH_REASONS).nullable(),
  /**
   * The replayed date (YYYY-MM-DD) of the loan's first business day. The term is counted in
   * business days of the market clock (`days`, `daysLeft`), never as an end date: the replay
   * window starts over after its last day, and a replayed end date would read before the start.
   */
  startDate: z.string(),
  /** Business days of the term still to run (0 once finished). */
  daysLeft: z.number().int(),
  accruedDays: z.number().int(),
  rebateMinor: z.number().int(),
  /** Shares of this loan borrowed by short positions now. */
  borrowedShares: z.number().int(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
});
export type LendingOrder = z.infer<typeof lendingOrderSchema>;

export const lendableHoldingSchema = z.object({
  orderId: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (null when it publishes none, e.g. for ETFs). */
  nameEn: z.string().nullable(),
  shares: z.number().int(),
  /** Shares of the position not in loan. */
  lendableShares: z.number().int(),
  referenceMinor: z.number().int(),
  /** The instrument's quota and shares in loan (all members). */
  quotaShares: z.number().int(),
  lentShares: z.number().int(),
});
export type LendableHolding = z.infer<typeof lendableHoldingSchema>;

/** lending/overview: the channel's terms and the member's holdings eligible to lend. */
export const lendingOverviewRes = z.object({
  channelOpen: z.boolean(),
  rateCapBps: z.number().int(),
  maxDays: z.number().int(),
  holdings: z.array(lendableHoldingSchema),
  /** Sum of the member's rebates so far, TWD minor. */
  rebateTotalMinor: z.number().int(),
});

/** lending/lend: lend `shares` of position `orderId` at `rateBps` for `days`. Money-moving (idempotency key). */
export const lendReq = z.object({
  orderId: id,
  shares: z.number().int().positive().max(100_000_000),
  rateBps: z.number().int().positive().max(BPS),
  days: z.number().int().positive().max(3_650),
});
/** lending/recall: finish one of the member's loans now. Idempotency key. */
export const lendingRecallReq = z.object({ id });
/** lending/orders: the member's lending orders, newest first. */
export const lendingOrdersReq = pageQuery.extend({ status: z.enum(LENDING_STATUSES).optional() });
export const lendingOrdersRes = paged(lendingOrderSchema);

// ---------- the margin loan and short sale view ----------

export const marginPositionSchema = z.object({
  orderId: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (null when it publishes none, e.g. for ETFs). */
  nameEn: z.string().nullable(),
  side: z.enum(['long', 'short']),
  shares: z.number().int(),
  leverage: z.number().int(),
  openPriceMinor: z.number().int(),
  markMinor: z.number().int(),
  /** Used margin (the member's own money in the position). */
  marginMinor: z.number().int(),
  /** Margin loan: value financed by the platform (open value − margin); short: the short sale's value at open. */
  financedMinor: z.number().int(),
  unrealisedPnlMinor: z.number().int(),
  ratioBps: z.number().int().nullable(),
  liquidationPriceMinor: z.number().int().nullable(),
  /** Fees paid so far: the opening fee and tax, plus borrow fees on a short. */
  feesMinor: z.number().int(),
  /** Shares of a short borrowed from the lending pool now. */
  borrowedShares: z.number().int(),
});
export type MarginPosition = z.infer<typeof marginPositionSchema>;

/** lending/margin: leveraged longs as margin loans (融資), shorts as short sales (融券). */
export const marginViewRes = z.object({
  marginCallBps: z.number().int(),
  maintenanceBps: z.number().int(),
  usedMarginMinor: z.number().int(),
  equityMinor: z.number().int(),
  ratioBps: z.number().int().nullable(),
  level: z.enum(['none', 'ok', 'marginCall', 'liquidation']),
  marginLoans: z.array(marginPositionSchema),
  shortSales: z.array(marginPositionSchema),
});
export type MarginView = z.infer<typeof marginViewRes>;

// ---------- operator ----------

export const lendingQuotaSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (null when it publishes none, e.g. for ETFs). */
  nameEn: z.string().nullable(),
  quotaShares: z.number().int(),
  lentShares: z.number().int(),
});
export const adminLendingRes = z.object({
  channelOpen: z.boolean(),
  rateCapBps: z.number().int(),
  maxDays: z.number().int(),
  quotas: z.array(lendingQuotaSchema),
  orders: z.array(lendingOrderSchema.extend({ account: z.string() })),
});
export type AdminLending = z.infer<typeof adminLendingRes>;
/** admin/saveLendingChannel: open or close the channel, the rate cap and the longest term. */
export const saveLendingChannelReq = z.object({
  channelOpen: z.boolean(),
  rateCapBps: z.number().int().positive().max(BPS),
  maxDays: z.number().int().positive().max(3_650),
});
/** admin/saveLendingQuota: an instrument's quota in shares (0 = none may be lent). */
export const saveLendingQuotaReq = z.object({
  symbol: z.string().trim().min(1).max(12),
  quotaShares: z.number().int().min(0).max(1_000_000_000),
});
