/**
 * Reference price and daily limits of each replayed instrument-day (TW-MARKET-RULES "Daily price
 * limit" and its ETF and new-listing rows, "Limit price rounding";
 * docs/adr/0008-replay-reference-prices-and-bands.md).
 *
 * The reference price of a day is, in this order:
 * 1. an ex-rights/ex-dividend date: the exchange's `reference_price` (and its `limit_up` /
 *    `limit_down` when the file gives them) from full-market/ex_rights_*.csv (TWSE TWT49U, TPEx
 *    exDailyQ; PROVENANCE §11), e.g. 2330 2025-06-12: 1,065 → 1,060.49;
 * 2. a split's first day back (full-market/splits.csv: splits, reverse splits, face-value
 *    changes): the exchange's published reference when the table carries one (`reference_price`);
 *    otherwise the last close before the halt × old_shares ÷ new_shares, rounded to the nearest
 *    minor unit (docs/tw-market-rules.md "Split reference price"), which is an estimate: an ETF's
 *    split price comes from its NAV of the split base date, and the NAV moves during the halt
 *    (00663L 2025-06-11: 170.15 ÷ 7 = 24.31, traded about 13 % higher);
 * 3. otherwise the previous close: the close of the instrument's previous traded day in the
 *    window, also after a suspension (TWSE keeps the last close as the reference when trading
 *    resumes without a capital change);
 * 4. no earlier close (first day in the window, a new listing's first day, whose real reference
 *    is its underwriting price): the day's open, an estimate.
 *
 * Limits: the instrument's price-limit class on that date (contract/dated-rules.ts limitClassOf,
 * dailyLimitPercent: ±10 % for shares and domestic ETFs, 10 % × multiple for domestic leveraged
 * and inverse ETFs, none for foreign-index ETFs and a first listing's first 5 trading days),
 * from the class data (reference/etf_classes.csv) — never guessed from the day's prices. The
 * day's real OHLC is never clamped or shifted; when it does not fit the band (`fit`):
 * - `capitalChange`: shares on their first day after a suspension that do not fit the previous
 *   close (capital reduction, face-value change): the exchange set a new reference the data do
 *   not carry, so the day's open is the reference (an estimate) and the band the class's band
 *   around it, widened to the day if it still does not fit;
 * - `unexplained`: any other day outside its band (the exchange's reference was not the one we
 *   have): the reference stays, flagged as an estimate, and the band is widened to the day's low
 *   and high.
 * `referenceEstimated` marks every reference that is not the exchange's (4, an unpublished split
 * reference, `capitalChange`, `unexplained`): rankings keep those instruments out of the
 * gainers and losers lists (server/modules/market/rankings.ts).
 *
 * Units: prices minor (1 NT$ = 100).
 */
import { mulDivRound, toMinor } from '../../contract/money';
import { dailyLimitPercent, type LimitClassOf, type PriceLimitClass } from '../../contract/dated-rules';
import { priceLimitsForPercent, type InstrumentKind } from '../../contract/market-rules';
import { readCsvRecords, seedDataPath } from './csv';
import type { ReplayDay } from './replay';

/** The exchange's ex-rights/ex-dividend reference of one (code, ex date). */
export interface ExRightsEvent {
  referenceMinor: number;
  limitUpMinor: number | null;
  limitDownMinor: number | null;
}

/**
 * A unit change (full-market/splits.csv: a split, a reverse split, a face-value change):
 * `newShares` new shares for every `oldShares` held; trading resumes on the key's date against
 * `referenceMinor`, the exchange's published reference when the table carries one (a
 * `reference_price` column), else null (the estimate last close × oldShares ÷ newShares applies).
 */
export interface SplitEvent {
  lastTradeDate: string;
  oldShares: number;
  newShares: number;
  referenceMinor: number | null;
}

/** Corporate actions keyed by `${code}|${date}` (ex date / resume date). */
export interface CorporateActions {
  exRights: Map<string, ExRightsEvent>;
  splits: Map<string, SplitEvent>;
}

