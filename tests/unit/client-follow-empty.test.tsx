// @vitest-environment jsdom
/**
 * Copy trading on a fresh install (no mentor, no follow), against a stubbed server with the real
 * store, api and locales:
 * - the id-naming routes opened without an id (gdList, dsFllow) show the mentor list in place,
 *   with a back button and what to do there, and the list's empty state explains how mentors come
 *   to be and leads to the application;
 * - the member's follow records without an id, when there is none, say what will land there and
 *   lead to the mentors (not a bare "no data").
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { loggedIn } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { FollowFormPage } from '../../src/features/copy-trading/routes/follow-form';
import { FollowRecordPage } from '../../src/features/copy-trading/routes/follow-record';
import { MentorInfoPage } from '../../src/features/copy-trading/routes/mentor-info';
import { en, tw } from './support/strings';

const calls: string[] = [];
const empty = { items: [], total: 0, page: 1, pageSize: 20 };

beforeAll(async () => {
  await setupI18n('tw', { en, tw });
});
beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const name = url.replace('/api/vue/', '');
      calls.push(name);
      return new Response(JSON.stringify({ status: 1, msg: 'ok', data: empty }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function renderAt(path: string, element: ReactNode) {
  const store = createAppStore();
  store.dispatch(
    loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
  );
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={path.split('?')[0]} element={element} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

it.each([
  ['/gdindex/gdList', <MentorInfoPage key="info" />, 'Choose a mentor to see their record.'],
  ['/gdindex/dsFllow', <FollowFormPage key="form" />, 'Choose a mentor to follow'],
] as const)('%s without an id: the mentor list in place, with a way back', async (path, page, hint) => {
  await i18next.changeLanguage('en');
  const view = renderAt(path, page);
  expect((await screen.findByTestId('gd-pick-hint')).textContent).toContain(hint);
  // The empty list explains and leads to the application.
  expect((await screen.findByTestId('gd-empty')).textContent).toContain('No Junior mentors yet');
  expect(view.container.querySelector('.adm-nav-bar-back')).not.toBeNull();
  expect(calls).toContain('mentor/list');
  fireEvent.click(screen.getByTestId('gd-become'));
  expect(screen.getByTestId('where').textContent).toBe('/gdindex/mentorApply');
  await i18next.changeLanguage('tw');
});

it('records without an id and without a follow: what lands there, and the way to the mentors', async () => {
  renderAt('/gdindex/dsFllowRecord', <FollowRecordPage />);
  const box = await screen.findByTestId('ds-record-empty');
  expect(box.textContent).toContain('尚無跟單紀錄');
  expect(calls).toContain('follow/records');
  fireEvent.click(screen.getByTestId('ds-browse'));
  expect(screen.getByTestId('where').textContent).toBe('/gdindex/gdindex');
});

it('one follow without records: explains, without the browse button', async () => {
  renderAt('/gdindex/dsFllowRecord?id=7', <FollowRecordPage />);
  await screen.findByTestId('ds-record-empty');
  expect(screen.queryByTestId('ds-browse')).toBeNull();
});
