/**
 * The primary market beyond public subscription: operator-managed offerings (auction 競價拍賣,
 * block trade 鉅額交易, placement 配售) and the auction's bids (product-spec "agreement bidding",
 * the positions tabs bidding / auction / placement).
 *
 * Auction rules (docs/tw-market-rules.md "Auction (競價拍賣)", TWSE auction rules Art. 11/15/16):
 * bidding over AUCTION_BID_DAYS business days, AUCTION_BID_OPEN_MS–AUCTION_BID_CLOSE_MS market
 * time; each bid a price ≥ the minimum (whole TWD minor per share) and a whole number of lots, a
 * member's bids together no larger than the per-bidder cap (checked at entry); a deposit of `depositBps` of price × shares frozen per bid;
 * allocation on the day after bidding closes (contract/auction.ts allocateAuction); winners pay
 * their own bid and receive the shares on the listing day. Units: money in TWD minor (1/100 NT$),
 * lots of 1,000 shares, bps.
 */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { pageQuery, paged } from './envelope';
import { AUCTION_CAP_BPS } from './auction';
import { FUNDS_PASSWORD_RE } from './constants';

/** Shares per lot (one trading unit). */
export const SHARES_PER_LOT = 1_000;
/** Bidding days of an auction (TWSE auction rules: three business days). */
export const AUCTION_BID_DAYS = 3;
/** Bids are taken 09:00–14:00 market time: ms after local midnight. */
export const AUCTION_BID_OPEN_MS = 9 * 3_600_000;
export const AUCTION_BID_CLOSE_MS = 14 * 3_600_000;

/**
 * Kinds of operator-managed offerings (primary_offerings.kind). Public subscriptions keep their
 * own table (ipo_offerings); the console creates them through the same endpoint with kind
 * `subscription`.
 */
export const PRIMARY_KINDS = ['auction', 'blockTrade', 'placement'] as const;
export type PrimaryKind = (typeof PRIMARY_KINDS)[number];
export const OFFERING_KINDS = ['subscription', ...PRIMARY_KINDS] as const;
export type OfferingKind = (typeof OFFERING_KINDS)[number];

/**
 * How far the market-clock steps of an operator-managed offering have run
 * (primary_offerings.stage): `scheduled` (bids or applications taken in their days), `allocated`
 * (the auction's allocation ran: losers released, winners paid the balance), `listed` (the shares
 * delivered as holdings). Each step moves it on in the same transaction as its effects.
 */
export const PRIMARY_STAGES = ['scheduled', 'allocated', 'listed'] as const;
export type PrimaryStage = (typeof PRIMARY_STAGES)[number];

/**
 * An auction bid's state (auction_bids.status):
 * - `bidding` (投標中): the deposit is frozen, waiting for the allocation;
 * - `won` (得標): allocated `lotsWon` lots, the balance paid (held) for the listing day;
 * - `lost` (未得標): nothing allocated, the deposit released;
 * - `forfeited` (放棄/違約): won but the balance could not be paid: the deposit kept as a penalty;
 * - `delivered` (撥券): the shares delivered as a long holding on the listing day.
 */
export const AUCTION_BID_STATUSES = ['bidding', 'won', 'lost', 'forfeited', 'delivered'] as const;
export type AuctionBidStatus = (typeof AUCTION_BID_STATUSES)[number];

/** Deposit frozen for a bid: ceil(price × lots × 1,000 × bps / 10,000), TWD minor. */
export function auctionDepositMinor(priceMinor: number, lots: number, depositBps: number): number {
  return Math.ceil((priceMinor * lots * SHARES_PER_LOT * depositBps) / 10_000);
}

/** The per-bidder cap in lots: floor(tranche × capBps / 10,000). */
export function auctionCapLots(lots: number, capBps: number = AUCTION_CAP_BPS): number {
  return Math.floor((lots * capBps) / 10_000);
}

// ---------- REST ----------

