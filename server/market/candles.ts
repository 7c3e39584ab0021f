/**
 * Candle aggregation (contract/market.ts `Candle`: ts = period start epoch ms, prices minor,
 * volume shares, turnover minor).
 *
 * - Intraday periods 1m/3m/15m/30m: buckets of the 270-minute session counted from 09:00 in
 *   market time. The closing print at 13:30:00 belongs to the session's last bucket (13:29 for
 *   1m, 13:00 for 30m) rather than opening a one-trade 13:30 bucket, so a session has exactly
 *   270 / 90 / 18 / 9 buckets.
 * - Daily periods: 1d is one daily_candles row, ts = 00:00 Asia/Taipei of its date; 1M and 1y
 *   aggregate daily rows (open of the first, close of the last, max high, min low, summed volume
 *   and turnover) with ts = 00:00 Asia/Taipei of the month's / year's first day.
 *   Turnover is 0 where the source has none (the contract field is not nullable; the official
 *   files carry turnover, the OHLCV files do not — see server/market/import.ts); an aggregate's
 *   turnover is 0 unless every day in it has one.
 */
import type { Candle, CandlePeriod } from '../../contract/market';
import { dayStartMs, SESSION_MS } from './calendar';

/** Candle periods aggregated live from the session's trades. */
export type IntradayPeriod = '1m' | '3m' | '15m' | '30m';
/** The intraday periods, shortest first. */
export const INTRADAY_PERIODS: readonly IntradayPeriod[] = ['1m', '3m', '15m', '30m'];
/** Period length in ms of market time. */
export const INTRADAY_PERIOD_MS: Record<IntradayPeriod, number> = {
  '1m': 60_000,
  '3m': 180_000,
  '15m': 900_000,
  '30m': 1_800_000,
};

/** True for 1m/3m/15m/30m (built from trades); false for 1d/1M/1y (from daily_candles). */
export function isIntradayPeriod(p: CandlePeriod): p is IntradayPeriod {
  return p === '1m' || p === '3m' || p === '15m' || p === '30m';
}

/** Bucket index of a session offset (ms after 09:00); the 13:30:00 close joins the last bucket. */
export function bucketOf(offsetMs: number, periodMs: number): number {
  const last = Math.ceil(SESSION_MS / periodMs) - 1;
  const k = Math.floor(offsetMs / periodMs);
  return k > last ? last : k;
}

/**
 * Live aggregation of one session's trades into the four intraday periods. `add` is O(1) per
 * period; candles are kept in bucket order. `baseMs` is the epoch ms of 09:00 market time.
 */
export class IntradayAggregator {
  readonly series: Record<IntradayPeriod, Candle[]> = { '1m': [], '3m': [], '15m': [], '30m': [] };
  private readonly lastBucket: Record<IntradayPeriod, number> = { '1m': -1, '3m': -1, '15m': -1, '30m': -1 };

  constructor(readonly baseMs: number) {}

  /** Adds a trade (offset ms after 09:00, price minor, size shares). */
  add(offsetMs: number, priceMinor: number, shares: number): void {
    const turnover = priceMinor * shares;
    for (const p of INTRADAY_PERIODS) {
      const periodMs = INTRADAY_PERIOD_MS[p];
      const k = bucketOf(offsetMs, periodMs);
      const list = this.series[p];
      if (k !== this.lastBucket[p]) {
        this.lastBucket[p] = k;
        list.push({
          ts: this.baseMs + k * periodMs,
          openMinor: priceMinor,
          highMinor: priceMinor,
          lowMinor: priceMinor,
          closeMinor: priceMinor,
          volumeShares: shares,
          turnoverMinor: turnover,
        });
      } else {
        const c = list[list.length - 1]!;
        if (priceMinor > c.highMinor) c.highMinor = priceMinor;
        if (priceMinor < c.lowMinor) c.lowMinor = priceMinor;
        c.closeMinor = priceMinor;
        c.volumeShares += shares;
        c.turnoverMinor = (c.turnoverMinor ?? 0) + turnover;
      }
    }
  }

  /** The current (latest) candle of a period, or undefined before the first trade. */
  current(p: IntradayPeriod): Candle | undefined {
    const list = this.series[p];
    return list[list.length - 1];
  }
}

/**
 * From-scratch aggregation of trades [0, count) into one intraday period (reference
 * implementation for tests and for rebuilding state).
 */
