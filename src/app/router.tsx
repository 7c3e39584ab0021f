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
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
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

/** One lazy component per path: the first screen needs only the first part of the strings. */
const lazyScreens = new Map<string, LazyExoticComponent<ComponentType>>();
function lazyScreen(path: string): LazyExoticComponent<ComponentType> {
  let Screen = lazyScreens.get(path);
  if (!Screen) {
    Screen = lazy(() =>
      Promise.all([loadScreen(path), path === LANDING ? undefined : ensureAllStrings()]).then(([C]) => ({
        default: C,
      })),
    );
    lazyScreens.set(path, Screen);
  }
  return Screen;
}

/** The route's screen: the path after the hash's leading slash picks it. */
function RoutedScreen() {
  const path = useLocation().pathname.replace(/^\/+/, '');
  const Screen = lazyScreen(path);
  return <Screen key={path} />;
}

/**
 * Starts fetching the chunk of the screen a URL hash points at (`#/market/market?x=1`), and past
 * the landing screen the rest of the strings, so both download alongside the first-screen
 * strings instead of after them. Unknown paths: only the registry.
 */
export function preloadScreen(hash: string): void {
  const path = hash.replace(/^#?\/?/, '').split('?')[0] || LANDING;
  void loadScreen(path).catch(() => undefined);
  if (path !== LANDING) prefetchAllStrings();
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
