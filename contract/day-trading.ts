/**
 * Day trading (現股當沖; product-spec §2 "Day trading": order submission, transactions, details,
 * already applied). A member applies once; an application is approved at once when the member is
 * eligible by account age and trade count (TW-MARKET-RULES "Day trading": account ≥ 3 months and
 * ≥ 10 trades in the last year, TWSE Day Trade Rules Arts. 1–2), otherwise it waits for an
 * operator, who approves or rejects it with a reason. An approved member's position opened and
 * offset the same trading day is taxed at the day-trade rate (contract/market-rules.ts
 * `sellTaxPpm`, TW-MARKET-RULES "Securities transaction tax": 0.15 % ⚠ until 2027-12-31); a
 * position entered as a day trade and not offset by the closing call is closed there
 * (close reason `dayTradeClose`, server configuration DAY_TRADE_AUTO_CLOSE).
 *
 * Units: money in TWD minor units (1 NT$ = 100), times epoch ms, dates ISO `YYYY-MM-DD`
 * (Asia/Taipei), tax rates in parts per million.
 */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { pageQuery, paged } from './envelope';
import { sideSchema } from './trading';

const minor = z.number().int();

/** Application states (product-spec §4 "Block trade application" uses the same three). */
export const DAY_TRADE_APP_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type DayTradeAppStatus = (typeof DAY_TRADE_APP_STATUSES)[number];
export const dayTradeAppStatusSchema = z.enum(DAY_TRADE_APP_STATUSES);

/** Who approved: `auto` (eligible when applying) or `operator`. null while pending or rejected. */
export const DAY_TRADE_GRANTS = ['auto', 'operator'] as const;
export const dayTradeGrantSchema = z.enum(DAY_TRADE_GRANTS);
export type DayTradeGrant = z.infer<typeof dayTradeGrantSchema>;

/** One application as its member sees it ("already applied" tab). */
export const dayTradeApplicationSchema = z.object({
  id: z.number().int(),
  status: dayTradeAppStatusSchema,
  grantedBy: dayTradeGrantSchema.nullable(),
  /** The operator's reason (a rejection's is always set). */
  reason: z.string().nullable(),
  createdAt: z.number().int(),
  reviewedAt: z.number().int().nullable(),
});
export type DayTradeApplication = z.infer<typeof dayTradeApplicationSchema>;

/** The member's standing against the eligibility rule, with the configured thresholds. */
export const dayTradeEligibilitySchema = z.object({
  /** Whole days since the account was registered. */
  accountDays: z.number().int(),
  minAccountDays: z.number().int(),
  /** Executions (fills that opened or closed a position) in the last 365 days. */
  tradesLastYear: z.number().int(),
  minTrades: z.number().int(),
  eligible: z.boolean(),
});
export type DayTradeEligibility = z.infer<typeof dayTradeEligibilitySchema>;

/** Where the member stands: no application, or the state of the latest one. */
export const DAY_TRADE_STATES = ['none', ...DAY_TRADE_APP_STATUSES] as const;
export type DayTradeState = (typeof DAY_TRADE_STATES)[number];

/** dayTrade/status: the order-submission tab's header. */
export const dayTradeStatusRes = z.object({
  state: z.enum(DAY_TRADE_STATES),
  /** The latest application (null when none). */
  application: dayTradeApplicationSchema.nullable(),
  eligibility: dayTradeEligibilitySchema,
  /** Positions entered as day trades and not offset are closed at the closing call. */
  autoClose: z.boolean(),
  /** Seller's tax rate of a stock day trade today, ppm (1,500 = 0.15 %). */
  taxPpm: z.number().int(),
  /** Last date of the reduced rate (null: no end). */
  taxUntil: z.string().nullable(),
  /** The trading date now (Asia/Taipei). */
  tradeDate: z.string(),
});
export type DayTradeStatus = z.infer<typeof dayTradeStatusRes>;

export const dayTradeApplicationsReq = pageQuery;
export const dayTradeApplicationsRes = paged(dayTradeApplicationSchema);

/** dayTrade/transactions: today's day-trade orders (any state), newest first. */
export const dayTradeTransactionsReq = pageQuery;

/**
 * One offset pair (the "details" tab): the buy and the sell of a day trade, its fees and the
 * day-trade tax. A long buys first and sells to offset; a short sells first and buys back.
 */
export const dayTradeDetailSchema = z.object({
  orderId: z.number().int(),
  orderNo: z.string(),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (null when it publishes none, e.g. for ETFs). */
  nameEn: z.string().nullable(),
  side: sideSchema,
  lots: z.number().int(),
  shares: z.number().int(),
  leverage: z.number().int(),
  tradeDate: z.string().nullable(),
  buyPriceMinor: minor,
  buyAt: z.number().int(),
  /** Market time of the buy (contract/trading-session.ts marketTimeOfWall): what the list shows. */
  buyMarketAt: z.number().int(),
  sellPriceMinor: minor,
  sellAt: z.number().int(),
  /** Market time of the sale. */
  sellMarketAt: z.number().int(),
  /** Gross P&L (price difference × shares). */
  pnlMinor: minor,
  /** Commission (+ clearing fee) of both legs. */
  feeMinor: minor,
  /** Securities transaction tax of the sale, at the day-trade rate. */
  taxMinor: minor,
  /** pnl − fees − tax. */
  netMinor: minor,
  /** user | liquidation | dayTradeClose | … (contract/trading.ts close reasons); null when unknown. */
  closeReason: z.string().nullable(),
});
export type DayTradeDetail = z.infer<typeof dayTradeDetailSchema>;

export const dayTradeDetailsReq = pageQuery;
export const dayTradeDetailsRes = paged(dayTradeDetailSchema);

// ---- operator ----

/** admin/dayTradeApplications: pending only (default) or every application. */
export const adminDayTradeApplicationsReq = pageQuery.extend({
  status: z.enum(['pending', 'all']).default('pending'),
});
/** An application as the operator reviews it: who, and where they stand against the rule now. */
export const adminDayTradeApplicationSchema = dayTradeApplicationSchema.extend({
  userId: z.number().int(),
  account: z.string(),
  accountDays: z.number().int(),
  tradesLastYear: z.number().int(),
  eligible: z.boolean(),
});
export type AdminDayTradeApplication = z.infer<typeof adminDayTradeApplicationSchema>;
export const adminDayTradeApplicationsRes = paged(adminDayTradeApplicationSchema);
export const dayTradeReviewReq = z.object({ id });
export const dayTradeRejectReq = dayTradeReviewReq.extend({ reason: z.string().trim().min(1).max(200) });