const minor = z.number().int();
/**
 * A business day: the market clock's session number (server/market/clock.ts), which grows by one
 * per replayed day from the clock's anchor: at 1200× that is ~1.6 million after a year. Bounded
 * only to stay an int4 column away from overflow.
 */
const day = z.number().int().min(-1_000_000_000).max(1_000_000_000);
const price = z.number().int().positive().max(100_000_000);
const lots = z.number().int().positive().max(10_000_000);
const text = (max: number) => z.string().trim().min(1).max(max);

/**
 * admin/saveOffering: create (no id) or edit (id) an offering of any kind, on an instrument.
 * Days are market-clock business days (server/market/clock.ts session numbers). subscription:
 * price, shares offered and per application, first apply day, listing day (> apply day + 5).
 * auction: minimum price, tranche lots, deposit bps, first bidding day, listing day (> first day +
 * 3). blockTrade / placement: fixed price, lots, first and last application day, delivery day.
 * Edits are refused once the first day has come (offeringLocked).
 */
export const saveOfferingReq = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('subscription'),
    id: id.optional(),
    symbol: text(12),
    name: text(60),
    priceMinor: price,
    sharesOffered: z.number().int().positive().max(2_000_000_000),
    sharesPerApplication: z.number().int().positive().max(1_000_000),
    startDay: day,
    listingDay: day,
  }),
  z.object({
    kind: z.literal('auction'),
    id: id.optional(),
    symbol: text(12),
    name: text(60),
    priceMinor: price,
    lots,
    depositBps: z.number().int().min(0).max(10_000),
    capBps: z.number().int().min(1).max(10_000).default(AUCTION_CAP_BPS),
    startDay: day,
    listingDay: day,
  }),
  z.object({
    kind: z.enum(['blockTrade', 'placement']),
    id: id.optional(),
    symbol: text(12),
    name: text(60),
    priceMinor: price,
    lots,
    startDay: day,
    endDay: day,
    listingDay: day,
  }),
]);
export type SaveOfferingReq = z.infer<typeof saveOfferingReq>;

/** An offering as the console lists it (every kind in one shape). */
export const adminOfferingSchema = z.object({
  kind: z.enum(OFFERING_KINDS),
  id: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  /** Offer price (subscription, block trade, placement) or minimum price (auction), TWD minor. */
  priceMinor: minor,
  /** Lots offered (subscription: shares offered / 1,000, rounded down). */
  lots: z.number().int(),
  sharesPerApplication: z.number().int().nullable(),
  depositBps: z.number().int().nullable(),
  capBps: z.number().int().nullable(),
  startDay: z.number().int(),
  endDay: z.number().int(),
  listingDay: z.number().int(),
  /** The replayed dates of those days. */
  startDate: z.string(),
  endDate: z.string(),
  listingDate: z.string(),
  stage: z.string(),
  listingPriceMinor: minor.nullable(),
  /** Bids or applications so far. */
  entries: z.number().int(),
  /** Whether it can still be edited (its first day has not come). */
  editable: z.boolean(),
});
export type AdminOffering = z.infer<typeof adminOfferingSchema>;
export const adminOfferingsReq = pageQuery.extend({ kind: z.enum(OFFERING_KINDS).optional() });
/** Business days the console's day pickers offer, from today on. */
export const OFFERING_PICKER_DAYS = 90;
export const adminOfferingsRes = paged(adminOfferingSchema).extend({
  /** Today's business day and its replayed date (the console's day pickers count from it). */
  today: z.number().int(),
  todayDate: z.string(),
  /**
   * The next OFFERING_PICKER_DAYS business days from today, each with the replayed date it shows
   * ('' on a feed without dates): the console picks days by date from this list, since the
   * replay's dates cycle and cannot be turned back into day numbers.
   */
  days: z.array(z.object({ day: z.number().int(), date: z.string() })),
});

