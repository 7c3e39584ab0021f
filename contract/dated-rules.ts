/**
 * Market rules that depend on what an instrument is and on the date, as data: the daily
 * price-limit classes and the securities transaction tax by instrument kind, each row with the
 * dates it is in force (inclusive, ISO `YYYY-MM-DD`, null = open-ended) and the row of
 * docs/tw-market-rules.md that gives its source. A replayed 2025 day and a live 2027 day each
 * find the row in force on their own date.
 *
 * Which class an instrument belongs to is data too: server/db/seed-data/reference/etf_classes.csv
 * (leveraged/inverse multiples, foreign-index ETFs, bond ETFs; how it was made: PROVENANCE §13)
 * and the listing date of a first listing (securities.csv). Zod-free and luxon-free: the phone
 * bundle imports it through contract/market-rules.ts.
 */

/** A rule row's period in force (inclusive ISO dates; null = no bound) and its TW-MARKET-RULES row. */
export interface DatedRule {
  from: string | null;
  to: string | null;
  /** The row of docs/tw-market-rules.md that sources this rule. */
  row: string;
}

/** Whether `rule` is in force on ISO date `date`. */
export function inForce(rule: Pick<DatedRule, 'from' | 'to'>, date: string): boolean {
  return (rule.from === null || date >= rule.from) && (rule.to === null || date <= rule.to);
}

// ---------- daily price limits ----------

/**
 * Daily price-limit classes (TW-MARKET-RULES "Daily price limit" and the rows it names):
 * - `stock`: shares, TDRs, preferred shares;
 * - `etf`: ETFs, ETNs and REITs whose underlying index holds domestic securities only;
 * - `leveragedEtf`, `inverseEtf`: leveraged/inverse ETFs and ETNs on a domestic index: the
 *   percentage × the fund's multiple (2 for a 2× fund, 1 for a −1× fund);
 * - `foreignIndexEtf`: ETFs/ETNs whose underlying holds a foreign security or tracks a foreign
 *   futures index, leveraged/inverse ones included: no daily limit;
 * - `newListing`: a first listing's common shares in their first NEW_LISTING_DAYS trading days:
 *   no daily limit (ETFs have a limit from their first day, based on their NAV).
 */
export const PRICE_LIMIT_CLASSES = [
  'stock',
  'etf',
  'leveragedEtf',
  'inverseEtf',
  'foreignIndexEtf',
  'newListing',
] as const;
export type PriceLimitClass = (typeof PRICE_LIMIT_CLASSES)[number];

/** A price-limit row: `percent` of the reference (× the multiple when `timesMultiple`), or none. */
export interface PriceLimitRule extends DatedRule {
  cls: PriceLimitClass;
  /** Percent of the reference price either way; null: no daily limit. */
  percent: number | null;
  timesMultiple: boolean;
}

/** The first trading days of a first listing without a daily limit (day 1 = the listing day). */
export const NEW_LISTING_DAYS = 5;

/** The ±7 % → ±10 % change (TW-MARKET-RULES "Daily price limit": FSC, from 2015-06-01). */
const WIDER_FROM = '2015-06-01';
const NARROW_TO = '2015-05-31';

/** Every price-limit row (TW-MARKET-RULES "Daily price limit", "Daily price limit, ETFs and ETNs"). */
export const PRICE_LIMIT_RULES: readonly PriceLimitRule[] = [
  { cls: 'stock', percent: 7, timesMultiple: false, from: null, to: NARROW_TO, row: 'Daily price limit' },
  { cls: 'stock', percent: 10, timesMultiple: false, from: WIDER_FROM, to: null, row: 'Daily price limit' },
  ...(['etf', 'leveragedEtf', 'inverseEtf'] as const).flatMap((cls) => [
    {
      cls,
      percent: 7,
      timesMultiple: cls !== 'etf',
      from: null,
      to: NARROW_TO,
      row: 'Daily price limit, ETFs and ETNs',
    },
    {
      cls,
      percent: 10,
      timesMultiple: cls !== 'etf',
      from: WIDER_FROM,
      to: null,
      row: 'Daily price limit, ETFs and ETNs',
    },
  ]),
  {
    cls: 'foreignIndexEtf',
    percent: null,
    timesMultiple: false,
    from: null,
    to: null,
    row: 'Daily price limit, ETFs and ETNs',
  },
  {
    cls: 'newListing',
    percent: null,
    timesMultiple: false,
    from: null,
    to: null,
    row: 'Daily price limit, new listings',
  },
];

/**
 * The rule-class facts of an ETF, ETN or REIT (one row of reference/etf_classes.csv):
 * `limitClass` domestic | leveraged | inverse | foreign, `multiple` the fund's absolute multiple
 * (2 for 正2, 1 for 反1 and for everything else), `bond` a bond ETF whose sale tax is suspended
 * (Securities Transaction Tax Act Art. 2-1 §2; leveraged/inverse bond ETFs excluded by statute).
 */
export interface EtfClass {
  limitClass: 'domestic' | 'leveraged' | 'inverse' | 'foreign';
  multiple: number;
  bond: boolean;
}

/** An instrument's price-limit class on one day, with the multiple its band takes. */
export interface LimitClassOf {
  cls: PriceLimitClass;
  multiple: number;
}

