// @vitest-environment jsdom
/**
 * The market shell's rows filled before the app loads (src/app/shell-fill.ts) are the app's own
 * rows: for the same quotes, the filled markup equals what RankingRow renders (test ids aside), for
 * a rise, a fall and an instrument not traded, in each column set and both languages; nothing is
 * drawn from a refusal or into a shell the app has already replaced. The stock detail's shell,
 * filled, shows the head, title and replayed date the app's detail screen shows. And the early request
 * (src/api/early.ts) is used once, while fresh.
 */
import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResOf } from '../../contract/api';
import type { Quote } from '../../contract/market';
import {
  drawingEarly,
  EARLY_MAX_AGE_MS,
  earlyDrawn,
  peekEarlyData,
  startEarly,
  takeEarly,
} from '../../src/api/early';
import { api } from '../../src/api/api';
import { AppProviders } from '../../src/app/providers';
import { AppRoutes } from '../../src/app/router';
import { fillDetailShell, fillHomeShell, fillMarketShell } from '../../src/app/shell-fill';
import { recordNamesEn } from '../../src/live/names-en';
import { renderShell } from '../../src/app/static-shell';
import { createAppStore } from '../../src/app/store';
import { RankingFiguresNote } from '../../src/features/market/components/ranking-list';
import { RankingRow, useRankingRowText } from '../../src/features/market/components/ranking-row';
import type { RankingColumns } from '../../src/features/market/ranking-figures';
import { clockSeen, quotesReceived } from '../../src/live/quotes-slice';
import { replayClock } from './support/replay-clock';

const quote = (symbol: string, name: string, last: number, prev: number, traded = true): Quote => ({
  symbol,
  name,
  kind: 'stock',
  lastMinor: last,
  openMinor: prev,
  highMinor: Math.max(last, prev),
  lowMinor: Math.min(last, prev),
  prevCloseMinor: prev,
  limitUpMinor: Math.round(prev * 1.1),
  limitDownMinor: Math.round(prev * 0.9),
  bidMinor: traded ? last - 5 : 0,
  askMinor: traded ? last + 5 : 0,
  volumeShares: traded ? 12_345_000 : 0,
  turnoverMinor: traded ? 987_654_321_00 : 0,
  ts: 1_745_370_000_000,
  replayDate: '2025-04-23',
  phase: 'open',
  traded,
});
const QUOTES = [
  quote('2330', '台積電', 87_200, 85_000),
  quote('006201', '元大富櫃50', 1_789, 1_810),
  quote('6547', '高端疫苗', 3_120, 3_120, false),
];
const page: ResOf<'market/list'> = {
  items: QUOTES,
  namesEn: { '2330': 'TSMC' },
  total: 2_244,
  page: 1,
  pageSize: 50,
  rankedAt: 1_745_370_000_000,
  replayDate: '2025-04-23',
  final: false,
  clock: replayClock('2025-04-23', 1_745_370_000_000),
};
const ok = { httpStatus: 200, body: { status: 1, msg: 'ok', data: page } };

/** The shell as index.html carries it, for `lang`. */
async function mountShell(lang: 'tw' | 'en'): Promise<void> {
  const strings = JSON.parse(readFileSync(`locales/${lang}.json`, 'utf8'));
  // As vite.config.ts `staticShell` writes it into index.html: without test ids.
  const markup = (await renderShell(lang, strings, '/market/market')).replaceAll(/ data-testid="[^"]*"/g, '');
  document.documentElement.dataset.shell = lang;
  document.body.innerHTML = `<div id="root"><div class="static-shell" data-shell-lang="${lang}" data-shell-route="market">${markup}</div></div>`;
}

/** RankingRow as RankingList renders it: with the list's words. */
function ListRow({ symbol, columns }: { symbol: string; columns: RankingColumns }) {
  return <RankingRow symbol={symbol} columns={columns} text={useRankingRowText()} onOpen={() => {}} />;
}

