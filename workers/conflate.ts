/**
 * Conflation: keep only the latest value per key and emit at most one batch per interval.
 * A slow consumer therefore sees the newest price, never a growing queue (TIGER_STYLE: batch at
 * your own pace instead of reacting to every event).
 */
import {
  Observable,
  asyncScheduler,
  type OperatorFunction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';

/**
 * Collects values into a Map by `keyOf` (merging with `merge` when given, else replacing) and
 * emits the collected values as one array no more than once per `intervalMs`. The first value
 * after a quiet period is flushed on the next scheduler turn, so idle latency stays low.
 */
export function conflate<T, K>(
  keyOf: (v: T) => K,
  intervalMs: number,
  merge?: (prev: T, next: T) => T,
  scheduler: SchedulerLike = asyncScheduler,
): OperatorFunction<T, T[]> {
  return (source) =>
    new Observable<T[]>((subscriber) => {
      let pending = new Map<K, T>();
      let scheduled: Subscription | null = null;
      let lastFlushAt = Number.NEGATIVE_INFINITY;

      const flush = (): void => {
        scheduled = null;
        if (pending.size === 0) return;
        const out = Array.from(pending.values());
        pending = new Map();
        lastFlushAt = scheduler.now();
        subscriber.next(out);
      };

      const sub = source.subscribe({
        next(v) {
          const k = keyOf(v);
          const prev = pending.get(k);
          pending.set(k, prev !== undefined && merge ? merge(prev, v) : v);
          if (!scheduled) {
            const wait = Math.max(0, lastFlushAt + intervalMs - scheduler.now());
            scheduled = scheduler.schedule(flush, wait);
          }
        },
        error(e) {
          subscriber.error(e);
        },
        complete() {
          scheduled?.unsubscribe();
          flush();
          subscriber.complete();
        },
      });

      return () => {
        sub.unsubscribe();
        scheduled?.unsubscribe();
        pending.clear();
      };
    });
}

/** Merges candle bars by start time, newest value wins, result sorted by time. */
export function mergeBars<B extends { ts: number }>(prev: readonly B[], next: readonly B[]): B[] {
  const byTs = new Map<number, B>();
  for (const b of prev) byTs.set(b.ts, b);
  for (const b of next) byTs.set(b.ts, b);
  return Array.from(byTs.values()).sort((a, b) => a.ts - b.ts);
}