/**
 * The price-limit class of an instrument on a day. `kind` is the tick/tax kind ('stock' | 'etf');
 * `etf` its etf_classes.csv row (null: none, an ordinary domestic ETF when `kind` is 'etf');
 * `firstListingDay` the trading-day number of a first listing of common shares (1 = the listing
 * day), null when the instrument is no first listing in its first days (a transfer between
 * boards or exchanges, or an old listing).
 */
export function limitClassOf(args: {
  kind: 'stock' | 'etf';
  etf: EtfClass | null;
  firstListingDay: number | null;
}): LimitClassOf {
  if (args.kind === 'stock') {
    const d = args.firstListingDay;
    return { cls: d !== null && d >= 1 && d <= NEW_LISTING_DAYS ? 'newListing' : 'stock', multiple: 1 };
  }
  const e = args.etf;
  if (!e || e.limitClass === 'domestic') return { cls: 'etf', multiple: 1 };
  if (e.limitClass === 'foreign') return { cls: 'foreignIndexEtf', multiple: e.multiple };
  return { cls: e.limitClass === 'leveraged' ? 'leveragedEtf' : 'inverseEtf', multiple: e.multiple };
}

/** The price-limit row of `cls` in force on `date`. @throws RangeError when none is (a gap in the table). */
export function priceLimitRule(cls: PriceLimitClass, date: string): PriceLimitRule {
  const rule = PRICE_LIMIT_RULES.find((r) => r.cls === cls && inForce(r, date));
  if (!rule) throw new RangeError(`no price-limit rule for ${cls} on ${date}`);
  return rule;
}

/**
 * The daily limit of a class on `date` in percent of the reference (the rule's percent × the
 * multiple where the rule says so), or null when the class has no daily limit that day.
 */
export function dailyLimitPercent(c: LimitClassOf, date: string): number | null {
  const rule = priceLimitRule(c.cls, date);
  if (rule.percent === null) return null;
  return rule.timesMultiple ? rule.percent * c.multiple : rule.percent;
}

// ---------- securities transaction tax ----------

/**
 * Tax kinds of the seller's securities transaction tax (TW-MARKET-RULES "Securities transaction
 * tax"): shares 0.3 % (Securities Transaction Tax Act Art. 2 item 1), ETFs, ETNs and REITs 0.1 %
 * (Art. 2 item 2), bond ETFs none while the suspension of Art. 2-1 §2 runs.
 */
export const TAX_KINDS = ['stock', 'etf', 'bondEtf'] as const;
export type TaxKind = (typeof TAX_KINDS)[number];

/** A tax row: `ppm` of the traded value on the sale; `dayTrade` rows apply to same-day day trades only. */
export interface SaleTaxRule extends DatedRule {
  kind: TaxKind;
  dayTrade: boolean;
  ppm: number;
}

/** Bond ETFs' sales are not taxed through this date (Art. 2-1 §2). */
export const BOND_ETF_TAX_SUSPENDED = { from: '2017-01-01', to: '2026-12-31' } as const;
/** Same-day day trades of shares pay 0.15 % through this date (Art. 2-2, as amended 2024-12). */
export const DAY_TRADE_REDUCED_RATE = { from: '2017-04-28', to: '2027-12-31' } as const;

/**
 * Every tax row. The kinds without a row for a date fall back (saleTaxRule): a bond ETF outside
 * its suspension pays the ETF rate, a day trade outside the reduced period the share rate.
 */
export const SALE_TAX_RULES: readonly SaleTaxRule[] = [
  { kind: 'stock', dayTrade: false, ppm: 3_000, from: null, to: null, row: 'Securities transaction tax' },
  {
    kind: 'stock',
    dayTrade: true,
    ppm: 1_500,
    ...DAY_TRADE_REDUCED_RATE,
    row: 'Securities transaction tax, day trades',
  },
  { kind: 'etf', dayTrade: false, ppm: 1_000, from: null, to: null, row: 'Securities transaction tax' },
  {
    kind: 'bondEtf',
    dayTrade: false,
    ppm: 0,
    ...BOND_ETF_TAX_SUSPENDED,
    row: 'Securities transaction tax, bond ETFs',
  },
];

/**
 * The tax row that applies to a sale of `kind` on `date`, `dayTrade` when it offsets a same-day
 * day trade: the day-trade row of the kind when one is in force, else the kind's own row, else
 * the kind it falls back to (bondEtf → etf, no day-trade row → the kind's own). Pure.
 * @throws RangeError when no row applies (a gap in the table).
 */
export function saleTaxRule(kind: TaxKind, date: string, dayTrade = false): SaleTaxRule {
  const find = (k: TaxKind, dt: boolean) =>
    SALE_TAX_RULES.find((r) => r.kind === k && r.dayTrade === dt && inForce(r, date));
  const rule =
    (dayTrade ? find(kind, true) : undefined) ??
    find(kind, false) ??
    (kind === 'bondEtf' ? find('etf', false) : undefined);
  if (!rule) throw new RangeError(`no sale tax rule for ${kind} on ${date}`);
  return rule;
}

/** The tax kind of an instrument: its tick/tax kind, or bondEtf for an etf_classes.csv bond row. */
export function taxKindOf(kind: 'stock' | 'etf', etf: EtfClass | null): TaxKind {
  return kind === 'etf' && etf?.bond ? 'bondEtf' : kind;
}
