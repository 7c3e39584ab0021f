/**
 * The dated market rules (contract/dated-rules.ts) as tables: one case per price-limit class and
 * per tax kind, each citing its docs/tw-market-rules.md row, on the date it is asked for; the
 * band and the tax worked out by hand in the comments (prices in minor units, 1 NT$ = 100), then
 * the class data (reference/etf_classes.csv) the feed reads for real instruments.
 */
import { describe, expect, it } from 'vitest';
import {
  dailyLimitPercent,
  limitClassOf,
  PRICE_LIMIT_CLASSES,
  PRICE_LIMIT_RULES,
  priceLimitRule,
  SALE_TAX_RULES,
  saleTaxRule,
  TAX_KINDS,
  taxKindOf,
  type EtfClass,
  type PriceLimitClass,
  type TaxKind,
} from '../../contract/dated-rules';
import {
  DEFAULT_FEES,
  listingTradingDayNumber,
  priceLimitsForPercent,
  sellTaxMinor,
  sellTaxPpm,
  type InstrumentKind,
} from '../../contract/market-rules';
import { isTradingDay } from '../../server/market/calendar';
import { loadEtfClasses } from '../../server/market/rule-classes';

/** The band of a class on a date around `ref` (null: no daily limit). */
function band(
  kind: InstrumentKind,
  etf: EtfClass | null,
  firstListingDay: number | null,
  date: string,
  ref: number,
): { up: number; down: number } | null {
  const pct = dailyLimitPercent(limitClassOf({ kind, etf, firstListingDay }), date);
  if (pct === null) return null;
  const b = priceLimitsForPercent(ref, kind, pct);
  return { up: b.upMinor, down: b.downMinor };
}

const DOMESTIC: EtfClass = { limitClass: 'domestic', multiple: 1, bond: false };
const LEVERAGED: EtfClass = { limitClass: 'leveraged', multiple: 2, bond: false };
const INVERSE: EtfClass = { limitClass: 'inverse', multiple: 1, bond: false };
const FOREIGN: EtfClass = { limitClass: 'foreign', multiple: 1, bond: false };
const FOREIGN_2X: EtfClass = { limitClass: 'foreign', multiple: 2, bond: false };