/**
 * RankingRow's markup for `q` with the page's clock and English names, as the app renders it
 * (test ids removed).
 */
function appRow(q: Quote, columns: RankingColumns): string {
  const store = createAppStore();
  store.dispatch(quotesReceived([q]));
  store.dispatch(clockSeen(page.clock));
  recordNamesEn(page.namesEn); // as the list does with each page (ranking-window.ts)
  return renderToStaticMarkup(
    <AppProviders store={store}>
      <ListRow symbol={q.symbol} columns={columns} />
    </AppProviders>,
  ).replaceAll(/ data-testid="[^"]*"/g, '');
}

/** Markup as the DOM serializes it, each `style` as the CSSOM writes it (#cf1322 = rgb(207, 19, 34)), attributes sorted. */
function normalize(html: string): string {
  const el = document.createElement('div');
  el.innerHTML = html;
  for (const s of el.querySelectorAll<HTMLElement>('[style]')) s.setAttribute('style', s.style.cssText);
  // Attributes in name order (a data-traded set after the copy vs. in React's prop order).
  for (const e of el.querySelectorAll('*')) {
    const attrs = [...e.attributes]
      .map((a) => [a.name, a.value] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    for (const [name] of attrs) e.removeAttribute(name);
    for (const [name, value] of attrs) e.setAttribute(name, value);
  }
  return el.innerHTML;
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('market shell fill', () => {
  for (const lang of ['tw', 'en'] as const)
    for (const [sort, columns] of [
      ['gainers', 'change'],
      ['volume', 'volume'],
      ['turnover', 'turnover'],
    ] as const)
      it(`draws the app's rows (${lang}, ${sort})`, async () => {
        await mountShell(lang);
        await i18next.changeLanguage(lang);
        expect(document.querySelector('.static-shell .center-fill')).not.toBeNull();
        expect(fillMarketShell(ok, { sort })).toBe(QUOTES.length);
        const rows = [...document.querySelectorAll('.static-shell .quote-row')];
        expect(rows).toHaveLength(QUOTES.length);
        QUOTES.forEach((q, i) => expect(normalize(rows[i]!.outerHTML)).toBe(normalize(appRow(q, columns))));
        expect(document.querySelector('.static-shell .center-fill')).toBeNull();
      });

  for (const lang of ['tw', 'en'] as const)
    for (const final of [false, true])
      it(`draws the app's line above the list first (${lang}, final ${final})`, async () => {
        await mountShell(lang);
        await i18next.changeLanguage(lang);
        const data = { ...page, final };
        fillMarketShell({ httpStatus: 200, body: { status: 1, msg: 'ok', data } }, { sort: 'all' });
        const line = document.querySelector('.static-shell .ranking-figures-note');
        expect(line?.nextElementSibling?.classList.contains('quote-row')).toBe(true);
        const app = renderToStaticMarkup(
          <AppProviders store={createAppStore()}>
            <RankingFiguresNote replayDate="2025-04-23" final={final} />
          </AppProviders>,
        ).replaceAll(/ data-testid="[^"]*"/g, '');
        expect(normalize(line!.outerHTML)).toBe(normalize(app));
        expect(line!.textContent).toContain('2025-04-23');
      });

  it('draws no line when the quotes share no replayed day', async () => {
    await mountShell('tw');
    const data = { ...page, replayDate: null };
    expect(fillMarketShell({ httpStatus: 200, body: { status: 1, msg: 'ok', data } }, { sort: 'all' })).toBe(
      QUOTES.length,
    );
    expect(document.querySelector('.static-shell .ranking-figures-note')).toBeNull();
  });

  it('draws nothing from a refusal, a failed request or a shell already replaced', async () => {
    await mountShell('tw');
    expect(
      fillMarketShell({ httpStatus: 200, body: { status: 0, msg: 'generic', data: null } }, { sort: 'all' }),
    ).toBe(0);
    expect(fillMarketShell({ httpStatus: 0, body: null }, { sort: 'all' })).toBe(0);
    document.body.innerHTML = '<div id="root"></div>';
    expect(fillMarketShell(ok, { sort: 'all' })).toBe(0);
  });

  it('draws only the rows that fit the window', async () => {
    await mountShell('tw');
    const many = {
      ...page,
      items: Array.from({ length: 50 }, (_, i) => quote(String(1100 + i), `S${i}`, 1000, 990)),
    };
    const n = fillMarketShell(
      { httpStatus: 200, body: { status: 1, msg: 'ok', data: many } },
      { sort: 'all' },
    );
    const rowPx = parseFloat(document.querySelector<HTMLElement>('.static-shell .quote-row')!.style.height);
    expect(rowPx).toBeGreaterThan(40);
    expect(n).toBe(Math.ceil(window.innerHeight / rowPx) + 1);
  });
});

describe('early requests', () => {
  it('are taken once, peeked once answered, and dropped when stale', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ status: 1, msg: 'ok', data: page })));
    vi.stubGlobal('fetch', fetchMock);
    const body = { sort: 'all', page: 1, pageSize: 50 };
    await startEarly('market/list', body);
    expect(peekEarlyData('market/list', { ...body, page: 2 })).toBeUndefined(); // another body
    expect(peekEarlyData('market/list', body)).toEqual(page);
    expect(await takeEarly('market/list', body)).toEqual({
      httpStatus: 200,
      body: { status: 1, msg: 'ok', data: page },
    });
    expect(takeEarly('market/list', body)).toBeNull();

    vi.useFakeTimers({ toFake: ['Date'] });
    await startEarly('market/list', body);
    vi.setSystemTime(Date.now() + EARLY_MAX_AGE_MS + 1);
    expect(peekEarlyData('market/list', body)).toBeUndefined();
    expect(takeEarly('market/list', body)).toBeNull();
  });

  it("hold the app's first render until the shell has drawn them, at most maxMs", async () => {
    let draw!: () => void;
    drawingEarly(new Promise<void>((r) => (draw = r)));
    let done = false;
    const waiting = earlyDrawn(60_000).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    draw();
    await waiting;
    expect(done).toBe(true);

    drawingEarly(new Promise<void>(() => {})); // a drawing that never ends
    const t0 = Date.now();
    await earlyDrawn(50);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
    drawingEarly(Promise.reject(new Error('no shell'))); // a failed drawing holds nothing
    await earlyDrawn(60_000);
  });

  it('are not used after a network failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    const answer = await startEarly('market/indices', {});
    expect(answer).toEqual({ httpStatus: 0, body: null });
    expect(takeEarly('market/indices', {})).toBeNull();
  });
});

