/**
 * Imports the bundled real market data (server/db/seed-data, see its PROVENANCE.md) into the
 * `instruments` and `daily_candles` tables.
 *
 * - instruments ← securities.csv (TWSE + TPEx stocks, ETFs, innovation-board stocks; snapshot
 *   2026-03-26), plus every code of the full-market window that securities.csv lacks (ETNs,
 *   REITs, codes delisted since; name and market from full-market/codes_*.csv, no industry or
 *   listing date). security_type from contract/market.ts securityTypeOf, kind (the rule class)
 *   from ruleKindOf. Empty industry → null. name_en ← reference/instrument_names_en.csv (the
 *   exchange's English short names, see reference/README.md; null for a code it lacks), also
 *   filled in on rows imported before it existed (never overwriting a non-null value).
 * - daily_candles ← five files, merged per (symbol, date) by priority
 *   (PROVENANCE §9 "official §2.1 > §2.2 > §2.4"; §11 the full-market window, official too,
 *   first so that a replayed day equals the exchanges' own row for every instrument):
 *     0. full-market/tw_daily_2025-04-02_2025-07-18.csv.gz  source 'twse_mi_index' or
 *        'tpex_quotes' by the code's market on that date (codes_*.csv; official, with turnover;
 *        gzip)
 *     1. twse_stock_day_full_2015_2025.csv  source 'twse_stock_day' (official, with turnover)
 *     2. twse_ohlcv_2015_2025.csv           source 'twse_ohlcv'     (official OHLCV, no turnover)
 *     3. twse_stock_day_2330_2026.csv       source 'twse_stock_day' (official, with turnover)
 *     4. recent_ohlcv_2024_2026.csv         source 'yahoo_recent'   (Yahoo volume, no turnover)
 *   Prices NT$ → integer minor units (1 NT$ = 100) with contract/money.ts `toMinor` (exact; no
 *   float). turnover_twd NT$ → minor; null where the file has none. volume in shares.
 *   Rows whose prices carry more than 2 decimals are **skipped**: they are Yahoo back-adjusted
 *   values, not traded prices (44 rows in recent_ohlcv for 1605 and 3037), and a missing row is
 *   the data set's convention for "not available". Rows whose code is not in securities.csv are
 *   skipped too (foreign key); none in the shipped data.
 *
 * Idempotent: `INSERT … ON CONFLICT DO NOTHING` in multi-row batches, so a second run inserts
 * nothing and never overwrites rows (e.g. an operator's `delisted` flag).
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dailyCandles, exRightsEvents, instruments } from '../db/schema';
import { parseDividendMicros } from '../../contract/dividends';
import { EX_RIGHTS_FILE } from './reference';
import { ruleKindOf, securityTypeOf } from '../../contract/market';
import { toMinor } from '../../contract/money';
import { parseCsv, readCsvRecords, seedDataPath, toRecords, type CsvRecord } from './csv';

/** Rows per INSERT statement (9 parameters per candle row, far below PostgreSQL's 65,535). */
const BATCH_ROWS = 1000;

/** The daily files in priority order (first wins on an overlapping (code, date)). */
export const DAILY_SOURCES: ReadonlyArray<{ file: string; source: string }> = [
  { file: 'twse_stock_day_full_2015_2025.csv', source: 'twse_stock_day' },
  { file: 'twse_ohlcv_2015_2025.csv', source: 'twse_ohlcv' },
  { file: 'twse_stock_day_2330_2026.csv', source: 'twse_stock_day' },
  { file: 'recent_ohlcv_2024_2026.csv', source: 'yahoo_recent' },
];

/** The full-market window (PROVENANCE §11): every TWSE and TPEx security that traded, per day. */
export const FULL_MARKET = {
  daily: ['full-market', 'tw_daily_2025-04-02_2025-07-18.csv.gz'],
  codes: ['full-market', 'codes_2025-04-02_2025-07-18.csv'],
  firstDate: '2025-04-02',
  lastDate: '2025-07-18',
} as const;

type InstrumentRow = typeof instruments.$inferInsert;
type CandleRow = typeof dailyCandles.$inferInsert;

function marketOf(v: string): 'TWSE' | 'TPEx' {
  if (v === 'TWSE' || v === 'twse') return 'TWSE';
  if (v === 'TPEx' || v === 'tpex') return 'TPEx';
  throw new RangeError(`unknown market ${v}`);
}

