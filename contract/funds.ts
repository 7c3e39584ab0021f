/** Deposits and fund records (product-spec §3 "Deposit", "Fund flow types"; §2 "Fund record tabs"). */
import { z } from 'zod';
import { FUND_FLOW_TYPES } from './constants';
import { pageQuery, paged } from './envelope';

const minor = z.number().int();

export { FUND_FLOW_TYPES, FUND_TABS, DEPOSIT_MIN_MINOR, DEPOSIT_MAX_MINOR } from './constants';
export type { FundFlowType, FundTab } from './constants';
export const fundFlowTypeSchema = z.enum(FUND_FLOW_TYPES);

export const depositReq = z.object({ amountMinor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const depositStatusSchema = z.enum(['pending', 'approved', 'rejected']);
export const depositSchema = z.object({
  id: z.number().int(),
  amountMinor: minor,
  currency: z.string(),
  status: depositStatusSchema,
  reason: z.string().nullable(),
  createdAt: z.number().int(),
  reviewedAt: z.number().int().nullable(),
});
export type Deposit = z.infer<typeof depositSchema>;

export const fundRecordsReq = pageQuery.extend({ tab: z.enum(['deposit', 'withdrawal', 'trade']) });

/** One row of the fund records: a posting to one of the member's ledger accounts. */
export const fundRecordSchema = z.object({
  id: z.number().int(),
  transactionId: z.number().int(),
  type: fundFlowTypeSchema,
  /** available | frozen | margin */
  account: z.string(),
  /** Signed: positive raises that account. */
  amountMinor: minor,
  currency: z.string(),
  ref: z.string().nullable(),
  createdAt: z.number().int(),
});
export type FundRecord = z.infer<typeof fundRecordSchema>;

export const fundRecordsRes = paged(fundRecordSchema).extend({
  /** On the deposit tab: the member's deposit requests, pending ones included. */
  deposits: z.array(depositSchema),
});
