/**
 * Hash routes, the spec's paths verbatim (product-spec §2). Only screens that exist are routed;
 * anything else falls back to /home/index so no link is ever dead.
 *
 * Declarative routing (`HashRouter` + `Routes`) with one lazy chunk per screen: the data router
 * (`createHashRouter`) costs about 16 KiB gzip more and none of its loaders or actions are used;
 * the first screen must stay within the bundle budget (scripts/bundle-budget.mjs). The chart
 * library loads with the detail screen only.
 */
import { lazy, type ComponentType } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router-dom';
import { ensureAllStrings, prefetchAllStrings } from './i18n';
import { Shell } from './shell';

/** Where `/` goes (product-spec §2: the root redirects to /login/start). */
const LANDING = 'login/start';

/** Each screen's chunk, by route path. */
const LOADERS: Record<string, () => Promise<ComponentType>> = {
  'login/start': () => import('../features/auth/routes/start').then((m) => m.StartPage),
  'login/login': () => import('../features/auth/routes/login').then((m) => m.LoginPage),
  'login/register': () => import('../features/auth/routes/register').then((m) => m.RegisterPage),
  'home/index': () => import('../features/home/routes/home').then((m) => m.HomePage),
  'home/search': () => import('../features/search/routes/search').then((m) => m.SearchPage),
  'home/searchIndex': () => import('../features/search/routes/search-index').then((m) => m.SearchIndexPage),
  'home/etf': () => import('../features/etf/routes/etf').then((m) => m.EtfPage),
  'market/market': () => import('../features/market/routes/market').then((m) => m.MarketPage),
  'market/marketDetail': () =>
    import('../features/market/routes/market-detail').then((m) => m.MarketDetailPage),
  'market/favo': () => import('../features/market/routes/favo').then((m) => m.FavoPage),
  'market/stockHot/stockList': () =>
    import('../features/market/routes/hot-stocks').then((m) => m.HotStocksPage),
  'position/position': () => import('../features/position/routes/position').then((m) => m.PositionPage),
  'position/positionDetail': () =>
    import('../features/position/routes/position-detail').then((m) => m.PositionDetailPage),
  'user/usercenter': () => import('../features/account/routes/usercenter').then((m) => m.UserCenterPage),
  'user/recharge': () => import('../features/funds/routes/recharge').then((m) => m.RechargePage),
  'user/rechargeChannel': () =>
    import('../features/funds/routes/recharge-channel').then((m) => m.RechargeChannelPage),
  'user/withdraw': () => import('../features/funds/routes/withdraw').then((m) => m.WithdrawPage),
  'user/exchange': () => import('../features/funds/routes/exchange').then((m) => m.ExchangePage),
  'user/FundingDetails': () =>
    import('../features/funds/routes/funding-details').then((m) => m.FundingDetailsPage),
  'user/bandCard': () => import('../features/identity/routes/band-card').then((m) => m.BandCardPage),
  'user/loginPassword': () =>
    import('../features/identity/routes/login-password').then((m) => m.LoginPasswordPage),
  'user/setPassword': () => import('../features/identity/routes/set-password').then((m) => m.SetPasswordPage),
  'user/BankCard': () => import('../features/identity/routes/bank-card').then((m) => m.BankCardPage),
  'user/WithCard': () => import('../features/identity/routes/with-card').then((m) => m.WithCardPage),
  'market/subscribe': () => import('../features/ipo/routes/subscribe').then((m) => m.SubscribePage),
  'market/subscribeDetail': () =>
    import('../features/ipo/routes/subscribe-detail').then((m) => m.SubscribeDetailPage),
  'market/bidding': () => import('../features/primary/routes/bidding').then((m) => m.BiddingPage),
  'market/subscribeRecord': () =>
    import('../features/ipo/routes/subscribe-record').then((m) => m.SubscribeRecordPage),
  'gdindex/gdindex': () => import('../features/follow/routes/follow').then((m) => m.MentorListPage),
  'gdindex/gdList': () => import('../features/follow/routes/follow').then((m) => m.MentorInfoPage),
  'gdindex/dsFllow': () => import('../features/follow/routes/follow').then((m) => m.FollowFormPage),
  'gdindex/dsFllowInfo': () => import('../features/follow/routes/follow').then((m) => m.FollowInfoPage),
  'gdindex/dsFllowRecord': () => import('../features/follow/routes/follow').then((m) => m.FollowRecordPage),
  'home/notice': () => import('../features/notices/routes/notice').then((m) => m.NoticePage),
  'home/noticeDetail': () =>
    import('../features/notices/routes/notice-detail').then((m) => m.NoticeDetailPage),
  'user/service': () => import('../features/support/routes/service').then((m) => m.ServicePage),
  'common/dayTrading': () =>
    import('../features/day-trading/routes/day-trading').then((m) => m.DayTradingPage),
};

/** The first screen needs only the first part of the strings; every other screen waits for all. */
const SCREENS = Object.entries(LOADERS).map(([path, load]) => ({
  path,
  Screen: lazy(() =>
    Promise.all([load(), path === LANDING ? undefined : ensureAllStrings()]).then(([C]) => ({ default: C })),
  ),
}));

/**
 * Starts fetching the chunk of the screen a URL hash points at (`#/market/market?x=1`), and past
 * the landing screen the rest of the strings, so both download alongside the first-screen
 * strings instead of after them. Unknown paths: nothing.
 */
export function preloadScreen(hash: string): void {
  const path = hash.replace(/^#?\/?/, '').split('?')[0] || LANDING;
  const load = LOADERS[path];
  if (!load) return;
  void load().catch(() => undefined);
  if (path !== LANDING) prefetchAllStrings();
}

/** The route table under the shell (exported for tests with a MemoryRouter). */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Shell />}>
        <Route index element={<Navigate to={`/${LANDING}`} replace />} />
        {SCREENS.map(({ path, Screen }) => (
          <Route key={path} path={path} element={<Screen />} />
        ))}
        <Route path="*" element={<Navigate to="/home/index" replace />} />
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
