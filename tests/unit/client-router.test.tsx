// @vitest-environment jsdom
/**
 * The route's screen mounts in the app's first render once its chunk is in (src/app/router.tsx
 * `screenReady`, awaited by main.tsx): the first render already holds the screen, rather than
 * the loading fallback followed by a later render of the whole screen in one task. A screen not
 * loaded yet still works: it shows the fallback, then itself.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { en, tw } from './support/strings';
import { setupI18n } from '../../src/app/i18n';
import { AppProviders } from '../../src/app/providers';
import { AppRoutes, screenReady } from '../../src/app/router';
import { createAppStore } from '../../src/app/store';

// The shell's market status bridge subscribes to the market worker, which jsdom has no Worker for.
const statusSubscribed = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/live/worker-bridge', async (importOriginal) => {
  const { NEVER } = await import('rxjs');
  return {
    ...(await importOriginal<object>()),
    marketStream: () => NEVER,
    marketStatus$: () => {
      statusSubscribed.count++;
      return NEVER;
    },
  };
});

beforeAll(async () => {
  await setupI18n('tw', { tw, en });
});
afterEach(cleanup);

function renderAt(path: string): void {
  render(
    <AppProviders store={createAppStore()}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('the first render and the route screen', () => {
  it('holds the screen itself when its chunk was awaited before', async () => {
    await screenReady('#/login/start');
    renderAt('/login/start');
    // Synchronously after the first render: no fallback in between.
    expect(screen.queryByTestId('start-login')).not.toBeNull();
  });

  it('shows the fallback first for a screen not loaded yet, then the screen', async () => {
    renderAt('/login/login');
    expect(screen.queryByTestId('login-forgot')).toBeNull();
    await act(async () => {
      await screenReady('#/login/login');
    });
    expect(await screen.findByTestId('login-forgot')).toBeTruthy();
  });

  it('mounts the shell around it: the market status bridge outside the sign-in screens only', async () => {
    statusSubscribed.count = 0;
    await screenReady('#/login/start');
    renderAt('/login/start');
    // The bridge is a lazy chunk of the shell: once loaded, it would have mounted by now.
    await act(async () => {
      await import('../../src/app/market-status-bridge');
    });
    expect(screen.queryByTestId('start-login')).not.toBeNull();
    expect(statusSubscribed.count).toBe(0);

    cleanup();
    await screenReady('#/user/language');
    renderAt('/user/language');
    await act(async () => {
      await import('../../src/app/market-status-bridge');
    });
    expect(statusSubscribed.count).toBe(1);
  });
});
