/**
 * Reference price and daily limits of each replayed instrument-day (TW-MARKET-RULES "Daily price
 * limit", "Limit price rounding"; docs/decisions.md "Replay reference prices").
 *
 * The reference price of a day is, in this order:
 * 1. an ex-rights/ex-dividend date: the exchange's `reference_price` (and its `limit_up` /
 *    `limit_down` when the file gives them) from full-market/ex_rights_*.csv (TWSE TWT49U, TPEx
 *    exDailyQ; PROVENANCE §11), e.g. 2330 2025-06-12: 1,065 → 1,060.49;
 * 2. a split's first day back (full-market/splits.csv: splits, reverse splits, face-value
 *    changes): the last close before the halt × old_shares ÷ new_shares, rounded to the nearest
 *    minor unit (docs/tw-market-rules.md "Split reference price");
 * 3. otherwise the previous close: the close of the instrument's previous traded day in the
 *    window, also after a suspension (TWSE keeps the last close as the reference when trading
 *    resumes without a capital change).
 *
 * Limits are ±10 % of the reference (contract/market-rules.ts priceLimitsMinor). The day's real
 * OHLC is never clamped or shifted; when it does not fit, the day is classified and the published
 * band is widened instead (`limitClass`):
 * - `newListing`: the first 5 trading days of a listing have no limit (NEW_LISTING_NO_LIMIT_DAYS);
 * - `productLimit`: an ETF/ETN outside ±10 % on an adjacent day — leveraged/inverse ETFs have
 *   10 % × multiple and foreign-index ETFs none; the data carry no flag, so the band is the
 *   smallest 10 % × m (m ≤ 9) around the real reference that contains the day;
 * - `capitalChange`: the first day after a suspension whose prices do not fit the previous close
 *   (capital reduction, face-value change, split not in splits.csv): the exchange set a new
 *   reference we do not have, so the day's own open (its opening call price) is the reference;
 * - `noPreviousClose`: no earlier traded day in the window: the open is the reference;
 * - `unexplained`: a stock on an adjacent day outside ±10 % with nothing in the data to explain
 *   it: the band is widened as for `productLimit`.
 * The band of the last resort (`dayRange`, expected never) is the day's own low…high.
 *
 * Units: prices minor (1 NT$ = 100).
 */
import { mulDivRound, toMinor } from '../../contract/money';
import { priceLimitsMinor, type InstrumentKind } from '../../contract/market-rules';
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
 * `newShares` new shares for every `oldShares` held; trading resumes on the key's date at last
 * close × oldShares ÷ newShares.
 */
export interface SplitEvent {
  lastTradeDate: string;
  oldShares: number;
  newShares: number;
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
    splits.set(`${r.code}|${r.resume_date}`, { lastTradeDate: r.last_trade_date!, oldShares, newShares });
  }
  return { exRights, splits };
}

/** Where a day's reference price comes from (see the module docstring). */
export type ReferenceBasis = 'previousClose' | 'exRights' | 'split' | 'open';
/** How the published band relates to the exchange's rule (see the module docstring). */
export type LimitClass =
  'rule' | 'newListing' | 'productLimit' | 'capitalChange' | 'noPreviousClose' | 'unexplained' | 'dayRange';

/** A day's reference price, published limits and how they were found. Prices minor. */
export interface DayReference {
  referenceMinor: number;
  limitUpMinor: number;
  limitDownMinor: number;
  basis: ReferenceBasis;
  limitClass: LimitClass;
  /** The band's width as a multiple of 10 % (1 = the rule), null for ex-rights file limits or dayRange. */
  limitMultiple: number | null;
}

/** The inputs of dayReference: the real bar and what came before it. */
export interface DayReferenceInput {
  code: string;
  date: string;
  kind: InstrumentKind;
  /** The real day; null for a day without trades (reference only). */
  bar: { openMinor: number; highMinor: number; lowMinor: number; closeMinor: number } | null;
  /** Close of the previous traded day in the window, null if none. */
  prevCloseMinor: number | null;
  /** True when the previous traded day is not the previous window day (a suspension). */
  afterGap: boolean;
  /** Trading-day number of the listing on `date` (1 = listing day), null when unknown or old. */
  listingDay: number | null;
  actions: CorporateActions;
}