describe('stock detail shell fill', () => {
  const detail: ResOf<'market/detail'> = {
    quote: QUOTES[0]!,
    nameEn: 'TSMC',
    industry: '半導體業',
    market: 'TWSE',
    isin: 'TW0002330008',
    listingDate: '1994-09-05',
    clock: page.clock,
  };

  /** The app's detail screen for `detail` (as the app renders it once the answer is in). */
  async function appDetail(): Promise<Element> {
    const store = createAppStore();
    store.dispatch(quotesReceived([detail.quote]));
    store.dispatch(clockSeen(detail.clock));
    await store.dispatch(api.util.upsertQueryData('marketDetail', '2330', detail));
    const { prelude } = await prerenderToNodeStream(
      <AppProviders store={store}>
        <MemoryRouter initialEntries={['/market/marketDetail?symbol=2330']}>
          <AppRoutes />
        </MemoryRouter>
      </AppProviders>,
      { progressiveChunkSize: Number.POSITIVE_INFINITY },
    );
    let html = '';
    for await (const c of prelude) html += Buffer.from(c as Uint8Array).toString('utf8');
    const el = document.createElement('div');
    el.innerHTML = html.replaceAll(/ data-testid="[^"]*"/g, '');
    return el;
  }

  for (const lang of ['tw', 'en'] as const)
    it(`draws the app's head, title and date (${lang})`, async () => {
      const strings = JSON.parse(readFileSync(`locales/${lang}.json`, 'utf8'));
      const markup = (await renderShell(lang, strings, '/market/marketDetail?symbol=0000')).replaceAll(
        / data-testid="[^"]*"/g,
        '',
      );
      document.documentElement.dataset.shell = lang;
      document.body.innerHTML = `<div class="static-shell" data-shell-lang="${lang}" data-shell-route="detail">${markup}</div>`;
      const shell = document.querySelector<HTMLElement>('.static-shell')!;
      expect(fillDetailShell({ httpStatus: 200, body: { status: 1, msg: 'ok', data: detail } }, '6547')).toBe(
        false,
      );
      expect(shell.dataset.filled).toBeUndefined();
      expect(fillDetailShell({ httpStatus: 200, body: { status: 1, msg: 'ok', data: detail } }, '2330')).toBe(
        true,
      );
      expect(shell.dataset.filled).toBe('');
      const app = await appDetail();
      for (const sel of ['.detail-head', '.detail-title', '.replay-label'])
        expect(normalize(shell.querySelector(sel)!.outerHTML), sel).toBe(
          normalize(app.querySelector(sel)!.outerHTML),
        );
    });
});

