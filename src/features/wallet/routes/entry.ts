/**
 * The router's door to the wallet screens: a module with no imports of its own, so the first
 * screen's router carries one short dependency list for both routes (scripts/bundle-budget.mjs);
 * the screens and their shared chunks load when a route renders.
 */
import { lazy } from 'react';

const screens = () => import('./wallet');
export const WalletPage = lazy(() => screens().then((m) => ({ default: m.WalletPage })));
export const InvitePage = lazy(() => screens().then((m) => ({ default: m.InvitePage })));
