/**
 * The replay feed's tick (feed.ts): one pass over every instrument brings each to the clock's
 * position — the session change (closing prints of the old day, the new day installed at cursor
 * 0 with its snapshot), the session build within the tick's budget, the due prints — then, in
 * the last PREBUILD_WINDOW_MS of a session, prepares the next day. In timer mode a pass is cut
 * into SLICE_MS slices that resume on setImmediate where the previous one stopped.
 *
 * Units: budgets in expected trades (replay.ts expectedTradeCount), slices in wall ms, market
 * offsets ms since 09:00. Errors: none thrown by the loop itself (listeners are guarded).
 */
import { SESSION_MS } from './calendar';
import type { ClockPosition } from './clock';
import { advance, emitSnapshot } from './feed-advance';
import { buildFor, dayFor, installDay, rollover, type FeedState, type SymbolState } from './feed-state';
import { expectedTradeCount, type ReplayDay } from './replay';

/** Wall ms between timer ticks. */
export const TICK_INTERVAL_MS = 200;
/**
 * Default budget of session builds per tick, in expected trades (replay.ts expectedTradeCount):
 * ~0.27 µs a trade, so ≈ 16 ms; one MAX_TRADES session fits.
 */
export const MAX_BUILD_TRADES_PER_TICK = 60_000;
/** Market ms before a session's end from which ticks pre-build the next session. */
export const PREBUILD_WINDOW_MS = SESSION_MS / 4;
/**
 * Timer mode: wall ms of work one slice of a tick does before it yields (setImmediate) and
 * resumes where it stopped, so no task of the feed comes near 50 ms. One session build is not
 * divided (~5 ms for MAX_TRADES on an idle core, ~20 ms under load) and may overrun it once.
 */
export const SLICE_MS = 8;
/** Sliced mode: trades one advance applies at most, so one instrument's catch-up splits too. */
export const ADVANCE_CHUNK_TRADES = 4_096;

/**
 * One slice's limits: `overTime()` once its wall budget is spent; `affordable(day, forced)`
 * whether a build of `day` fits — within the trade budget after the slice's first build, and
 * (sliced) started before the slice's time is up — unless `forced` (the slice's first piece of
 * work, so every slice makes progress); it counts the build when it does. `used()`: trades built.
 */
interface SliceBudget {
  overTime(): boolean;
  affordable(day: ReplayDay, forced: boolean): boolean;
  used(): number;
}

/** The slice budget of a step: `budget` expected trades, the slicer's time (none: no limit). */
function sliceBudget(f: FeedState, budget: number): SliceBudget {
  const sl = f.slicer;
  const deadline = sl ? sl.now() + sl.budgetMs : Number.POSITIVE_INFINITY;
  const overTime = (): boolean => sl !== null && sl.now() >= deadline;
  let used = 0;
  return {
    overTime,
    affordable(day, forced) {
      const est = expectedTradeCount(day);
      if (used > 0 && used + est > budget) return false;
      if (!forced && overTime()) return false;
      used += est;
      return true;
    },
    used: () => used,
  };
}

/** Runs another tick on setImmediate while sessions are still unbuilt (timer mode only). */
export function scheduleCatchUp(f: FeedState): void {
  if (f.catchUpScheduled || !f.timerOn) return;
  f.catchUpScheduled = true;
  setImmediate(() => {
    f.catchUpScheduled = false;
    tick(f);
  });
}

/**
 * Brings one instrument to `p`: finishes its previous session (closing print) and installs the
 * new day at cursor 0 with its snapshot, builds its session when `canBuild` allows (else counts
 * it in `pending`), then applies its due trades, at most `chunk` per advance. Returns false
 * when a chunk limit stopped it: the next slice resumes this instrument.
 */
export function stepInstrument(
  f: FeedState,
  st: SymbolState,
  p: ClockPosition,
  canBuild: (day: ReplayDay) => boolean,
  chunk: number,
): boolean {
  if (st.sessionIndex !== p.session) {
    const adjacent = st.sessionIndex === p.session - 1;
    const before = st.cursor;
    if (adjacent && !advance(f, st, SESSION_MS, true, chunk)) return false;
    // Sliced: the closing prints took this slice's chunk; the new day starts in the next one.
    if (chunk < Number.POSITIVE_INFINITY && st.cursor > before) return false;
    installDay(f, st, p, adjacent);
    // Every subscriber sees the new day at once: its reference at cursor 0 (pre-open).
    emitSnapshot(f, st);
  }
  if (!st.day) return true;
  if (!st.session) {
    if (!canBuild(st.day)) {
      f.pending++;
      return true;
    }
    st.session = buildFor(f, st, st.day);
    if (!st.emitCatchUp) st.silentTo = p.offsetMs;
  }
  if (st.silentTo >= 0) {
    // A late build without emission (start, a jump of sessions): apply silently, then one snapshot.
    if (!advance(f, st, st.silentTo, false, chunk)) return false;
    st.silentTo = -1;
    emitSnapshot(f, st);
    return true;
  }
  return advance(f, st, p.offsetMs, true, chunk);
}

/**
 * The pre-build of clock session p.session + 1 (the last PREBUILD_WINDOW_MS of a session, once
 * the day is built): each instrument's next reference and built session, within the slice's
 * budget; what does not fit counts in `pending` (a later slice continues).
 */
function prebuildNext(f: FeedState, p: ClockPosition, b: SliceBudget): void {
  const k = p.session + 1;
  const d = f.win!.dayIndexOf(k);
  let prepared = 0;
  for (const st of f.order) {
    let next = st.next?.sessionIndex === k ? st.next : null;
    if (next && (next.session || !next.day)) continue;
    if (prepared++ > 0 && b.overTime()) {
      f.pending++;
      break;
    }
    if (!next) {
      next = { sessionIndex: k, ...dayFor(f, st, d), session: null };
      st.next = next;
    }
    if (!next.day) continue;
    if (!b.affordable(next.day, b.used() === 0)) {
      f.pending++;
      break;
    }
    next.session = buildFor(f, st, next.day);
  }
}

/**
 * One slice of a pass over every instrument (stepInstrument), then, once the day is built, the
 * pre-build of the next day in the last PREBUILD_WINDOW_MS. `budget`: session builds in expected
 * trades (Infinity: build everything due). With a slicer the slice also stops when its time is
 * up, remembers where (scanAt) and schedules the rest (timer mode).
 */
export function step(f: FeedState, budget: number): void {
  const p = f.clock.position();
  f.pos = p;
  if (p.session !== f.currentSession) rollover(f, p);
  const b = sliceBudget(f, budget);
  const chunk = f.slicer ? ADVANCE_CHUNK_TRADES : Number.POSITIVE_INFINITY;
  if (f.scanAt === 0) f.pending = 0;
  const order = f.order;
  for (let i = f.scanAt; i < order.length; i++) {
    const first = i === f.scanAt;
    if (
      (!first && b.overTime()) ||
      !stepInstrument(f, order[i]!, p, (day) => b.affordable(day, first && b.used() === 0), chunk)
    ) {
      f.scanAt = i;
      scheduleCatchUp(f);
      return;
    }
  }
  f.scanAt = 0;
  if (p.offsetMs >= SESSION_MS - PREBUILD_WINDOW_MS && f.pending === 0) prebuildNext(f, p, b);
  if (f.pending > 0) scheduleCatchUp(f);
}

/** Advances to clock.position() with the feed's build budget (no-op before start or re-entered). */
export function tick(f: FeedState): void {
  if (!f.started || f.ticking) return;
  f.ticking = true;
  try {
    step(f, f.buildBudget);
  } finally {
    f.ticking = false;
  }
}
