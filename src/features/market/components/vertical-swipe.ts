/**
 * Lets a vertical swipe that starts on the chart scroll the page.
 *
 * klinecharts 10 claims every one-finger drag on the chart, vertical ones included (its
 * `treatVertDragAsPageScroll` is hard-wired to false): from the first move past 5 px its
 * document-level touchmove listener calls preventDefault, so the page cannot scroll, whatever
 * the CSS `touch-action`. This guard listens on the chart's container in the capture phase
 * (before klinecharts) and decides at the same 5 px: a mostly vertical move belongs to the page.
 * For that first move klinecharts still runs (it cancels its tap and long-press timers) but its
 * preventDefault is made a no-op; later moves of the gesture never reach it. Horizontal drags,
 * pinches and drags after a long press (the crosshair) stay the chart's. The container also needs `touch-action: pan-y` (styles.css).
 */

/** klinecharts' own threshold (ManhattanDistance.CancelTap): below it a move is still a tap. */
const DECIDE_PX = 5;
/** klinecharts' long press (Delay.LongTap): after it the finger drives the crosshair. */
const LONG_PRESS_MS = 500;

type Mode = 'undecided' | 'page' | 'chart';

/** Installs the guard on `host`; returns the function that removes it. */
export function letVerticalSwipesScrollPage(host: HTMLElement): () => void {
  let start: { x: number; y: number; at: number } | null = null;
  let mode: Mode = 'chart';

  const onStart = (e: TouchEvent): void => {
    const t = e.touches[0];
    if (e.touches.length !== 1 || !t) {
      mode = 'chart'; // pinch: the chart's
      start = null;
      return;
    }
    start = { x: t.clientX, y: t.clientY, at: e.timeStamp };
    mode = 'undecided';
  };

  const onMove = (e: TouchEvent): void => {
    if (mode === 'page') {
      e.stopPropagation();
      return;
    }
    const t = e.touches[0];
    if (mode === 'chart' || !start || !t || e.touches.length !== 1) return;
    const dx = Math.abs(t.clientX - start.x);
    const dy = Math.abs(t.clientY - start.y);
    if (dx + dy < DECIDE_PX) return;
    if (dy >= dx && e.timeStamp - start.at < LONG_PRESS_MS) {
      mode = 'page';
      Object.defineProperty(e, 'preventDefault', { value: () => undefined });
    } else mode = 'chart';
  };

  const opts = { capture: true, passive: true } as const;
  host.addEventListener('touchstart', onStart, opts);
  host.addEventListener('touchmove', onMove, opts);
  return () => {
    host.removeEventListener('touchstart', onStart, opts);
    host.removeEventListener('touchmove', onMove, opts);
  };
}
