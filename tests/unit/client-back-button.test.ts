/**
 * The hybrid shell's back button (src/app/back-button.ts, product-spec §4 "goes back if possible;
 * otherwise a second press within 1 second quits the app", §2 "no history → /home/index"):
 * history first, then home, then on home a toast and a quit only for a second press less than
 * 1000 ms after the toast. Pinned clock: vitest's fake timers drive `performance.now()`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createBackButton,
  EXIT_WINDOW_MS,
  INITIAL_BACK_STATE,
  onBackPress,
  type BackAction,
} from '../../src/app/back-button';

const HOME = { canGoBack: false, isHome: true };
const OTHER = { canGoBack: false, isHome: false };
const WITH_HISTORY = { canGoBack: true, isHome: false };

describe('onBackPress (pure)', () => {
  it('goes back whenever the app has history, on home or elsewhere', () => {
    expect(onBackPress(INITIAL_BACK_STATE, { at: 0, ...WITH_HISTORY }).action).toBe('back');
    expect(onBackPress(INITIAL_BACK_STATE, { at: 0, canGoBack: true, isHome: true }).action).toBe('back');
  });

  it('goes to /home/index from another screen with no history', () => {
    expect(onBackPress(INITIAL_BACK_STATE, { at: 0, ...OTHER })).toEqual({
      action: 'home',
      state: INITIAL_BACK_STATE,
    });
  });

  it('toasts on home first, remembering when', () => {
    expect(onBackPress(INITIAL_BACK_STATE, { at: 5_000, ...HOME })).toEqual({
      action: 'toast',
      state: { toastAt: 5_000 },
    });
  });

  it.each([
    [0, 'quit'],
    [1, 'quit'],
    [999, 'quit'],
    [1000, 'toast'],
    [1001, 'toast'],
    [60_000, 'toast'],
  ] as const)('a second press on home %i ms after the toast: %s', (elapsed, action) => {
    const first = onBackPress(INITIAL_BACK_STATE, { at: 10_000, ...HOME });
    const second = onBackPress(first.state, { at: 10_000 + elapsed, ...HOME });
    expect(second.action).toBe(action);
    expect(second.state).toEqual(action === 'quit' ? INITIAL_BACK_STATE : { toastAt: 10_000 + elapsed });
  });

  it('a clock that went backwards never counts as a quick second press', () => {
    const first = onBackPress(INITIAL_BACK_STATE, { at: 10_000, ...HOME });
    expect(onBackPress(first.state, { at: 9_500, ...HOME }).action).toBe('toast');
  });
});

describe('createBackButton (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Presses at the given offsets (ms from the previous press) and returns the actions. */
  function pressAt(button: ReturnType<typeof createBackButton>, steps: Array<[number, typeof HOME]>) {
    const out: BackAction[] = [];
    for (const [wait, where] of steps) {
      vi.advanceTimersByTime(wait);
      out.push(button.press(where));
    }
    return out;
  }

  it('reads performance.now(): second press at 999 ms quits', () => {
    expect(EXIT_WINDOW_MS).toBe(1000);
    expect(
      pressAt(createBackButton(), [
        [0, HOME],
        [999, HOME],
      ]),
    ).toEqual(['toast', 'quit']);
  });

  it('second press at 1001 ms only toasts again, and the press after that quits', () => {
    expect(
      pressAt(createBackButton(), [
        [0, HOME],
        [1001, HOME],
        [500, HOME],
      ]),
    ).toEqual(['toast', 'toast', 'quit']);
  });

  it('after a quit the counter starts over (a shell that did not exit toasts again)', () => {
    expect(
      pressAt(createBackButton(), [
        [0, HOME],
        [100, HOME],
        [100, HOME],
        [100, HOME],
      ]),
    ).toEqual(['toast', 'quit', 'toast', 'quit']);
  });

  it('a back or home press in between closes the window', () => {
    expect(
      pressAt(createBackButton(), [
        [0, HOME],
        [200, WITH_HISTORY],
        [200, HOME],
        [200, OTHER],
        [200, HOME],
        [200, HOME],
      ]),
    ).toEqual(['toast', 'back', 'toast', 'home', 'toast', 'quit']);
  });

  it('each button keeps its own memory', () => {
    const a = createBackButton();
    const b = createBackButton();
    expect(a.press(HOME)).toBe('toast');
    vi.advanceTimersByTime(10);
    expect(b.press(HOME)).toBe('toast');
    vi.advanceTimersByTime(10);
    expect(a.press(HOME)).toBe('quit');
  });

  it('takes an injected clock', () => {
    let now = 0;
    const button = createBackButton(() => now);
    expect(button.press(HOME)).toBe('toast');
    now = 999;
    expect(button.press(HOME)).toBe('quit');
  });
});
