/**
 * Hash routes, the spec's paths verbatim (product-spec §2): the landing screen here, every other
 * screen in the registry ./screens.ts (a chunk of its own). A path that is no screen goes to
 * /home/index so no link is ever dead.
 *
 * Declarative routing (`HashRouter` + `Routes`) with one lazy chunk per screen: the data router
 * (`createHashRouter`) costs about 16 KiB gzip more and none of its loaders or actions are used;
 * the first screen must stay within the bundle budget (scripts/bundle-budget.mjs). The chart
 * library loads with the detail screen only.
 */
import { lazy, type ComponentType } from 'react';
import { HashRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { ensureAllStrings, prefetchAllStrings } from './i18n';
import { Shell } from './shell';

/** Where `/` goes (product-spec §2: the root redirects to /login/start). */
const LANDING = 'login/start';

/** The landing screen: the only one whose chunk the router names itself (first-screen code). */
const loadLanding = () => import('../features/auth/routes/start').then((m) => m.StartPage);

/** The registry of every other screen (./screens.ts, a chunk of its own; fetched once). */
let registry: Promise<{ SCREENS: Record<string, () => Promise<ComponentType>> }> | null = null;
export const loadScreens = () => (registry ??= import('./screens'));

/** An unknown path goes home, so no link is ever dead. */
const GoHome: ComponentType = () => <Navigate to="/home/index" replace />;

/** The screen's component for a route path, or GoHome when the path is not a screen. */
function loadScreen(path: string): Promise<ComponentType> {
  if (path === LANDING) return loadLanding();
  return loadScreens().then((r) => r.SCREENS[path]?.() ?? GoHome);
}

/**
 * A screen's component once its chunk (and past the landing screen the rest of the strings) has
 * loaded, fetched once per path.
 */
const screenModules = new Map<string, Promise<ComponentType>>();
const loadedScreens = new Map<string, ComponentType>();
function screenModule(path: string): Promise<ComponentType> {
  let p = screenModules.get(path);
  if (!p) {
    p = Promise.all([loadScreen(path), path === LANDING ? undefined : ensureAllStrings()]).then(([C]) => {
      loadedScreens.set(path, C);
      return C;
    });
    p.catch(() => screenModules.delete(path)); // a failed download is tried again on the next visit
    screenModules.set(path, p);
  }
  return p;
}

/**
 * The component the route renders for a path, chosen once per path so it never changes type (a
 * change would remount the screen): the screen itself when its chunk is already loaded, so its
 * first render is part of the app's time-sliced first render (./main.tsx waits for it), and a
 * lazy one otherwise. A lazy screen always suspends once; it then mounted in the synchronous
 * re-render the next store update forced (React renders useSyncExternalStore updates
 * synchronously), one task as long as the whole screen's first render and commit.
 */
const routeScreens = new Map<string, ComponentType>();
function routeScreen(path: string): ComponentType {
  let Screen = routeScreens.get(path);
  if (!Screen) {
    Screen = loadedScreens.get(path) ?? lazy(() => screenModule(path).then((C) => ({ default: C })));
    routeScreens.set(path, Screen);
  }
  return Screen;
}

/** The route's screen: the path after the hash's leading slash picks it. */
function RoutedScreen() {
  const path = useLocation().pathname.replace(/^\/+/, '');
  const Screen = routeScreen(path);
  return <Screen key={path} />;
}

/** The route path a URL hash (`#/market/market?x=1`) points at. */
const pathOfHash = (hash: string): string => hash.replace(/^#?\/?/, '').split('?')[0] || LANDING;

/**
 * Starts fetching the chunk of the screen a URL hash points at, and past the landing screen the
 * rest of the strings, so both download alongside the first-screen strings instead of after
 * them. Unknown paths: only the registry.
 */
export function preloadScreen(hash: string): void {
  const path = pathOfHash(hash);
  void loadScreen(path).catch(() => undefined);
  if (path !== LANDING) prefetchAllStrings();
}

/**
 * Resolves once the screen a URL hash points at can render without suspending (its chunk and
 * past the landing screen all the strings are in). Call after i18n is set up (the strings are
 * the current language's). Never rejects: a failed download leaves the route to its lazy path.
 */
export function screenReady(hash: string): Promise<void> {
  return screenModule(pathOfHash(hash)).then(
    () => undefined,
    () => undefined,
  );
}

/** The route table under the shell (exported for tests with a MemoryRouter). */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Shell />}>
        <Route index element={<Navigate to={`/${LANDING}`} replace />} />
        <Route path="*" element={<RoutedScreen />} />
      </Route>
    </Routes>
  );
}

/** The member app's router: hash-based, as the spec's routes are. */
export function AppRouter() {
  return (
    <HashRouter>
      <AppRoutes />
    </HashRouter>
  );
}
