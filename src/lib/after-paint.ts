/**
 * Yielding to the browser so an input's visual response paints before heavy work starts.
 *
 * `afterNextPaint()` resolves in a task queued from the next animation frame, i.e. after that
 * frame has been rendered. A click handler that sets its "busy" state, awaits this, and only then
 * starts the expensive part (an RTK Query mutation: thunk, reducers, re-renders) keeps the
 * interaction's input-to-next-paint short; the order request leaves about one frame (~16 ms)
 * later. Measured in `npm run bench:stream` (order clicks under the stress feed).
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    nextFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  });
}

/** The next animation frame, or a 16 ms timer where there is none (a worker, a torn-down test DOM). */
export function nextFrame(cb: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(cb);
  else setTimeout(cb, 16);
}
