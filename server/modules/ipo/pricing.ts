/**
 * The offer prices of the seeded public subscriptions on the replay
 * (docs/adr/0004-ipo-offers-on-the-replay.md; contract/ipo.ts IPO_PRICINGS).
 *
 * The real announcements (2026) price a seasoned offering against the 2026 market; the replay
 * trades 2025. So an offering keeps the real announcement's ratio of offer to market and applies it
 * to the replayed market:
 *
 *   offer = lowest tick price ≥ replayed reference × real offer ÷ real close   (`announcement`)
 *
 * where the real close is the close of the last trading day before the real subscription opened,
 * from the repository's 2026 daily files (seed-data/daily: recent_ohlcv_2024_2026.csv, Yahoo,
 * verified against TWSE where they overlap; twse_stock_day_2330_2026.csv), and the replayed
 * reference is the replayed close before the offering's first apply day (feed closeBefore). Of the
 * 56 announcements whose stock trades in the replay only 3037 欣興 has that close (116 ÷ 220.00 on
 * 2025-12-31); for the others the rule IPO_RULE_RATIO (70 %) stands in (`rule`). A code the replay
 * never trades (a first listing) keeps the announcement's price and lists on a comparable's path
 * (`listing`, server/market/listing-proxies.ts).
 *
 * Units: prices TWD minor (1 NT$ = 100).
 */
import { IPO_RULE_RATIO, ipoOfferPriceMinor, type IpoPricing } from '../../../contract/ipo';
import { toMinor } from '../../../contract/money';
import type { IpoAnnouncement } from '../../market/import';
import { readCsvRecords, seedDataPath } from '../../market/csv';

/** The 2026 daily files the real closes come from (seed-data/daily; PROVENANCE §2.3, §2.4). */
export const ANNOUNCEMENT_CLOSE_FILES = [
  ['daily', 'twse_stock_day_2330_2026.csv'],
  ['daily', 'recent_ohlcv_2024_2026.csv'],
] as const;
/**
 * A real close older than this many calendar days before the subscription opened is not "the
 * close before it" (the data stop, or the stock was halted): the ratio is not computed.
 */
export const MAX_CLOSE_AGE_DAYS = 7;

/** Real closes by code: ascending [date, close minor] pairs. */
export type CloseSeries = Map<string, Array<[string, number]>>;

/**
 * Reads the real closes of `codes` from ANNOUNCEMENT_CLOSE_FILES (the first file wins on a date).
 * Rows whose price has more than 2 decimals (Yahoo back-adjusted values, not traded prices) are
 * skipped, as the import skips them.
 */
export async function loadAnnouncementCloses(codes: ReadonlySet<string>): Promise<CloseSeries> {
  const byCode = new Map<string, Map<string, number>>();
  for (const file of ANNOUNCEMENT_CLOSE_FILES) {
    for (const r of await readCsvRecords(seedDataPath(...file))) {
      if (!codes.has(r.code!)) continue;
      let close: number;
      try {
        close = toMinor(r.close!);
      } catch {
        continue;
      }
      const m = byCode.get(r.code!) ?? new Map<string, number>();
      if (!m.has(r.date!)) m.set(r.date!, close);
      byCode.set(r.code!, m);
    }
  }
  const out: CloseSeries = new Map();
  for (const [code, m] of byCode)
    out.set(
      code,
      [...m].sort((x, y) => (x[0] < y[0] ? -1 : 1)),
    );
  return out;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * The real close before the announcement's subscription opened: the last close dated before
 * `applyStart`, when it is at most MAX_CLOSE_AGE_DAYS older; else null (not computable).
 */
export function announcedClose(
  a: Pick<IpoAnnouncement, 'code' | 'applyStart'>,
  closes: CloseSeries,
): { closeMinor: number; closeDate: string } | null {
  const series = closes.get(a.code) ?? [];
  let last: [string, number] | null = null;
  for (const p of series) {
    if (p[0] >= a.applyStart) break;
    last = p;
  }
  if (!last || daysBetween(last[0], a.applyStart) > MAX_CLOSE_AGE_DAYS) return null;
  return { closeDate: last[0], closeMinor: last[1] };
}

/** An offering's price on the replay with how it was set (the ipo_offerings pricing columns). */
export interface ReplayPrice {
  pricing: IpoPricing;
  priceMinor: number;
  announcedPriceMinor: number;
  announcedCloseMinor: number | null;
  announcedCloseDate: string | null;
  referenceMinor: number | null;
  referenceDay: number | null;
  ratioNum: number | null;
  ratioDen: number | null;
}

/**
 * The price of a seasoned offering (its stock trades in the replay): the real ratio applied to
 * the replayed reference `ref` (close minor, clock session) when `real` is known, else the rule's.
 */
export function seasonedPrice(
  a: Pick<IpoAnnouncement, 'priceMinor'>,
  ref: { closeMinor: number; session: number },
  real: { closeMinor: number; closeDate: string } | null,
): ReplayPrice {
  const [num, den] = real ? [a.priceMinor, real.closeMinor] : [IPO_RULE_RATIO.num, IPO_RULE_RATIO.den];
  return {
    pricing: real ? 'announcement' : 'rule',
    priceMinor: ipoOfferPriceMinor(ref.closeMinor, num, den),
    announcedPriceMinor: a.priceMinor,
    announcedCloseMinor: real?.closeMinor ?? null,
    announcedCloseDate: real?.closeDate ?? null,
    referenceMinor: ref.closeMinor,
    referenceDay: ref.session,
    ratioNum: num,
    ratioDen: den,
  };
}

/** The price of a listing the replay has no market for: the announcement's, as announced. */
export function listingPrice(a: Pick<IpoAnnouncement, 'priceMinor'>): ReplayPrice {
  return {
    pricing: 'listing',
    priceMinor: a.priceMinor,
    announcedPriceMinor: a.priceMinor,
    announcedCloseMinor: null,
    announcedCloseDate: null,
    referenceMinor: null,
    referenceDay: null,
    ratioNum: null,
    ratioDen: null,
  };
}