describe('home shell fill', () => {
  const indices: ResOf<'market/indices'> = {
    items: [
      {
        code: 'TAIEX',
        name: '發行量加權股價指數',
        lastMinor: 2_005_124,
        prevCloseMinor: 1_952_877,
        date: '2025-04-14',
      },
    ],
  };

  /** The app's home screen once the indices have come (test ids removed). */
  async function appHome(): Promise<Element> {
    const store = createAppStore();
    await store.dispatch(api.util.upsertQueryData('indices', undefined, indices));
    const { prelude } = await prerenderToNodeStream(
      <AppProviders store={store}>
        <MemoryRouter initialEntries={['/home/index']}>
          <AppRoutes />
        </MemoryRouter>
      </AppProviders>,
      { progressiveChunkSize: Number.POSITIVE_INFINITY },
    );
    let html = '';
    for await (const c of prelude) html += Buffer.from(c as Uint8Array).toString('utf8');
    const el = document.createElement('div');
    el.innerHTML = html.replaceAll(/ data-testid="[^"]*"/g, '');
    return el;
  }

  for (const lang of ['tw', 'en'] as const)
    it(`draws the app's index card into the home frame (${lang})`, async () => {
      const strings = JSON.parse(readFileSync(`locales/${lang}.json`, 'utf8'));
      const markup = (await renderShell(lang, strings, '/home/index')).replaceAll(
        / data-testid="[^"]*"/g,
        '',
      );
      document.documentElement.dataset.shell = lang;
      document.body.innerHTML = `<div class="static-shell" data-shell-lang="${lang}" data-shell-route="home">${markup}</div>`;
      const card = () => document.querySelector<HTMLElement>('.static-shell .index-card')!;
      expect(card().dataset.filled).toBeUndefined();
      const other = { items: [{ ...indices.items[0]!, code: 'OTHER' }] };
      expect(fillHomeShell({ httpStatus: 200, body: { status: 1, msg: 'ok', data: other } })).toBe(false);
      expect(fillHomeShell({ httpStatus: 200, body: { status: 1, msg: 'ok', data: indices } })).toBe(true);
      expect(card().dataset.filled).toBe('');
      // The label under the figures: an estimate while the session runs, else the official close.
      expect(card().querySelector<HTMLElement>('.index-card-basis')!.dataset.basis).toBe(
        indices.items[0]!.estimate ? 'estimate' : 'official',
      );
      const app = await appHome();
      expect(normalize(card().outerHTML)).toBe(normalize(app.querySelector('.index-card')!.outerHTML));
    });
});
