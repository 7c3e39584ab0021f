/**
 * Waiting for continuous trading in end-to-end tests. The replay clock plays each replayed day
 * 08:30 → 14:30 market time (server/market/clock.ts): prices print only in the continuous session
 * 09:00–13:25; the closing call refuses market orders (`orderTypeNotInSession`), and the
 * intermission, the after-hours match and the next day's pre-open print nothing. A test that
 * trades, or watches a price move, first waits until the replayed day has at least
 * `marketMinutes` of continuous trading left. An auction bid waits, likewise, for the bidding
 * hours (waitForAuctionHours).
 */
import { httpApi } from './http-funding';

const OPEN_MINUTE = 9 * 60;
const CLOSING_CALL_MINUTE = 13 * 60 + 25;
/** Market minutes from the closing call to the next day's open: 13:25 → 14:30, 08:30 → 09:00. */
const LONGEST_GAP_MINUTES = 14 * 60 + 30 - CLOSING_CALL_MINUTE + 30;
const TAIPEI_OFFSET_MS = 8 * 3_600_000;

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

/**
 * Resolves once the replayed day has `marketMinutes` of continuous trading left; polls every
 * 250 ms, never sleeps blindly. Throws after `timeoutMs` (default: longestWaitMs at the server's
 * speed, so it only throws when the clock is not moving as it should).
 */
export function waitForContinuous(baseUrl: string, marketMinutes = 20, timeoutMs?: number): Promise<void> {
  return waitForWindow(baseUrl, OPEN_MINUTE, CLOSING_CALL_MINUTE, marketMinutes, timeoutMs);
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

/** Polls market/list's clock until `open` ≤ minute and minute + `marketMinutes` < `close`. */
async function waitForWindow(
  baseUrl: string,
  open: number,
  close: number,
  marketMinutes: number,
  timeoutMs: number | undefined,
  gapMinutes = LONGEST_GAP_MINUTES,
): Promise<void> {
  const call = httpApi(baseUrl);
  const started = Date.now();
  for (;;) {
    const r = await call<{ clock: { now: number; speed: number; source: string } }>('market/list', {
      page: 1,
      pageSize: 1,
    });
    const clock = r.data?.clock;
    if (!clock || clock.source === 'stress') return;
    const minute = taipeiMinute(clock.now);
    if (minute >= open && minute + marketMinutes < close) return;
    const limit = timeoutMs ?? longestWaitMs(clock.speed, marketMinutes, gapMinutes);
    if (Date.now() - started > limit)
      throw new Error(`no market window ${open}–${close} within ${limit} ms (market minute ${minute})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
