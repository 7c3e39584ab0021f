/**
 * The replay feed's reads of daily_candles (feed.ts): an instrument's whole daily history for
 * the 1d/1M/1y candles (memoized, one load at a time), and the replay window's rows of every
 * instrument at start (struct of arrays, loaded by primary-key symbol ranges with event-loop
 * yields between queries). Also the candle-window filter behind MarketFeed.candles().
 *
 * Units: prices and turnover TWD minor (1 NT$ = 100), volumes shares, dates YYYY-MM-DD.
 * Errors: database errors reject the returned promises (dailyRowsCache forgets a failed load).
 */
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type { Candle } from '../../contract/market';
import { yieldToEventLoop, type Db } from '../db/client';
import { dailyCandles } from '../db/schema';
import { lastCandles, type DailyRow } from './candles';

/**
 * Instruments per row-loading query. The window loads by symbol ranges through the primary key
 * (symbol, date) — daily_candles has no date index, and on PGlite (in-process) a date-range query
 * scans all ~315k rows while blocking the event loop — in small chunks (~10 × 74 ≈ 740 rows,
 * ~5–10 ms on an idle core; 60 a query blocked 40–100 ms) with a setImmediate yield between them,
 * so the server answers requests while the market loads.
 */
const LOAD_SYMBOLS_PER_QUERY = 10;

/** The daily_candles columns of a DailyRow (prices minor, volume shares, turnover minor or null). */
const dailyRowColumns = {
  date: dailyCandles.date,
  openMinor: dailyCandles.openMinor,
  highMinor: dailyCandles.highMinor,
  lowMinor: dailyCandles.lowMinor,
  closeMinor: dailyCandles.closeMinor,
  volumeShares: dailyCandles.volumeShares,
  turnoverMinor: dailyCandles.turnoverMinor,
};

/** An instrument's whole daily history from the database, oldest first (prices minor, volume shares). */
export function loadDailyRows(db: Db, symbol: string): Promise<DailyRow[]> {
  return db
    .select(dailyRowColumns)
    .from(dailyCandles)
    .where(eq(dailyCandles.symbol, symbol))
    .orderBy(asc(dailyCandles.date));
}

/** Daily rows strictly before `date` (YYYY-MM-DD), by binary search on the ascending list. */
export function dailyRowsBefore(rows: readonly DailyRow[], date: string): DailyRow[] {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.date < date) lo = mid + 1;
    else hi = mid;
  }
  return rows.slice(0, lo);
}

/**
 * loadDailyRows memoized per symbol (one query per symbol for the feed's life); a failed load is
 * forgotten, so the next call retries. Loads run one at a time, a macrotask apart: on PGlite a
 * query runs synchronously in-process (ten years of one instrument ≈ 100 ms on a loaded core), so
 * the loads of a `sub` of a hundred daily-candle streams, issued together, blocked the event loop
 * for seconds; one after another, requests are answered between them.
 */
export function dailyRowsCache(db: Db): (symbol: string) => Promise<DailyRow[]> {
  const history = new Map<string, Promise<DailyRow[]>>();
  let queue: Promise<unknown> = Promise.resolve();
  return (symbol) => {
    let h = history.get(symbol);
    if (!h) {
      const load = queue
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(() => loadDailyRows(db, symbol));
      queue = load.catch(() => undefined);
      h = load;
      h.catch(() => history.delete(symbol));
      history.set(symbol, h);
    }
    return h;
  };
}

/** The last `limit` candles with since ≤ ts < before (ascending copies). */
export function candleWindow(
  candles: readonly Candle[],
  limit: number,
  before?: number,
  since?: number,
): Candle[] {
  // lastCandles keeps a suffix of the ts < before bars; the ts ≥ since bars are a suffix too.
  const out = lastCandles(candles, limit, before);
  return since === undefined ? out : out.filter((c) => c.ts >= since);
}

/** The window's rows of every instrument, struct of arrays indexed [instrument × days + day]. */
export interface WindowRows {
  days: number;
  open: Int32Array;
  high: Int32Array;
  low: Int32Array;
  /** 0: no row (not traded that day). */
  close: Int32Array;
  volume: Float64Array;
  /** NaN: the source has no turnover. */
  turnover: Float64Array;
}

/** Empty rows for `instruments` × `days` (close 0: no row; turnover NaN: none). */
function emptyWindowRows(instruments: number, days: number): WindowRows {
  const n = instruments * days;
  return {
    days,
    open: new Int32Array(n),
    high: new Int32Array(n),
    low: new Int32Array(n),
    close: new Int32Array(n),
    volume: new Float64Array(n),
    turnover: new Float64Array(n).fill(NaN),
  };
}

/**
 * The window's rows of `symbols` (row i of the result is symbols[i]) on `dates` (ascending
 * YYYY-MM-DD, the window's days), loaded by ascending symbol ranges (LOAD_SYMBOLS_PER_QUERY
 * instruments a query, primary-key range scans) with a yield to the event loop before each query.
 * Rows of other symbols or dates in a range are ignored.
 */
export async function loadWindowRows(
  db: Db,
  symbols: string[],
  dates: readonly string[],
): Promise<WindowRows> {
  const days = dates.length;
  const out = emptyWindowRows(symbols.length, days);
  const symRow = new Map(symbols.map((s, i) => [s, i]));
  const dayIdx = new Map(dates.map((d, i) => [d, i]));
  const sorted = [...symbols].sort();
  const from = dates[0]!;
  const to = dates[days - 1]!;
  for (let c = 0; c < sorted.length; c += LOAD_SYMBOLS_PER_QUERY) {
    const part = sorted.slice(c, c + LOAD_SYMBOLS_PER_QUERY);
    await yieldToEventLoop();
    const chunk = await db
      .select({ symbol: dailyCandles.symbol, ...dailyRowColumns })
      .from(dailyCandles)
      .where(
        and(
          gte(dailyCandles.symbol, part[0]!),
          lte(dailyCandles.symbol, part.at(-1)!),
          gte(dailyCandles.date, from),
          lte(dailyCandles.date, to),
        ),
      );
    for (const r of chunk) {
      const i = symRow.get(r.symbol);
      const d = dayIdx.get(r.date);
      if (i === undefined || d === undefined) continue;
      const k = i * days + d;
      out.open[k] = r.openMinor;
      out.high[k] = r.highMinor;
      out.low[k] = r.lowMinor;
      out.close[k] = r.closeMinor;
      out.volume[k] = r.volumeShares;
      if (r.turnoverMinor !== null) out.turnover[k] = r.turnoverMinor;
    }
  }
  return out;
}
