/**
 * The router's door to the wallet screens: a module without imports of its own app code, so the
 * first screen's router carries one short dependency list for both routes
 * (scripts/bundle-budget.mjs); the screens and their shared chunks load when a route renders
 * (under the shell's Suspense).
 */
import { lazy } from 'react';

const screens = () => import('./wallet');
const Wallet = lazy(() => screens().then((m) => ({ default: m.WalletPage })));
const Invite = lazy(() => screens().then((m) => ({ default: m.InvitePage })));

export const WalletPage = () => <Wallet />;
export const InvitePage = () => <Invite />;
