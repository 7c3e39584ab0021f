/**
 * The deposit window (product-spec §2 "Deposit hours shown", §9 "Deposit hours: weekdays 09:30 to
 * 19:30, closed on holidays"), shared by the server's user/recharge check and the client's notice.
 * Zod-free and pure: the exchange calendar is a parameter (`isTradingDay(isoDate)`), as in
 * contract/trading-session.ts; the server passes `tradingDayPredicate(calendarExceptions())` built
 * from the real TWSE calendar (server/market/calendar.ts).
 *
 * A day's window is the half-open interval [open, close) of Asia/Taipei wall time, exact to the
 * millisecond: with 09:30–19:30, 09:29:59.999 is closed, 09:30:00.000 open, 19:29:59.999 open and
 * 19:30:00.000 closed. Whether a date has a window at all:
 * - `weekdaysOnly`: Saturdays and Sundays have none, **except** a weekend day on which the exchange
 *   trades (a make-up working Saturday such as 2018-12-22): that is an official working day.
 * - `holidaysClosed`: a Monday–Friday on which the exchange does not trade (a holiday, a typhoon
 *   day, an unscheduled closure) has none.
 * With both flags off every day has a window.
 */
import { DateTime } from 'luxon';
import type { DepositHours } from './constants';
import { TWSE_ZONE, type IsTradingDay } from './trading-session';

/** Whether deposits are open at an instant and, when not, when they next open (epoch ms). */
export interface DepositWindow {
  openNow: boolean;
  /** Epoch ms of the next opening when closed now; null when open now or no window within the search. */
  nextOpenAt: number | null;
}

/** Longest stretch searched for the next window (real closures last ≤ 11 days). */
const MAX_SEARCH_DAYS = 400;

const HHMM_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after local midnight of an `HH:MM` wall time ("24:00" is the end of the day). */
export function hhmmToMinutes(hhmm: string): number {
  if (hhmm === '24:00') return 24 * 60;
  const m = HHMM_RE.exec(hhmm);
  if (!m) throw new RangeError(`not an HH:MM time: ${hhmm}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** True when the calendar date (Asia/Taipei) has a deposit window under these settings. */
export function isDepositDay(isoDate: string, hours: DepositHours, isTradingDay: IsTradingDay): boolean {
  const weekday = DateTime.fromISO(isoDate, { zone: TWSE_ZONE }).weekday; // 1 = Monday … 7 = Sunday
  const weekend = weekday >= 6;
  if (weekend) return !hours.weekdaysOnly || isTradingDay(isoDate);
  return !hours.holidaysClosed || isTradingDay(isoDate);
}

/**
 * Deposits at `nowMs` under `hours` (HH:MM Asia/Taipei, weekdaysOnly, holidaysClosed; see the
 * module docstring). `nextOpenAt` is the start of the first window that begins after `nowMs` when
 * closed now (today's opening when it is still ahead), else null.
 * @throws RangeError when open or close is not HH:MM.
 */
export function depositWindow(nowMs: number, hours: DepositHours, isTradingDay: IsTradingDay): DepositWindow {
  const openMin = hhmmToMinutes(hours.open);
  const closeMin = hhmmToMinutes(hours.close);
  const now = DateTime.fromMillis(nowMs, { zone: TWSE_ZONE });
  let day = now.startOf('day');
  for (let i = 0; i <= MAX_SEARCH_DAYS; i++, day = day.plus({ days: 1 })) {
    if (openMin >= closeMin) break; // an empty window never opens
    if (!isDepositDay(day.toISODate()!, hours, isTradingDay)) continue;
    const opensAt = day.plus({ minutes: openMin }).toMillis();
    const closesAt = day.plus({ minutes: closeMin }).toMillis();
    if (i === 0 && nowMs >= opensAt && nowMs < closesAt) return { openNow: true, nextOpenAt: null };
    if (opensAt > nowMs) return { openNow: false, nextOpenAt: opensAt };
  }
  return { openNow: false, nextOpenAt: null };
}
