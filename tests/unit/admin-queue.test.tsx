// @vitest-environment jsdom
/**
 * A review queue renders what the contract returns: the KYC queue shows the name, the full ID
 * number and both ID photos (fetched with the operator's token as object URLs, revoked when the
 * queue unmounts); Reject asks for a reason before calling admin/rejectKyc; Approve calls
 * admin/approveKyc; reviewed rows have no actions.
 */
import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResOf } from '../../contract/api';
import { en } from './support/strings';
import { KycQueue } from '../../src/admin/kyc-queue';
import { api } from '../../src/api/api';
import { loggedIn, sessionSlice } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';

type KycPage = ResOf<'admin/kyc'>;

const page: KycPage = {
  items: [
    {
      id: 11,
      userId: 5,
      account: '0912345678',
      name: 'Chen Mei-Ling',
      idNumber: 'A123456789',
      frontUploadId: 'up-front-11',
      backUploadId: 'up-back-11',
      status: 'review',
      reason: null,
      createdAt: Date.UTC(2025, 0, 6, 2, 0),
      duplicateId: true,
    },
    {
      id: 10,
      userId: 4,
      account: '0911111111',
      name: 'Lin Wei',
      idNumber: 'F223456781',
      frontUploadId: 'up-front-10',
      backUploadId: 'up-back-10',
      status: 'rejected',
      reason: 'blurred photo',
      createdAt: Date.UTC(2025, 0, 5, 2, 0),
      duplicateId: false,
    },
  ],
  total: 2,
  page: 1,
  pageSize: 50,
};

/** Requests the queue made: endpoint name (or upload id) and body. */
let calls: { name: string; body: unknown; token: string | null }[] = [];
const created: string[] = [];
const revoked: string[] = [];

function fakeFetch(url: string, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  const upload = /\/api\/vue\/upload\/(.+)$/.exec(url);
  if (upload) {
    calls.push({ name: `upload:${decodeURIComponent(upload[1]!)}`, body: null, token: headers.get('token') });
    // (Node's Response, not jsdom's Blob: the two Blob implementations do not mix.)
    return Promise.resolve(
      new Response(new Uint8Array([0xff, 0xd8, 0xff]), { headers: { 'content-type': 'image/jpeg' } }),
    );
  }
  const name = url.replace('/api/vue/', '');
  const body = JSON.parse(String(init?.body ?? '{}')) as unknown;
  calls.push({ name, body, token: headers.get('token') });
  const row = page.items[0]!;
  const data =
    name === 'admin/kyc'
      ? page
      : name === 'admin/approveKyc'
        ? { ...row, status: 'verified' }
        : { ...row, status: 'rejected', reason: (body as { reason: string }).reason };
  return Promise.resolve(new Response(JSON.stringify({ status: 1, msg: 'ok', data }), { status: 200 }));
}

function makeStore() {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, session: sessionSlice.reducer },
    middleware: (g) => g().concat(api.middleware),
  });
  store.dispatch(
    loggedIn({ token: 'op-token', account: 'operator', role: 'operator', isAdmin: false, expiresAt: 0 }),
  );
  return store;
}

beforeAll(async () => {
  await setupI18n('en', { en });
});
beforeEach(() => {
  calls = [];
  created.length = 0;
  revoked.length = 0;
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  let n = 0;
  URL.createObjectURL = vi.fn(() => {
    const u = `blob:test/${++n}`;
    created.push(u);
    return u;
  });
  URL.revokeObjectURL = vi.fn((u: string) => void revoked.push(u));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('KYC queue', () => {
  it('shows the submission with its photos and only pending rows get actions', async () => {
    const view = render(
      <Provider store={makeStore()}>
        <KycQueue />
      </Provider>,
    );
    const row = await screen.findByTestId('kyc-row-11');
    expect(row.textContent).toContain('Chen Mei-Ling');
    expect(screen.getByTestId('kyc-id-number-11').textContent).toBe('A123456789');
    expect(row.textContent).toContain('Under review');
    // Another member's record of this number is verified or in review: marked for rejection.
    expect(screen.getByTestId('kyc-duplicate-11').textContent).toBe('Used by another member: reject');
    expect(screen.queryByTestId('kyc-duplicate-10')).toBeNull();
    expect(calls.find((c) => c.name === 'admin/kyc')?.body).toEqual({
      status: 'pending',
      page: 1,
      pageSize: 50,
    });

    // Both photos load through the protected upload route, with the operator's token.
    await waitFor(() => expect(screen.getByTestId('kyc-front-11').getAttribute('data-state')).toBe('loaded'));
    await waitFor(() => expect(screen.getByTestId('kyc-back-11').getAttribute('data-state')).toBe('loaded'));
    const uploads = calls.filter((c) => c.name.startsWith('upload:'));
    expect(uploads.map((c) => c.name)).toEqual(
      expect.arrayContaining(['upload:up-front-11', 'upload:up-back-11']),
    );
    expect(uploads.every((c) => c.token === 'op-token')).toBe(true);
    expect(screen.getByTestId('kyc-front-11').querySelector('img')?.getAttribute('src')).toMatch(
      /^blob:test\//,
    );

    // The rejected row shows its reason and no actions.
    expect(screen.getByTestId('kyc-row-10').textContent).toContain('blurred photo');
    expect(screen.queryByTestId('kyc-approve-10')).toBeNull();
    expect(screen.getByTestId('kyc-approve-11')).toBeTruthy();

    // Every object URL is revoked once the queue is gone.
    await waitFor(() => expect(created.length).toBeGreaterThanOrEqual(4));
    view.unmount();
    expect([...revoked].sort()).toEqual([...created].sort());
  });

  it('rejects only with a reason, and approves by id', async () => {
    render(
      <Provider store={makeStore()}>
        <KycQueue />
      </Provider>,
    );
    fireEvent.click(await screen.findByTestId('kyc-reject-11'));
    const box = await screen.findByTestId('reject-reason-box');
    const confirm = screen.getByTestId('reject-confirm');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    fireEvent.change(box, { target: { value: '  ID photo unreadable ' } });
    await waitFor(() => expect(screen.getByTestId('reject-confirm').hasAttribute('disabled')).toBe(false));
    await act(async () => {
      fireEvent.click(screen.getByTestId('reject-confirm'));
    });
    await waitFor(() => expect(calls.some((c) => c.name === 'admin/rejectKyc')).toBe(true));
    expect(calls.find((c) => c.name === 'admin/rejectKyc')?.body).toEqual({
      id: 11,
      reason: 'ID photo unreadable',
    });

    fireEvent.click(screen.getByTestId('kyc-approve-11'));
    await waitFor(() => expect(calls.some((c) => c.name === 'admin/approveKyc')).toBe(true));
    expect(calls.find((c) => c.name === 'admin/approveKyc')?.body).toEqual({ id: 11 });
  });
});
