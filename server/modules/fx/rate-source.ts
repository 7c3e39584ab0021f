/**
 * Exchange rates against USD (product-spec §9 "Exchange currencies … to and from US dollar. No
 * extra fee; rates come from the upstream bank").
 *
 * `RateSource` is what the exchange handlers read. The embedded default, `tableRateSource`, is the
 * operator-managed `fx_rates` table (admin/saveRate), seeded at start-up by `seedFxRates` from the
 * real samples in server/db/seed-data/reference (PROVENANCE.md §7):
 * - USD/TWD: the newest row of the Bank of Taiwan spot sample; its buying rate becomes `buyPpm`
 *   (what the platform pays per USD when the member sells USD) and its selling rate `sellPpm`
 *   (what the member pays per USD), both converted exactly (31.475 → 31_475_000 ppm).
 * - CNY, JPY, HKD: the TAIFEX daily reference rates of 2023-01-30 (`usd_cny`, `usd_jpy`,
 *   `usd_hkd`); a reference rate is a single mid rate, so it is used as both buy and sell, and the
 *   source names its date so nobody mistakes it for a current quote.
 * - THB, MYR, VND, KRW, INR: no real rate is bundled, so no row: exchanges in them are refused
 *   with `rateUnavailable` until an operator sets a rate.
 * Seeding only fills a currency that has no row, so an operator's rate is never overwritten.
 *
 * A live feed (e.g. the Bank of Taiwan board at rate.bot.com.tw) can implement `RateSource` later
 * and be returned by `rateSource()` instead; nothing else changes.
 */
import { eq } from 'drizzle-orm';
import { CURRENCIES } from '../../../contract/constants';
import type { FxRate } from '../../../contract/funds';
import { decimalToPpm } from '../../../contract/money';
import type { Db, Tx } from '../../db/client';
import { fxRates } from '../../db/schema';
import { readCsvRecordsSync, seedDataPath } from '../../market/csv';

/** Where exchange rates come from. Rates are against USD, integer ppm (contract/funds.ts FxRate). */
export interface RateSource {
  /** Every currency that has a rate, in CURRENCIES order. */
  list(): Promise<FxRate[]>;
  /** The rate of one currency, or null when there is none (the exchange is then refused). */
  get(currency: string): Promise<FxRate | null>;
}

export type FxRateRow = typeof fxRates.$inferSelect;

/** An fx_rates row as the API returns it. */
export const fxRateDto = (r: FxRateRow): FxRate => ({
  currency: r.currency,
  buyPpm: r.buyPpm,
  sellPpm: r.sellPpm,
  source: r.source,
  asOf: r.asOf,
});

const order = (c: string) => {
  const i = (CURRENCIES as readonly string[]).indexOf(c);
  return i < 0 ? CURRENCIES.length : i;
};

/** The embedded default source: the operator-managed fx_rates table. */
export function tableRateSource(db: Db | Tx): RateSource {
  return {
    async list() {
      const rows = await db.select().from(fxRates);
      return rows.map(fxRateDto).sort((a, b) => order(a.currency) - order(b.currency));
    },
    async get(currency) {
      const [row] = await db.select().from(fxRates).where(eq(fxRates.currency, currency));
      return row ? fxRateDto(row) : null;
    },
  };
}

/** The rate source the handlers use (the fx_rates table; a live feed would be chosen here). */
export function rateSource(db: Db | Tx): RateSource {
  return tableRateSource(db);
}

/** A rate to seed: currency, exact ppm, where it came from and its date. */
export interface SeedRate {
  currency: string;
  buyPpm: number;
  sellPpm: number;
  source: string;
  asOf: string;
}

/**
 * The real rates bundled in server/db/seed-data/reference (see the module docstring).
 * @throws Error when a file is missing a column or a value is not an exact decimal.
 */
export function bundledRates(): SeedRate[] {
  const bot = readCsvRecordsSync(seedDataPath('reference', 'usd_twd_bank_of_taiwan_spot_2026.csv'));
  if (!bot.length) throw new Error('fx seed: Bank of Taiwan sample is empty');
  const newest = bot.reduce((a, b) => (b.date! > a.date! ? b : a));
  const out: SeedRate[] = [
    {
      currency: 'TWD',
      buyPpm: decimalToPpm(newest.usd_twd_spot_buy!),
      sellPpm: decimalToPpm(newest.usd_twd_spot_sell!),
      source: `Bank of Taiwan spot ${newest.date}`,
      asOf: newest.date!,
    },
  ];
  const taifex = readCsvRecordsSync(seedDataPath('reference', 'fx_taifex_daily_20230130.csv'));
  const ref = taifex[0];
  if (!ref) throw new Error('fx seed: TAIFEX reference file is empty');
  for (const [currency, column] of [
    ['CNY', 'usd_cny'],
    ['JPY', 'usd_jpy'],
    ['HKD', 'usd_hkd'],
  ] as const) {
    const v = ref[column];
    if (!v) throw new Error(`fx seed: TAIFEX column ${column} missing`);
    const ppm = decimalToPpm(v);
    out.push({
      currency,
      buyPpm: ppm,
      sellPpm: ppm,
      source: `TAIFEX daily reference rate ${ref.date}`,
      asOf: ref.date!,
    });
  }
  return out;
}

/** Inserts the bundled real rates for every currency that has no row yet (never overwrites). */
export async function seedFxRates(db: Db): Promise<void> {
  await db.insert(fxRates).values(bundledRates()).onConflictDoNothing({ target: fxRates.currency });
}
