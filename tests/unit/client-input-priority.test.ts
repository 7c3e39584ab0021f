// @vitest-environment jsdom
/**
 * Quote notifications wait for the frame that answers a tap or a key press, and only for that
 * frame (src/live/input-priority.ts): a notification queued during the hold runs on the first
 * frame after the input's frame has painted, however little time has passed; one queued without
 * input runs on the next frame; scrolling does not hold.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inputHoldActive, queueAfterInput, watchInput } from '../../src/live/input-priority';

let frames: Array<() => void> = [];
const runFrame = () => {
  const due = frames;
  frames = [];
  for (const f of due) f();
};
/** The task the input's frame posted (src/lib/after-paint.ts) has run: that frame has painted. */
const painted = () => vi.waitFor(() => expect(inputHoldActive()).toBe(false), { timeout: 500 });

let unwatch = () => {};
beforeEach(() => {
  frames = [];
  // The clock stands still: a hold must end with the input's paint, not with time.
  vi.spyOn(performance, 'now').mockReturnValue(10_000);
  vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb));
  unwatch = watchInput(document);
});
afterEach(async () => {
  unwatch();
  runFrame(); // leave no hold behind (module state)
  await painted().catch(() => undefined);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('input priority', () => {
  it('notifies on the next frame when nobody is tapping', () => {
    const notify = vi.fn();
    queueAfterInput(notify);
    expect(notify).not.toHaveBeenCalled();
    runFrame();
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it("holds a notification through the tap's own frame, then notifies on the next one", async () => {
    const notify = vi.fn();
    for (const type of ['pointerdown', 'pointerup', 'click']) document.dispatchEvent(new Event(type));
    queueAfterInput(notify);
    expect(inputHoldActive()).toBe(true);
    runFrame(); // the tap's frame paints the tap alone
    expect(notify).not.toHaveBeenCalled();
    await painted(); // no time has passed: a hold of a fixed time would still be on
    runFrame(); // the next frame: the prices move again
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('does not hold for scrolling or pointer moves', () => {
    document.dispatchEvent(new Event('scroll'));
    document.dispatchEvent(new Event('pointermove'));
    expect(inputHoldActive()).toBe(false);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: '1' }));
    expect(inputHoldActive()).toBe(true);
  });

  it('falls back to a timer where there is no requestAnimationFrame (a torn-down test DOM)', () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const notify = vi.fn();
      queueAfterInput(notify);
      vi.advanceTimersByTime(20);
      expect(notify).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
