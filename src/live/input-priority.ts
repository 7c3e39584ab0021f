/**
 * Input first: the frame that answers a tap or a key press (a pressed order button, a typed digit)
 * paints only the input's own change; the store's low-priority notifications (quote and depth
 * batches, auto-batched per animation frame) wait until that frame has painted and render in the
 * next one. The held batches are not lost: the reducers keep applying them, and one notification
 * renders the newest state.
 *
 * The hold is one frame, not a fixed time: prices move again on the frame after the input's. (A
 * fixed 100 ms hold froze the prices on screen after every tap, and nearly all the time while
 * typing a price.)
 *
 * A hold starts on pointerdown, pointerup, click and keydown. Scrolling and dragging do not hold
 * (prices keep moving under a finger that scrolls the list). Normal-priority actions (orders,
 * account) are not affected: the auto-batch enhancer notifies for them at once.
 */
import { afterNextPaint, nextFrame } from '../lib/after-paint';

/** Inputs whose answering frame has not painted yet. */
let unpainted = 0;

/** Starts a hold that ends once the next frame has painted (exported for tests). */
export function noteInput(): void {
  unpainted++;
  void afterNextPaint().then(() => {
    unpainted--;
  });
}

/** True while an input's answering frame has not painted: low-priority notifications wait. */
export function inputHoldActive(): boolean {
  return unpainted > 0;
}

/** Listens for input on `target` (capture, passive). Returns the function that removes the listeners. */
export function watchInput(
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
): () => void {
  const events = ['pointerdown', 'pointerup', 'click', 'keydown'] as const;
  const on = () => noteInput();
  for (const e of events) target.addEventListener(e, on, { capture: true, passive: true });
  return () => {
    for (const e of events) target.removeEventListener(e, on, { capture: true });
  };
}

/**
 * The auto-batch enhancer's `queueNotification`: notify on the next animation frame, or, when an
 * input is waiting for its frame to paint, on the first frame after that.
 */
export function queueAfterInput(notify: () => void): void {
  const frame = () => (inputHoldActive() ? nextFrame(frame) : notify());
  nextFrame(frame);
}
