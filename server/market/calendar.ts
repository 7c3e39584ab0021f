/**
 * TWSE trading calendar and session hours, in Asia/Taipei.
 *
 * Trading days come from server/db/seed-data/calendar/twse_calendar_exceptions_2015_2026.csv
 * (PROVENANCE §6): every weekday the TWSE was closed (`status` closed: holidays, typhoon days,
 * the unscheduled 2026-07-10 closure) and every weekend day it was open (`status` open: Saturday
 * make-up sessions 2016–2018). A date not listed is a trading day iff it is Monday–Friday.
 * Coverage ends 2026-12-31; later dates fall back to the Mon–Fri rule (holidays unknown), and
 * unscheduled closures after 2026-07-31 are unknown.
 *
 * Session (TW-MARKET-RULES "Regular session", "Opening and closing"): trading 09:00–13:30
 * Asia/Taipei = 270 minutes. This product models the continuous session only: phase 'open' for
 * 09:00 ≤ t < 13:30 on a trading day, 'closed' otherwise (the 08:30 pre-open and the 13:25–13:30
 * closing call are not modelled separately; the 13:30:00 closing print belongs to the session).
 *
 * Dates are ISO `YYYY-MM-DD` strings; instants are epoch ms. Asia/Taipei has been UTC+8 without
 * DST since 1979; conversions still go through luxon.
 */
import { DateTime } from 'luxon';
import { readCsvRecordsSync, seedDataPath } from './csv';

/** IANA zone of the TWSE (UTC+8, no DST). */
export const MARKET_ZONE = 'Asia/Taipei';
/** Continuous session start, minutes after local midnight (09:00). */
export const SESSION_OPEN_MINUTE = 9 * 60;
/** Session length in ms of market time: 09:00 → 13:30 = 270 min. */
export const SESSION_MS = 270 * 60_000;

/** contract/market.ts sessionPhaseSchema. */
export type SessionPhase = 'open' | 'closed';

interface Exceptions {
  closed: Set<string>;
  open: Set<string>;
}
let exceptions: Exceptions | null = null;

/** Loads the exceptions file on first use (small, read synchronously once). */
function loadExceptions(): Exceptions {
  if (exceptions) return exceptions;
  const recs = readCsvRecordsSync(seedDataPath('calendar', 'twse_calendar_exceptions_2015_2026.csv'));
  const ex: Exceptions = { closed: new Set(), open: new Set() };
  for (const r of recs) {
    if (r.status === 'closed') ex.closed.add(r.date!);
    else if (r.status === 'open') ex.open.add(r.date!);
    else throw new Error(`calendar: unknown status ${r.status} on ${r.date}`);
  }
  exceptions = ex;
  return ex;
}

/**
 * The exceptions file as sorted ISO-date lists: `closed` weekdays (holidays, typhoon days,
 * unscheduled closures) and `open` weekend days (make-up sessions). Contract code takes these as
 * data (contract/trading-session.ts `tradingDayPredicate`) since it must not import the server.
 */
export function calendarExceptions(): { closed: string[]; open: string[] } {
  const ex = loadExceptions();
  return { closed: [...ex.closed].sort(), open: [...ex.open].sort() };
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(isoDate: string): DateTime {
  const d = ISO_RE.test(isoDate) ? DateTime.fromISO(isoDate, { zone: MARKET_ZONE }) : null;
  if (!d || !d.isValid) throw new RangeError(`not an ISO date: ${isoDate}`);
  return d;
}

const DAY_MS = 86_400_000;

/**
 * The date as epoch ms of its UTC midnight: calendar-date arithmetic (weekday, ± days) needs no
 * zone, and this is ~50× cheaper than a luxon parse (listing-day walks and the TAIEX file ask for
 * thousands of dates at start). @throws RangeError when not a real YYYY-MM-DD date.
 */
function utcDay(isoDate: string): number {
  const t = ISO_RE.test(isoDate) ? Date.parse(`${isoDate}T00:00:00Z`) : NaN;
  if (!(t === t && utcDate(t) === isoDate)) throw new RangeError(`not an ISO date: ${isoDate}`);
  return t;
}

/** YYYY-MM-DD of a UTC-midnight epoch ms. */
const utcDate = (t: number): string => new Date(t).toISOString().slice(0, 10);

/** True when the TWSE holds a regular session on this date (YYYY-MM-DD). */
export function isTradingDay(isoDate: string): boolean {
  const ex = loadExceptions();
  if (ex.closed.has(isoDate)) return false;
  if (ex.open.has(isoDate)) return true;
  const wd = new Date(utcDay(isoDate)).getUTCDay(); // 0 = Sunday … 6 = Saturday
  return wd >= 1 && wd <= 5;
}

/** The date `days` calendar days after `isoDate` (negative: before). */
export function addDays(isoDate: string, days: number): string {
  return utcDate(utcDay(isoDate) + days * DAY_MS);
}

/** The last trading day strictly before `isoDate`. */
export function previousTradingDay(isoDate: string): string {
  let d = addDays(isoDate, -1);
  while (!isTradingDay(d)) d = addDays(d, -1);
  return d;
}

/** The first trading day strictly after `isoDate`. */
export function nextTradingDay(isoDate: string): string {
  let d = addDays(isoDate, 1);
  while (!isTradingDay(d)) d = addDays(d, 1);
  return d;
}

/** Asia/Taipei calendar date (YYYY-MM-DD) of an instant. */
export function taipeiDate(epochMs: number): string {
  return DateTime.fromMillis(epochMs, { zone: MARKET_ZONE }).toISODate()!;
}

const dayStartCache = new Map<string, number>();

/** Epoch ms of 00:00 Asia/Taipei on the date (memoised: candle code calls it per daily row). */
export function dayStartMs(isoDate: string): number {
  let ms = dayStartCache.get(isoDate);
  if (ms === undefined) {
    ms = parseDate(isoDate).toMillis();
    if (dayStartCache.size > 50_000) dayStartCache.clear();
    dayStartCache.set(isoDate, ms);
  }
  return ms;
}

/** sessionStartMs results by date: the zone arithmetic costs ~10 µs and every order asks. */
const sessionStarts = new Map<string, number>();

/** Epoch ms of the session open (09:00 Asia/Taipei) on the date. */
export function sessionStartMs(isoDate: string): number {
  let ms = sessionStarts.get(isoDate);
  if (ms === undefined) {
    ms = parseDate(isoDate).plus({ minutes: SESSION_OPEN_MINUTE }).toMillis();
    if (sessionStarts.size >= 10_000) sessionStarts.clear();
    sessionStarts.set(isoDate, ms);
  }
  return ms;
}

/** Exchange phase at an instant: 'open' iff a trading day and 09:00 ≤ local time < 13:30. */
export function sessionPhaseAt(epochMs: number): SessionPhase {
  const date = taipeiDate(epochMs);
  if (!isTradingDay(date)) return 'closed';
  const t = epochMs - sessionStartMs(date);
  return t >= 0 && t < SESSION_MS ? 'open' : 'closed';
}

/**
 * Number of trading days d with `fromDate` ≤ d < `toDate` (negative when toDate < fromDate:
 * minus the count in [toDate, fromDate)). Walks day by day; callers cache per date.
 */
export function tradingDaysBetween(fromDate: string, toDate: string): number {
  if (toDate < fromDate) return -tradingDaysBetween(toDate, fromDate);
  let n = 0;
  for (let d = fromDate; d < toDate; d = addDays(d, 1)) if (isTradingDay(d)) n++;
  return n;
}
