/**
 * Market data shapes shared by the REST snapshot endpoints, the WebSocket stream and the client.
 * Prices and amounts: integer TWD minor units (1 NT$ = 100). Volumes: shares. Times: epoch ms.
 * Timestamps of a replayed session are the replayed day's own times in Asia/Taipei.
 */
import { z } from 'zod';
import { CANDLE_PERIODS, MARKET_SORTS } from './constants';
import { TAX_KINDS } from './dated-rules';
import { pageQuery, paged } from './envelope';
import { TRADING_PHASES } from './trading-session';

export { CANDLE_PERIODS, MARKET_SORTS } from './constants';

const minor = z.number().int();

export const symbolSchema = z
  .string()
  .trim()
  .regex(/^[0-9A-Z]{4,6}$/, 'symbol');

/**
 * The trading-rule class of an instrument (instruments.kind): which tick table and tax rate apply
 * (contract/market-rules.ts). ETNs and REITs trade on the ETF table and pay the ETF rate; TDRs and
 * preferred shares are stocks here (SECURITY_TYPES says what the security is).
 */
export const INSTRUMENT_KINDS = ['stock', 'etf'] as const;
export const instrumentKindSchema = z.enum(INSTRUMENT_KINDS);

/** The seller's tax kind of a quote (contract/dated-rules.ts TAX_KINDS). */
export const taxKindSchema = z.enum(TAX_KINDS);

/**
 * What a security is (instruments.security_type), as the exchanges list them: common shares
 * (innovation-board shares included), ETFs, ETNs, REITs, Taiwan depositary receipts and preferred
 * shares. Derived from the code's form where the listing file has no type (securityTypeOf).
 */
export const SECURITY_TYPES = ['stock', 'etf', 'etn', 'reit', 'tdr', 'preferred'] as const;
export const securityTypeSchema = z.enum(SECURITY_TYPES);
export type SecurityType = (typeof SECURITY_TYPES)[number];

/**
 * The exchange an instrument is listed on (instruments.market); 'SIM' marks the synthetic
 * instruments only the stress source (benchmarks) creates.
 */
export const MARKETS = ['TWSE', 'TPEx', 'SIM'] as const;
export const marketSchema = z.enum(MARKETS);

/**
 * The security type of a listed code, from the code's form (TWSE/TPEx coding rules): `02xxxx`
 * ETN (`02001L`, `020012`), `01xxxT` REIT, `91xxxx` TDR, `00…` ETF (the listing file's `etf`), four digits and a
 * letter preferred shares (e.g. 2881A), otherwise common shares.
 *
 * @param code the exchange code, e.g. '2330', '00679B', '020012', '01002T', '910322', '2881A'.
 * @param listedType securities.csv `type` when the code is in it ('etf', 'stock',
 *   'innovation_board_stock'); an 'etf' there wins.
 */
export function securityTypeOf(code: string, listedType?: string): SecurityType {
  if (listedType === 'etf') return 'etf';
  if (/^02\d{3}[0-9A-Z][A-Z]?$/.test(code)) return 'etn';
  if (/^01\d{3}T$/.test(code)) return 'reit';
  if (/^91\d{4}$/.test(code)) return 'tdr';
  if (/^00\d{2,4}[A-Z]?$/.test(code)) return 'etf';
  if (/^\d{4}[A-Z]$/.test(code)) return 'preferred';
  return 'stock';
}

/** The trading-rule class of a security type: ETF, ETN and REIT → 'etf', the others → 'stock'. */
export function ruleKindOf(type: SecurityType): (typeof INSTRUMENT_KINDS)[number] {
  return type === 'etf' || type === 'etn' || type === 'reit' ? 'etf' : 'stock';
}

/**
 * ETF categories by the code's suffix (TWSE/TPEx ETF coding): B bond, L leveraged, R inverse,
 * U futures-based (commodity, currency, VIX), otherwise equity (including active ETFs, suffix A).
 */
export const ETF_CATEGORIES = ['equity', 'bond', 'leveraged', 'inverse', 'futures'] as const;
export const etfCategorySchema = z.enum(ETF_CATEGORIES);
export type EtfCategory = (typeof ETF_CATEGORIES)[number];

/** The ETF category of an ETF code (see ETF_CATEGORIES), e.g. '00679B' → 'bond', '00631L' → 'leveraged'. */
export function etfCategoryOf(code: string): EtfCategory {
  const last = code.at(-1);
  if (last === 'B') return 'bond';
  if (last === 'L') return 'leveraged';
  if (last === 'R') return 'inverse';
  if (last === 'U') return 'futures';
  return 'equity';
}

/** An instrument as the directory lists it (instruments table; the feed keeps them in memory). */
export const instrumentSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (英文簡稱, e.g. 'TSMC'), or null when none is published. */
  nameEn: z.string().nullable(),
  market: marketSchema,
  industry: z.string().nullable(),
  securityType: securityTypeSchema,
  kind: instrumentKindSchema,
  listingDate: z.string().nullable(),
});
export type Instrument = z.infer<typeof instrumentSchema>;

