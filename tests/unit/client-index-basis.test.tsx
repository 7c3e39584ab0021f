// @vitest-environment jsdom
/**
 * The TAIEX figure says what it is: while the replayed session runs the server sends an estimate
 * (`estimate: true`, server/market/indices.ts) and the market screen's index list says so; after
 * the close (or without the flag) it is the official daily closing figure. Real store, api and
 * locales against a stubbed market/indices.
 */
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { Provider } from 'react-redux';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { IndexList } from '../../src/features/market/components/index-list';
import { en, tw } from './support/strings';

beforeAll(async () => {
  await setupI18n('tw', { en, tw });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function serveIndex(estimate: boolean | undefined) {
  const item = {
    code: 'TAIEX',
    name: '發行量加權股價指數',
    lastMinor: 2_138_313,
    prevCloseMinor: 2_130_000,
    date: '2025-06-16',
    ...(estimate === undefined ? {} : { estimate }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ status: 1, msg: 'ok', data: { items: [item] } }))),
  );
}

it.each([
  [true, 'tw', '盤中估算值，收盤後為官方指數'],
  [false, 'tw', '官方每日收盤指數'],
  [undefined, 'en', 'Official daily closing figure'],
  [true, 'en', 'Estimate during the session; the official figure after the close'],
] as const)('estimate %s in %s → %s', async (estimate, lang, text) => {
  await i18next.changeLanguage(lang);
  serveIndex(estimate);
  render(
    <Provider store={createAppStore()}>
      <IndexList />
    </Provider>,
  );
  expect((await screen.findByTestId('index-basis')).textContent).toBe(text);
  await i18next.changeLanguage('tw');
});
