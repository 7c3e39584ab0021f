/**
 * Daily-period candles (1d/1M/1y) of an instrument's history before a trading date, built once
 * per (instrument, period, date) and shared by every caller: a candles snapshot of a daily period
 * otherwise turned the instrument's whole history (≈ 2,500 rows for ten years) into candles for
 * every subscriber. The entry of an (instrument, period) is replaced when its date advances (the
 * replay moves to its next day), so at most one per (instrument, period) is kept.
 *
 * What is cached is split so that today's row can be merged without rebuilding: `head`, the
 * candles of every complete period, and `tail`, the rows of the last period (1M/1y: today may
 * belong to it; 1d: none), aggregated again with today's row on each call (a few rows).
 */
import type { Candle } from '../../contract/market';
import { dailyCandlesOf, type DailyRow } from './candles';

/** The cached history of one (instrument, period, date). */
export interface DailyHistory {
  /** Candles of the periods complete before the last one (ascending; never mutate). */
  head: readonly Candle[];
  /** Rows of the last period (ascending), to aggregate with today's row. */
  tail: readonly DailyRow[];
}

type DailyPeriod = '1d' | '1M' | '1y';

/** Splits ascending history rows into DailyHistory for `period`. */
export function splitDailyHistory(rows: readonly DailyRow[], period: DailyPeriod): DailyHistory {
  if (period === '1d') return { head: dailyCandlesOf(rows, period), tail: [] };
  const keyLen = period === '1M' ? 7 : 4;
  let i = rows.length;
  if (i > 0) {
    const key = rows[i - 1]!.date.slice(0, keyLen);
    while (i > 0 && rows[i - 1]!.date.slice(0, keyLen) === key) i--;
  }
  return { head: dailyCandlesOf(rows.slice(0, i), period), tail: rows.slice(i) };
}

/**
 * The history candles followed by today's row (if any), ascending: the same candles as
 * dailyCandlesOf([...history rows, today], period), the head shared (callers copy what they keep).
 */
export function withToday(h: DailyHistory, today: DailyRow | null, period: DailyPeriod): readonly Candle[] {
  const rows = today ? [...h.tail, today] : h.tail;
  return rows.length === 0 ? h.head : h.head.concat(dailyCandlesOf(rows, period));
}

/**
 * A cache of DailyHistory over `rowsBefore(symbol, date)` (the history rows strictly before
 * `date`, YYYY-MM-DD). A failed load is forgotten, so the next call retries.
 */
export function dailyHistoryCache(
  rowsBefore: (symbol: string, date: string) => Promise<DailyRow[]>,
): (symbol: string, period: DailyPeriod, date: string) => Promise<DailyHistory> {
  const entries = new Map<string, { date: string; value: Promise<DailyHistory> }>();
  return (symbol, period, date) => {
    const key = `${symbol}|${period}`;
    let e = entries.get(key);
    if (!e || e.date !== date) {
      const entry = {
        date,
        value: rowsBefore(symbol, date).then((rows) => splitDailyHistory(rows, period)),
      };
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      entries.set(key, (e = entry));
    }
    return e.value;
  };
}