/** Market phase of an instrument's session right now. */
export const sessionPhaseSchema = z.enum(['open', 'closed']);

export const quoteSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  kind: instrumentKindSchema,
  lastMinor: minor,
  openMinor: minor,
  highMinor: minor,
  lowMinor: minor,
  /**
   * Reference price for the day: the previous session's close, or the exchange's reference on an
   * ex-rights or split day (server/market/reference.ts).
   */
  prevCloseMinor: minor,
  /** The day's limit-up and limit-down; both 0 when `priceLimits` is false. */
  limitUpMinor: minor,
  limitDownMinor: minor,
  bidMinor: minor,
  askMinor: minor,
  volumeShares: z.number().int(),
  turnoverMinor: minor,
  /** Epoch ms of the last trade (market time). */
  ts: z.number().int(),
  /** The real trading day this session replays (YYYY-MM-DD), or null for a live source. */
  replayDate: z.string().nullable(),
  phase: sessionPhaseSchema,
  /**
   * False when the instrument has no trade on the replayed day (its real day has no row): the
   * quote shows the reference price, volume 0, no bid/ask (0), no depth; orders are refused
   * (`notTradedToday`). The stress feed's quotes are always traded.
   */
  traded: z.boolean(),
  /**
   * Whether daily price limits apply today (contract/dated-rules.ts: false for a foreign-index
   * ETF and in a first listing's first 5 trading days; TW-MARKET-RULES "Daily price limit").
   * Absent: true (a source that does not say, e.g. a test's quote).
   */
  priceLimits: z.boolean().optional(),
  /**
   * True when the reference price is an estimate, not the exchange's (a new listing's first day,
   * a day after a capital change or an ETF split whose published reference the data lack):
   * change % is shown marked and the instrument is kept out of the gainers and losers lists.
   * Absent: false.
   */
  referenceEstimated: z.boolean().optional(),
  /**
   * Which securities-transaction-tax row its sale pays (contract/dated-rules.ts TaxKind). Absent:
   * `kind` (quoteTaxKind).
   */
  taxKind: taxKindSchema.optional(),
});
export type Quote = z.infer<typeof quoteSchema>;

/** Whether daily price limits apply to the quote's day (in a zod-free module, ./quote-limits.ts). */
export { quoteHasLimits } from './quote-limits';
/** The quote's sale tax kind (Quote.taxKind, absent: its tick/tax kind). */
export const quoteTaxKind = (q: Pick<Quote, 'kind' | 'taxKind'>): 'stock' | 'etf' | 'bondEtf' =>
  q.taxKind ?? q.kind;

export const depthLevelSchema = z.object({ priceMinor: minor, volumeLots: z.number().int() });
export type DepthLevel = z.infer<typeof depthLevelSchema>;

/** Five-level book: bids best (highest) first, asks best (lowest) first. */
export const depthSchema = z.object({
  symbol: z.string(),
  bids: z.array(depthLevelSchema),
  asks: z.array(depthLevelSchema),
  ts: z.number().int(),
});
export type Depth = z.infer<typeof depthSchema>;

/**
 * One print on the tape. `side` is the aggressor as inferred from the book at the time of the
 * trade (at or above the ask: buy; at or below the bid: sell; in between: null).
 */
export const tradeSchema = z.object({
  /** Epoch ms (market time). */
  ts: z.number().int(),
  priceMinor: minor,
  volumeShares: z.number().int(),
  side: z.enum(['buy', 'sell']).nullable(),
});
export type Trade = z.infer<typeof tradeSchema>;

export const candlePeriodSchema = z.enum(CANDLE_PERIODS);
export type CandlePeriod = z.infer<typeof candlePeriodSchema>;

/** One candle; `ts` is the period's start (epoch ms). */
export const candleSchema = z.object({
  ts: z.number().int(),
  openMinor: minor,
  highMinor: minor,
  lowMinor: minor,
  closeMinor: minor,
  volumeShares: z.number().int(),
  /** null where the source has no turnover (non-official daily files, and periods containing such days). */
  turnoverMinor: minor.nullable(),
});
export type Candle = z.infer<typeof candleSchema>;

/**
 * Market clock and data source as the UI labels them. `source` says where prices come from:
 * only `twse` is the exchange's own live data; `replay` (simulated sessions replaying real days)
 * is always labelled as simulated, whatever the clock. `mode` is the clock: `replay` runs a
 * session at any hour, `exchange` follows Asia/Taipei session hours and the holiday calendar.
 */
