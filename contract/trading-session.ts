/**
 * TWSE trading-session phases for an instant, shared by the server's order checks and the client's
 * order ticket. Pure: the trading-day calendar is a parameter (`isTradingDay(isoDate)`); the server
 * passes server/market/calendar.ts `isTradingDay`, a client can build one with
 * `tradingDayPredicate` from the calendar's exception lists. Contract code never imports server
 * code. Every rule cites its row (`TW-MARKET-RULES "<row>"`) in docs/tw-market-rules.md.
 *
 * Phases of a trading day, Asia/Taipei wall time, all intervals **half-open** `[start, end)` and
 * exact to the millisecond (so 08:29:59.999 is `closed` and 08:30:00.000 is `preOpen`):
 *
 * | phase             | interval        | regular orders | after-hours orders | cancellations |
 * |-------------------|-----------------|----------------|--------------------|---------------|
 * | `closed`          | [00:00, 08:30)  | no             | no                 | no            |
 * | `preOpen`         | [08:30, 09:00)  | yes (queue for the 09:00 opening call) | no | yes   |
 * | `continuous`      | [09:00, 13:25)  | yes            | no                 | yes           |
 * | `closingCall`     | [13:25, 13:30)  | yes (matched once at 13:30)             | no | yes   |
 * | `intermission`    | [13:30, 14:00)  | no             | no                 | no            |
 * | `afterHoursEntry` | [14:00, 14:30)  | no             | yes (matched once at 14:30) | yes  |
 * | `closed`          | [14:30, 24:00)  | no             | no                 | no            |
 *
 * A day that is not a trading day is `closed` all day. The 13:30:00.000 closing-call match and the
 * 14:30:00.000 after-hours match are instants, not phases: they happen at the first millisecond
 * of `intermission` and of the evening `closed` phase respectively (`sessionTimes`).
 *
 * Sources: "Regular session" (order entry 08:30–13:30, trading 09:00–13:30), "Pre-open" (from
 * 08:30), "Opening and closing" (call auctions; closing call 13:25–13:30; continuous in between),
 * "After-hours fixed price" (orders 14:00–14:30, one match at 14:30, whole lots).
 * Which phases accept cancellations is this module's reading of those rows (an order can be
 * cancelled while its market takes orders); the rules document has no row of its own for it.
 * Not modelled here: odd-lot sessions ("Odd lot, intraday" 09:00–13:30, "Odd lot, after hours"
 * 13:40–14:30): this product orders whole lots only. Block trades are not modelled either.
 *
 * Asia/Taipei has been UTC+8 without DST since 1979; conversions still go through luxon so a
 * wall time is never computed by hand.
 */
import { DateTime } from 'luxon';

/** IANA zone of the TWSE (TW-MARKET-RULES "Regular session": times are Asia/Taipei). */
export const TWSE_ZONE = 'Asia/Taipei';

/** `true` when the exchange holds a regular session on the ISO date `YYYY-MM-DD`. */
export type IsTradingDay = (isoDate: string) => boolean;

/** Phases in the order they occur on a trading day (see the module table). */
export const TRADING_PHASES = [
  'closed',
  'preOpen',
  'continuous',
  'closingCall',
  'intermission',
  'afterHoursEntry',
] as const;
export type TradingPhase = (typeof TRADING_PHASES)[number];

