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

function ascending(bars: readonly { ts: number }[]): boolean {
  for (let i = 1; i < bars.length; i++) if (bars[i]!.ts <= bars[i - 1]!.ts) return false;
  return true;
}

/**
 * `mergeBars` with a fast path for the usual delta (the last bar changed and/or new bars after
 * it): no map, no sort. Keeps at most `max` bars (the newest). Inputs are not changed.
 */
export function upsertBars<B extends { ts: number }>(
  prev: readonly B[],
  next: readonly B[],
  max = Number.POSITIVE_INFINITY,
): B[] {
  let out: B[];
  const last = prev[prev.length - 1];
  if (next.length === 0) out = prev.slice();
  else if (!last) out = ascending(next) ? next.slice() : mergeBars([], next);
  else if (next[0]!.ts >= last.ts && ascending(next))
    out = prev.slice(0, next[0]!.ts === last.ts ? -1 : prev.length).concat(next);
  else out = mergeBars(prev, next);
  return out.length > max ? out.slice(out.length - max) : out;
}

/**
 * Applies one candle update to the bars a consumer holds (oldest first) and returns the new
 * bars: a snapshot replaces every bar at or after its first bar's time (older history stays); a
 * delta upserts by time. This is the rule the worker's `snapshot: true` updates are built for.
 */
export function applyCandleUpdate<B extends { ts: number }>(
  held: readonly B[],
  update: { snapshot: boolean; items: readonly B[] },
): B[] {
  if (!update.snapshot) return upsertBars(held, update.items);
  const first = update.items[0];
  if (!first) return held.slice();
  const keep = held.filter((b) => b.ts < first.ts);
  return upsertBars(keep, update.items);
}

/**
 * A trades tape after an update: a snapshot replaces it, a delta appends; keeps the newest
 * `max` prints, oldest first.
 */
export function applyTradeUpdate<T>(
  tape: readonly T[],
  update: { snapshot: boolean; items: readonly T[] },
  max: number,
): T[] {
  const out = update.snapshot ? update.items.slice() : tape.concat(update.items);
  return out.length > max ? out.slice(out.length - max) : out;
}
