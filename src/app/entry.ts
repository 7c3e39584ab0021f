/**
 * index.html's entry: lets the static shell paint before the app's modules run. index.html
 * preloads none of the app's modules: where src/app/first-paint.ts has shown a prerendered screen
 * (`data-shell` on <html>: the landing screen, the market screen's, a stock detail's or the home
 * screen's frame), the
 * app (./main, which then asks for the screen's chunk) is asked for only once the shell has drawn
 * its early answer (the market and detail frames' data, asked for at once below; at most
 * APP_AFTER_SHELL_MS) and the next frame is painted, so neither its download nor its parsing holds
 * back the first paint or the rows. Elsewhere (another route, a member's session, a hidden tab, where no
 * frame comes) nothing is on screen yet, so the app is asked for at once. Off the landing route
 * the screen registry (./screens.ts) is asked for with the app, not after it. The stylesheets
 * (antd-mobile's global one, then the app's) are linked by index.html from here.
 */
// antd-mobile's global styles (its CSS variables) first: styles.css overrides some of them.
import 'antd-mobile/es/global';
import './styles.css';
import { MARKET_SORTS } from '../../contract/entry-constants';
import { drawingEarly, earlyDrawn, startEarly } from '../api/early';
import { firstPageBody, rankingArgsOf } from '../features/market/ranking-args';

/**
 * The market screen's shell: its list's first page is asked for now (src/api/early.ts), and drawn
 * into the shell when it comes (./shell-fill.ts), long before the app can draw it; the app then
 * starts from the same answer (./early-seed.ts). Not on the index tab (the shell is the market
 * tab's frame).
 */
const shellRoute = document.documentElement.dataset.shellRoute;
const hashParams = new URLSearchParams(location.hash.includes('?') ? location.hash.split('?')[1] : '');
if (shellRoute === 'market' && hashParams.get('tab') !== 'index') {
  const { args } = rankingArgsOf(hashParams, MARKET_SORTS, 'all');
  const answer = startEarly('market/list', firstPageBody(args));
  drawingEarly(
    Promise.all([answer, import('./shell-fill')]).then(([a, fill]) => fill.fillMarketShell(a, args)),
  );
}
// The stock detail's shell (./first-paint.ts checked the symbol): its figures, the same way.
if (shellRoute === 'detail') {
  const symbol = hashParams.get('symbol') ?? '';
  const answer = startEarly('market/detail', { symbol });
  drawingEarly(
    Promise.all([answer, import('./shell-fill')]).then(([a, fill]) => fill.fillDetailShell(a, symbol)),
  );
}

// The home screen's shell: its index card, the same way.
if (shellRoute === 'home') {
  const answer = startEarly('market/indices', {});
  drawingEarly(Promise.all([answer, import('./shell-fill')]).then(([a, fill]) => fill.fillHomeShell(a)));
}

/**
 * Any screen but the landing one is in the screen registry (./screens.ts): fetch it with the app,
 * asked for in the next task (each script request a task starts lengthens that task).
 */
const onLanding = /^(#\/?(login\/start)?)?([?].*)?$/.test(location.hash);
const startApp = (): void => {
  // React and the libraries with it (the `vendor` chunk, the largest) are asked for a task ahead
  // of the rest of the app: on a fast link they arrive first and are evaluated in a task of their
  // own, not in one long task with the whole app; otherwise nothing changes.
  void import('react-dom/client');
  setTimeout(() => {
    void import('./main');
    if (!onLanding) setTimeout(() => void import('./screens'), 0);
  }, 0);
};

/**
 * Wall ms the app's download waits at most, where a shell is on screen, for the shell to draw its
 * early answer: the answer and the few small chunks that draw it go first on a slow link, rather
 * than sharing it with the app's ~230 KB.
 */
const APP_AFTER_SHELL_MS = 1_500;

if (document.documentElement.dataset.shell && document.visibilityState === 'visible')
  void earlyDrawn(APP_AFTER_SHELL_MS).then(() => requestAnimationFrame(() => setTimeout(startApp, 0)));
else startApp();
