// @vitest-environment jsdom
/**
 * Money-moving submissions carry one idempotency key per attempt: a retry of the same submission
 * after a network error, a timeout, a server error or `tooFrequent` sends the same key (so the
 * server moves the money at most once); a success, a definite refusal or an edited form gets a
 * new key. Order actions (sendTap) carry one key per tap, resent on the automatic retries after a
 * lost answer. Checked on the key keeper alone and through the real RTK Query api and base query
 * with a stubbed fetch, reading the `idempotency-key` header the server would see.
 */
import { configureStore } from '@reduxjs/toolkit';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_RE } from '../../contract/constants';

// Refusals would show a toast: its lazy antd chunk is not part of what this file checks.
const toasts = vi.hoisted(() => ({ shown: [] as unknown[] }));
vi.mock('../../src/ui/toast', () => ({
  showToast: (t: unknown) => toasts.shown.push(t),
  preloadToast: async () => undefined,
}));

const { api } = await import('../../src/api/api');
const { loggedIn, sessionSlice } = await import('../../src/api/session');
const { IdempotencyKeys, isRetryable, newIdempotencyKey, sendTap, sendWithKey, TAP_RETRIES } =
  await import('../../src/api/idempotency');

beforeAll(async () => {
  await i18next.init({ lng: 'en', resources: { en: { translation: {} } } });
});
afterEach(() => vi.unstubAllGlobals());

function makeStore() {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, session: sessionSlice.reducer },
    middleware: (g) => g().concat(api.middleware),
  });
  store.dispatch(
    loggedIn({ token: 't0k', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
  );
  return store;
}

const ok = (data: unknown) =>
  new Response(JSON.stringify({ status: 1, msg: 'withdrawal', data }), { status: 200 });
const refused = (msg: string, status: number) =>
  new Response(JSON.stringify({ status: 0, msg, data: null }), { status });
const WITHDRAWAL = {
  id: 1,
  amountMinor: 100_000,
  currency: 'TWD',
  cardId: 3,
  cardLabel: 'Bank **** 1234',
  status: 'pending',
  reason: null,
  createdAt: 0,
  reviewedAt: null,
};

describe('IdempotencyKeys', () => {
  it('makes UUIDs the server accepts', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(IDEMPOTENCY_KEY_RE);
    expect(a).not.toBe(newIdempotencyKey());
  });

  it('keeps the key for the same body until the outcome is final', () => {
    let n = 0;
    const keys = new IdempotencyKeys(() => `key-${++n}-xxxxxxxx`);
    const body = { amountMinor: 100, cardId: 1, fundsPassword: '123456' };
    const k1 = keys.keyFor(body);
    keys.settle({ ok: false, error: { kind: 'timeout', msg: 'timeout' } });
    // Same body, keys in another order: the same submission.
    expect(keys.keyFor({ fundsPassword: '123456', cardId: 1, amountMinor: 100 })).toBe(k1);
    keys.settle({ ok: false, error: { kind: 'network', msg: 'network' } });
    expect(keys.keyFor(body)).toBe(k1);
    keys.settle({ ok: false, error: { kind: 'refused', msg: 'tooFrequent', httpStatus: 409 } });
    expect(keys.keyFor(body)).toBe(k1);
    keys.settle({ ok: false, error: { kind: 'http', msg: 'generic', httpStatus: 503 } });
    expect(keys.keyFor(body)).toBe(k1);
    keys.settle({ ok: true });
    const k2 = keys.keyFor(body);
    expect(k2).not.toBe(k1);
    keys.settle({ ok: false, error: { kind: 'refused', msg: 'fundsPasswordWrong', httpStatus: 422 } });
    const k3 = keys.keyFor(body);
    expect(k3).not.toBe(k2);
    keys.settle({ ok: false, error: { kind: 'timeout', msg: 'timeout' } });
    // The member edits the form: a new submission.
    expect(keys.keyFor({ ...body, amountMinor: 200 })).not.toBe(k3);
  });

  it('classifies outcomes', () => {
    expect(isRetryable({ kind: 'network', msg: 'network' })).toBe(true);
    expect(isRetryable({ kind: 'timeout', msg: 'timeout' })).toBe(true);
    expect(isRetryable({ kind: 'http', msg: 'generic', httpStatus: 500 })).toBe(true);
    expect(isRetryable({ kind: 'refused', msg: 'tooFrequent', httpStatus: 409 })).toBe(true);
    expect(isRetryable({ kind: 'refused', msg: 'insufficientBalance', httpStatus: 422 })).toBe(false);
    expect(isRetryable({ kind: 'unauthorized', msg: 'sessionExpired', httpStatus: 401 })).toBe(false);
  });
});

