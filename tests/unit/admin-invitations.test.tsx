// @vitest-environment jsdom
/**
 * The console's Invitations tab: lists each code with its owner, uses against the limit and its
 * state; issues a code with only the fields filled in (the server fills the rest); refuses a
 * malformed form before sending; disables an active code by its code.
 */
import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResOf } from '../../contract/api';
import { InvitationsPanel } from '../../src/admin/invitations-panel';
import { api } from '../../src/api/api';
import { loggedIn, sessionSlice } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';
import { en } from './support/strings';

type Invitation = ResOf<'admin/invitations'>['items'][number];
const at = Date.UTC(2026, 0, 1);
const code = (c: string, over: Partial<Invitation> = {}): Invitation => ({
  code: c,
  ownerId: 1,
  owner: 'admin',
  maxUses: 1000,
  uses: 12,
  expiresAt: at + 365 * 86_400_000,
  disabledAt: null,
  createdAt: at,
  state: 'active',
  ...over,
});

let calls: { name: string; body: unknown }[] = [];
const replies: Record<string, unknown> = {
  'admin/invitations': {
    items: [code('FIRST001'), code('USED0001', { maxUses: 1, uses: 1, state: 'usedUp' })],
  },
  'admin/createInvitation': code('NEWCODE1', { maxUses: 5, uses: 0 }),
  'admin/disableInvitation': code('FIRST001', { state: 'disabled', disabledAt: at }),
};

function fakeFetch(url: string, init?: RequestInit): Promise<Response> {
  const name = url.replace('/api/vue/', '');
  calls.push({ name, body: JSON.parse(String(init?.body ?? '{}')) as unknown });
  return Promise.resolve(new Response(JSON.stringify({ status: 1, msg: 'ok', data: replies[name] })));
}

async function show() {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, session: sessionSlice.reducer },
    middleware: (g) => g().concat(api.middleware),
  });
  store.dispatch(
    loggedIn({ token: 'op-token', account: 'operator', role: 'operator', isAdmin: false, expiresAt: 0 }),
  );
  render(
    <Provider store={store}>
      <InvitationsPanel />
    </Provider>,
  );
  await screen.findByTestId('invite-row-FIRST001');
}

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId).querySelector('input') ?? screen.getByTestId(testId), {
    target: { value },
  });

beforeAll(async () => {
  await setupI18n('en', { en });
});
beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('invitations panel', () => {
  it('lists codes with owner, uses and state', async () => {
    await show();
    expect(screen.getByTestId('invite-row-FIRST001').textContent).toContain('12 / 1000');
    expect(screen.getByTestId('invite-state-FIRST001').textContent).toBe(en.admin.invitations.state.active);
    expect(screen.getByTestId('invite-state-USED0001').textContent).toBe(en.admin.invitations.state.usedUp);
  });

  it('issues a code with the fields filled in, and refuses a malformed one before sending', async () => {
    await show();
    type('invite-max-uses', '0');
    expect((screen.getByTestId('invite-create') as HTMLButtonElement).disabled).toBe(true);
    type('invite-max-uses', '5');
    type('invite-code', 'newcode1');
    await act(async () => {
      fireEvent.click(screen.getByTestId('invite-create'));
    });
    await waitFor(() => expect(calls.some((c) => c.name === 'admin/createInvitation')).toBe(true));
    expect(calls.find((c) => c.name === 'admin/createInvitation')?.body).toEqual({
      code: 'NEWCODE1',
      maxUses: 5,
    });
  });

  it('disables a code by its code', async () => {
    await show();
    await act(async () => {
      fireEvent.click(screen.getByTestId('invite-disable-FIRST001'));
    });
    await waitFor(() => expect(calls.some((c) => c.name === 'admin/disableInvitation')).toBe(true));
    expect(calls.find((c) => c.name === 'admin/disableInvitation')?.body).toEqual({ code: 'FIRST001' });
  });
});
