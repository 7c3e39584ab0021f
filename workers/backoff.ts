/**
 * Reconnect delay: exponential backoff with jitter, so a server restart is not met by every
 * phone reconnecting in the same millisecond. Delay for attempt n (0-based) is uniformly drawn
 * from [cap/2, cap] where cap = min(max, base × 2^n).
 */
export function backoffDelayMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20));
  const half = exp / 2;
  return Math.round(half + random() * half);
}
