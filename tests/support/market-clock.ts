/**
 * Waiting for continuous trading in end-to-end tests. The replay clock plays each replayed day
 * 08:30 → 14:30 market time (server/market/clock.ts): prices print only in the continuous session
 * 09:00–13:25; the closing call refuses market orders (`orderTypeNotInSession`), and the
 * intermission, the after-hours match and the next day's pre-open print nothing. A test that
 * trades, or watches a price move, first waits until the replayed day has at least
 * `marketMinutes` of continuous trading left.
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
 * per wall ms): the longest gap plus the minutes wanted, plus 30 s for the server's session build.
 */
export const longestWaitMs = (speed: number, marketMinutes = 20) =>
  Math.ceil(((LONGEST_GAP_MINUTES + marketMinutes) * 60_000) / speed) + 30_000;

/**
 * Resolves once the replayed day has `marketMinutes` of continuous trading left; polls every
 * 250 ms, never sleeps blindly. Throws after `timeoutMs` (default: longestWaitMs at the server's
 * speed, so it only throws when the clock is not moving as it should).
 */
export async function waitForContinuous(
  baseUrl: string,
  marketMinutes = 20,
  timeoutMs?: number,
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
    if (minute >= OPEN_MINUTE && minute + marketMinutes < CLOSING_CALL_MINUTE) return;
    const limit = timeoutMs ?? longestWaitMs(clock.speed, marketMinutes);
    if (Date.now() - started > limit)
      throw new Error(`no continuous trading within ${limit} ms (market minute ${minute})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
