/**
 * index.html's first paint, before any module runs: a classic script (no imports or exports, all
 * inside one function) that the build compiles and links render-blocking in index.html's head
 * (vite.config.ts `staticShell`). It decides which of the prerendered copies (src/app/
 * static-shell.tsx, one per screen and language) index.html shows while the app's modules load:
 *
 * - the landing screen on the landing route (`#/`, `#/login/start` or no hash) for a guest only
 *   (no stored session token: a member's start screen has one more button than the copy);
 * - the market screen's frame on `#/market/market` (the same for guests and members before its
 *   data comes);
 * - the stock detail's frame on `#/market/marketDetail?symbol=` with a well-formed symbol (upper
 *   case, as the app's own links write it; src/app/shell-fill.ts fills its figures);
 * - the home screen's frame on `#/home/index` (a member's landing; the same for guests and
 *   members before its data comes; src/app/shell-fill.ts fills its index card); else none;
 * - in the language the app will start in: `?lang=` before or after the hash, else the stored
 *   `lang`, else tw (the same rule as src/app/i18n.ts `detectLang`, which stores a `?lang=`;
 *   tests/unit/first-paint.test.ts checks that both agree).
 *
 * The choice is written on <html> (`data-shell="tw|en"`, `data-shell-route="start|market|detail|home"`, and
 * `lang`); styles.css shows the copy whose `data-shell-lang` and `data-shell-route` match. React's first render replaces the copy (createRoot clears #root).
 */
(() => {
  const langOf = (v: string | null | undefined): 'tw' | 'en' | null => (v === 'tw' || v === 'en' ? v : null);
  let stored: string | null = null;
  let token: string | null = null;
  try {
    stored = localStorage.getItem('lang');
    token = localStorage.getItem('tokend');
  } catch {
    // storage disabled: the app starts in the default language, logged out
  }
  const hash = location.hash;
  const q = hash.indexOf('?');
  const fromUrl =
    langOf(new URLSearchParams(location.search).get('lang')) ??
    (q >= 0 ? langOf(new URLSearchParams(hash.slice(q + 1)).get('lang')) : null);
  const lang = fromUrl ?? langOf(stored) ?? 'tw';
  const path = (q >= 0 ? hash.slice(0, q) : hash).replace(/^#?\/?/, '');
  const html = document.documentElement;
  html.lang = lang === 'tw' ? 'zh-Hant-TW' : 'en';
  const symbol = q >= 0 ? new URLSearchParams(hash.slice(q + 1)).get('symbol') : null;
  const route =
    (path === '' || path === 'login/start') && !token
      ? 'start'
      : path === 'market/market'
        ? 'market'
        : path === 'market/marketDetail' && /^[0-9A-Z]{4,6}$/.test(symbol ?? '')
          ? 'detail'
          : path === 'home/index'
            ? 'home'
            : null;
  if (route) {
    html.dataset.shell = lang;
    html.dataset.shellRoute = route;
  }
})();
