/**
 * The current time (epoch ms), re-read every `intervalMs` while `intervalMs` is a number. With
 * `null` nothing ticks (no timer at all): components that only need a clock in some states pass
 * null in the others, so a live screen runs no interval.
 */
import { useEffect, useState } from 'react';

/** Epoch ms, refreshed every `intervalMs` (no timer when null). */
export function useNow(intervalMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (intervalMs === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