/** An auction as a member sees it. */
export const auctionSchema = z.object({
  id: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name; null when it publishes none or the company is not listed yet. */
  nameEn: z.string().nullable(),
  minPriceMinor: minor,
  lots: z.number().int(),
  depositBps: z.number().int(),
  /** Most lots one bidder can win (10 % of the tranche). */
  capLots: z.number().int(),
  phase: z.enum(['notStarted', 'inProgress', 'ended']),
  stage: z.enum(PRIMARY_STAGES),
  bidStart: z.string(),
  bidEnd: z.string(),
  allocationDate: z.string(),
  listingDate: z.string(),
  /** After allocation: the weighted average of winning bids and the listing price (≤ 1.3 × minimum). */
  weightedAverageMinor: minor.nullable(),
  listingPriceMinor: minor.nullable(),
  /** sha256(seed) published from creation (ties are ordered by HMAC-SHA256(seed, bid number)); seed after allocation. */
  commitment: z.string(),
  seed: z.string().nullable(),
  myBids: z.number().int(),
});
export type Auction = z.infer<typeof auctionSchema>;
export const auctionListReq = pageQuery.extend({
  tab: z.enum(['open', 'upcoming', 'ended']).default('open'),
});
export const auctionListRes = paged(auctionSchema);

/** auction/bid: one bid (money-moving: the deposit is frozen; idempotency key). */
export const auctionBidReq = z.object({ offeringId: id, priceMinor: price, lots });

export const auctionBidSchema = z.object({
  id: z.number().int(),
  bidNo: z.string(),
  offeringId: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name; null when it publishes none or the company is not listed yet. */
  nameEn: z.string().nullable(),
  priceMinor: minor,
  lots: z.number().int(),
  depositMinor: minor,
  lotsWon: z.number().int(),
  /** Paid at allocation beyond the deposit kept: own price × lots won − deposit kept, TWD minor. */
  balanceMinor: minor,
  status: z.enum(AUCTION_BID_STATUSES),
  orderId: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type AuctionBidDto = z.infer<typeof auctionBidSchema>;
export const auctionBidsReq = pageQuery.extend({ status: z.enum(AUCTION_BID_STATUSES).optional() });
export const auctionBidsRes = paged(auctionBidSchema);

// ---------- block trades and placements ----------

/**
 * Block trade minimum (TWSE Block Trading Rules, single stock): at least BLOCK_TRADE_MIN_LOTS lots
 * or a value of at least BLOCK_TRADE_MIN_VALUE_MINOR (NT$15,000,000).
 */
export const BLOCK_TRADE_MIN_LOTS = 500;
export const BLOCK_TRADE_MIN_VALUE_MINOR = 1_500_000_000;
/**
 * Block-trade and placement applications are taken on the offering's days within 09:00–14:30
 * market time (the replayed day's trading hours; the real single-stock block trading window runs
 * to 17:00, after the replayed day ends).
 */
export const BLOCK_TRADE_OPEN_MS = 9 * 3_600_000;
export const BLOCK_TRADE_CLOSE_MS = 14.5 * 3_600_000;

/** Whether a block trade of `lots` at `priceMinor` meets the minimum (lots or value). */
export function meetsBlockTradeMinimum(priceMinor: number, lots: number): boolean {
  return lots >= BLOCK_TRADE_MIN_LOTS || priceMinor * lots * SHARES_PER_LOT >= BLOCK_TRADE_MIN_VALUE_MINOR;
}

/**
 * A block-trade or placement application's state (primary_applications.status): `pendingReview`
 * (the amount held, waiting for an operator), `approved` (allocated: a long holding without
 * margin at the application's price), `rejected` (the amount released).
 */
export const PRIMARY_APPLICATION_STATUSES = ['pendingReview', 'approved', 'rejected'] as const;
export type PrimaryApplicationStatus = (typeof PRIMARY_APPLICATION_STATUSES)[number];

/** The block-trade password: the funds password's format (contract/identity.ts). */
export const blockTradePasswordSchema = z.string().regex(FUNDS_PASSWORD_RE, 'parameterError');
/** Sets (first time) or changes (old password required and checked) the block-trade password. */
export const setBlockTradePasswordReq = z
  .object({
    oldPassword: z.string().max(64).optional(),
    password: blockTradePasswordSchema,
    confirmPassword: z.string().min(1).max(64),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'passwordsDiffer',
    path: ['confirmPassword'],
  });

/**
 * How user/setBlockTradePassword ended: `set` the first time, `changed` afterwards (the success
 * toast says which: blockTradePasswordSet / passwordChanged, server/http/api-routes.ts).
 */
export const setBlockTradePasswordRes = z.object({
  ok: z.literal(true),
  outcome: z.enum(['set', 'changed']),
});
export type SetBlockTradePasswordRes = z.infer<typeof setBlockTradePasswordRes>;

/**
 * user/blockTradePassword: the member's block-trade password state, like user/security for the
 * funds password: whether one is set, whether it is locked after FUNDS_PASSWORD_MAX_TRIES wrong
 * entries (an operator resets it), and how many wrong entries are left.
 */
export const blockTradePasswordStateRes = z.object({
  set: z.boolean(),
  locked: z.boolean(),
  triesLeft: z.number().int(),
});
export type BlockTradePasswordState = z.infer<typeof blockTradePasswordStateRes>;

/** A block-trade or placement offering as a member sees it ("stocks list"). */
export const primaryOfferingSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['blockTrade', 'placement']),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name; null when it publishes none or the company is not listed yet. */
  nameEn: z.string().nullable(),
  /** Placement: the fixed price; block trade: the operator's reference price (TWD minor per share). */
  priceMinor: minor,
  lots: z.number().int(),
  /** Lots not yet taken by pending or approved applications. */
  lotsLeft: z.number().int(),
  /** Block trade: today's price limits (the member's price must lie within), null if unknown. */
  limitUpMinor: minor.nullable(),
  limitDownMinor: minor.nullable(),
  phase: z.enum(['notStarted', 'inProgress', 'ended']),
  startDate: z.string(),
  endDate: z.string(),
});
export const primaryOfferingsReq = pageQuery.extend({ kind: z.enum(['blockTrade', 'placement']) });
export const primaryOfferingsRes = paged(primaryOfferingSchema);

