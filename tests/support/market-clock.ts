/**
 * The market clock in end-to-end tests. The e2e server runs MARKET_CLOCK=manual
 * (playwright.config.ts): market time stands still until a test moves it through POST
 * /api/test/clock (server/http/test-clock.ts), so a test goes straight to the phase it needs
 * (`marketToContinuous`, `marketToAuctionHours`, `moveMarket`) and, when it watches a live market,
 * sets it running (`speed`, market ms per wall ms).
 *
 * The replay clock plays each replayed day 08:30 → 14:30 market time (server/market/clock.ts):
 * prices print only in the continuous session 09:00–13:25; the closing call refuses market orders
 * (`orderTypeNotInSession`), and the intermission, the after-hours match and the next day's
 * pre-open print nothing. A test that trades, or watches a price move, needs continuous trading.
 *
 * A test that watches one instrument move also names it (`moving`): some replayed days are real
 * days on which the instrument printed one price all session, locked at a price limit (2330 on
 * 2025-04-07, limit-down at 848, and 2025-04-10, limit-up at 863: high = low in the seed data).
 * On such a day its last price never changes and its book has one level on one side, as on the
 * exchange; the test moves on to the next replayed day instead.
 *
 * `waitForContinuous` polls a server on the running replay clock instead (the benchmarks').
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { httpApi } from './http-funding';

const OPEN_MINUTE = 9 * 60;
const CLOSING_CALL_MINUTE = 13 * 60 + 25;
/** Market minutes from the closing call to the next day's open: 13:25 → 14:30, 08:30 → 09:00. */
const LONGEST_GAP_MINUTES = 14 * 60 + 30 - CLOSING_CALL_MINUTE + 30;
const TAIPEI_OFFSET_MS = 8 * 3_600_000;
/** Market minutes of one replayed day, 08:30 → 14:30. */
const REPLAY_DAY_MINUTES = REPLAY_DAY_MS / 60_000;
/**
 * Wall ms of one replayed day on the end-to-end server (MARKET_SPEED 30, playwright.config.ts):
 * what a `moving` wait may add, to go into the timeout of a test that watches a price move.
 */
export const SKIPPED_DAY_AT_30X_MS = (REPLAY_DAY_MINUTES * 60_000) / 30;
/** The whole market's daily bars the server imports (server/db/seed-data/full-market). */
const FULL_MARKET_DIR = path.resolve('server/db/seed-data/full-market');

const lockedBySymbol = new Map<string, Set<string>>();

/**
 * The dates (YYYY-MM-DD) on which `symbol` traded at one price all session (high = low in the
 * seed data's daily bars): days locked at a price limit, on which its replay never moves.
 */
export function lockedDates(symbol: string): ReadonlySet<string> {
  const known = lockedBySymbol.get(symbol);
  if (known) return known;
  const locked = new Set<string>();
  for (const file of readdirSync(FULL_MARKET_DIR).filter((f) => /^tw_daily_.*\.csv\.gz$/.test(f))) {
    const lines = gunzipSync(readFileSync(path.join(FULL_MARKET_DIR, file)))
      .toString('utf8')
      .split('\n');
    const col = lines[0]!.split(',');
    const [date, code, high, low] = ['date', 'code', 'high', 'low'].map((c) => col.indexOf(c));
    for (const line of lines.slice(1)) {
      const f = line.split(',');
      if (f[code!] === symbol && f[high!] === f[low!]) locked.add(f[date!]!);
    }
  }
  lockedBySymbol.set(symbol, locked);
  return locked;
}

/** Minutes after midnight, Asia/Taipei (UTC+8, no DST), of a market time. */
const taipeiMinute = (ms: number) =>
  Math.floor(((((ms + TAIPEI_OFFSET_MS) % 86_400_000) + 86_400_000) % 86_400_000) / 60_000);

/**
 * Wall ms a test may have to wait for `marketMinutes` of continuous trading at `speed` (market ms
 * per wall ms): the longest gap (of continuous trading, or `gapMinutes`) plus the minutes wanted,
 * plus 30 s for the server's session build.
 */
export const longestWaitMs = (speed: number, marketMinutes = 20, gapMinutes = LONGEST_GAP_MINUTES) =>
  Math.ceil(((gapMinutes + marketMinutes) * 60_000) / speed) + 30_000;

/** waitForContinuous options. */
export interface ContinuousOptions {
  /** Give up after this many wall ms (default: the longest wait at the server's speed). */
  timeoutMs?: number;
  /** A symbol the test watches move: a replayed day on which it is locked at a limit is skipped. */
  moving?: string;
}

/**
 * Resolves once the replayed day has `marketMinutes` of continuous trading left (and, with
 * `moving`, is not a day that symbol spends locked at a price limit); polls every 250 ms, never
 * sleeps blindly. Throws after `timeoutMs` (default: longestWaitMs at the server's speed, one
 * replayed day more with `moving`, so it only throws when the clock is not moving as it should).
 */
export function waitForContinuous(
  baseUrl: string,
  marketMinutes = 20,
  { timeoutMs, moving }: ContinuousOptions = {},
): Promise<void> {
  const skip = moving ? lockedDates(moving) : new Set<string>();
  const gap = LONGEST_GAP_MINUTES + (moving ? REPLAY_DAY_MINUTES : 0);
  return waitForWindow(baseUrl, OPEN_MINUTE, CLOSING_CALL_MINUTE, marketMinutes, timeoutMs, gap, skip);
}