export function aggregateTrades(
  trades: { offsets: ArrayLike<number>; prices: ArrayLike<number>; shares: ArrayLike<number> },
  count: number,
  period: IntradayPeriod,
  baseMs: number,
): Candle[] {
  const periodMs = INTRADAY_PERIOD_MS[period];
  const byBucket = new Map<number, Candle>();
  for (let i = 0; i < count; i++) {
    const k = bucketOf(trades.offsets[i]!, periodMs);
    const p = trades.prices[i]!;
    const sh = trades.shares[i]!;
    const c = byBucket.get(k);
    if (!c) {
      byBucket.set(k, {
        ts: baseMs + k * periodMs,
        openMinor: p,
        highMinor: p,
        lowMinor: p,
        closeMinor: p,
        volumeShares: sh,
        turnoverMinor: p * sh,
      });
    } else {
      c.highMinor = Math.max(c.highMinor, p);
      c.lowMinor = Math.min(c.lowMinor, p);
      c.closeMinor = p;
      c.volumeShares += sh;
      c.turnoverMinor = (c.turnoverMinor ?? 0) + p * sh;
    }
  }
  return [...byBucket.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
}

/** A daily row as the feed keeps it (turnover null when the source has none). */
export interface DailyRow {
  date: string;
  openMinor: number;
  highMinor: number;
  lowMinor: number;
  closeMinor: number;
  volumeShares: number;
  turnoverMinor: number | null;
}

/** 1d candle of a daily row (ts = 00:00 Asia/Taipei; turnover null when the source has none). */
export function dailyCandle(r: DailyRow): Candle {
  return {
    ts: dayStartMs(r.date),
    openMinor: r.openMinor,
    highMinor: r.highMinor,
    lowMinor: r.lowMinor,
    closeMinor: r.closeMinor,
    volumeShares: r.volumeShares,
    turnoverMinor: r.turnoverMinor,
  };
}

/**
 * Aggregates ascending daily rows into month ('1M') or year ('1y') candles, ts at the period's
 * first day 00:00 Asia/Taipei. Turnover is summed only when every row has one, else null
 * (unknown: the non-official OHLCV sources carry none).
 */
export function aggregateDaily(rows: readonly DailyRow[], period: '1M' | '1y'): Candle[] {
  const out: Candle[] = [];
  let key = '';
  let cur: Candle | null = null;
  let turnoverKnown = true;
  const keyLen = period === '1M' ? 7 : 4;
  const flush = () => {
    if (cur) {
      if (!turnoverKnown) cur.turnoverMinor = null;
      out.push(cur);
    }
  };
  for (const r of rows) {
    const k = r.date.slice(0, keyLen);
    if (k !== key) {
      flush();
      key = k;
      turnoverKnown = r.turnoverMinor !== null;
      cur = {
        ts: dayStartMs(period === '1M' ? `${k}-01` : `${k}-01-01`),
        openMinor: r.openMinor,
        highMinor: r.highMinor,
        lowMinor: r.lowMinor,
        closeMinor: r.closeMinor,
        volumeShares: r.volumeShares,
        turnoverMinor: r.turnoverMinor,
      };
    } else if (cur) {
      cur.highMinor = Math.max(cur.highMinor, r.highMinor);
      cur.lowMinor = Math.min(cur.lowMinor, r.lowMinor);
      cur.closeMinor = r.closeMinor;
      cur.volumeShares += r.volumeShares;
      if (r.turnoverMinor === null) turnoverKnown = false;
      else if (cur.turnoverMinor !== null) cur.turnoverMinor += r.turnoverMinor;
    }
  }
  flush();
  return out;
}

/** The last `limit` candles with ts < before (all when before is undefined), ascending. */
export function lastCandles(candles: readonly Candle[], limit: number, before?: number): Candle[] {
  let end = candles.length;
  if (before !== undefined) {
    while (end > 0 && candles[end - 1]!.ts >= before) end--;
  }
  return candles.slice(Math.max(0, end - limit), end).map((c) => ({ ...c }));
}

/** Ascending daily rows as `period` candles: one per row for 1d, else aggregated (1M/1y). */
export function dailyCandlesOf(rows: readonly DailyRow[], period: '1d' | '1M' | '1y'): Candle[] {
  return period === '1d' ? rows.map(dailyCandle) : aggregateDaily(rows, period);
}
