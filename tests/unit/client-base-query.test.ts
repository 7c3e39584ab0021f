// @vitest-environment jsdom
/**
 * The REST base query implements the contract: POST JSON to /api/vue/{name} with token/account
 * headers, envelope status 1 → data, otherwise a translated 2 s toast; HTTP 401 clears the
 * session and redirects after 1.5 s.
 */
import { configureStore } from '@reduxjs/toolkit';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const toastShow = vi.fn();
vi.mock('antd-mobile', () => ({ Toast: { show: (...a: unknown[]) => toastShow(...a) } }));

const { api } = await import('../../src/api/api');
const { loggedIn, sessionSlice } = await import('../../src/api/session');
const { setUnauthorizedHandler } = await import('../../src/api/unauthorized');
const { startEarly } = await import('../../src/api/early');
// Toast is loaded on first use (src/ui/toast.ts): load it now so toasts show synchronously.
await (await import('../../src/ui/toast')).preloadToast();

function makeStore() {
  return configureStore({
    reducer: { [api.reducerPath]: api.reducer, session: sessionSlice.reducer },
    middleware: (g) => g().concat(api.middleware),
  });
}

function respond(status: number, body: unknown) {
  return vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify(body), { status }));
}

beforeAll(async () => {
  await i18next.init({
    lng: 'en',
    resources: {
      en: {
        translation: {
          errors: {
            insufficientBalance: 'Insufficient balance',
            generic: 'Something went wrong',
            notLoggedIn: 'Log in',
          },
          success: { purchase: 'Order placed' },
        },
      },
    },
  });
});
beforeEach(() => toastShow.mockClear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('envelope base query', () => {
  it('POSTs JSON with session headers and returns data on status 1', async () => {
    const fetchMock = respond(200, { status: 1, msg: 'ok', data: { items: [] } });
    vi.stubGlobal('fetch', fetchMock);
    const store = makeStore();
    store.dispatch(
      loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
    );
    const res = await store.dispatch(api.endpoints.indices.initiate());
    expect(res.data).toEqual({ items: [] });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/vue/market/indices');
    expect(init.method).toBe('POST');
    const headers = init.headers as Record<string, string>;
    expect(headers.token).toBe('tok');
    expect(headers.account).toBe('0912345678');
    expect(headers['is-admin']).toBeUndefined();
    expect(JSON.parse(String(init.body))).toEqual({});
    expect(toastShow).not.toHaveBeenCalled();
  });

  it('toasts the translated msg for 2 s when status is not 1, generic for unknown keys', async () => {
    vi.stubGlobal('fetch', respond(200, { status: 0, msg: 'insufficientBalance', data: null }));
    const store = makeStore();
    const res = await store.dispatch(
      api.endpoints.placeOrder.initiate({
        body: { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 1 },
        idempotencyKey: 'tap-key-0001',
      }),
    );
    expect('error' in res && res.error).toMatchObject({ kind: 'refused', msg: 'insufficientBalance' });
    expect(toastShow).toHaveBeenCalledWith({ content: 'Insufficient balance', duration: 2000 });

    vi.stubGlobal('fetch', respond(200, { status: 0, msg: 'some text from nowhere', data: null }));
    await store.dispatch(api.endpoints.indices.initiate(undefined, { forceRefetch: true }));
    expect(toastShow).toHaveBeenLastCalledWith({ content: 'Something went wrong', duration: 2000 });
  });

  it('shows the success toast for a mutation answered with a success key', async () => {
    vi.stubGlobal('fetch', respond(200, { status: 1, msg: 'purchase', data: { id: 1 } }));
    const store = makeStore();
    await store.dispatch(
      api.endpoints.placeOrder.initiate({
        body: { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 1 },
        idempotencyKey: 'tap-key-0001',
      }),
    );
    expect(toastShow).toHaveBeenCalledWith(
      expect.objectContaining({ icon: 'success', content: 'Order placed' }),
    );
  });

  it('on HTTP 401 clears the session and redirects after 1.5 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const redirect = vi.fn();
    setUnauthorizedHandler(redirect);
    vi.stubGlobal('fetch', respond(401, { status: 0, msg: 'notLoggedIn', data: null }));
    const store = makeStore();
    store.dispatch(
      loggedIn({ token: 'old', account: '0912345678', role: 'member', isAdmin: true, expiresAt: 0 }),
    );
    await store.dispatch(api.endpoints.userInfo.initiate());
    expect(store.getState().session.token).toBeNull();
    expect(toastShow).toHaveBeenCalledWith({ content: 'Log in', duration: 2000 });
    vi.advanceTimersByTime(1_499);
    expect(redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(redirect).toHaveBeenCalledTimes(1);
  });

  it('answers a query the entry asked early from that request, once; a mutation never', async () => {
    const fetchMock = respond(200, { status: 1, msg: 'ok', data: { items: ['early'] } });
    vi.stubGlobal('fetch', fetchMock);
    void startEarly('market/indices', {});
    void startEarly('user/logout', {});
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const early = fetchMock.mock.calls[0]![1].headers as Record<string, string>;
    expect(early.token).toBeUndefined(); // public queries only: no session headers

    const store = makeStore();
    store.dispatch(
      loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
    );
    expect((await store.dispatch(api.endpoints.indices.initiate())).data).toEqual({ items: ['early'] });
    expect(fetchMock).toHaveBeenCalledTimes(2); // taken from the early request

    vi.stubGlobal('fetch', respond(200, { status: 1, msg: 'ok', data: { items: ['again'] } }));
    const again = await store.dispatch(api.endpoints.indices.initiate(undefined, { forceRefetch: true }));
    expect(again.data).toEqual({ items: ['again'] }); // consumed: the next call asks the server

    const logout = vi.fn(async () => new Response(JSON.stringify({ status: 1, msg: 'ok', data: null })));
    vi.stubGlobal('fetch', logout);
    await store.dispatch(api.endpoints.logout.initiate());
    expect(logout).toHaveBeenCalledTimes(1); // a mutation always asks the server itself
  });
});
