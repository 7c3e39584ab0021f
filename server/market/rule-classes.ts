/**
 * The instrument facts the dated market rules need, read from the bundled data once at start
 * (server/db/seed-data, PROVENANCE §11 and §13):
 * - ETF classes (reference/etf_classes.csv): each ETF, ETN and REIT's price-limit class
 *   (domestic, leveraged, inverse, foreign), multiple and bond-ETF flag (contract/dated-rules.ts
 *   EtfClass: TW-MARKET-RULES "Daily price limit, ETFs and ETNs", "Securities transaction tax,
 *   bond ETFs");
 * - the exchange by date (full-market/codes_*.csv: one row per code and market with the first and
 *   last date it traded there, e.g. 6589 on TPEx through 2025-07-18, listed on TWSE from
 *   2025-07-21 in securities.csv; 3652 TPEx → TWSE on 2022-09-21 in the 2022 file).
 */
import type { EtfClass } from '../../contract/dated-rules';
import { readCsvRecords, seedDataPath } from './csv';

/** The bundled ETF class table. */
export const ETF_CLASSES_FILE = seedDataPath('reference', 'etf_classes.csv');
/** The full-market window's per-code markets (dated rows). */
export const WINDOW_CODES_FILE = seedDataPath('full-market', 'codes_2025-04-02_2025-07-18.csv');

const LIMIT_CLASSES = new Set<EtfClass['limitClass']>(['domestic', 'leveraged', 'inverse', 'foreign']);

/**
 * Reads etf_classes.csv into code → EtfClass (370 rows).
 * @throws RangeError on a row with an unknown class, a multiple outside 1–9 or a bond flag other than yes/no.
 */
export async function loadEtfClasses(file: string = ETF_CLASSES_FILE): Promise<Map<string, EtfClass>> {
  const out = new Map<string, EtfClass>();
  for (const r of await readCsvRecords(file)) {
    const limitClass = r.limit_class as EtfClass['limitClass'];
    const multiple = Number(r.multiple);
    if (!LIMIT_CLASSES.has(limitClass))
      throw new RangeError(`etf_classes.csv ${r.code}: class ${r.limit_class}`);
    if (!Number.isInteger(multiple) || multiple < 1 || multiple > 9)
      throw new RangeError(`etf_classes.csv ${r.code}: multiple ${r.multiple}`);
    if (r.bond !== 'yes' && r.bond !== 'no')
      throw new RangeError(`etf_classes.csv ${r.code}: bond ${r.bond}`);
    out.set(r.code!, { limitClass, multiple, bond: r.bond === 'yes' });
  }
  return out;
}

/** The exchange of an instrument on a date, from dated rows; undefined when no row covers it. */
export type MarketOn = (code: string, date: string) => 'TWSE' | 'TPEx' | undefined;

/** One dated market row of a codes file. */
interface MarketSpan {
  market: 'TWSE' | 'TPEx';
  first: string;
  last: string;
}

/**
 * Reads codes_*.csv files (columns code, market twse|tpex, first_date, last_date) into a lookup:
 * the row whose first…last contains the date; between two rows of one code (days without a
 * trade) the earlier row; before its first row or after its last, undefined (the caller falls back
 * to the instruments table, today's listing).
 * @throws RangeError on an unknown market.
 */
export async function loadMarketHistory(files: readonly string[] = [WINDOW_CODES_FILE]): Promise<MarketOn> {
  const spans = new Map<string, MarketSpan[]>();
  for (const file of files) {
    for (const r of await readCsvRecords(file)) {
      const market = r.market === 'twse' ? 'TWSE' : r.market === 'tpex' ? 'TPEx' : null;
      if (!market) throw new RangeError(`${file}: market ${r.market}`);
      let l = spans.get(r.code!);
      if (!l) spans.set(r.code!, (l = []));
      l.push({ market, first: r.first_date!, last: r.last_date! });
    }
  }
  for (const l of spans.values()) l.sort((a, b) => (a.first < b.first ? -1 : 1));
  return (code, date) => {
    const l = spans.get(code);
    if (!l || date < l[0]!.first || date > l.at(-1)!.last) return undefined;
    let hit = l[0]!;
    for (const s of l) if (s.first <= date) hit = s;
    return hit.market;
  };
}