/** The English short names file (code → name_en; reference/README.md). */
export const NAMES_EN_FILE = ['reference', 'instrument_names_en.csv'] as const;

/** The exchange's English short names by code (1,985 codes; a code without one is absent). */
export async function readInstrumentNamesEn(): Promise<Map<string, string>> {
  const rows = await readCsvRecords(seedDataPath(...NAMES_EN_FILE));
  return new Map(rows.map((r) => [r.code!, r.name_en!]));
}

/** securities.csv record → instruments row. */
function toInstrument(r: CsvRecord): InstrumentRow {
  const securityType = securityTypeOf(r.code!, r.type);
  return {
    symbol: r.code!,
    name: r.name!,
    nameEn: null,
    isin: r.isin || null,
    listingDate: r.listing_date || null,
    market: marketOf(r.market!),
    industry: r.industry || null,
    kind: ruleKindOf(securityType),
    securityType,
  };
}

/** full-market codes_*.csv record (a code securities.csv lacks) → instruments row. */
function toWindowInstrument(r: CsvRecord): InstrumentRow {
  const securityType = securityTypeOf(r.code!);
  return {
    symbol: r.code!,
    name: r.name_latest!,
    nameEn: null,
    isin: null,
    listingDate: null,
    market: marketOf(r.market!),
    industry: null,
    kind: ruleKindOf(securityType),
    securityType,
  };
}

/** The full-market window's daily records (gunzipped and parsed; ~164,000 rows). */
async function readFullMarketDaily(): Promise<CsvRecord[]> {
  const text = gunzipSync(await readFile(seedDataPath(...FULL_MARKET.daily))).toString('utf8');
  return toRecords(parseCsv(text), FULL_MARKET.daily[1]);
}

const PRICE_RE = /^\d+(\.\d{1,2})?$/;

/** daily record → candle row, or null when a price is not an exact 2-decimal value. */
function toCandle(r: CsvRecord, source: string): CandleRow | null {
  const { open, high, low, close } = r;
  if (![open, high, low, close].every((v) => v !== undefined && PRICE_RE.test(v))) return null;
  const volume = Number(r.volume_shares);
  if (!Number.isSafeInteger(volume)) return null;
  const turnover = r.turnover_twd;
  return {
    symbol: r.code!,
    date: r.date!,
    openMinor: toMinor(open!),
    highMinor: toMinor(high!),
    lowMinor: toMinor(low!),
    closeMinor: toMinor(close!),
    volumeShares: volume,
    turnoverMinor: turnover ? toMinor(turnover) : null,
    source,
  };
}

async function insertBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) await insert(rows.slice(i, i + BATCH_ROWS));
}

const SYMBOL_RE = /^[0-9A-Z]{1,8}$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const SOURCE_RE = /^[a-z_]+$/;