/** Auction bids are taken 09:00–14:00 market time (contract/primary.ts AUCTION_BID_CLOSE_MS). */
const AUCTION_CLOSE_MINUTE = 14 * 60;

/**
 * Resolves once the replayed day's auction bidding hours (09:00–14:00) have `marketMinutes` left;
 * the longest wait is 14:00 → 14:30 and 08:30 → 09:00 (two wall minutes at 30×).
 */
export function waitForAuctionHours(baseUrl: string, marketMinutes = 10): Promise<void> {
  const gap = 14 * 60 + 30 - AUCTION_CLOSE_MINUTE + 30;
  return waitForWindow(baseUrl, OPEN_MINUTE, AUCTION_CLOSE_MINUTE, marketMinutes, undefined, gap);
}

/**
 * Polls market/list's clock until `open` ≤ minute and minute + `marketMinutes` < `close` on a
 * replayed date not in `skipDates`.
 */
async function waitForWindow(
  baseUrl: string,
  open: number,
  close: number,
  marketMinutes: number,
  timeoutMs: number | undefined,
  gapMinutes = LONGEST_GAP_MINUTES,
  skipDates: ReadonlySet<string> = new Set(),
): Promise<void> {
  const call = httpApi(baseUrl);
  const started = Date.now();
  for (;;) {
    const r = await call<{
      clock: { now: number; speed: number; source: string; replayDate: string | null };
    }>('market/list', { page: 1, pageSize: 1 });
    const clock = r.data?.clock;
    if (!clock || clock.source === 'stress') return;
    const minute = taipeiMinute(clock.now);
    const skipped = clock.replayDate !== null && skipDates.has(clock.replayDate);
    if (!skipped && minute >= open && minute + marketMinutes < close) return;
    const limit = timeoutMs ?? longestWaitMs(clock.speed, marketMinutes, gapMinutes);
    if (Date.now() - started > limit)
      throw new Error(
        `no market window ${open}–${close} within ${limit} ms (market minute ${minute}, ${clock.replayDate}${skipped ? ', skipped' : ''})`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The clock state POST /api/test/clock answers with (contract ClockState, the fields used here). */
export interface TestClock {
  now: number;
  speed: number;
  tradingPhase: string;
  replayDate: string | null;
}

/**
 * Moves the e2e server's manual market clock (server/http/test-clock.ts body: `advanceMs`,
 * `to` 'HH:MM', `days`, `speed`); resolves with the clock after the move, once the feed, the
 * engine and the calendar jobs have caught up. The clock stands still afterwards unless `speed`
 * says otherwise. Throws on a refusal (a production server: 404).
 */
export async function moveMarket(
  baseUrl: string,
  body: { advanceMs?: number; to?: string; days?: number; speed?: number },
): Promise<TestClock> {
  const res = await fetch(new URL('/api/test/clock', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ speed: 0, ...body }),
  });
  const json = (await res.json()) as { status: number; data: { clock: TestClock } };
  if (res.status !== 200 || json.status !== 1)
    throw new Error(`POST /api/test/clock ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(json)}`);
  return json.data.clock;
}

/** marketToContinuous options. */
export interface ToContinuousOptions {
  /** Market minutes of continuous trading the test needs left (default 20). */
  minutesLeft?: number;
  /** A symbol the test watches move: a replayed day it spends locked at a limit is skipped. */
  moving?: string;
  /** Market ms per wall ms from then on (default 0: the market stands still). */
  speed?: number;
}

/**
 * Puts the manual clock in continuous trading with `minutesLeft` market minutes before the
 * closing call (13:25), on a day `moving` is not locked at a limit: it stays where it is when that
 * holds, else moves to the next 09:05 (skipping locked days). Then sets `speed`.
 */
export async function marketToContinuous(
  baseUrl: string,
  { minutesLeft = 20, moving, speed = 0 }: ToContinuousOptions = {},
): Promise<TestClock> {
  const skip = moving ? lockedDates(moving) : new Set<string>();
  let clock = await moveMarket(baseUrl, { speed: 0 });
  for (let i = 0; i < 10; i++) {
    const minute = taipeiMinute(clock.now);
    const dayOk = clock.replayDate === null || !skip.has(clock.replayDate);
    if (dayOk && minute >= OPEN_MINUTE && minute + minutesLeft < CLOSING_CALL_MINUTE)
      return speed > 0 ? moveMarket(baseUrl, { speed }) : clock;
    // A locked day is skipped whole (two days on: the feed jumps instead of printing the rest).
    clock = await moveMarket(baseUrl, dayOk ? { to: '09:05' } : { to: '09:05', days: 1 });
  }
  throw new Error(`no continuous session with ${minutesLeft} minutes left in 10 replayed days`);
}

/**
 * Puts the manual clock in the auction bidding hours (09:00–14:00) with `minutesLeft` market
 * minutes left: where it is when that holds, else the next 09:05. The clock stands still.
 */
export async function marketToAuctionHours(baseUrl: string, minutesLeft = 10): Promise<TestClock> {
  const clock = await moveMarket(baseUrl, { speed: 0 });
  const minute = taipeiMinute(clock.now);
  if (minute >= OPEN_MINUTE && minute + minutesLeft < AUCTION_CLOSE_MINUTE) return clock;
  return moveMarket(baseUrl, { to: '09:05' });
}
