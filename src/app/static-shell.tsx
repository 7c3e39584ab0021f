/**
 * Build-time only (vite.config.ts `staticShell`, through Vite's SSR loader): a screen's markup as
 * the app's first render draws it before any data has come (the landing screen for a guest, the
 * market screen's frame: header, tabs, status bar, list heads), so index.html can paint it before
 * any script has run. It is the real route table (`AppRoutes`) under the app's own providers,
 * prerendered with react-dom/static (which waits for the lazy chunks), with no site
 * configuration, clock or quotes yet (their requests start in the browser), exactly like React's
 * first frame in the browser. The market screen's copy also carries its list's row as templates,
 * which src/app/shell-fill.ts fills once the first page of the list has come.
 */
import type { ResourceKey } from 'i18next';
import i18next from 'i18next';
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from 'react-router-dom';
import type { ClockState, Quote } from '../../contract/market';
import { api } from '../api/api';
import { RankingFiguresNote } from '../features/market/components/ranking-list';
import { RankingRow, useRankingRowText } from '../features/market/components/ranking-row';
import type { RankingColumns } from '../features/market/ranking-figures';
import type { Lang } from '../lib/format';
import { clockSeen, quotesReceived } from '../live/quotes-slice';
import { ensureAllStrings, setupI18n } from './i18n';
import { AppProviders } from './providers';
import { AppRoutes } from './router';
import { TEMPLATE_DATE, TEMPLATE_SYMBOL } from './shell-fill';
import { createAppStore } from './store';

/**
 * The HTML of the screen at `path` (a route of src/app/router.tsx, e.g. '/login/start') in `lang`,
 * with `strings` the language's first-screen strings (locales/{lang}.json; a screen that needs
 * the rest loads them as in the browser). Resolves once every lazy part has rendered.
 */
export async function renderShell(lang: Lang, strings: ResourceKey, path: string): Promise<string> {
  await setupI18n(lang, { [lang]: strings });
  if (!i18next.hasResourceBundle(lang, 'translation'))
    i18next.addResourceBundle(lang, 'translation', strings, true, true);
  await i18next.changeLanguage(lang);
  // A screen past the landing one needs the rest of the strings. Its lazy chunk asks for them
  // only when it first loads (in the first language rendered), so ask here for each language.
  if (path !== '/login/start') await ensureAllStrings(lang);
  const store = createAppStore();
  if (path.startsWith('/market/marketDetail')) {
    // The detail screen's frame for the template instrument, its figures hidden until
    // src/app/shell-fill.ts has set them (styles.css).
    const quote = templateQuote();
    store.dispatch(quotesReceived([quote]));
    store.dispatch(clockSeen(TEMPLATE_CLOCK));
    await store.dispatch(
      api.util.upsertQueryData('marketDetail', TEMPLATE_SYMBOL, {
        quote,
        nameEn: null,
        industry: null,
        market: 'TWSE',
        isin: null,
        listingDate: null,
        clock: TEMPLATE_CLOCK,
      }),
    );
  }
  const { prelude } = await prerenderToNodeStream(
    <AppProviders store={store}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
    // One piece of HTML: React would otherwise move a large boundary's content to the end with
    // an inline script to put it in place, which the CSP forbids (script-src 'self').
    {
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (e) => void console.error('renderShell', path, e),
    },
  );
  const markup = await toHtml(prelude);
  // Cancels the cache's removal timers (30 s after the last subscriber), which would otherwise
  // keep the build's process alive that long after the bundle is written.
  store.dispatch(api.util.resetApiState());
  return path === '/market/market' ? markup + (await rankingRowTemplates()) : markup;
}

/** A prerender's HTML. */
async function toHtml(prelude: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/** The app's RankingRow for the template quote, with the list's words. */
function TemplateRow({ columns }: { columns: RankingColumns }) {
  return (
    <RankingRow symbol={TEMPLATE_SYMBOL} columns={columns} text={useRankingRowText()} onOpen={() => {}} />
  );
}

/**
 * The market list's row, one `<template class="shell-row" data-columns>` per column set, drawn by
 * the app's own RankingRow for a template quote on the replayed date TEMPLATE_DATE, with the
 * not-traded label, and the line above the list (`<template class="shell-note" data-final>`, the
 * intraday and the closed day's): src/app/shell-fill.ts copies and fills them with the first
 * page's quotes before the app has loaded.
 */
async function rankingRowTemplates(): Promise<string> {
  const store = createAppStore();
  store.dispatch(quotesReceived([templateQuote()]));
  const columnSets: RankingColumns[] = ['change', 'volume', 'turnover'];
  const { prelude } = await prerenderToNodeStream(
    <AppProviders store={store}>
      {columnSets.map((columns) => (
        <template
          key={columns}
          className="shell-row"
          data-columns={columns}
          data-not-traded={i18next.t('ranking.notTraded')}
        >
          <TemplateRow columns={columns} />
        </template>
      ))}
      {[false, true].map((final) => (
        <template key={String(final)} className="shell-note" data-final={String(final)}>
          <RankingFiguresNote replayDate={TEMPLATE_DATE} final={final} />
        </template>
      ))}
    </AppProviders>,
  );
  return toHtml(prelude);
}

/** The clock of a template screen: a replayed session, continuous trading on TEMPLATE_DATE. */
const TEMPLATE_CLOCK: ClockState = {
  source: 'replay',
  mode: 'replay',
  phase: 'open',
  tradingPhase: 'continuous',
  speed: 1,
  now: 0,
  replayDate: TEMPLATE_DATE,
};

/** The quote the templates are drawn with (every figure is replaced before it is seen). */
function templateQuote(): Quote {
  return {
    symbol: TEMPLATE_SYMBOL,
    name: TEMPLATE_SYMBOL,
    kind: 'stock',
    lastMinor: 0,
    openMinor: 0,
    highMinor: 0,
    lowMinor: 0,
    prevCloseMinor: 0,
    limitUpMinor: 0,
    limitDownMinor: 0,
    bidMinor: 0,
    askMinor: 0,
    volumeShares: 0,
    turnoverMinor: 0,
    ts: 0,
    replayDate: TEMPLATE_DATE,
    phase: 'open',
    traded: true,
    priceLimits: true,
    referenceEstimated: false,
    taxKind: 'stock',
  };
}
