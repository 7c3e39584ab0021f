/**
 * The root shell: page column capped at 750 px, the current route, and the bottom TabBar on the
 * four top-level screens (Home, Trade, Market, Mine; Follow orders is not built, so it is not
 * shown). Starts the market status bridge (lazily; not on the sign-in screens), applies the
 * site configuration's title, restores scroll positions on back/forward, sends a 401 to the login
 * screen and handles a hybrid shell's back button (./use-hybrid-back.ts).
 */
import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import { useConfigQuery } from '../api/api';
import { setUnauthorizedHandler } from '../api/unauthorized';
import { LEGACY_KEYS, writeItem } from '../lib/storage';
import { Loading } from '../ui/loading';
import { TAB_PATHS } from './tab-paths';
import { useHybridBackButton } from './use-hybrid-back';

const TAB_SET: ReadonlySet<string> = new Set(TAB_PATHS);
const TabNav = lazy(() => import('./tab-nav'));

const MarketStatusBridge = lazy(() => import('./market-status-bridge'));

/**
 * Whether the screen at `pathname` may show market data: every screen but the sign-in ones
 * (landing, login, registration, password reset: `/login/…`), where the market worker and its
 * socket are not started.
 */
export function showsMarket(pathname: string): boolean {
  return !pathname.startsWith('/login/');
}

/** Frames (about one second) to keep restoring a scroll position while the page grows. */
const RESTORE_FRAMES = 60;

/**
 * Scroll to the top on a new screen, back to where the user was on back/forward. Positions are
 * recorded per history entry as the window scrolls (the layout effect runs before the old page's
 * scroll position could be read).
 */
function useScrollRestoration(): void {
  const location = useLocation();
  const navType = useNavigationType();
  const positions = useRef(new Map<string, number>());
  const current = useRef(location.key);
  useEffect(() => {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
    const onScroll = () => positions.current.set(current.current, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    current.current = location.key;
    const target = navType === 'POP' ? (positions.current.get(location.key) ?? 0) : 0;
    window.scrollTo(0, target);
    if (target === 0) return;
    // A virtualised list grows over a few frames after it mounts: retry until the page is long
    // enough (at most RESTORE_FRAMES), unless the user takes over.
    let frame = 0;
    let raf = requestAnimationFrame(function retry() {
      if (Math.abs(window.scrollY - target) < 2 || ++frame > RESTORE_FRAMES) return;
      window.scrollTo(0, target);
      raf = requestAnimationFrame(retry);
    });
    const stop = () => cancelAnimationFrame(raf);
    const opts = { passive: true, once: true } as const;
    window.addEventListener('touchstart', stop, opts);
    window.addEventListener('wheel', stop, opts);
    return () => {
      stop();
      window.removeEventListener('touchstart', stop);
      window.removeEventListener('wheel', stop);
    };
  }, [location.key, navType]);
}

function useSiteConfig(): void {
  const { data } = useConfigQuery();
  useEffect(() => {
    if (data?.title) document.title = data.title;
  }, [data?.title]);
}

/** The app's root layout around the current route. */
export function Shell() {
  const location = useLocation();
  const navigate = useNavigate();
  useSiteConfig();
  useScrollRestoration();
  useHybridBackButton();
  useEffect(() => setUnauthorizedHandler(() => navigate('/login/login')), [navigate]);

  useEffect(
    () => () => {
      for (const k of LEGACY_KEYS) writeItem(k, null);
    },
    [],
  );

  const showTabs = TAB_SET.has(location.pathname);
  return (
    <div className={`app-column ${showTabs ? 'with-tabs' : ''}`}>
      {showsMarket(location.pathname) && (
        <Suspense fallback={null}>
          <MarketStatusBridge />
        </Suspense>
      )}
      <main className="app-main">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      {showTabs && (
        <nav className="app-tabbar">
          <Suspense fallback={null}>
            <TabNav />
          </Suspense>
        </nav>
      )}
    </div>
  );
}
