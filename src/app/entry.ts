/**
 * index.html's entry: lets the static shell paint before the app's modules run. index.html
 * preloads no module: on the landing route, src/app/first-paint.ts has shown the prerendered
 * landing screen (`data-shell` on <html>), and the app (./main, which then asks for the screen's
 * chunk) is asked for only after the next frame, so neither its download nor its parsing holds
 * the first paint back. Elsewhere (another route, a member's session, a hidden tab, where no
 * frame comes) nothing is on screen yet, so the app is asked for at once. Off the landing route
 * the screen registry (./screens.ts) is asked for with the app, not after it. The stylesheets
 * (antd-mobile's global one, then the app's) are linked by index.html from here.
 */
// antd-mobile's global styles (its CSS variables) first: styles.css overrides some of them.
import 'antd-mobile/es/global';
import './styles.css';

/** Any screen but the landing one is in the screen registry (./screens.ts): fetch it with the app. */
const onLanding = /^(#\/?(login\/start)?)?([?].*)?$/.test(location.hash);
const startApp = (): void => {
  void import('./main');
  if (!onLanding) void import('./screens');
};

if (document.documentElement.dataset.shell && document.visibilityState === 'visible')
  requestAnimationFrame(() => setTimeout(startApp, 0));
else startApp();