describe('money calls through the api', () => {
  it('a retry after a network error sends the same key; the next submission a new one', async () => {
    const store = makeStore();
    const sent: { url: string; key: string | null; body: string }[] = [];
    const answers: (() => Response)[] = [
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => ok(WITHDRAWAL),
      () => ok({ ...WITHDRAWAL, id: 2 }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const h = init.headers as Record<string, string>;
        sent.push({ url, key: h[IDEMPOTENCY_HEADER] ?? null, body: String(init.body) });
        return answers.shift()!();
      }),
    );
    const keys = new IdempotencyKeys();
    const withdraw = (args: {
      body: { amountMinor: number; fundsPassword: string; cardId: number };
      idempotencyKey: string;
    }) => store.dispatch(api.endpoints.withdraw.initiate(args));
    const body = { amountMinor: 100_000, fundsPassword: '123456', cardId: 3 };

    expect(await sendWithKey(keys, body, withdraw)).toBeNull();
    expect(await sendWithKey(keys, body, withdraw)).toMatchObject({ id: 1 });
    expect(await sendWithKey(keys, body, withdraw)).toMatchObject({ id: 2 });

    expect(sent.map((s) => s.url)).toEqual(Array(3).fill('/api/vue/user/withdraw'));
    expect(sent.every((s) => s.key && IDEMPOTENCY_KEY_RE.test(s.key))).toBe(true);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(sent[2]!.key).not.toBe(sent[1]!.key);
    expect(JSON.parse(sent[0]!.body)).toEqual(body);
  });

  it('a definite refusal ends the key: the corrected retry is a new submission', async () => {
    const store = makeStore();
    const keysSent: (string | null)[] = [];
    const answers = [() => refused('fundsPasswordWrong', 422), () => ok(WITHDRAWAL)];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        keysSent.push((init.headers as Record<string, string>)[IDEMPOTENCY_HEADER] ?? null);
        return answers.shift()!();
      }),
    );
    const keys = new IdempotencyKeys();
    const send = (args: {
      body: { amountMinor: number; fundsPassword: string; cardId: number };
      idempotencyKey: string;
    }) => store.dispatch(api.endpoints.withdraw.initiate(args));
    const body = { amountMinor: 100_000, fundsPassword: '111111', cardId: 3 };
    expect(await sendWithKey(keys, body, send)).toBeNull();
    expect(await sendWithKey(keys, body, send)).toMatchObject({ id: 1 });
    expect(keysSent[0]).not.toBe(keysSent[1]);
  });

  it('recharge, withdraw and exchange all send the key; other calls never do', async () => {
    const store = makeStore();
    const seen = new Map<string, string | null>();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        seen.set(
          url.replace('/api/vue/', ''),
          (init.headers as Record<string, string>)[IDEMPOTENCY_HEADER] ?? null,
        );
        return ok(WITHDRAWAL);
      }),
    );
    await store.dispatch(
      api.endpoints.recharge.initiate({
        body: { channelId: 1, amountMinor: 100_000 },
        idempotencyKey: 'k-recharge-1',
      }),
    );
    await store.dispatch(
      api.endpoints.withdraw.initiate({
        body: { amountMinor: 100_000, fundsPassword: '123456', cardId: 1 },
        idempotencyKey: 'k-withdraw-1',
      }),
    );
    await store.dispatch(
      api.endpoints.exchange.initiate({
        body: { from: 'TWD', to: 'USD', amountMinor: 100_000 },
        idempotencyKey: 'k-exchange-1',
      }),
    );
    await store.dispatch(api.endpoints.addBankCard.initiate({} as never));
    expect(Object.fromEntries(seen)).toEqual({
      'user/recharge': 'k-recharge-1',
      'user/withdraw': 'k-withdraw-1',
      'user/exchange': 'k-exchange-1',
      'user/addBankCard': null,
    });
  });
});

