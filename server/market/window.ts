/**
 * The replay window: the real trading days the market replays, one clock session per day, the
 * whole market on the same day (docs/adr/0007-replay-feed-one-market-day.md).
 *
 * The window is the full-market file's (server/market/import.ts FULL_MARKET, PROVENANCE §11):
 * 74 consecutive TWSE/TPEx trading days 2025-04-02 → 2025-07-18. Its list of days is derived from
 * the data (the distinct dates of daily_candles inside those bounds), not from a calendar.
 *
 * The first day of the window is not replayed: it only supplies the previous close (the
 * reference price, TW-MARKET-RULES "Daily price limit") of the second day. 2025-04-01's closes
 * are missing for ~2,200 of the ~2,270 codes, so replaying 2025-04-02 would need a reference price
 * the data do not have. Clock session k replays `replayDates[k mod 73]`: 2025-04-07 → 2025-07-18,
 * then again from 2025-04-07.
 */
import { and, gte, lt, lte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { FULL_MARKET } from './import';
import { dailyCandles } from '../db/schema';

/** First and last date (YYYY-MM-DD) of the full-market window. */
export const WINDOW_FIRST_DATE = FULL_MARKET.firstDate;
export const WINDOW_LAST_DATE = FULL_MARKET.lastDate;

/** The window's trading days and the clock session → replayed day mapping. */
export interface ReplayWindow {
  /** Every trading day of the window, ascending (index = window day index). */
  readonly dates: readonly string[];
  /** Window day index of each replayed day (all but the first), ascending. */
  readonly replayDayIndexes: readonly number[];
  /** Window day index replayed by clock session k (cycles; k may be negative). */
  dayIndexOf(session: number): number;
  /** The date replayed by clock session k. */
  dateOf(session: number): string;
}

/** A ReplayWindow over ascending distinct dates (at least two: the first is the reference day). */
export function replayWindow(dates: readonly string[]): ReplayWindow {
  if (dates.length < 2) throw new RangeError(`replay window needs at least 2 days, got ${dates.length}`);
  for (let i = 1; i < dates.length; i++)
    if (!(dates[i - 1]! < dates[i]!)) throw new RangeError('replay window dates must ascend');
  const replayDayIndexes = dates.slice(1).map((_, i) => i + 1);
  const n = replayDayIndexes.length;
  const dayIndexOf = (k: number) => replayDayIndexes[((k % n) + n) % n]!;
  return { dates, replayDayIndexes, dayIndexOf, dateOf: (k) => dates[dayIndexOf(k)]! };
}

/**
 * The window's trading days from daily_candles: the distinct dates within the window's bounds,
 * ascending. One query by default; with `rangeStarts` (ascending symbols s1 … sn) one query per
 * primary-key range [−∞, s1), [s1, s2), …, [sn, +∞) — the same set — awaiting `between()` after
 * each (the feed yields to the event loop there: daily_candles has no date index, and on PGlite,
 * in-process, one query over all ~315k rows blocks the loop for ~100 ms).
 */
export async function loadWindowDates(
  db: Db,
  opts: { rangeStarts?: readonly string[]; between?: () => Promise<void> } = {},
): Promise<string[]> {
  const starts = opts.rangeStarts ?? [];
  const dates = new Set<string>();
  for (let i = 0; i <= starts.length; i++) {
    if (i > 0) await opts.between?.();
    const from = starts[i - 1];
    const to = starts[i];
    const rows = await db
      .selectDistinct({ date: dailyCandles.date })
      .from(dailyCandles)
      .where(
        and(
          from === undefined ? undefined : gte(dailyCandles.symbol, from),
          to === undefined ? undefined : lt(dailyCandles.symbol, to),
          gte(dailyCandles.date, WINDOW_FIRST_DATE),
          lte(dailyCandles.date, WINDOW_LAST_DATE),
        ),
      );
    for (const r of rows) dates.add(r.date);
  }
  return [...dates].sort();
}
