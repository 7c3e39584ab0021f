// @vitest-environment jsdom
/**
 * The login-password change (/user/loginPassword) on the shared new-password fields
 * (src/ui/new-password-fields.tsx), against a stubbed server: a new password equal to the old one
 * and a confirmation that differs are refused before anything is sent; a good change sends
 * user/loginPassword with the three fields and goes back to the member centre.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loggedIn } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { LoginPasswordPage } from '../../src/features/identity/routes/login-password';
import { en, tw } from './support/strings';

vi.mock('../../src/live/worker-bridge', async () => {
  const { NEVER } = await import('rxjs');
  return { marketStream: () => NEVER, marketStatus$: () => NEVER };
});
vi.mock('../../src/ui/toast', () => ({ showToast: vi.fn(), preloadToast: vi.fn(async () => undefined) }));

const calls: { name: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  await setupI18n('en', { en, tw });
});
beforeEach(async () => {
  await i18next.changeLanguage('en');
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.replace('/api/vue/', '');
      calls.push({ name, body: typeof init.body === 'string' ? JSON.parse(init.body) : {} });
      const data = name === 'user/loginPassword' ? { ok: true } : name === 'common/config' ? [] : null;
      return new Response(JSON.stringify({ status: 1, msg: 'ok', data }), { status: 200 });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderScreen() {
  const store = createAppStore();
  store.dispatch(
    loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
  );
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/user/loginPassword']}>
        <Routes>
          <Route path="/user/loginPassword" element={<LoginPasswordPage />} />
          <Route path="/user/usercenter" element={<div data-testid="member-centre" />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('login password change', () => {
  it('refuses the old password as the new one, and a confirmation that differs', async () => {
    renderScreen();
    type('login-password-old', 'abcd1234');
    type('login-password-new', 'abcd1234');
    type('login-password-confirm', 'abcd12345');
    fireEvent.click(screen.getByTestId('login-password-submit'));
    await screen.findByText(i18next.t('validation.passwordUnchanged'));
    expect(screen.getByText(i18next.t('validation.passwordsDiffer'))).toBeTruthy();
    expect(calls.some((c) => c.name === 'user/loginPassword')).toBe(false);
  });

  it('sends a good change and goes back to the member centre', async () => {
    renderScreen();
    type('login-password-old', 'abcd1234');
    type('login-password-new', 'wxyz9876');
    type('login-password-confirm', 'wxyz9876');
    fireEvent.click(screen.getByTestId('login-password-submit'));
    await screen.findByTestId('member-centre');
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'user/loginPassword')?.body).toEqual({
        oldPassword: 'abcd1234',
        password: 'wxyz9876',
        confirmPassword: 'wxyz9876',
      }),
    );
  });
});
