/**
 * Contract constants with no dependency on zod, so the phone bundle and the market worker can
 * import values from `contract/` without pulling in every schema. The schema modules build their
 * enums from these arrays; there is one copy of each value.
 */

/** Base path of the REST API (product-spec §7): contract/entry-constants.ts. */
export { API_BASE } from './entry-constants';
/** Client request timeout in ms (product-spec §9). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Default page size of paged lists. */
export const PAGE_SIZE = 20;

/** Candle periods: 1, 3, 15, 30 minutes; day, month, year (product-spec §2 "Stock detail"). */
export const CANDLE_PERIODS = ['1m', '3m', '15m', '30m', '1d', '1M', '1y'] as const;
export type CandlePeriod = (typeof CANDLE_PERIODS)[number];
/**
 * Market list sorts (product-spec §2 "Market: lists: all, rise and fall, loss list, trading
 * volume"): all (code order), gainers (漲幅榜), losers (跌幅榜, the "loss list"), volume (成交量,
 * shares) and turnover (成交值, TWD), as Taiwan apps show both (contract/entry-constants.ts).
 */
import { MARKET_SORTS } from './entry-constants';
export { MARKET_SORTS };
export type MarketSort = (typeof MARKET_SORTS)[number];
/**
 * Positions tabs built so far (product-spec §2 "Positions tabs"): holdings, orders (pending),
 * terminated (closed and cancelled) and ETF (holdings of ETFs). Bidding, auction and placement
 * come with their products.
 */
export const POSITION_TABS = ['holdings', 'orders', 'terminated', 'etf'] as const;
export type PositionTab = (typeof POSITION_TABS)[number];

/** Realtime channels and the heartbeat period of `/ws` (ms). */
export const CHANNELS = ['quotes', 'depth', 'candles', 'trades'] as const;
export type Channel = (typeof CHANNELS)[number];
export const HEARTBEAT_MS = 5_000;
/** Stream identity used for sequence numbers: `quotes:2330`, `candles:2330:1m`. */
export function streamId(channel: Channel, symbol: string, period?: string): string {
  return period ? `${channel}:${symbol}:${period}` : `${channel}:${symbol}`;
}

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
  /** A loss beyond the member's funds, moved to what the member owes (debt). */
  'lossShortfall',
  /** A withdrawal paid out to the member's bank card (frozen → bank clearing). */
  'withdrawalPaid',
  /** A currency exchange (one transaction balanced per currency through fx_conversion). */
  'exchange',
  /**
   * New share subscription and payment (public subscription, contract/ipo.ts): the application's
   * amount held (available → frozen), the NT$20 processing fee on deduction day, the winner's
   * shares paid on the listing day (frozen → margin).
   */
  'subscriptionPayment',
  /** Unsuccessful-subscription refund: price × shares + NT$50 back to a member who did not win. */
  'subscriptionRefund',
  /** Lottery: a winner's NT$50 notification fee on refund day. */
  'lottery',
  /** Money allocated to a follow: available → the follow sub-account (copy trading). */
  'followAllocate',
  /** A follow's cash paying a copy's costs (follow → available) or a copy's proceeds back. */
  'followTransfer',
  /** Follow-order return: a follow's equity back to the wallet when it ends. */
  'followReturn',
  /** Follow-order rebate: the mentor's profit share above the follow's high-water mark. */
  'followRebate',
  /**
   * Auction (競價拍賣, contract/primary.ts): a bid's deposit frozen, a loser's deposit released, a
   * winner's balance held, a defaulting winner's deposit kept.
   */
  'auction',
  /** Placement (配售): an allotment's price held and paid. */
  'placement',
  /** Block trade (鉅額交易): an application's amount held, released on rejection. */
  'blockTrade',
  /** Points-code exchange: a cash points code credited (platform promotions → available). */
  'pointsCodeExchange',
  /**
   * Cash dividend (除息, contract/dividends.ts): a long position's dividend received from the
   * platform's trading_pnl (the counterparty of the simulated venue), a short position's paid to
   * it. Not in the spec's fund-flow list (docs/glossary.md).
   */
  'dividend',
  /**
   * Loan (credit loan, contract/credit.ts): the principal disbursed to the wallet; also a trading
   * day's accrued interest (platform legs only, refType creditLoanInterest: receivable ↔ revenue).
   */
  'loan',
  /** Credit repayment: wallet → the loan (interest first, then principal). */
  'creditRepayment',
  /** Stock lending (借券): a short seller's daily borrow fee on shares borrowed from the pool. */
  'stockLending',
  /** Lending rebate (借券收入): a lender's daily fee on shares in loan, paid into the wallet. */
  'lendingRebate',
  /**
   * Corporate action (contract/corporate-actions.ts): cash for a fraction of a share a unit change
   * left (its realised P&L), or a stock dividend's ex-rights value settled in cash; between the
   * member and the platform's trading_pnl, as a close's P&L.
   */
  'corporateAction',
] as const;
export type FundFlowType = (typeof FUND_FLOW_TYPES)[number];

