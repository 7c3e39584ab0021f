/**
 * Hash routes, the spec's paths verbatim (product-spec §2). Only screens that exist are routed;
 * anything else falls back to /home/index so no link is ever dead. Screens load lazily so the
 * first paint on a phone does not wait for the chart library.
 */
import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom';
import { Loading, Shell } from './shell';

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Shell />,
    hydrateFallbackElement: <Loading />,
    children: [
      { index: true, element: <Navigate to="/login/start" replace /> },
      {
        path: 'login/start',
        lazy: () => import('../features/auth/routes/start').then((m) => ({ Component: m.StartPage })),
      },
      {
        path: 'login/login',
        lazy: () => import('../features/auth/routes/login').then((m) => ({ Component: m.LoginPage })),
      },
      {
        path: 'login/register',
        lazy: () => import('../features/auth/routes/register').then((m) => ({ Component: m.RegisterPage })),
      },
      {
        path: 'home/index',
        lazy: () => import('../features/home/routes/home').then((m) => ({ Component: m.HomePage })),
      },
      {
        path: 'market/market',
        lazy: () => import('../features/market/routes/market').then((m) => ({ Component: m.MarketPage })),
      },
      {
        path: 'market/marketDetail',
        lazy: () =>
          import('../features/market/routes/market-detail').then((m) => ({ Component: m.MarketDetailPage })),
      },
      {
        path: 'market/favo',
        lazy: () => import('../features/market/routes/favo').then((m) => ({ Component: m.FavoPage })),
      },
      {
        path: 'position/position',
        lazy: () =>
          import('../features/position/routes/position').then((m) => ({ Component: m.PositionPage })),
      },
      {
        path: 'position/positionDetail',
        lazy: () =>
          import('../features/position/routes/position-detail').then((m) => ({
            Component: m.PositionDetailPage,
          })),
      },
      {
        path: 'user/usercenter',
        lazy: () =>
          import('../features/account/routes/usercenter').then((m) => ({ Component: m.UserCenterPage })),
      },
      {
        path: 'user/recharge',
        lazy: () => import('../features/funds/routes/recharge').then((m) => ({ Component: m.RechargePage })),
      },
      {
        path: 'user/FundingDetails',
        lazy: () =>
          import('../features/funds/routes/funding-details').then((m) => ({
            Component: m.FundingDetailsPage,
          })),
      },
      { path: '*', element: <Navigate to="/home/index" replace /> },
    ],
  },
];

export function createRouter() {
  return createHashRouter(routes);
}
