/**
 * Cash dividends on the replay (product-spec "Dividend stocks"; routes `/common/dividend` the
 * ex-dividend calendar, `/common/dividend2` the dividend-stock list, `/common/dividend3` one
 * stock's dividend history; docs/glossary.md).
 *
 * Data: the exchanges' own ex-rights/ex-dividend events of the replay window (TWSE TWT49U, TPEx
 * exDailyQ; server/db/seed-data/PROVENANCE.md §11). A cash dividend is kept exactly in
 * **micros** (millionths of a NT$ per share): the file has up to 6 decimals (3526 凡甲
 * 16.461228), so 2330's NT$4.50002 is 4_500_020 micros.
 *
 * Entitlement (docs/tw-market-rules.md "Cash dividend"): a position open at the close before a
 * replayed ex-date receives (long) or pays (short) cash dividend × shares, rounded once per
 * position to the cent, half away from zero (dividendAmountMinor). Units: TWD minor (1/100 NT$),
 * shares, micros.
 */
import { z } from 'zod';
import { mulDivRound } from './money';
import { symbolSchema } from './market';
import { pageQuery, paged } from './envelope';

/** Micros per NT$ (1 NT$ = 1,000,000 micros). */
export const MICROS_PER_NTD = 1_000_000;
/** Micros per TWD minor unit (1 cent = 10,000 micros). */
export const MICROS_PER_MINOR = 10_000;

/**
 * A dividend amount for `shares` at `cashMicros` per share, TWD minor, rounded half away from
 * zero (contract/money.ts mulDivRound), computed in exact integer arithmetic:
 * 1,000 × NT$4.50002 = NT$4,500.02 (450,002); 1,000 × NT$9.998651 = NT$9,998.651 → 999,865.
 * @throws RangeError when an input or the result is not a safe integer.
 */
export function dividendAmountMinor(shares: number, cashMicros: number): number {
  return mulDivRound(shares, cashMicros, MICROS_PER_MINOR);
}

/** Parses a dividend like "4.50002" into micros exactly. @throws RangeError beyond 6 decimals. */
export function parseDividendMicros(value: string): number {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(value.trim());
  if (!m) throw new RangeError(`not a dividend with at most 6 decimals: ${value}`);
  return Number(m[1]) * MICROS_PER_NTD + Number((m[2] ?? '').padEnd(6, '0'));
}

/** Micros → the shortest exact decimal text ("4.50002", "2"). */
export function microsToDecimal(micros: number): string {
  const whole = Math.floor(micros / MICROS_PER_NTD);
  const frac = String(micros % MICROS_PER_NTD)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/**
 * A per-share cash dividend (the exact decimal text, ≤ 6 decimals, or micros) in TWD minor units
 * for display, rounded half away from zero to the currency's 2 decimals (contract/money.ts
 * mulDivRound): "4.500020" → 450, "2.99999963" is not accepted (RangeError, > 6 decimals).
 * Amounts paid are computed from the exact micros (dividendAmountMinor), never from this.
 */
export function dividendPerShareMinor(cash: string | number): number {
  const micros = typeof cash === 'number' ? cash : parseDividendMicros(cash);
  return mulDivRound(micros, 1, MICROS_PER_MINOR);
}

/**
 * Yield of a cash dividend at a price, in basis points (floor): (micros ÷ 10⁶) ÷ (minor ÷ 100)
 * × 10⁴ = micros ÷ price minor. 0 without a price.
 */
export function dividendYieldBps(cashMicros: number, priceMinor: number): number {
  if (priceMinor <= 0) return 0;
  return Math.floor(cashMicros / priceMinor);
}

const minor = z.number().int();
const isoDate = z.string();

/**
 * The exchange's ex-rights kinds (除權息 announcements) and the key each is translated under
 * (`dividend.kinds.<key>`): 息 ex-dividend (cash), 權 ex-rights (stock dividend or rights), 權息
 * both. A kind not listed is shown as printed.
 */
export const EX_RIGHTS_KINDS: Readonly<Record<string, string>> = {
  息: 'cash',
  權: 'rights',
  權息: 'rightsAndCash',
};

/** One ex-rights/ex-dividend event as published by the exchange. */
export const exRightsEventSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (null when it publishes none, e.g. for ETFs). */
  nameEn: z.string().nullable(),
  market: z.string(),
  exDate: isoDate,
  /** Replayed days from today to the ex-date (0 = today, negative = past), null outside the cycle. */
  daysAway: z.number().int().nullable(),
  closeBeforeMinor: minor,
  referenceMinor: minor,
  /** Cash dividend per share, exact decimal text (up to 6 decimals), null for rights only. */
  cashDividend: z.string().nullable(),
  cashDividendMicros: z.number().int().nullable(),
  /** Stock dividend ratio as published, null when none (empty in every row of the data). */
  stockDividendRatio: z.string().nullable(),
  /** 息 | 權 | 權息 as the exchange labels it. */
  kindZh: z.string(),
});
export type ExRightsEvent = z.infer<typeof exRightsEventSchema>;

/** dividend/calendar: upcoming (ex-date today or later) or recent (before today) events. */
export const DIVIDEND_CALENDAR_TABS = ['upcoming', 'recent'] as const;
export type DividendCalendarTab = (typeof DIVIDEND_CALENDAR_TABS)[number];
export const dividendCalendarReq = pageQuery.extend({
  tab: z.enum(DIVIDEND_CALENDAR_TABS).default('upcoming'),
});
export const dividendCalendarRes = paged(exRightsEventSchema).extend({ today: isoDate });

/** A dividend stock: its latest cash dividend in the data and the yield at the replayed price. */
export const dividendStockSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (null when it publishes none, e.g. for ETFs). */
  nameEn: z.string().nullable(),
  market: z.string(),
  exDate: isoDate,
  cashDividend: z.string(),
  cashDividendMicros: z.number().int(),
  /** The replayed last price (TWD minor), or the event's reference when the instrument has none. */
  priceMinor: minor,
  /** cash ÷ price in basis points (floor). */
  yieldBps: z.number().int(),
});
export type DividendStock = z.infer<typeof dividendStockSchema>;
export const dividendStocksReq = pageQuery;
export const dividendStocksRes = paged(dividendStockSchema);

/** A dividend credited to or charged on one of the member's positions. */
export const dividendCreditSchema = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  symbol: z.string(),
  exDate: isoDate,
  side: z.enum(['long', 'short']),
  shares: z.number().int(),
  cashDividend: z.string(),
  /** Signed from the member's side: + received (long), − paid (short). TWD minor. */
  amountMinor: minor,
  createdAt: z.number().int(),
});
export type DividendCredit = z.infer<typeof dividendCreditSchema>;

/** dividend/history: one stock's events in the data and the member's credits on it. */
export const dividendHistoryReq = z.object({ symbol: symbolSchema });
export const dividendHistoryRes = z.object({
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (null when it publishes none, e.g. for ETFs). */
  nameEn: z.string().nullable(),
  events: z.array(exRightsEventSchema),
  credits: z.array(dividendCreditSchema),
});
export type DividendHistory = z.infer<typeof dividendHistoryRes>;
