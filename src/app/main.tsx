/**
 * The member app, imported by index.html's entry (./entry.ts). The active language's strings are
 * fetched first (one small chunk, alongside the chunk of the screen the URL points at), then,
 * once that screen's chunk is in too, the app renders, as a transition (time-sliced), from the
 * store seeded with the answers the entry asked for the static shell (./early-seed.ts).
 * antd-mobile's React 19 render hook (./antd-render, needed by Dialog and Toast only) loads right
 * after the first render, Toast at the first touch or key: neither is part of the first screen.
 */
import '../lib/zod-no-eval';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { preloadToast } from '../ui/toast';
import { earlyDrawn } from '../api/early';
import { seedFromEarly } from './early-seed';
import { ensureAllStrings, setupI18n } from './i18n';
import { AppProviders } from './providers';
import { AppRouter, preloadScreen, screenReady } from './router';
import { createAppStore } from './store';

const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('#root missing from index.html');

preloadScreen(location.hash);
/**
 * Wall ms the first render waits at most for the static shell to draw its early answers (on a
 * phone they come long before the app's chunks; on a fast connection the app would otherwise
 * race the shell and draw a loading state over rows already on screen).
 */
const SHELL_DRAW_WAIT_MS = 3_000;

// The first render waits for the route's screen too, so the screen mounts within it (time-sliced)
// rather than in a later synchronous render (./router.tsx, routeScreen).
const ready = setupI18n().then(() => screenReady(location.hash));
void Promise.all([ready, earlyDrawn(SHELL_DRAW_WAIT_MS)]).then(() => {
  // The store is made here, not while this module is evaluated (the app's longest task), and
  // seeded and rendered in the next task: each of these steps takes several ms on a phone.
  const store = createAppStore();
  setTimeout(() => startApp(store, rootEl), 0);
});

/** Seeds `store` with the early answers and starts the first render into `el`, time-sliced. */
function startApp(store: ReturnType<typeof createAppStore>, el: HTMLElement): void {
  seedFromEarly(store);
  const root = createRoot(el);
  // A transition renders in slices of a few milliseconds, yielding to the browser in between,
  // instead of one task as long as the whole first render: a tap on the static shell (or the
  // next frame) never waits behind it.
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProviders store={store}>
          <AppRouter />
        </AppProviders>
      </StrictMode>,
    ),
  );
  void import('./antd-render');
  const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 1_000));
  idle(() => void ensureAllStrings());
  // Toast is built on the UI kit's `ui` chunk, which the sign-in screen does not otherwise load:
  // it is fetched at the first touch or key, not during the first load.
  for (const type of ['pointerdown', 'keydown'])
    addEventListener(type, () => void preloadToast(), { once: true, passive: true });
}
