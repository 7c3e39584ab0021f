// @vitest-environment jsdom
/**
 * The block-trade password screen (/user/blockTradePassword) against a stubbed server (real store,
 * api, base query and locales), in both languages:
 * - none set yet: "set" title and button, the not-set notice, no old-password field; a mismatched
 *   confirmation is refused before anything is sent; a good one sends user/setBlockTradePassword
 *   without an old password and goes back (opened by its address: the block-trade tab);
 * - one set, wrong entries counted: "change", the tries-left notice, the old password sent too;
 * - locked: the lock notice;
 * - the funds-password screen (/user/setPassword), which shares the form, sends its own fields.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlockTradePasswordState } from '../../contract/primary';
import { en, tw } from './support/strings';
import { loggedIn } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { SetPasswordPage } from '../../src/features/identity/routes/set-password';
import { BlockTradePasswordPage } from '../../src/features/primary/routes/block-trade-password';

vi.mock('../../src/live/worker-bridge', async () => {
  const { NEVER } = await import('rxjs');
  return { marketStream: () => NEVER, marketStatus$: () => NEVER };
});
vi.mock('../../src/ui/toast', () => ({ showToast: vi.fn(), preloadToast: vi.fn(async () => undefined) }));

const calls: { name: string; body: Record<string, unknown> }[] = [];
let state: BlockTradePasswordState;

function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.replace('/api/vue/', '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : {};
      calls.push({ name, body });
      const data =
        name === 'user/blockTradePassword'
          ? state
          : name === 'user/security'
            ? {
                fundsPasswordSet: state.set,
                fundsPasswordLocked: state.locked,
                fundsPasswordTriesLeft: state.triesLeft,
              }
            : name === 'user/setBlockTradePassword'
              ? { ok: true, outcome: state.set ? 'changed' : 'set' }
              : name === 'common/config'
                ? []
                : null;
      return new Response(JSON.stringify({ status: 1, msg: 'ok', data }), { status: 200 });
    }),
  );
}

function renderScreen(path = '/user/blockTradePassword') {
  const store = createAppStore();
  store.dispatch(
    loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
  );
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/user/blockTradePassword" element={<BlockTradePasswordPage />} />
          <Route path="/user/setPassword" element={<SetPasswordPage />} />
          <Route path="/user/usercenter" element={<div data-testid="member-centre" />} />
          <Route path="/market/bidding" element={<div data-testid="bidding-screen" />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
const sent = () => calls.filter((c) => c.name === 'user/setBlockTradePassword');

beforeAll(async () => {
  await setupI18n('en', { en, tw });
});
beforeEach(async () => {
  calls.length = 0;
  await i18next.changeLanguage('en');
  stubServer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('block-trade password screen', () => {
  it('sets the first one, refusing a mismatched confirmation, then goes back (en)', async () => {
    state = { set: false, locked: false, triesLeft: 5 };
    renderScreen();
    expect(await screen.findByTestId('block-password-not-set')).toBeTruthy();
    expect(screen.getByTestId('block-password-not-set').textContent).toContain(
      en.primary.passwordScreen.notSetHint,
    );
    expect(screen.getByTestId('block-password-submit').textContent).toContain(en.primary.passwordScreen.set);
    expect(screen.queryByTestId('block-password-old')).toBeNull();
    type('block-password-new', '246810');
    type('block-password-confirm', '246811');
    fireEvent.click(screen.getByTestId('block-password-submit'));
    expect(await screen.findByText(en.validation.passwordsDiffer)).toBeTruthy();
    expect(sent()).toHaveLength(0);
    type('block-password-confirm', '246810');
    fireEvent.click(screen.getByTestId('block-password-submit'));
    expect(await screen.findByTestId('bidding-screen')).toBeTruthy();
    expect(sent()).toEqual([
      { name: 'user/setBlockTradePassword', body: { password: '246810', confirmPassword: '246810' } },
    ]);
  });

  it('changes a set one with the old password, showing the tries left (tw)', async () => {
    await i18next.changeLanguage('tw');
    state = { set: true, locked: false, triesLeft: 3 };
    renderScreen();
    const tries = await screen.findByTestId('block-password-tries');
    expect(tries.textContent).toContain(tw.primary.passwordScreen.triesLeft.replace('{{count}}', '3'));
    expect(screen.getByTestId('block-password-submit').textContent).toContain(
      tw.primary.passwordScreen.change,
    );
    type('block-password-old', '12345');
    type('block-password-new', '246810');
    type('block-password-confirm', '246810');
    fireEvent.click(screen.getByTestId('block-password-submit'));
    expect(
      await screen.findByText(tw.primary.passwordScreen.rule, { selector: '.adm-form-item-feedback-error' }),
    ).toBeTruthy();
    expect(sent()).toHaveLength(0);
    type('block-password-old', '135790');
    fireEvent.click(screen.getByTestId('block-password-submit'));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]!.body).toEqual({ oldPassword: '135790', password: '246810', confirmPassword: '246810' });
  });

  it('says when it is locked', async () => {
    state = { set: true, locked: true, triesLeft: 0 };
    renderScreen();
    expect((await screen.findByTestId('block-password-locked')).textContent).toContain(
      en.primary.passwordScreen.locked,
    );
  });

  it('the funds-password screen sends its own fields and goes to the member centre', async () => {
    state = { set: true, locked: false, triesLeft: 5 };
    renderScreen('/user/setPassword');
    expect((await screen.findByTestId('funds-password-submit')).textContent).toContain(en.password.change);
    expect(screen.queryByTestId('funds-password-tries')).toBeNull();
    type('funds-password-old', '135790');
    type('funds-password-new', '246810');
    type('funds-password-confirm', '246810');
    fireEvent.click(screen.getByTestId('funds-password-submit'));
    expect(await screen.findByTestId('member-centre')).toBeTruthy();
    expect(calls.find((c) => c.name === 'user/setPassword')?.body).toEqual({
      oldFundsPassword: '135790',
      fundsPassword: '246810',
      confirmFundsPassword: '246810',
    });
  });
});