/** The bundled ex-rights file and split table (server/db/seed-data/full-market). */
export const EX_RIGHTS_FILE = seedDataPath('full-market', 'ex_rights_2025-04-01_2025-07-22.csv');
export const SPLITS_FILE = seedDataPath('full-market', 'splits.csv');

/**
 * Reads both files (1,220 + a few rows). @throws on a malformed price, a ratio that is not two
 * positive integers, or a ratio of 1.
 */
export async function loadCorporateActions(
  exRightsFile: string = EX_RIGHTS_FILE,
  splitsFile: string = SPLITS_FILE,
): Promise<CorporateActions> {
  const exRights = new Map<string, ExRightsEvent>();
  for (const r of await readCsvRecords(exRightsFile)) {
    exRights.set(`${r.code}|${r.ex_date}`, {
      referenceMinor: toMinor(r.reference_price!),
      limitUpMinor: r.limit_up ? toMinor(r.limit_up) : null,
      limitDownMinor: r.limit_down ? toMinor(r.limit_down) : null,
    });
  }
  const splits = new Map<string, SplitEvent>();
  for (const r of await readCsvRecords(splitsFile)) {
    const oldShares = Number(r.old_shares);
    const newShares = Number(r.new_shares);
    const whole = (n: number) => Number.isSafeInteger(n) && n > 0;
    if (!whole(oldShares) || !whole(newShares) || oldShares === newShares)
      throw new RangeError(`splits.csv: bad ratio ${r.old_shares}:${r.new_shares} (${r.code})`);
    splits.set(`${r.code}|${r.resume_date}`, {
      lastTradeDate: r.last_trade_date!,
      oldShares,
      newShares,
      referenceMinor: r.reference_price ? toMinor(r.reference_price) : null,
    });
  }
  return { exRights, splits };
}

/** Where a day's reference price comes from (see the module docstring). */
export type ReferenceBasis = 'previousClose' | 'exRights' | 'split' | 'open';
/** How the day's real prices relate to its band (see the module docstring). */
export type DayFit = 'rule' | 'capitalChange' | 'unexplained';

/** A day's reference price, published limits and how they were found. Prices minor. */
export interface DayReference {
  referenceMinor: number;
  /** The day's limit-up and limit-down; both null when the class has no daily limit that day. */
  limitUpMinor: number | null;
  limitDownMinor: number | null;
  basis: ReferenceBasis;
  /** The instrument's price-limit class that day (contract/dated-rules.ts). */
  limitClass: PriceLimitClass;
  fit: DayFit;
  /** The reference is not the exchange's (see the module docstring): kept out of gainers/losers. */
  referenceEstimated: boolean;
}

/** The inputs of dayReference: the real bar, what came before it and the instrument's class. */
export interface DayReferenceInput {
  code: string;
  date: string;
  kind: InstrumentKind;
  /** The price-limit class and multiple on `date` (contract/dated-rules.ts limitClassOf). */
  limitClass: LimitClassOf;
  /** The real day; null for a day without trades (reference only). */
  bar: { openMinor: number; highMinor: number; lowMinor: number; closeMinor: number } | null;
  /** Close of the previous traded day in the window, null if none. */
  prevCloseMinor: number | null;
  /** True when the previous traded day is not the previous window day (a suspension). */
  afterGap: boolean;
  actions: CorporateActions;
}

type Bar = NonNullable<DayReferenceInput['bar']>;

const fits = (bar: Bar, up: number, down: number): boolean => bar.lowMinor >= down && bar.highMinor <= up;

/** The band widened just enough to hold the day (its high and low are valid prices). */
const widenedTo = (bar: Bar, up: number, down: number) => ({
  limitUpMinor: Math.max(up, bar.highMinor),
  limitDownMinor: Math.min(down, bar.lowMinor),
});

/**
 * The reference price and limits of one instrument-day (module docstring). Pure. For a day
 * without trades (`bar` null) the class's band around the reference is returned; null when
 * there is no reference at all (no earlier close and no corporate action).
 * @throws RangeError when the price-limit table has no row for the class on `date`.
 */
