/**
 * Idempotency keys for the requests that must act at most once: the money-moving forms (deposit,
 * withdrawal, exchange) and the order actions (place, cancel, close).
 *
 * Money forms (IdempotencyKeys, sendWithKey): one key per submission attempt. A retry of the
 * *same* submission (same body) after a network error, a timeout, a server error or
 * `tooFrequent` (the first request is still running) reuses it, so the server moves the money at
 * most once and answers the retry with the first result. After a success or a definite refusal
 * (the server stored that answer under the key) the next submission gets a new key, and so does
 * an edited form (a different body).
 *
 * Order actions (sendTap): one key per tap, made when the member taps; the request is retried
 * automatically with the same key after a timeout or a network error (the answer may have been
 * lost on a phone's connection), so a lost answer never becomes a second order; the next tap gets
 * a new key.
 * Server side: server/http/idempotency.ts (orders: trading engine.ts placeOrder); header name:
 * contract/constants.ts IDEMPOTENCY_HEADER.
 */
import { useRef } from 'react';
import { toastError, type ApiError } from './base-query';

/** A random UUID v4 (crypto.randomUUID where available; getRandomValues outside secure contexts). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Canonical JSON (object keys sorted) so the same body always compares equal. */
function fingerprint(body: unknown): string {
  const canon = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
        )
      : v;
  return JSON.stringify(canon(body));
}

/** True when the request may not have been answered for good, so a retry must reuse the key. */
export function isRetryable(error: ApiError): boolean {
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  if (error.httpStatus !== undefined && error.httpStatus >= 500) return true;
  return error.msg === 'tooFrequent';
}

/** Hands out keys for one form (see the module comment for when a key is reused). */
export class IdempotencyKeys {
  private current: { key: string; body: string } | null = null;

  constructor(private readonly makeKey: () => string = newIdempotencyKey) {}

  /** The key to send with `body`: the pending one for the same body, else a new one. */
  keyFor(body: unknown): string {
    const fp = fingerprint(body);
    if (this.current?.body !== fp) this.current = { key: this.makeKey(), body: fp };
    return this.current.key;
  }

  /** Records the outcome of the request sent with the current key. */
  settle(outcome: { ok: true } | { ok: false; error: ApiError }): void {
    if (outcome.ok || !isRetryable(outcome.error)) this.current = null;
  }
}

function asApiError(e: unknown): ApiError {
  if (e && typeof e === 'object' && 'kind' in e && 'msg' in e) return e as ApiError;
  // A thrown exception (RTK's SerializedError): we cannot tell whether the server saw it.
  return { kind: 'network', msg: 'network' };
}

/**
 * Sends a money-moving call with this form's key for `body` and records the outcome; resolves to
 * the answer's data, or null when refused or failed (the base query has shown the message).
 */
export async function sendWithKey<B, T>(
  keys: IdempotencyKeys,
  body: B,
  send: (args: {
    body: B;
    idempotencyKey: string;
  }) => PromiseLike<{ data: T; error?: undefined } | { data?: undefined; error: unknown }>,
): Promise<T | null> {
  const res = await send({ body, idempotencyKey: keys.keyFor(body) });
  if (res.error === undefined && res.data !== undefined) {
    keys.settle({ ok: true });
    return res.data;
  }
  keys.settle({ ok: false, error: asApiError(res.error) });
  return null;
}

/** One IdempotencyKeys per mounted form. */
export function useIdempotencyKeys(): IdempotencyKeys {
  const ref = useRef<IdempotencyKeys | null>(null);
  ref.current ??= new IdempotencyKeys();
  return ref.current;
}

/** A keyed call: the body, its idempotency key, and whether a refusal is shown by the caller. */
export interface KeyedCall<B> {
  body: B;
  idempotencyKey: string;
  silent?: boolean;
}

/** What an RTK Query mutation trigger resolves to. */
export type CallResult<T> = { data: T; error?: undefined } | { data?: undefined; error: unknown };

/** Automatic retries of one tap after a lost answer (so at most 1 + TAP_RETRIES requests). */
export const TAP_RETRIES = 2;
/** Wait before the first automatic retry; doubled before each next one. */
export const TAP_RETRY_DELAY_MS = 500;

/** True when a tap's request may not have reached the server or its answer was lost. */
export function isLost(error: ApiError): boolean {
  return error.kind === 'network' || error.kind === 'timeout';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends one tap of an order action: a new key for this tap, the same key on each automatic retry
 * after a lost answer (isLost; at most `retries`, waiting `delayMs`, then twice as long). Every
 * attempt but the last is silent, so a retry that succeeds shows no error; a refusal met on a
 * silent attempt is toasted here as the base query would have. Resolves to the last answer.
 */
export async function sendTap<B, T>(
  body: B,
  send: (call: KeyedCall<B>) => PromiseLike<CallResult<T>>,
  opts: {
    retries?: number;
    delayMs?: number;
    makeKey?: () => string;
    wait?: (ms: number) => Promise<void>;
  } = {},
): Promise<CallResult<T>> {
  const retries = opts.retries ?? TAP_RETRIES;
  const wait = opts.wait ?? sleep;
  const idempotencyKey = (opts.makeKey ?? newIdempotencyKey)();
  let delay = opts.delayMs ?? TAP_RETRY_DELAY_MS;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= retries;
    const res = await send({ body, idempotencyKey, silent: !last });
    if (res.error === undefined) return res;
    const error = asApiError(res.error);
    if (last || !isLost(error)) {
      // The base query shows the errors of non-silent calls only: show this one as it would have.
      if (!last) toastError(error.msg);
      return res;
    }
    await wait(delay);
    delay *= 2;
  }
}
