/**
 * Waiting for continuous trading in end-to-end tests. On the replay clock each 270-minute session
 * ends with the closing call (13:25–13:30 market time), when market orders are refused
 * (`orderTypeNotInSession`) and closes queue for the 13:30 match. At 30× speed that window is
 * 10 s of every 9 minutes, so a test that trades waits until the session has at least
 * `marketMinutes` of continuous trading left (or the next session has begun).
 */
import { httpApi } from './http-funding';

const CLOSING_CALL_MINUTE = 13 * 60 + 25;
const TAIPEI_OFFSET_MS = 8 * 3_600_000;

/** Minutes after midnight, Asia/Taipei (UTC+8, no DST), of a market time. */
const taipeiMinute = (ms: number) =>
  Math.floor(((((ms + TAIPEI_OFFSET_MS) % 86_400_000) + 86_400_000) % 86_400_000) / 60_000);

/** Resolves once the replayed session has `marketMinutes` of continuous trading left; polls, never sleeps blindly. */
export async function waitForContinuous(
  baseUrl: string,
  marketMinutes = 20,
  timeoutMs = 60_000,
): Promise<void> {
  const call = httpApi(baseUrl);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await call<{ clock: { now: number; mode: string; source: string } }>('market/list', {
      page: 1,
      pageSize: 1,
    });
    const clock = r.data?.clock;
    if (!clock || clock.source === 'stress') return;
    const minute = taipeiMinute(clock.now);
    if (minute >= 9 * 60 && minute + marketMinutes < CLOSING_CALL_MINUTE) return;
    if (Date.now() > deadline)
      throw new Error(`no continuous trading within ${timeoutMs} ms (market minute ${minute})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
