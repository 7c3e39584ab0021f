// @vitest-environment jsdom
/**
 * The privacy box is ticked once per device: a login with it ticked records the agreement's
 * version (the latest updatedAt of its texts, `shipped` for the text shipped with the app) in
 * localStorage, and the next login form starts ticked while that version is current; an edited
 * agreement (a newer updatedAt) must be ticked again.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { AGREEMENT_ACCEPTED_KEY, agreementVersion } from '../../src/features/auth/components/agreement';
import { LoginPage } from '../../src/features/auth/routes/login';
import { RegisterPage } from '../../src/features/auth/routes/register';
import { en, tw } from './support/strings';

vi.mock('../../src/live/worker-bridge', async () => {
  const { NEVER } = await import('rxjs');
  return { marketStream: () => NEVER, marketStatus$: () => NEVER };
});

let updatedAt: string | null = '2026-03-01T00:00:00.000Z';
const calls: string[] = [];

function page() {
  return {
    name: 'agreement',
    texts: [
      { lang: 'tw', title: '隱私協議', body: '…', updatedAt },
      { lang: 'en', title: 'Privacy', body: '…', updatedAt: null },
    ],
  };
}

beforeAll(async () => {
  await setupI18n('en', { en, tw });
});
beforeEach(async () => {
  await i18next.changeLanguage('en');
  localStorage.clear();
  calls.length = 0;
  updatedAt = '2026-03-01T00:00:00.000Z';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const name = url.replace('/api/vue/', '');
      calls.push(name);
      const data =
        name === 'common/page'
          ? page()
          : name === 'user/login' || name === 'user/register'
            ? { token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }
            : null;
      return new Response(JSON.stringify({ status: 1, msg: 'ok', data }), { status: 200 });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderLogin(entry = '/login/login') {
  return render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path="/login/login" element={<LoginPage />} />
          <Route path="/login/register" element={<RegisterPage />} />
          <Route path="/home/index" element={<div data-testid="home" />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

const box = () => screen.getByTestId('login-agree');
const isTicked = () => box().classList.contains('adm-checkbox-checked');

describe('agreementVersion', () => {
  it('is the latest edit of either language, or shipped', () => {
    expect(agreementVersion(undefined)).toBeNull();
    expect(agreementVersion(page() as never)).toBe('2026-03-01T00:00:00.000Z');
    updatedAt = null;
    expect(agreementVersion(page() as never)).toBe('shipped');
  });
});

describe('login privacy box', () => {
  it('starts unticked on a new device; a login with it ticked remembers the version', async () => {
    renderLogin();
    await waitFor(() => expect(calls).toContain('common/page'));
    expect(isTicked()).toBe(false);
    fireEvent.change(screen.getByTestId('login-account'), { target: { value: '0912345678' } });
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Passw0rd!x' } });
    fireEvent.click(box());
    fireEvent.click(screen.getByTestId('login-submit'));
    await screen.findByTestId('home');
    await waitFor(() =>
      expect(localStorage.getItem(AGREEMENT_ACCEPTED_KEY)).toBe('2026-03-01T00:00:00.000Z'),
    );
  });

  it('starts ticked on a device that accepted this version', async () => {
    localStorage.setItem(AGREEMENT_ACCEPTED_KEY, '2026-03-01T00:00:00.000Z');
    renderLogin();
    await waitFor(() => expect(isTicked()).toBe(true));
  });

  it('asks again once the agreement has changed', async () => {
    localStorage.setItem(AGREEMENT_ACCEPTED_KEY, '2026-02-01T00:00:00.000Z');
    renderLogin();
    await waitFor(() => expect(calls).toContain('common/page'));
    await new Promise((r) => setTimeout(r, 50));
    expect(isTicked()).toBe(false);
  });
});

describe('registration privacy box', () => {
  it('a registration with it ticked remembers the version for the next login', async () => {
    renderLogin('/login/register?code=INVITE1');
    await waitFor(() => expect(calls).toContain('common/page'));
    fireEvent.change(screen.getByTestId('register-account'), { target: { value: '0912345678' } });
    fireEvent.change(screen.getByTestId('register-password'), { target: { value: 'Passw0rdxy' } });
    fireEvent.change(screen.getByTestId('register-confirm'), { target: { value: 'Passw0rdxy' } });
    fireEvent.click(screen.getByTestId('register-agree'));
    fireEvent.click(screen.getByTestId('register-submit'));
    await screen.findByTestId('home');
    await waitFor(() =>
      expect(localStorage.getItem(AGREEMENT_ACCEPTED_KEY)).toBe('2026-03-01T00:00:00.000Z'),
    );
    cleanup();
    renderLogin();
    await waitFor(() => expect(isTicked()).toBe(true));
  });

  it('starts ticked on a device that accepted this version', async () => {
    localStorage.setItem(AGREEMENT_ACCEPTED_KEY, '2026-03-01T00:00:00.000Z');
    renderLogin('/login/register');
    await waitFor(() =>
      expect(screen.getByTestId('register-agree').classList.contains('adm-checkbox-checked')).toBe(true),
    );
  });
});