describe('order taps (sendTap)', () => {
  const ORDER = { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 1 } as const;
  const placedOrder = { id: 7, status: 'holding' };
  const noWait = async () => undefined;

  /** Stubs fetch with `answers` in turn; returns what each request carried. */
  function server(answers: (() => Response)[]) {
    const sent: { url: string; key: string | null; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const h = init.headers as Record<string, string>;
        sent.push({ url, key: h[IDEMPOTENCY_HEADER] ?? null, body: JSON.parse(String(init.body)) });
        return answers.shift()!();
      }),
    );
    return sent;
  }
  const lost = () => {
    throw new TypeError('Failed to fetch');
  };

  it('retries a lost answer with the same key, silently, until the answer comes', async () => {
    const store = makeStore();
    const sent = server([lost, lost, () => ok(placedOrder)]);
    toasts.shown.length = 0;
    const res = await sendTap(ORDER, (c) => store.dispatch(api.endpoints.placeOrder.initiate(c)), {
      wait: noWait,
    });
    expect(res.data).toMatchObject({ id: 7 });
    expect(sent).toHaveLength(3);
    expect(sent.every((s) => s.url === '/api/vue/trade/placeOrder')).toBe(true);
    expect(IDEMPOTENCY_KEY_RE.test(sent[0]!.key!)).toBe(true);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
    expect(sent.every((s) => JSON.stringify(s.body) === JSON.stringify(ORDER))).toBe(true);
    // Only the success toast: the lost answers were retried without an error toast.
    expect(toasts.shown).toEqual([expect.objectContaining({ icon: 'success' })]);
  });

  it('gives up after TAP_RETRIES retries and shows the error once; the next tap has a new key', async () => {
    const store = makeStore();
    const sent = server([...Array.from({ length: TAP_RETRIES + 1 }, () => lost), () => ok(placedOrder)]);
    toasts.shown.length = 0;
    const send = (c: Parameters<typeof api.endpoints.placeOrder.initiate>[0]) =>
      store.dispatch(api.endpoints.placeOrder.initiate(c));
    const res = await sendTap(ORDER, send, { wait: noWait });
    expect(res.error).toMatchObject({ kind: 'network' });
    expect(sent).toHaveLength(TAP_RETRIES + 1);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
    expect(toasts.shown).toHaveLength(1);

    const next = await sendTap(ORDER, send, { wait: noWait });
    expect(next.data).toMatchObject({ id: 7 });
    expect(sent).toHaveLength(TAP_RETRIES + 2);
    expect(sent.at(-1)!.key).not.toBe(sent[0]!.key);
  });

  it('a definite refusal is not retried and is shown', async () => {
    const store = makeStore();
    const sent = server([() => refused('insufficientBalance', 422)]);
    toasts.shown.length = 0;
    const res = await sendTap(ORDER, (c) => store.dispatch(api.endpoints.placeOrder.initiate(c)), {
      wait: noWait,
    });
    expect(res.error).toMatchObject({ kind: 'refused', msg: 'insufficientBalance' });
    expect(sent).toHaveLength(1);
    expect(toasts.shown).toHaveLength(1);
  });

  it('cancel and close send the key of their tap too', async () => {
    const store = makeStore();
    const sent = server([lost, () => ok(placedOrder), () => ok(placedOrder)]);
    await sendTap({ orderId: 7 }, (c) => store.dispatch(api.endpoints.cancelOrder.initiate(c)), {
      wait: noWait,
    });
    await sendTap({ orderId: 8 }, (c) => store.dispatch(api.endpoints.closePosition.initiate(c)), {
      wait: noWait,
    });
    expect(sent.map((s) => s.url)).toEqual([
      '/api/vue/trade/cancelOrder',
      '/api/vue/trade/cancelOrder',
      '/api/vue/trade/closePosition',
    ]);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(sent[2]!.key).not.toBe(sent[0]!.key);
    expect(sent.every((s) => s.key && IDEMPOTENCY_KEY_RE.test(s.key))).toBe(true);
  });
});
