/** Deposits and fund records (product-spec §3 "Deposit", "Fund flow types"; §2 "Fund record tabs"). */
import { z } from 'zod';
import { pageQuery, paged } from './envelope';

const minor = z.number().int();

/**
 * Ledger transaction types, named after the spec's fund-flow list where it has one
 * (stamp duty = securities transaction tax; buy and sell fees = commission).
 */
export const FUND_FLOW_TYPES = [
  'deposit',
  'withdrawal',
  'withdrawalRejected',
  'orderFreeze',
  'orderUnfreeze',
  'stockPurchase',
  'stockSale',
  'realisedPnl',
  'tradeFee',
  'transactionTax',
] as const;
export type FundFlowType = (typeof FUND_FLOW_TYPES)[number];
export const fundFlowTypeSchema = z.enum(FUND_FLOW_TYPES);

/** Which fund-record tab shows which types. */
export const FUND_TABS = {
  deposit: ['deposit'],
  withdrawal: ['withdrawal', 'withdrawalRejected'],
  trade: [
    'orderFreeze',
    'orderUnfreeze',
    'stockPurchase',
    'stockSale',
    'realisedPnl',
    'tradeFee',
    'transactionTax',
  ],
} as const satisfies Record<string, readonly FundFlowType[]>;
export type FundTab = keyof typeof FUND_TABS;

/** Deposit limits when not configured otherwise (values not shown in the spec). */
export const DEPOSIT_MIN_MINOR = 100_000; // NT$1,000
export const DEPOSIT_MAX_MINOR = 1_000_000_000; // NT$10,000,000

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