/**
 * blockTrade/apply and placement/apply: lots of an offering; block trades give their price (within
 * the day's limits, NT$0.01 ticks = whole minor units) and the block-trade password; placements
 * take the offering's price. Money-moving (idempotency key): price × lots × 1,000 held.
 */
export const blockTradeApplyReq = z.object({
  offeringId: id,
  priceMinor: price,
  lots,
  password: z.string().min(1).max(64),
});
export const placementApplyReq = z.object({ offeringId: id, lots });

export const primaryApplicationSchema = z.object({
  id: z.number().int(),
  applicationNo: z.string(),
  offeringId: z.number().int(),
  kind: z.enum(['blockTrade', 'placement']),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name; null when it publishes none or the company is not listed yet. */
  nameEn: z.string().nullable(),
  userId: z.number().int(),
  /** The applicant's login account (the console's review queue shows it). */
  account: z.string(),
  priceMinor: minor,
  lots: z.number().int(),
  /** Held: price × lots × 1,000 (TWD minor). */
  amountMinor: minor,
  status: z.enum(PRIMARY_APPLICATION_STATUSES),
  reason: z.string().nullable(),
  orderId: z.number().int().nullable(),
  createdAt: z.number().int(),
  reviewedAt: z.number().int().nullable(),
});
export type PrimaryApplicationDto = z.infer<typeof primaryApplicationSchema>;
export const primaryApplicationsReq = pageQuery.extend({
  kind: z.enum(['blockTrade', 'placement']).optional(),
  status: z.enum(PRIMARY_APPLICATION_STATUSES).optional(),
});
export const primaryApplicationsRes = paged(primaryApplicationSchema);
export const primaryReviewReq = z.object({ id });
export const primaryRejectReq = z.object({ id, reason: z.string().trim().min(1).max(200) });
