/**
 * Idempotency keys for the money-moving forms (deposit, withdrawal, exchange).
 *
 * One key per submission attempt: a retry of the *same* submission (same body) after a network
 * error, a timeout, a server error or `tooFrequent` (the first request is still running) reuses
 * it, so the server moves the money at most once and answers the retry with the first result.
 * After a success or a definite refusal (the server stored that answer under the key) the next
 * submission gets a new key, and so does an edited form (a different body).
 * Server side: server/http/idempotency.ts; header name: contract/constants.ts IDEMPOTENCY_HEADER.
 */
import { useRef } from 'react';
import type { ApiError } from '../../api/base-query';

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
