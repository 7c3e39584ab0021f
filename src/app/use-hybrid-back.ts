/**
 * The hybrid shell's back button (product-spec §4), mounted once by the shell (./shell.tsx).
 *
 * The edge with the outside world is Cordova's contract: the native shell fires a `backbutton`
 * event on `document` and offers `navigator.app.exitApp()` to quit (cordova-android). A shell of
 * another kind (Capacitor's App plugin) bridges its back button and exit to the same two names.
 * A press while a dialog or sheet is open only closes it (../ui/overlays.ts). Other presses go
 * through the pure machine in ./back-button.ts; this hook only carries out its action: back one entry, /home/index, the "press back again to exit" toast (shown for the exit
 * window), or the shell's exit.
 *
 * In a plain browser there is no `navigator.app.exitApp`: a `backbutton` event (none is ever fired
 * there) is ignored and the browser's own back is untouched.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { HOME_PATH, hasInAppHistory } from '../lib/in-app-history';
import { closeTopOverlay } from '../ui/overlays';
import { showToast } from '../ui/toast';
import { createBackButton, EXIT_WINDOW_MS } from './back-button';

/** The event the shell fires on `document` when the hardware back button is pressed. */
export const BACK_BUTTON_EVENT = 'backbutton';

/** The shell's exit, or null outside a hybrid shell (a plain browser). */
function shellExit(): (() => void) | null {
  const app = (navigator as Navigator & { app?: { exitApp?: unknown } }).app;
  const exit = app?.exitApp;
  return typeof exit === 'function' ? () => void exit.call(app) : null;
}

/** Handles the hybrid shell's back button for the app's lifetime (call once, in the shell). */
export function useHybridBackButton(): void {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const machine = useRef<ReturnType<typeof createBackButton> | null>(null);

  useEffect(() => {
    const onBack = (event: Event) => {
      const exit = shellExit();
      if (!exit) return;
      event.preventDefault();
      // A sheet or dialog on screen closes first; the press does not count toward quitting.
      if (closeTopOverlay()) return;
      machine.current ??= createBackButton();
      const action = machine.current.press({
        canGoBack: hasInAppHistory(),
        isHome: pathname === HOME_PATH,
      });
      if (action === 'back') navigate(-1);
      else if (action === 'home') navigate(HOME_PATH, { replace: true });
      else if (action === 'toast')
        showToast({ content: t('hybrid.exitHint'), duration: EXIT_WINDOW_MS, position: 'bottom' });
      else exit();
    };
    document.addEventListener(BACK_BUTTON_EVENT, onBack);
    return () => document.removeEventListener(BACK_BUTTON_EVENT, onBack);
  }, [navigate, t, pathname]);
}
