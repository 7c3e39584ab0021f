/**
 * What the hybrid shell's back button does (product-spec §4 "Hybrid app back button: goes back if
 * possible; otherwise a second press within 1 second quits the app"; §2 "Going back with no
 * history falls back to /home/index"). Pure: ./use-hybrid-back.ts feeds it presses and carries
 * out the action.
 *
 * - `back`: the app has history of its own → go back one entry.
 * - `home`: no history and not on home → /home/index.
 * - `toast`: no history, on home, and no toast shown in the last EXIT_WINDOW_MS → show "press
 *   back again to exit" and open the window.
 * - `quit`: no history, on home, less than EXIT_WINDOW_MS after the press that showed the toast
 *   → quit the app.
 *
 * Any press that is not a quit-eligible second press on home closes the window (a back or home
 * in between means the next press on home starts over with a toast); a quit closes it too. Times
 * are milliseconds on one monotonic clock (performance.now() in the app); the window is open for
 * elapsed ∈ [0, EXIT_WINDOW_MS): at exactly EXIT_WINDOW_MS it has closed ("after 1 s the counter
 * resets").
 */

/** How long after the toast a second press quits, ms (product-spec §4: within 1 second). */
export const EXIT_WINDOW_MS = 1000;

export type BackAction = 'back' | 'home' | 'toast' | 'quit';

/** One press of the back button: when (ms), and where the app is. */
export interface BackPress {
  at: number;
  canGoBack: boolean;
  isHome: boolean;
}

/** The machine's memory: when the exit toast was shown (ms), or null when no window is open. */
export interface BackState {
  toastAt: number | null;
}

export const INITIAL_BACK_STATE: BackState = { toastAt: null };

/** The action for `press` and the state after it. Pure. */
export function onBackPress(state: BackState, press: BackPress): { action: BackAction; state: BackState } {
  if (press.canGoBack) return { action: 'back', state: INITIAL_BACK_STATE };
  if (!press.isHome) return { action: 'home', state: INITIAL_BACK_STATE };
  const elapsed = state.toastAt === null ? Infinity : press.at - state.toastAt;
  // A clock that went backwards (elapsed < 0) cannot prove a quick second press: toast again.
  if (elapsed >= 0 && elapsed < EXIT_WINDOW_MS) return { action: 'quit', state: INITIAL_BACK_STATE };
  return { action: 'toast', state: { toastAt: press.at } };
}

/**
 * A back button with its own memory: `press` reads the clock (`now`, ms, monotonic) and returns
 * the action. One per app (the shell's hook keeps it for the app's lifetime).
 */
export function createBackButton(now: () => number = () => performance.now()): {
  press: (where: Omit<BackPress, 'at'>) => BackAction;
} {
  let state = INITIAL_BACK_STATE;
  return {
    press(where) {
      const next = onBackPress(state, { ...where, at: now() });
      state = next.state;
      return next.action;
    },
  };
}
