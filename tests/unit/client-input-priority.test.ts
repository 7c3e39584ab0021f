// @vitest-environment jsdom
/**
 * Quote notifications wait while the member taps or types (src/market/input-priority.ts): a
 * notification queued during the hold runs on the first animation frame after it, one queued
 * without input runs on the next frame, and scrolling does not hold.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INPUT_HOLD_MS, inputHoldActive, queueAfterInput, watchInput } from '../../src/market/input-priority';

let clock = 10_000; // only moves forward: the hold is module state
let frames: Array<() => void> = [];
const runFrame = (ms = 16) => {
  clock += ms;
  const due = frames;
  frames = [];
  for (const f of due) f();
};

beforeEach(() => {
  frames = [];
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb));
  watchInput(document);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  clock += 10 * INPUT_HOLD_MS; // leave no hold behind
});

describe('input priority', () => {
  it('notifies on the next frame when nobody is tapping', () => {
    const notify = vi.fn();
    queueAfterInput(notify);
    expect(notify).not.toHaveBeenCalled();
    runFrame();
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('holds notifications for INPUT_HOLD_MS after the last tap, then notifies once', () => {
    const notify = vi.fn();
    document.dispatchEvent(new Event('pointerdown'));
    queueAfterInput(notify);
    let elapsed = 0;
    while (elapsed + 16 < INPUT_HOLD_MS) {
      runFrame(16);
      elapsed += 16;
      expect(notify, `after ${elapsed} ms`).not.toHaveBeenCalled();
    }
    document.dispatchEvent(new Event('click')); // the click extends the hold
    runFrame(16);
    expect(notify).not.toHaveBeenCalled();
    for (let i = 0; i < 10; i++) runFrame(16);
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