/** The two order-entry markets modelled: the regular session and the after-hours fixed-price one. */
export type EntryMarket = 'regular' | 'afterHours';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * Phase boundaries as wall-clock offsets from local midnight, in ms (TW-MARKET-RULES "Regular
 * session", "Pre-open", "Opening and closing", "After-hours fixed price").
 */
export const SESSION_BOUNDARIES = {
  /** 08:30 order entry opens; the pre-open trial price is published ("Pre-open"). */
  preOpen: 8 * HOUR + 30 * MINUTE,
  /** 09:00 opening call match; continuous trading from here ("Opening and closing"). */
  continuous: 9 * HOUR,
  /** 13:25 closing call auction starts ("Opening and closing", Art. 58-3). */
  closingCall: 13 * HOUR + 25 * MINUTE,
  /** 13:30 closing call match; regular order entry ends ("Regular session"). */
  regularClose: 13 * HOUR + 30 * MINUTE,
  /** 14:00 after-hours fixed-price order entry opens ("After-hours fixed price", Arts. 3–5). */
  afterHoursEntry: 14 * HOUR,
  /** 14:30 after-hours entry ends; one match at the day's close. */
  afterHoursMatch: 14 * HOUR + 30 * MINUTE,
} as const;

/** What a phase accepts (see the module table for sources). */
export interface PhaseRules {
  /** Regular-session limit and market orders, whole lots (TW-MARKET-RULES "Order types"). */
  regularOrders: boolean;
  /** After-hours fixed-price orders, whole lots, at the day's close (TW-MARKET-RULES "After-hours fixed price"). */
  afterHoursOrders: boolean;
  /** Cancellation of an order resting in the market that is taking orders now. */
  cancellations: boolean;
}

export const PHASE_RULES: Readonly<Record<TradingPhase, Readonly<PhaseRules>>> = {
  closed: { regularOrders: false, afterHoursOrders: false, cancellations: false },
  preOpen: { regularOrders: true, afterHoursOrders: false, cancellations: true },
  continuous: { regularOrders: true, afterHoursOrders: false, cancellations: true },
  closingCall: { regularOrders: true, afterHoursOrders: false, cancellations: true },
  intermission: { regularOrders: false, afterHoursOrders: false, cancellations: false },
  afterHoursEntry: { regularOrders: false, afterHoursOrders: true, cancellations: true },
};

/** Epoch ms of each boundary of the session on one date (whether or not it is a trading day). */
export interface SessionTimes {
  preOpenMs: number;
  continuousMs: number;
  closingCallMs: number;
  /** 13:30: the closing-call match and the end of regular order entry. */
  regularCloseMs: number;
  afterHoursEntryMs: number;
  /** 14:30: the after-hours fixed-price match and the end of its order entry. */
  afterHoursMatchMs: number;
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}$/;

function localMidnight(isoDate: string): DateTime {
  const d = ISO_RE.test(isoDate) ? DateTime.fromISO(isoDate, { zone: TWSE_ZONE }) : null;
  if (!d || !d.isValid) throw new RangeError(`not an ISO date: ${isoDate}`);
  return d;
}

/** Epoch ms of a wall-clock offset (ms after midnight) on the date, set as wall time in Asia/Taipei. */
function wallMs(midnight: DateTime, offsetMs: number): number {
  return midnight
    .set({
      hour: Math.floor(offsetMs / HOUR),
      minute: Math.floor((offsetMs % HOUR) / MINUTE),
      second: 0,
      millisecond: 0,
    })
    .toMillis();
}

/** The session's boundary instants on `isoDate` (Asia/Taipei wall times, see SESSION_BOUNDARIES). */
export function sessionTimes(isoDate: string): SessionTimes {
  const m = localMidnight(isoDate);
  const b = SESSION_BOUNDARIES;
  return {
    preOpenMs: wallMs(m, b.preOpen),
    continuousMs: wallMs(m, b.continuous),
    closingCallMs: wallMs(m, b.closingCall),
    regularCloseMs: wallMs(m, b.regularClose),
    afterHoursEntryMs: wallMs(m, b.afterHoursEntry),
    afterHoursMatchMs: wallMs(m, b.afterHoursMatch),
  };
}

/**
 * Taipei has kept UTC+8 with no daylight saving since 1979-10-01 (the IANA zone's last rule), so
 * from 1980 on its calendar date is the UTC date of the instant plus 8 h: about 1 µs, where luxon's
 * zone lookup takes about 10 µs (measured), which added up at a session change that dates every
 * instrument's quote (2,268 of them, several times each). Outside [1980, 9999) luxon answers.
 */
const FIXED_OFFSET_FROM_MS = Date.UTC(1980, 0, 1);
const FIXED_OFFSET_UNTIL_MS = Date.UTC(9999, 0, 1);
const TAIPEI_OFFSET_MS = 8 * 3_600_000;

/** Asia/Taipei calendar date (YYYY-MM-DD) of an instant (epoch ms). */
export function taipeiIsoDate(epochMs: number): string {
  if (!(epochMs >= FIXED_OFFSET_FROM_MS && epochMs < FIXED_OFFSET_UNTIL_MS))
    return DateTime.fromMillis(epochMs, { zone: TWSE_ZONE }).toISODate()!;
  return new Date(epochMs + TAIPEI_OFFSET_MS).toISOString().slice(0, 10);
}

/** The ISO date `days` calendar days after `isoDate` (negative: before). */
export function addIsoDays(isoDate: string, days: number): string {
  return localMidnight(isoDate).plus({ days }).toISODate()!;
}

/** Phase at a wall-clock offset (ms after local midnight) of a trading day; half-open intervals. */
function phaseOfTradingDay(offsetMs: number): TradingPhase {
  const b = SESSION_BOUNDARIES;
  if (offsetMs < b.preOpen) return 'closed';
  if (offsetMs < b.continuous) return 'preOpen';
  if (offsetMs < b.closingCall) return 'continuous';
  if (offsetMs < b.regularClose) return 'closingCall';
  if (offsetMs < b.afterHoursEntry) return 'intermission';
  if (offsetMs < b.afterHoursMatch) return 'afterHoursEntry';
  return 'closed';
}

/**
 * The session phase at an instant (epoch ms), Asia/Taipei: `closed` all day on a day that is not a
 * trading day, otherwise the half-open interval of the module table that contains the wall time.
 */
export function tradingPhaseAt(epochMs: number, isTradingDay: IsTradingDay): TradingPhase {
  const day = taipeiDayOf(epochMs);
  if (!isTradingDay(day.date)) return 'closed';
  return phaseOfTradingDay(epochMs - day.startMs);
}

/** The Asia/Taipei day last asked for: its ISO date and [startMs, endMs) (luxon on a miss only). */
let lastDay = { date: '', startMs: 0, endMs: 0 };

/**
 * The Asia/Taipei calendar day containing `epochMs`: its ISO date and the epoch ms of its local
 * midnight and of the next. The zone arithmetic (luxon, ~25 µs) runs once per day asked for;
 * every order asks for the phase.
 * @throws RangeError for a value that is not an instant.
 */
function taipeiDayOf(epochMs: number): { date: string; startMs: number } {
  if (epochMs >= lastDay.startMs && epochMs < lastDay.endMs) return lastDay;
  const dt = DateTime.fromMillis(epochMs, { zone: TWSE_ZONE });
  if (!dt.isValid) throw new RangeError(`not an instant: ${epochMs}`);
  const start = dt.startOf('day');
  lastDay = { date: dt.toISODate()!, startMs: start.toMillis(), endMs: start.plus({ days: 1 }).toMillis() };
  return lastDay;
}

/** True when `market`'s order entry is open in `phase` (PHASE_RULES). */
export function acceptsOrders(phase: TradingPhase, market: EntryMarket = 'regular'): boolean {
  return market === 'regular' ? PHASE_RULES[phase].regularOrders : PHASE_RULES[phase].afterHoursOrders;
}

/** Longest run of non-trading days searched before giving up (real closures last ≤ 10 days). */
const MAX_SEARCH_DAYS = 732;

/**
 * Epoch ms at which `market`'s order entry next opens: the start of the first entry window
 * (08:30 regular, 14:00 after-hours) on a trading day that begins **at or after** `epochMs`.
 * So at exactly 08:30:00.000 the answer is that instant; one millisecond later (entry already
 * open) it is the next trading day's 08:30. Used to answer "outside session → when it opens".
 * Throws RangeError when the predicate finds no trading day within two years.
 */
export function nextOpen(
  epochMs: number,
  isTradingDay: IsTradingDay,
  market: EntryMarket = 'regular',
): number {
  let date = taipeiIsoDate(epochMs);
  for (let i = 0; i <= MAX_SEARCH_DAYS; i++, date = addIsoDays(date, 1)) {
    if (!isTradingDay(date)) continue;
    const t = sessionTimes(date);
    const opens = market === 'regular' ? t.preOpenMs : t.afterHoursEntryMs;
    if (opens >= epochMs) return opens;
  }
  throw new RangeError(`no trading day within ${MAX_SEARCH_DAYS} days after ${date}`);
}

/** Why an order or cancellation was refused by the clock, with the fix (when entry opens). */
export interface SessionRejection {
  /** Maps to the error key `nonTradingTime` (contract/errors.ts). */
  rule: 'outsideSession';
  phase: TradingPhase;
  market: EntryMarket;
  /** nextOpen(now, isTradingDay, market). */
  opensAtMs: number;
}

/**
 * null when `market` takes orders at `epochMs`; otherwise the rejection naming the current phase
 * and when order entry next opens (TW-MARKET-RULES "Regular session", "After-hours fixed price").
 */
export function orderEntryRejection(
  epochMs: number,
  isTradingDay: IsTradingDay,
  market: EntryMarket = 'regular',
): SessionRejection | null {
  const phase = tradingPhaseAt(epochMs, isTradingDay);
  if (acceptsOrders(phase, market)) return null;
  return { rule: 'outsideSession', phase, market, opensAtMs: nextOpen(epochMs, isTradingDay, market) };
}

/**
 * A trading-day predicate from calendar exceptions (the shape server/market/calendar.ts
 * `calendarExceptions()` returns): a date listed `closed` does not trade, one listed `open`
 * (Saturday make-up sessions) does, any other date trades iff it is Monday–Friday.
 */
export function tradingDayPredicate(exceptions: {
  closed: Iterable<string>;
  open: Iterable<string>;
}): IsTradingDay {
  const closed = new Set(exceptions.closed);
  const open = new Set(exceptions.open);
  return (isoDate) => {
    if (closed.has(isoDate)) return false;
    if (open.has(isoDate)) return true;
    return localMidnight(isoDate).weekday <= 5; // 1 = Monday … 7 = Sunday
  };
}

/** The phase functions bound to one calendar (convenience for callers that hold a predicate). */
export function createTradingSession(isTradingDay: IsTradingDay) {
  return {
    phaseAt: (epochMs: number) => tradingPhaseAt(epochMs, isTradingDay),
    nextOpen: (epochMs: number, market: EntryMarket = 'regular') => nextOpen(epochMs, isTradingDay, market),
    orderEntryRejection: (epochMs: number, market: EntryMarket = 'regular') =>
      orderEntryRejection(epochMs, isTradingDay, market),
  };
}

/**
 * The market time (epoch ms) of a past wall instant, for screens that list what a member did
 * "today" in market time, not the server's wall clock.
 *
 * - `replay` clock: each replayed day runs 08:30 → 14:30 market time, one after another with no
 *   gap, at `speed` market ms per wall ms (server/market/clock.ts). Going back `nowWallMs −
 *   wallMs` wall ms from the clock's market time now (`nowMarketMs`) is going back that many ×
 *   `speed` market ms through that cycle; the result is that time of day on `date`, the replayed
 *   date the event belongs to (an order's trade date). Accurate to the time between the feed's
 *   ticks × speed.
 * - any other clock (exchange, stress): the wall time is the market time; `wallMs` itself.
 */
export function marketTimeOfWall(p: {
  wallMs: number;
  nowWallMs: number;
  nowMarketMs: number;
  speed: number;
  replay: boolean;
  /** The replayed date (YYYY-MM-DD) of the event; without one, the date of `nowMarketMs`. */
  date: string | null;
}): number {
  if (!p.replay) return p.wallMs;
  const dayStart = SESSION_BOUNDARIES.preOpen;
  const dayLength = SESSION_BOUNDARIES.afterHoursMatch - SESSION_BOUNDARIES.preOpen;
  const todayMidnight = localMidnight(taipeiIsoDate(p.nowMarketMs)).toMillis();
  const intoCycle = p.nowMarketMs - todayMidnight - dayStart - (p.nowWallMs - p.wallMs) * p.speed;
  const timeOfDay = dayStart + (((intoCycle % dayLength) + dayLength) % dayLength);
  const date = p.date ?? taipeiIsoDate(p.nowMarketMs);
  return localMidnight(date).toMillis() + Math.round(timeOfDay);
}