/** Which fund-record tab shows which types. */
export const FUND_TABS = {
  // Money that comes in: deposits and cash points codes.
  deposit: ['deposit', 'pointsCodeExchange'],
  withdrawal: ['withdrawal', 'withdrawalPaid', 'withdrawalRejected'],
  exchange: ['exchange'],
  trade: [
    'orderFreeze',
    'orderUnfreeze',
    'stockPurchase',
    'stockSale',
    'realisedPnl',
    'tradeFee',
    'transactionTax',
    'lossShortfall',
    'subscriptionPayment',
    'subscriptionRefund',
    'lottery',
    'auction',
    'placement',
    'blockTrade',
    'dividend',
    'stockLending',
    'lendingRebate',
    'corporateAction',
  ],
  credit: ['loan', 'creditRepayment'],
} as const satisfies Record<string, readonly FundFlowType[]>;
export type FundTab = keyof typeof FUND_TABS;
export const FUND_TAB_KEYS = Object.keys(FUND_TABS) as FundTab[];

/** Deposit limits when not configured otherwise (values not shown in the spec), TWD minor units. */
export const DEPOSIT_MIN_MINOR = 100_000; // NT$1,000
export const DEPOSIT_MAX_MINOR = 1_000_000_000; // NT$10,000,000

/** A member's account: a ten-digit mobile number (product-spec §5 "Register"), so never capitals. */
export const MOBILE_RE = /^\d{10}$/;
/**
 * A Taiwan mobile number, what a new member registers with: 10 digits starting 09 (NCC numbering
 * plan: mobile numbers are 09XX-XXX-XXX). Older accounts matching MOBILE_RE still log in.
 */
export const TW_MOBILE_RE = /^09\d{8}$/;
/** Passwords: eight to 32 English letters or digits (the spec's password hint). */
export const PASSWORD_RE = /^[A-Za-z0-9]{8,32}$/;
/** Login accounts (members and operators): lowercase letters, digits and _ . - (spec: no capitals). */
export const LOGIN_ACCOUNT_RE = /^[a-z0-9_.-]{1,32}$/;

// ---------- money in and out (issue 4; product-spec §3, §5, §9) ----------

/**
 * Wallet currencies (product-spec §9 "Exchange currencies": yuan, Taiwan dollar, Hong Kong dollar,
 * US dollar, yen, baht, ringgit, dong, won, rupee), each exchangeable to and from USD. Every
 * currency is kept in hundredths (minor units), the same unit as TWD (contract/money.ts).
 */
export const CURRENCIES = ['TWD', 'USD', 'CNY', 'HKD', 'JPY', 'THB', 'MYR', 'VND', 'KRW', 'INR'] as const;
export type Currency = (typeof CURRENCIES)[number];

/**
 * States of a KYC submission (kyc_records.status): under review, verified, or not passed. A member
 * without a submission is `unverified`, which no row holds.
 */
export const KYC_RECORD_STATUSES = ['review', 'verified', 'rejected'] as const;
export type KycRecordStatus = (typeof KYC_RECORD_STATUSES)[number];
/** KYC states (product-spec §4 "KYC": unverified, under review, verified; plus "not passed"). */
export const KYC_STATUSES = ['unverified', ...KYC_RECORD_STATUSES] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** What an upload is for. */
export const UPLOAD_PURPOSES = ['kycFront', 'kycBack', 'receipt', 'newsCover', 'support'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];
/** Accepted image types, detected from the file's content (never from its name or header). */
export const UPLOAD_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** Largest upload in bytes (5 MiB). */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

/** Withdrawal limits when not configured otherwise (values not shown in the spec), TWD minor units. */
export const WITHDRAW_MIN_MINOR = 100_000; // NT$1,000
export const WITHDRAW_MAX_MINOR = 500_000_000; // NT$5,000,000
/** Wrong funds passwords in a row before withdrawals lock (an operator unlocks). */
export const FUNDS_PASSWORD_MAX_TRIES = 5;
/** Funds password: six digits, as Taiwan brokers' trading passwords. */
export const FUNDS_PASSWORD_RE = /^\d{6}$/;

/** Deposit hours (product-spec §9): weekdays 09:30 to 19:30 Asia/Taipei, closed on exchange holidays. */
export const DEPOSIT_HOURS_DEFAULT = {
  open: '09:30',
  close: '19:30',
  weekdaysOnly: true,
  holidaysClosed: true,
};
export type DepositHours = typeof DEPOSIT_HOURS_DEFAULT;

/** Longest statement (user/statement) in days, both ends included. */
export const STATEMENT_MAX_DAYS = 366;

/** Header that carries the idempotency key of a money-moving request. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Idempotency keys: 8–64 of letters, digits, '-' and '_' (a UUID fits). */
export const IDEMPOTENCY_KEY_RE = /^[A-Za-z0-9_-]{8,64}$/;
/**
 * A stored idempotency key (idempotency_keys.state): `pending` while its first request runs,
 * `done` once that request's answer is stored for the retries.
 */
export const IDEMPOTENCY_STATES = ['pending', 'done'] as const;
export type IdempotencyState = (typeof IDEMPOTENCY_STATES)[number];

/** The audit actions live with the operator contract (contract/admin.ts), off the first screen. */
export type { AuditAction } from './admin';
