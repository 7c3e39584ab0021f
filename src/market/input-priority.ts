/**
 * Input first: while the member is tapping or typing, the store's low-priority notifications
 * (quote and depth batches, auto-batched per animation frame) wait, so the frame that answers the
 * input paints only the input's own change (a pressed order button, a typed digit) instead of also
 * re-rendering every visible row that ticked. The held batches are not lost: the reducers keep
 * applying them, and one notification renders the newest state when the hold ends.
 *
 * A hold starts or extends on pointerdown, pointerup, click and keydown and lasts INPUT_HOLD_MS
 * (100 ms: the input-to-next-paint budget) after the last of them. Scrolling and dragging do not
 * hold (prices keep moving under a finger that scrolls the list). Normal-priority actions (orders,
 * account) are not affected: the auto-batch enhancer notifies for them at once.
 */

/** How long after the last input event low-priority notifications wait, in ms. */
export const INPUT_HOLD_MS = 100;

let holdUntil = 0;
const now = () => performance.now();

/** Starts or extends the hold (exported for tests). */
export function noteInput(at: number = now()): void {
  holdUntil = Math.max(holdUntil, at + INPUT_HOLD_MS);
}

/** True while low-priority notifications wait for a recent input's paint. */
export function inputHoldActive(at: number = now()): boolean {
  return at < holdUntil;
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

/** The next animation frame, or a 16 ms timer where there is none (a worker, a torn-down test DOM). */
const nextFrame = (cb: () => void): void => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(cb);
  else setTimeout(cb, 16);
};

/**
 * The auto-batch enhancer's `queueNotification`: notify on the next animation frame, or on the
 * first frame after the input hold ends.
 */
export function queueAfterInput(notify: () => void): void {
  const frame = () => (inputHoldActive() ? nextFrame(frame) : notify());
  nextFrame(frame);
}