function intLiteral(n: number | null | undefined): string {
  if (n === null || n === undefined) return 'NULL';
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`);
  return String(n);
}

/**
 * One multi-row `INSERT … ON CONFLICT DO NOTHING` for candle rows, written as SQL literals.
 * Drizzle's query builder spends ~30 ms building a 1,000-row statement (≈5 s for the full data
 * set), so the statement text is assembled here instead. Safe because every value is checked
 * first: symbols [0-9A-Z], ISO dates, safe integers, lower-case source tags.
 */
function candleInsertSql(batch: CandleRow[]) {
  const values = batch.map((r) => {
    if (!SYMBOL_RE.test(r.symbol) || !DATE_RE.test(r.date) || !SOURCE_RE.test(r.source)) {
      throw new RangeError(`unexpected candle key ${r.symbol} ${r.date} ${r.source}`);
    }
    return `('${r.symbol}','${r.date}',${intLiteral(r.openMinor)},${intLiteral(r.highMinor)},${intLiteral(r.lowMinor)},${intLiteral(r.closeMinor)},${intLiteral(r.volumeShares)},${intLiteral(r.turnoverMinor)},'${r.source}')`;
  });
  return sql.raw(
    'INSERT INTO daily_candles (symbol, date, open_minor, high_minor, low_minor, close_minor, volume_shares, turnover_minor, source) VALUES ' +
      values.join(',') +
      ' ON CONFLICT DO NOTHING',
  );
}

/** The query method of PGlite's transaction object (its `blob` option feeds `COPY … FROM '/dev/blob'`). */
interface PgliteTxClient {
  query(query: string, params: unknown[], options: { blob: Blob }): Promise<unknown>;
}

/**
 * Candle rows as CSV for `COPY … FROM '/dev/blob'` (same checks as candleInsertSql; empty
 * turnover → NULL).
 */
function candleCsv(rows: CandleRow[]): string {
  return rows
    .map((r) => {
      if (!SYMBOL_RE.test(r.symbol) || !DATE_RE.test(r.date) || !SOURCE_RE.test(r.source)) {
        throw new RangeError(`unexpected candle key ${r.symbol} ${r.date} ${r.source}`);
      }
      const t = r.turnoverMinor === null || r.turnoverMinor === undefined ? '' : intLiteral(r.turnoverMinor);
      return `${r.symbol},${r.date},${intLiteral(r.openMinor)},${intLiteral(r.highMinor)},${intLiteral(r.lowMinor)},${intLiteral(r.closeMinor)},${intLiteral(r.volumeShares)},${t},${r.source}`;
    })
    .join('\n');
}

/** Instrument and candle rows as the seed files define them (after merging and filtering). */
export interface SeedMarketData {
  instruments: InstrumentRow[];
  /** Sorted by (symbol, date); one row per key, from the highest-priority file. */
  candles: CandleRow[];
}

/**
 * Reads and merges the seed files without touching a database (importMarketData's first half;
 * also used by tests that only need the bars).
 *
 * @param opts.symbols restrict both lists to these codes.
 */
export async function readSeedMarketData(opts?: { symbols?: string[] }): Promise<SeedMarketData> {
  const only = opts?.symbols ? new Set(opts.symbols) : null;

  const instRows = (await readCsvRecords(seedDataPath('securities.csv')))
    .filter((r) => !only || only.has(r.code!))
    .map(toInstrument);
  const listed = new Set(instRows.map((r) => r.symbol));
  const windowCodes = await readCsvRecords(seedDataPath(...FULL_MARKET.codes));
  for (const r of windowCodes) {
    if (listed.has(r.code!) || (only && !only.has(r.code!))) continue;
    listed.add(r.code!);
    instRows.push(toWindowInstrument(r));
  }
  const namesEn = await readInstrumentNamesEn();
  for (const r of instRows) r.nameEn = namesEn.get(r.symbol) ?? null;
  const known = new Map(instRows.map((r) => [r.symbol, r.market]));
  // The exchange a window row was published by is the one of that date (codes file rows), not
  // today's listing (6589 traded on TPEx in the window, is listed on TWSE since 2025-07-21).
  const spans = new Map<string, CsvRecord[]>();
  for (const r of windowCodes) spans.set(r.code!, [...(spans.get(r.code!) ?? []), r]);
  const windowMarket = (code: string, date: string): 'TWSE' | 'TPEx' | undefined => {
    const r = spans.get(code)?.find((c) => c.first_date! <= date && date <= c.last_date!);
    return r ? marketOf(r.market!) : undefined;
  };

  const merged = new Map<string, CandleRow>();
  for (const r of await readFullMarketDaily()) {
    const market = known.get(r.code!);
    if (!market) continue;
    const publisher = windowMarket(r.code!, r.date!) ?? market;
    const row = toCandle(r, publisher === 'TWSE' ? 'twse_mi_index' : 'tpex_quotes');
    if (row) merged.set(`${r.code}|${r.date}`, row);
  }
  for (const { file, source } of DAILY_SOURCES) {
    const records = await readCsvRecords(seedDataPath('daily', file));
    for (const r of records) {
      if (!known.has(r.code!)) continue;
      const key = `${r.code}|${r.date}`;
      if (merged.has(key)) continue; // a higher-priority file already supplied this day
      const row = toCandle(r, source);
      if (row) merged.set(key, row);
    }
  }
  const candleRows = [...merged.values()].sort((a, b) =>
    a.symbol === b.symbol ? (a.date < b.date ? -1 : 1) : a.symbol < b.symbol ? -1 : 1,
  );
  return { instruments: instRows, candles: candleRows };
}

/**
 * Imports instruments and daily candles from server/db/seed-data.
 *
 * @param opts.symbols restrict both tables to these codes (e.g. tests: ['2330', '2317', '0050']).
 * @returns how many instrument and candle rows the merged source holds (after the filters above);
 *   every one of them is present in the database afterwards. The numbers are the same on a
 *   second run, which inserts nothing. On PGlite the new candles go in with one
 *   `COPY … FROM '/dev/blob'` (PGlite's in-memory file), half the time of multi-row INSERTs
 *   (20 s against 43 s for the whole data set, 315k rows, on a loaded 2-core machine); on
 *   PostgreSQL by multi-row INSERT … ON CONFLICT DO NOTHING (concurrent importers possible).
 */
export async function importMarketData(
  db: Db,
  opts?: { symbols?: string[] },
): Promise<{ instruments: number; candles: number }> {
  const { instruments: instRows, candles: candleRows } = await readSeedMarketData(opts);

  await db.transaction(async (tx) => {
    // Skip keys already present (one cheap key scan instead of thousands of conflicting inserts:
    // a re-run takes ~1 s instead of ~3 s). ON CONFLICT DO NOTHING still covers concurrent writers.
    const only = opts?.symbols;
    const haveInst = new Set(
      (
        await tx
          .select({ s: instruments.symbol })
          .from(instruments)
          .where(only ? inArray(instruments.symbol, only) : undefined)
      ).map((r) => r.s),
    );
    const haveCandles = new Set(
      (
        await tx
          .select({ k: sql<string>`${dailyCandles.symbol} || '|' || ${dailyCandles.date}::text` })
          .from(dailyCandles)
          .where(only ? inArray(dailyCandles.symbol, only) : undefined)
      ).map((r) => r.k),
    );
    const newInst = instRows.filter((r) => !haveInst.has(r.symbol));
    const newCandles = candleRows.filter((r) => !haveCandles.has(`${r.symbol}|${r.date}`));
    await insertBatches(newInst, (batch) => tx.insert(instruments).values(batch).onConflictDoNothing());
    await fillNamesEn(tx, new Map(instRows.flatMap((r) => (r.nameEn ? [[r.symbol, r.nameEn]] : []))));
    const pglite = (db as { $client?: unknown }).$client instanceof PGlite;
    const raw = (tx as unknown as { session?: { client?: PgliteTxClient } }).session?.client;
    if (pglite && raw && newCandles.length > 0) {
      await raw.query(
        "COPY daily_candles (symbol, date, open_minor, high_minor, low_minor, close_minor, volume_shares, turnover_minor, source) FROM '/dev/blob' WITH (FORMAT csv)",
        [],
        { blob: new Blob([candleCsv(newCandles)]) },
      );
    } else {
      await insertBatches(newCandles, (batch) => tx.execute(candleInsertSql(batch)));
    }
  });
  return { instruments: instRows.length, candles: candleRows.length };
}

/**
 * Sets name_en on the given instruments where it is still null (rows imported before migration
 * 0034, or by the IPO importer): one UPDATE … FROM (VALUES …) per batch; a row with a name_en is
 * never changed, so a re-run updates nothing.
 */
async function fillNamesEn(db: Pick<Db, 'execute'>, names: Map<string, string>): Promise<void> {
  await insertBatches([...names], (batch) =>
    db.execute(sql`UPDATE instruments AS i SET name_en = v.name_en
      FROM (VALUES ${sql.join(
        batch.map(([code, name]) => sql`(${code}, ${name})`),
        sql`, `,
      )}) AS v(symbol, name_en)
      WHERE i.symbol = v.symbol AND i.name_en IS NULL`),
  );
}

/** Number of rows in daily_candles (for logs and tests). */
export async function countDailyCandles(db: Db): Promise<number> {
  const res = await db.select({ n: sql<number>`count(*)::int` }).from(dailyCandles);
  return res[0]?.n ?? 0;
}

/** One real public-subscription announcement (seed-data/corporate-actions/ipo_subscriptions.csv). */
export interface IpoAnnouncement {
  code: string;
  name: string;
  /** 發行市場 as announced: 初上市, 上櫃增資, 創新板…, 第一上市… */
  marketType: string;
  /** ISO dates as announced. */
  applyStart: string;
  applyEnd: string;
  drawDate: string;
  sharesOffered: number;
  /** Offer price in TWD minor. */
  priceMinor: number;
  /** Shares per application, or null when the source does not say. */
  sharesPerApplication: number | null;
}

/** The seed file of the public-subscription announcements (PROVENANCE §12). */
export const IPO_SEED_FILE = ['corporate-actions', 'ipo_subscriptions.csv'] as const;

/** Reads the real public-subscription announcements (94 rows, file order). */
export async function readIpoAnnouncements(): Promise<IpoAnnouncement[]> {
  return (await readCsvRecords(seedDataPath(...IPO_SEED_FILE))).map((r) => ({
    code: r.code!,
    name: r.name!,
    marketType: r.market!,
    applyStart: r.subscribe_start!,
    applyEnd: r.subscribe_end!,
    drawDate: r.draw_date!,
    sharesOffered: Number(r.shares_offered),
    priceMinor: toMinor(r.price!),
    sharesPerApplication: r.shares_per_application ? Number(r.shares_per_application) : null,
  }));
}

/**
 * Imports the public-subscription announcements' instruments: a code that is not yet an
 * instrument (a first listing) is added with its announced name, the market its 發行市場 names
 * (上櫃 → TPEx, otherwise TWSE), its English short name (reference/instrument_names_en.csv, or
 * null), kind and security type from its code, and no price history. Idempotent (ON CONFLICT DO
 * NOTHING; an existing row is never changed, except a null name_en filled in).
 * @param opts.symbols a restricted import (tests): only announcements of these codes are kept.
 * @returns the announcements whose instrument exists afterwards (the ones to schedule).
 */
export async function importIpoAnnouncements(
  db: Db,
  opts?: { symbols?: string[] },
): Promise<IpoAnnouncement[]> {
  const only = opts?.symbols ? new Set(opts.symbols) : null;
  const all = (await readIpoAnnouncements()).filter((a) => !only || only.has(a.code));
  const namesEn = await readInstrumentNamesEn();
  const rows: InstrumentRow[] = [];
  const seen = new Set<string>();
  for (const a of all) {
    if (seen.has(a.code)) continue;
    seen.add(a.code);
    const securityType = securityTypeOf(a.code);
    rows.push({
      symbol: a.code,
      name: a.name,
      nameEn: namesEn.get(a.code) ?? null,
      isin: null,
      listingDate: null,
      market: a.marketType.includes('上櫃') ? 'TPEx' : 'TWSE',
      industry: null,
      kind: ruleKindOf(securityType),
      securityType,
    });
  }
  await insertBatches(rows, (batch) => db.insert(instruments).values(batch).onConflictDoNothing());
  await fillNamesEn(db, new Map(rows.flatMap((r) => (r.nameEn ? [[r.symbol, r.nameEn]] : []))));
  return all;
}

/**
 * Imports the exchanges' ex-rights/ex-dividend events of the replay window
 * (full-market/ex_rights_2025-04-01_2025-07-22.csv, PROVENANCE §11: TWSE TWT49U, TPEx exDailyQ)
 * into `ex_rights_events`: prices → TWD minor (toMinor, exact), the cash dividend → micros
 * (contract/dividends.ts parseDividendMicros, exact to 6 decimals; empty → null), the stock
 * dividend ratio and the 息/權/權息 label as published. Every row, whatever `importSymbols`
 * says (1,220 rows; the table has no foreign key to instruments). Idempotent (ON CONFLICT DO
 * NOTHING on (symbol, ex_date)).
 * @returns the number of events in the file.
 */
export async function importExRightsEvents(db: Db): Promise<number> {
  const rows = (await readCsvRecords(EX_RIGHTS_FILE)).map((r) => ({
    symbol: r.code!,
    exDate: r.ex_date!,
    name: r.name!,
    market: r.market!,
    closeBeforeMinor: toMinor(r.close_before!),
    referenceMinor: toMinor(r.reference_price!),
    cashDividendMicros: r.cash_dividend ? parseDividendMicros(r.cash_dividend) : null,
    stockDividendRatio: r.stock_dividend_ratio || null,
    kindZh: r.kind!,
  }));
  await insertBatches(rows, (batch) => db.insert(exRightsEvents).values(batch).onConflictDoNothing());
  return rows.length;
}
