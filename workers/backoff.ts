/**
 * Reconnect delay: exponential backoff with jitter, so a server restart is not met by every
 * phone reconnecting in the same millisecond. Delay for attempt n (0-based) is uniformly drawn
 * from [cap/2, cap] where cap = min(max, base × 2^n).
 */
export function backoffDelayMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  return jitteredDelayMs(backoffCapMs(attempt, baseMs, maxMs), random);
}

/** The cap of attempt n's delay, ms: min(max, base × 2^n) (the exponent stops growing at 20). */
export function backoffCapMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20));
}

/** A delay drawn uniformly from [cap/2, cap], ms, rounded; `random` in [0, 1). */
export function jitteredDelayMs(capMs: number, random: () => number): number {
  const half = capMs / 2;
  return Math.round(half + random() * half);
}