export const clockStateSchema = z.object({
  source: z.enum(['replay', 'twse', 'stress']),
  mode: z.enum(['replay', 'exchange']),
  phase: sessionPhaseSchema,
  /**
   * The TWSE phase of the market time (contract/trading-session.ts): pre-open, continuous,
   * closing call, intermission, after-hours entry or closed. The stress source: `continuous`.
   */
  tradingPhase: z.enum(TRADING_PHASES),
  speed: z.number(),
  /** Market time now (epoch ms). */
  now: z.number().int(),
  /** The one replayed real date (YYYY-MM-DD) every screen labels; null for a live/stress source. */
  replayDate: z.string().nullable(),
});
export type ClockState = z.infer<typeof clockStateSchema>;

// ---- REST: market area ----

/**
 * The market list: one page of the whole market, sorted and filtered server-side. Filters narrow
 * by exchange, security type, ETF category (ETFs only) and industry (securities.csv's name).
 */
export const marketListReq = pageQuery.extend({
  sort: z.enum(MARKET_SORTS).default('all'),
  market: z.enum(['TWSE', 'TPEx']).optional(),
  securityType: securityTypeSchema.optional(),
  etfCategory: etfCategorySchema.optional(),
  industry: z.string().trim().min(1).max(40).optional(),
});
export const marketListRes = paged(quoteSchema).extend({
  clock: clockStateSchema,
  /** Wall epoch ms of the ranking snapshot the order comes from (recomputed at most once a second). */
  rankedAt: z.number().int(),
  /** The real day every quote replays, or null when they do not share one. */
  replayDate: z.string().nullable(),
  /**
   * True once that day's session has closed: the order and figures are the real day's (close,
   * volume, turnover from the exchange's file); false while it runs (the practice venue's own
   * simulated intraday figures, labelled as today's).
   */
  final: z.boolean(),
  /**
   * The exchange's English short names of this page's instruments, by symbol; a symbol without
   * one (ETFs, …) is absent. Quotes carry only the Chinese name (the stream's shape).
   */
  namesEn: z.record(z.string(), z.string()),
});

export const symbolReq = z.object({ symbol: symbolSchema });

export const instrumentDetailRes = z.object({
  quote: quoteSchema,
  /** The exchange's English short name, or null when none is published. */
  nameEn: z.string().nullable(),
  industry: z.string().nullable(),
  market: z.string(),
  isin: z.string().nullable(),
  listingDate: z.string().nullable(),
  clock: clockStateSchema,
});

export const quotesReq = z.object({ symbols: z.array(symbolSchema).min(1).max(500) });
export const quotesRes = z.object({ items: z.array(quoteSchema) });

export const candlesReq = z.object({
  symbol: symbolSchema,
  period: candlePeriodSchema,
  limit: z.number().int().min(1).max(2000).default(300),
  /** Only candles starting before this time (epoch ms), for loading further back. */
  before: z.number().int().optional(),
  /** Only candles starting at or after this time (epoch ms): backfill after an outage. */
  since: z.number().int().optional(),
});
export const candlesRes = z.object({
  symbol: z.string(),
  period: candlePeriodSchema,
  items: z.array(candleSchema),
});

/** Recent trades of one symbol (polling fallback and tape snapshot), oldest first. */
export const tradesReq = z.object({
  symbol: symbolSchema,
  limit: z.number().int().min(1).max(200).default(50),
});
export const tradesRes = z.object({ symbol: z.string(), items: z.array(tradeSchema) });

export const indexItemSchema = z.object({
  code: z.string(),
  name: z.string(),
  lastMinor: minor,
  prevCloseMinor: minor,
  date: z.string(),
  /**
   * True while the replayed session runs: `lastMinor` is an estimate derived from the replayed
   * market (server/market/indices.ts), not the official value; false/absent: the official close.
   */
  estimate: z.boolean().optional(),
});
export type IndexItem = z.infer<typeof indexItemSchema>;
export const indicesRes = z.object({ items: z.array(indexItemSchema) });

// ---- market screen: industries and breadth (server/modules/market/rankings.ts) ----

/** Industries of the directory (securities.csv names, Chinese), by instrument count descending. */
export const industriesRes = z.object({
  items: z.array(z.object({ name: z.string(), count: z.number().int() })),
});

/** Advancers, decliners, unchanged and not-traded instruments; volume shares, turnover TWD minor. */
export const breadthCountsSchema = z.object({
  advancers: z.number().int(),
  decliners: z.number().int(),
  unchanged: z.number().int(),
  notTraded: z.number().int(),
  volumeShares: z.number().int(),
  turnoverMinor: minor,
});
export type BreadthCounts = z.infer<typeof breadthCountsSchema>;

/** Market breadth of the replayed day, whole market and per exchange, as of `rankedAt` (wall ms). */
export const breadthRes = z.object({
  replayDate: z.string().nullable(),
  rankedAt: z.number().int(),
  /** As marketListRes.final: the counts are the finished real day's. */
  final: z.boolean(),
  all: breadthCountsSchema,
  byMarket: z.object({ TWSE: breadthCountsSchema, TPEx: breadthCountsSchema }),
});