describe('daily price limit by class (TW-MARKET-RULES "Daily price limit" and its rows)', () => {
  it.each<
    [
      string,
      string,
      InstrumentKind,
      EtfClass | null,
      number | null,
      string,
      number,
      { up: number; down: number } | null,
    ]
  >([
    // case, rule row, kind, etf class, first-listing day, date, reference, band
    // 2330 at 1,000: 1,100 / 900 (±10 %, stock ticks 5 at ≥ 1,000, 1 below)
    ['stock', 'Daily price limit', 'stock', null, null, '2025-06-10', 100_000, { up: 110_000, down: 90_000 }],
    // before 2015-06-01: ±7 %: 100 → 107 / 93
    [
      'stock before 2015-06-01',
      'Daily price limit',
      'stock',
      null,
      null,
      '2015-05-29',
      10_000,
      { up: 10_700, down: 9_300 },
    ],
    // 0050 after its split: 47.16 × 1.1 = 51.876 → 51.85 (ETF tick 0.05 at ≥ 50); × 0.9 = 42.444 → 42.45
    [
      'domestic ETF',
      'Daily price limit, ETFs and ETNs',
      'etf',
      DOMESTIC,
      null,
      '2025-06-18',
      4_716,
      { up: 5_185, down: 4_245 },
    ],
    // an ETF missing from the class table is a domestic ETF
    [
      'ETF without a class row',
      'Daily price limit, ETFs and ETNs',
      'etf',
      null,
      null,
      '2025-06-18',
      4_716,
      { up: 5_185, down: 4_245 },
    ],
    // 00631L on 2025-04-07: 200.30 × 1.2 = 240.36 → 240.35; × 0.8 = 160.24 → 160.25 (its real close)
    [
      '2× leveraged ETF',
      'Daily price limit, ETFs and ETNs',
      'etf',
      LEVERAGED,
      null,
      '2025-04-07',
      20_030,
      { up: 24_035, down: 16_025 },
    ],
    // 2014: 7 % × 2 = 14 %: 20 → 22.80 / 17.20
    [
      '2× leveraged ETF before 2015-06-01',
      'Daily price limit, ETFs and ETNs',
      'etf',
      LEVERAGED,
      null,
      '2015-05-29',
      2_000,
      { up: 2_280, down: 1_720 },
    ],
    // 00632R (−1×): 10 % × 1: 20.00 → 22.00 / 18.00
    [
      'inverse ETF',
      'Daily price limit, ETFs and ETNs',
      'etf',
      INVERSE,
      null,
      '2025-04-07',
      2_000,
      { up: 2_200, down: 1_800 },
    ],
    [
      'foreign-index ETF (00941)',
      'Daily price limit, ETFs and ETNs',
      'etf',
      FOREIGN,
      null,
      '2025-04-07',
      1_297,
      null,
    ],
    [
      'foreign-index 2× ETF (00670L)',
      'Daily price limit, ETFs and ETNs',
      'etf',
      FOREIGN_2X,
      null,
      '2025-04-07',
      10_000,
      null,
    ],
    [
      'new listing, day 1 (6918 2025-06-10)',
      'Daily price limit, new listings',
      'stock',
      null,
      1,
      '2025-06-10',
      11_500,
      null,
    ],
    [
      'new listing, day 5 (2025-06-16)',
      'Daily price limit, new listings',
      'stock',
      null,
      5,
      '2025-06-16',
      13_500,
      null,
    ],
    // day 6: the stock rule: 135 → 148.5 / 121.5
    [
      'new listing, day 6 (2025-06-17)',
      'Daily price limit',
      'stock',
      null,
      6,
      '2025-06-17',
      13_500,
      { up: 14_850, down: 12_150 },
    ],
    // a first-listing day number is a share's: an ETF listed that day still has its band
    [
      'new ETF, day 1',
      'Daily price limit, ETFs and ETNs',
      'etf',
      DOMESTIC,
      1,
      '2025-04-16',
      1_001,
      { up: 1_101, down: 901 },
    ],
  ])('%s (%s)', (_case, row, kind, etf, listingDay, date, ref, expected) => {
    expect(band(kind, etf, listingDay, date, ref)).toEqual(expected);
    expect(priceLimitRule(limitClassOf({ kind, etf, firstListingDay: listingDay }).cls, date).row).toBe(row);
  });

  it("6918's listing days count on the exchange calendar: 06-16 is day 5, 06-17 day 6", () => {
    const day = (today: string) =>
      listingTradingDayNumber({ listingDate: '2025-06-10', today, isTradingDay });
    expect([day('2025-06-10'), day('2025-06-13'), day('2025-06-16'), day('2025-06-17')]).toEqual([
      1, 4, 5, 6,
    ]);
  });

  it('every class has exactly one row in force on every date, each row citing a rule', () => {
    for (const cls of PRICE_LIMIT_CLASSES)
      for (const date of ['2014-01-02', '2015-05-31', '2015-06-01', '2025-06-10', '2030-01-02'])
        expect(
          PRICE_LIMIT_RULES.filter(
            (r) => r.cls === cls && (r.from ?? '') <= date && date <= (r.to ?? '9999'),
          ),
          `${cls} ${date}`,
        ).toHaveLength(1);
    for (const r of PRICE_LIMIT_RULES) expect(r.row).toMatch(/^Daily price limit/);
  });
});