export function dayReference(input: DayReferenceInput): DayReference | null {
  const { code, date, kind, bar, prevCloseMinor, actions } = input;
  const key = `${code}|${date}`;
  const ex = actions.exRights.get(key);
  const split = actions.splits.get(key);
  let ref: number | null = prevCloseMinor;
  let basis: ReferenceBasis = 'previousClose';
  let estimated = false;
  if (ex) {
    ref = ex.referenceMinor;
    basis = 'exRights';
  } else if (split && (split.referenceMinor !== null || prevCloseMinor !== null)) {
    ref = split.referenceMinor ?? mulDivRound(prevCloseMinor!, split.oldShares, split.newShares);
    basis = 'split';
    estimated = split.referenceMinor === null;
  }
  if (ref === null) {
    if (!bar) return null;
    ref = bar.openMinor;
    basis = 'open';
    estimated = true;
  }
  const percent = dailyLimitPercent(input.limitClass, date);
  const limitClass = input.limitClass.cls;
  const bandOf = (reference: number) => {
    if (percent === null) return null;
    const b = priceLimitsForPercent(reference, kind, percent);
    return { limitUpMinor: b.upMinor, limitDownMinor: b.downMinor };
  };
  const band =
    percent !== null && ex?.limitUpMinor != null && ex.limitDownMinor != null
      ? { limitUpMinor: ex.limitUpMinor, limitDownMinor: ex.limitDownMinor }
      : bandOf(ref);
  const result = (
    referenceMinor: number,
    b: { limitUpMinor: number; limitDownMinor: number } | null,
    fit: DayFit,
    refBasis: ReferenceBasis,
    referenceEstimated: boolean,
  ): DayReference => ({
    referenceMinor,
    limitUpMinor: b?.limitUpMinor ?? null,
    limitDownMinor: b?.limitDownMinor ?? null,
    basis: refBasis,
    limitClass,
    fit,
    referenceEstimated,
  });
  if (!bar || !band || fits(bar, band.limitUpMinor, band.limitDownMinor))
    return result(ref, band, 'rule', basis, estimated);
  if (input.afterGap && basis === 'previousClose' && kind === 'stock') {
    // A new reference after a capital change we have no record of: the day's opening call price.
    // Shares only: an ETF, ETN or REIT that misses a day keeps its previous close.
    const around = bandOf(bar.openMinor)!;
    const b = fits(bar, around.limitUpMinor, around.limitDownMinor)
      ? around
      : widenedTo(bar, around.limitUpMinor, around.limitDownMinor);
    return result(bar.openMinor, b, 'capitalChange', 'open', true);
  }
  return result(ref, widenedTo(bar, band.limitUpMinor, band.limitDownMinor), 'unexplained', basis, true);
}

/** The band a replayed session of a day without daily limits moves in (no price bound). */
export const NO_LIMIT_BAND = { upMinor: 0x7fff_ffff, downMinor: 1 } as const;

/**
 * A real bar with its DayReference as replay.ts's ReplayDay (reference = `prevCloseMinor`; a day
 * without daily limits gets NO_LIMIT_BAND, so the simulated book never stops at the day's
 * extremes). `turnoverMinor`: the day's real turnover (TWD minor), null when the source has none.
 */
export function replayDayOf(
  bar: {
    date: string;
    openMinor: number;
    highMinor: number;
    lowMinor: number;
    closeMinor: number;
    volumeShares: number;
    turnoverMinor?: number | null;
  },
  ref: DayReference,
): ReplayDay {
  return {
    ...bar,
    turnoverMinor: bar.turnoverMinor ?? null,
    prevCloseMinor: ref.referenceMinor,
    limitUpMinor: ref.limitUpMinor ?? NO_LIMIT_BAND.upMinor,
    limitDownMinor: ref.limitDownMinor ?? NO_LIMIT_BAND.downMinor,
  };
}