const fits = (bar: NonNullable<DayReferenceInput['bar']>, up: number, down: number): boolean =>
  bar.lowMinor >= down && bar.highMinor <= up && bar.openMinor >= down && bar.closeMinor <= up;

/**
 * The DayReference around `ref` with the smallest 10 % × m band (m in 1…9) that contains the bar,
 * or null when none does.
 */
function widened(
  ref: number,
  kind: InstrumentKind,
  bar: NonNullable<DayReferenceInput['bar']>,
  basis: ReferenceBasis,
  limitClass: LimitClass,
): DayReference | null {
  for (let m = 1; m <= 9; m++) {
    const { upMinor, downMinor } = priceLimitsMinor(ref, kind, m);
    if (fits(bar, upMinor, downMinor))
      return {
        referenceMinor: ref,
        limitUpMinor: upMinor,
        limitDownMinor: downMinor,
        basis,
        limitClass,
        limitMultiple: m,
      };
  }
  return null;
}

/**
 * The reference price and limits of one instrument-day (module docstring). Pure. For a day
 * without trades (`bar` null) the rule's band around the reference is returned (class `rule`);
 * null when there is no reference at all (no earlier close and no corporate action).
 */
export function dayReference(input: DayReferenceInput): DayReference | null {
  const { code, date, kind, bar, prevCloseMinor, actions } = input;
  const key = `${code}|${date}`;
  const ex = actions.exRights.get(key);
  const split = actions.splits.get(key);
  let ref: number | null = prevCloseMinor;
  let basis: ReferenceBasis = 'previousClose';
  if (ex) {
    ref = ex.referenceMinor;
    basis = 'exRights';
  } else if (split && prevCloseMinor !== null) {
    ref = mulDivRound(prevCloseMinor, split.oldShares, split.newShares);
    basis = 'split';
  }
  if (ref === null) {
    if (!bar) return null;
    ref = bar.openMinor;
    basis = 'open';
  }
  const rule = priceLimitsMinor(ref, kind, 1);
  const up = ex?.limitUpMinor ?? rule.upMinor;
  const down = ex?.limitDownMinor ?? rule.downMinor;
  const multiple = ex?.limitUpMinor != null ? null : 1;
  const noPrev = basis === 'open';
  if (!bar || fits(bar, up, down))
    return {
      referenceMinor: ref,
      limitUpMinor: up,
      limitDownMinor: down,
      basis,
      limitClass: noPrev ? 'noPreviousClose' : 'rule',
      limitMultiple: multiple,
    };
  const newListing = input.listingDay !== null && input.listingDay <= 5;
  if (!newListing && input.afterGap && basis === 'previousClose' && kind !== 'etf') {
    // A new reference after a capital change we have no record of: the day's opening call price.
    // Shares only: an ETF, ETN or REIT that misses a day keeps its previous close (its own band,
    // `productLimit`, below), e.g. leveraged ETN 020037 on 2025-04-09 after no trade on 04-08.
    const w = widened(bar.openMinor, kind, bar, 'open', 'capitalChange');
    if (w) return w;
  }
  const limitClass: LimitClass = noPrev
    ? 'noPreviousClose'
    : newListing
      ? 'newListing'
      : kind === 'etf'
        ? 'productLimit'
        : 'unexplained';
  return (
    widened(ref, kind, bar, basis, limitClass) ?? {
      referenceMinor: ref,
      limitUpMinor: bar.highMinor,
      limitDownMinor: bar.lowMinor,
      basis,
      limitClass: 'dayRange',
      limitMultiple: null,
    }
  );
}

/** A real bar with its DayReference as replay.ts's ReplayDay (reference = `prevCloseMinor`). */
export function replayDayOf(
  bar: {
    date: string;
    openMinor: number;
    highMinor: number;
    lowMinor: number;
    closeMinor: number;
    volumeShares: number;
  },
  ref: DayReference,
): ReplayDay {
  return {
    ...bar,
    prevCloseMinor: ref.referenceMinor,
    limitUpMinor: ref.limitUpMinor,
    limitDownMinor: ref.limitDownMinor,
  };
}