describe('securities transaction tax by kind and date (TW-MARKET-RULES "Securities transaction tax" and its rows)', () => {
  it.each<[string, string, TaxKind, string, boolean, number]>([
    // case, rule row, tax kind, sale date, day trade, ppm
    ['stock (Art. 2 item 1)', 'Securities transaction tax', 'stock', '2025-06-11', false, 3_000],
    ['ETF (Art. 2 item 2)', 'Securities transaction tax', 'etf', '2025-06-11', false, 1_000],
    [
      'bond ETF in its suspension (Art. 2-1 §2)',
      'Securities transaction tax, bond ETFs',
      'bondEtf',
      '2025-06-11',
      false,
      0,
    ],
    [
      'bond ETF on its last suspended day',
      'Securities transaction tax, bond ETFs',
      'bondEtf',
      '2026-12-31',
      false,
      0,
    ],
    ['bond ETF after its suspension', 'Securities transaction tax', 'bondEtf', '2027-01-04', false, 1_000],
    ['bond ETF before its suspension', 'Securities transaction tax', 'bondEtf', '2016-12-30', false, 1_000],
    [
      'day trade of shares (Art. 2-2)',
      'Securities transaction tax, day trades',
      'stock',
      '2025-06-11',
      true,
      1_500,
    ],
    [
      'day trade on the reduced rate’s last day',
      'Securities transaction tax, day trades',
      'stock',
      '2027-12-31',
      true,
      1_500,
    ],
    [
      'day trade after the reduced rate ends',
      'Securities transaction tax',
      'stock',
      '2028-01-03',
      true,
      3_000,
    ],
    [
      'day trade before the reduced rate began',
      'Securities transaction tax',
      'stock',
      '2017-04-27',
      true,
      3_000,
    ],
    [
      'day trade of an ETF (Art. 2-2 is for shares)',
      'Securities transaction tax',
      'etf',
      '2025-06-11',
      true,
      1_000,
    ],
  ])('%s', (_case, row, kind, date, dayTrade, ppm) => {
    const rule = saleTaxRule(kind, date, dayTrade);
    expect(rule.ppm).toBe(ppm);
    expect(rule.row).toBe(row);
    // What the engine charges with the default schedule is the row's rate.
    const base: InstrumentKind = kind === 'stock' ? 'stock' : 'etf';
    expect(sellTaxPpm(base, DEFAULT_FEES, dayTrade ? date : undefined, { taxKind: kind, date })).toBe(ppm);
  });

  it('on NT$1,000,000 sold: 3,000 (stock), 1,000 (ETF), 0 (bond ETF, 2025), 1,000 (bond ETF, 2027), 1,500 (day trade)', () => {
    const v = 100_000_000;
    expect(sellTaxMinor(v, 'stock', DEFAULT_FEES, undefined, { taxKind: 'stock', date: '2025-06-11' })).toBe(
      300_000,
    );
    expect(sellTaxMinor(v, 'etf', DEFAULT_FEES, undefined, { taxKind: 'etf', date: '2025-06-11' })).toBe(
      100_000,
    );
    expect(sellTaxMinor(v, 'etf', DEFAULT_FEES, undefined, { taxKind: 'bondEtf', date: '2025-06-11' })).toBe(
      0,
    );
    expect(sellTaxMinor(v, 'etf', DEFAULT_FEES, undefined, { taxKind: 'bondEtf', date: '2027-01-04' })).toBe(
      100_000,
    );
    expect(sellTaxMinor(v, 'stock', DEFAULT_FEES, '2025-06-11')).toBe(150_000);
    // A bond ETF's sale without a date pays the ETF rate (no row can be chosen without one).
    expect(sellTaxMinor(v, 'etf', DEFAULT_FEES)).toBe(100_000);
  });

  it('sellTaxPpm with the default schedule equals the table on every kind and a date each side of every bound', () => {
    const dates = [
      '2016-12-31',
      '2017-01-01',
      '2017-04-27',
      '2017-04-28',
      '2026-12-31',
      '2027-01-01',
      '2027-12-31',
      '2028-01-01',
    ];
    for (const kind of TAX_KINDS)
      for (const date of dates)
        for (const dayTrade of [false, true]) {
          const base: InstrumentKind = kind === 'stock' ? 'stock' : 'etf';
          expect(
            sellTaxPpm(base, DEFAULT_FEES, dayTrade ? date : undefined, { taxKind: kind, date }),
            `${kind} ${date} ${dayTrade}`,
          ).toBe(saleTaxRule(kind, date, dayTrade).ppm);
        }
    for (const r of SALE_TAX_RULES) expect(r.row).toMatch(/^Securities transaction tax/);
  });
});

describe('the class data (reference/etf_classes.csv)', () => {
  it('2× leveraged ETFs: the four on a Taiwan index get ±20 %, the seventeen on foreign ones none', async () => {
    const classes = await loadEtfClasses();
    const leveragedEtfs = [...classes].filter(([code]) => /^00\d{3}L$/.test(code));
    expect(leveragedEtfs).toHaveLength(21);
    const cls = (code: string): PriceLimitClass =>
      limitClassOf({ kind: 'etf', etf: classes.get(code)!, firstListingDay: null }).cls;
    const domestic = leveragedEtfs.filter(([code]) => cls(code) === 'leveragedEtf').map(([code]) => code);
    expect(domestic).toEqual(['00631L', '00663L', '00675L', '00685L']);
    for (const code of domestic)
      expect(
        dailyLimitPercent(
          limitClassOf({ kind: 'etf', etf: classes.get(code)!, firstListingDay: null }),
          '2025-06-11',
        ),
      ).toBe(20);
    expect(leveragedEtfs.filter(([code]) => cls(code) === 'foreignIndexEtf')).toHaveLength(17);
  });

  it('inverse, foreign-index and bond rows', async () => {
    const classes = await loadEtfClasses();
    expect(classes.get('00632R')).toEqual({ limitClass: 'inverse', multiple: 1, bond: false });
    expect(classes.get('0050')).toEqual({ limitClass: 'domestic', multiple: 1, bond: false });
    expect(classes.get('00646')?.limitClass).toBe('foreign');
    // A bond ETF's sale is untaxed during the suspension; a leveraged bond ETF is excluded (Art. 2-1 §2).
    expect(taxKindOf('etf', classes.get('00679B')!)).toBe('bondEtf');
    expect(taxKindOf('etf', classes.get('00688L')!)).toBe('etf');
    // ETNs are not ETFs: 統一美國政府債N pays the ETF rate.
    expect(taxKindOf('etf', classes.get('02001B')!)).toBe('etf');
  });
});
