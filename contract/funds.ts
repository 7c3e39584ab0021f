/** Deposits and fund records (product-spec §3 "Deposit", "Fund flow types"; §2 "Fund record tabs"). */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { CURRENCIES, FUND_FLOW_TYPES, FUND_TAB_KEYS, FUNDS_PASSWORD_RE } from './constants';
import { pageQuery, paged } from './envelope';
import { uploadIdSchema } from './identity';
import type { FundTab } from './constants';

const minor = z.number().int();

export {
  FUND_FLOW_TYPES,
  FUND_TABS,
  DEPOSIT_MIN_MINOR,
  DEPOSIT_MAX_MINOR,
  WITHDRAW_MIN_MINOR,
  WITHDRAW_MAX_MINOR,
  CURRENCIES,
} from './constants';
export type { FundFlowType, FundTab, Currency, DepositHours } from './constants';
export const fundFlowTypeSchema = z.enum(FUND_FLOW_TYPES);
export const currencySchema = z.enum(CURRENCIES);
const amount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A deposit channel as members see it (the channel password itself never leaves the server). */
export const depositChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  bankName: z.string(),
  branch: z.string(),
  currency: z.string(),
  minMinor: minor,
  maxMinor: minor,
  hasPassword: z.boolean(),
});
export type DepositChannel = z.infer<typeof depositChannelSchema>;

/** user/depositChannels: the enabled channels and whether deposits are open now (Asia/Taipei). */
export const depositChannelsRes = z.object({
  channels: z.array(depositChannelSchema),
  hours: z.object({
    open: z.string(),
    close: z.string(),
    weekdaysOnly: z.boolean(),
    holidaysClosed: z.boolean(),
  }),
  openNow: z.boolean(),
  /** Epoch ms of the next opening when closed now, else null. */
  nextOpenAt: z.number().int().nullable(),
});

/**
 * user/recharge: a deposit request to a channel, with the transfer receipt uploaded first and the
 * channel's password when it has one. Money-moving: needs the idempotency-key header.
 */
export const depositReq = z.object({
  channelId: id,
  amountMinor: amount,
  receiptUploadId: uploadIdSchema.optional(),
  channelPassword: z.string().max(64).optional(),
});

/** A deposit: `pending` until an operator approves (credited) or rejects it (deposits.status). */
export const DEPOSIT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export const depositStatusSchema = z.enum(DEPOSIT_STATUSES);
export const depositSchema = z.object({
  id: z.number().int(),
  amountMinor: minor,
  currency: z.string(),
  channelName: z.string().nullable(),
  status: depositStatusSchema,
  reason: z.string().nullable(),
  createdAt: z.number().int(),
  reviewedAt: z.number().int().nullable(),
});
export type Deposit = z.infer<typeof depositSchema>;

/** user/withdraw: amount, the funds password and one of the member's own cards. Money-moving. */
export const withdrawReq = z.object({
  amountMinor: amount,
  fundsPassword: z.string().regex(FUNDS_PASSWORD_RE, 'fundsPasswordWrong'),
  cardId: id,
});
/**
 * A withdrawal: `pending` (amount frozen) until an operator approves (paid out) or rejects it
 * (returned) (withdrawals.status).
 */
export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export const withdrawalStatusSchema = z.enum(WITHDRAWAL_STATUSES);
export const withdrawalSchema = z.object({
  id: z.number().int(),
  amountMinor: minor,
  currency: z.string(),
  cardId: z.number().int(),
  /** "Bank name **** 1234" */
  cardLabel: z.string(),
  status: withdrawalStatusSchema,
  reason: z.string().nullable(),
  createdAt: z.number().int(),
  reviewedAt: z.number().int().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

/**
 * How much a member may withdraw (server/modules/funds/practice.ts; docs/adr/0003-practice-venue-withdrawals.md).
 * `netDeposits`: the market is a replay (MARKET_SOURCE=replay), a practice venue, so a member takes
 * back at most their own money: deposits approved less withdrawals requested (pending or paid),
 * per currency, an exchange moving it with the converted amount; gains made on the replay stay in
 * the practice account. `all`: a live source, or the operator's explicit REPLAY_WITHDRAWALS=all.
 */
export const WITHDRAWAL_RULES = ['netDeposits', 'all'] as const;
export type WithdrawalRule = (typeof WITHDRAWAL_RULES)[number];

/** user/withdrawable: the withdraw screen's figures (TWD minor; withdrawals are paid in TWD). */
export const withdrawableRes = z.object({
  currency: z.literal('TWD'),
  rule: z.enum(WITHDRAWAL_RULES),
  /** The market is a replay: the account is a practice account. */
  practice: z.boolean(),
  availableMinor: minor,
  /** The member's own money still in the account (see WITHDRAWAL_RULES), ≥ 0. */
  netDepositsMinor: minor,
  /** What user/withdraw accepts now: available, capped at netDepositsMinor under `netDeposits`. */
  withdrawableMinor: minor,
});
export type WithdrawableInfo = z.infer<typeof withdrawableRes>;

/**
 * An exchange rate against USD: `buyPpm` is how many millionths of `currency` the platform pays
 * for 1 USD, `sellPpm` how many the member pays for 1 USD (sellPpm ≥ buyPpm). USD itself has none.
 */
export const fxRateSchema = z.object({
  currency: z.string(),
  buyPpm: z.number().int(),
  sellPpm: z.number().int(),
  source: z.string(),
  asOf: z.string(),
});
export type FxRate = z.infer<typeof fxRateSchema>;
export const ratesRes = z.array(fxRateSchema);

/** user/exchange: `amountMinor` of `from` into `to`; one side must be USD, the two must differ. Money-moving. */
export const exchangeReq = z.object({ from: currencySchema, to: currencySchema, amountMinor: amount });
export const exchangeSchema = z.object({
  id: z.number().int(),
  from: z.string(),
  to: z.string(),
  fromMinor: minor,
  toMinor: minor,
  ratePpm: z.number().int(),
  createdAt: z.number().int(),
});
export type Exchange = z.infer<typeof exchangeSchema>;

/** A member's balance in one currency (ledger accounts by purpose, minor units). */
export const balanceSchema = z.object({
  currency: z.string(),
  availableMinor: minor,
  frozenMinor: minor,
  marginMinor: minor,
});
export const balancesRes = z.array(balanceSchema);

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'parameterError');
/** user/statement: a CSV statement of every posting between two dates (Asia/Taipei, inclusive). */
export const statementReq = z
  .object({ from: isoDate, to: isoDate })
  .refine((v) => v.from <= v.to, { message: 'parameterError', path: ['to'] });
export const statementRes = z.object({ filename: z.string(), csv: z.string(), rows: z.number().int() });

export const fundRecordsReq = pageQuery.extend({ tab: z.enum(FUND_TAB_KEYS as [FundTab, ...FundTab[]]) });

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
  /** On the deposit tab (page 1): the member's deposit requests, pending ones included. */
  deposits: z.array(depositSchema),
  /** On the withdrawal tab (page 1): the member's withdrawal requests, pending ones included. */
  withdrawals: z.array(withdrawalSchema),
  /** On the exchange tab (page 1): the member's exchanges. */
  exchanges: z.array(exchangeSchema),
  /**
   * On the trade tab: the member's realised P&L to date (docs/glossary.md "Realised P&L", the
   * member centre's figure); null on the other tabs.
   */
  realisedMinor: minor.nullable(),
});
