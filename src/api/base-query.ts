/**
 * The one RTK Query base query implementing the REST contract (product-spec §7, contract/api.ts):
 * POST JSON to /api/vue/{name}; headers `token`, `account` (and `is-admin` when set); 10 s
 * timeout; envelope {status, msg, data} with status 1 = success. A query that the entry asked
 * before the app loaded (./early.ts) is answered from that request instead, once. A refusal shows the translated
 * msg as a 2 s toast; HTTP 401 clears the session and goes to the login screen after 1.5 s.
 * A mutation answered with a success key shows the translated success toast.
 */
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import i18next from 'i18next';
import type { EndpointName } from '../../contract/api';
import { API_BASE, IDEMPOTENCY_HEADER, REQUEST_TIMEOUT_MS } from '../../contract/constants';
import { errorMessageKey, isSuccessKey } from '../lib/messages';
import { takeEarly, type EarlyAnswer } from './early';
import { loggedOut, type SessionRootState } from './session';
import { scheduleUnauthorizedRedirect } from './unauthorized';
import { showToast } from '../ui/toast';

/** Error toast duration (product-spec §9). */
export const ERROR_TOAST_MS = 2_000;

export interface CallArgs {
  name: EndpointName;
  body?: unknown;
  /** Do not toast a refusal (the caller shows its own message). */
  silent?: boolean;
  /**
   * Money-moving calls (user/recharge, user/withdraw, user/exchange) and order actions
   * (trade/placeOrder, cancelOrder, closePosition, dayTrade/placeOrder): one key per user action,
   * reused when that action is retried, so the server acts at most once (./idempotency.ts).
   */
  idempotencyKey?: string;
}

export interface ApiError {
  kind: 'refused' | 'http' | 'network' | 'timeout' | 'unauthorized';
  /** Server msg key (or a client key: network, timeout). */
  msg: string;
  httpStatus?: number;
  /** A refusal's envelope `data` when it carries one (e.g. a trading refusal's `{ fix }`). */
  data?: unknown;
}

interface Envelope {
  status: number;
  msg: string;
  data: unknown;
}

function isEnvelope(v: unknown): v is Envelope {
  return !!v && typeof v === 'object' && 'status' in v && typeof (v as Envelope).status === 'number';
}

export function toastError(msg: string | null | undefined): void {
  showToast({ content: i18next.t(errorMessageKey(msg)), duration: ERROR_TOAST_MS });
}

export const envelopeBaseQuery: BaseQueryFn<CallArgs, unknown, ApiError> = async (args, api) => {
  const { session } = api.getState() as SessionRootState;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (session.token) headers.token = session.token;
  if (session.account) headers.account = session.account;
  if (session.isAdmin) headers['is-admin'] = 'true';
  if (args.idempotencyKey) headers[IDEMPOTENCY_HEADER] = args.idempotencyKey;

  const ctrl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctrl.abort();
  }, REQUEST_TIMEOUT_MS);
  const onAbort = (): void => ctrl.abort();
  api.signal.addEventListener('abort', onAbort);

  const fail = (error: ApiError): { error: ApiError } => {
    if (!args.silent) toastError(error.msg);
    return { error };
  };

  // A query the entry asked before the app loaded (./early.ts): its answer, once.
  const early = api.type === 'query' ? takeEarly(args.name, args.body) : null;
  let res: EarlyAnswer;
  try {
    if (early)
      // The same 10 s timeout (and cancellation) as a request of its own.
      res = await Promise.race([
        early,
        new Promise<never>((_, reject) =>
          ctrl.signal.addEventListener('abort', () => reject(new Error('abort'))),
        ),
      ]);
    else {
      const r = await fetch(`${API_BASE}${args.name}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(args.body ?? {}),
        signal: ctrl.signal,
      });
      res = { httpStatus: r.status, body: await r.json().catch(() => null) };
    }
  } catch {
    if (api.signal.aborted && !timedOut) return { error: { kind: 'network', msg: 'network' } };
    return fail(timedOut ? { kind: 'timeout', msg: 'timeout' } : { kind: 'network', msg: 'network' });
  } finally {
    clearTimeout(timer);
    api.signal.removeEventListener('abort', onAbort);
  }

  const env = isEnvelope(res.body) ? res.body : null;

  if (res.httpStatus === 401) {
    api.dispatch(loggedOut());
    scheduleUnauthorizedRedirect();
    return fail({ kind: 'unauthorized', msg: env?.msg || 'sessionExpired', httpStatus: 401 });
  }
  if (!env) return fail({ kind: 'http', msg: 'generic', httpStatus: res.httpStatus });
  if (env.status !== 1) {
    const refusal: ApiError = { kind: 'refused', msg: env.msg, httpStatus: res.httpStatus };
    if (env.data != null) refusal.data = env.data;
    return fail(refusal);
  }
  if (res.httpStatus < 200 || res.httpStatus > 299)
    return fail({ kind: 'http', msg: env.msg || 'generic', httpStatus: res.httpStatus });

  if (api.type === 'mutation' && isSuccessKey(env.msg)) {
    showToast({ icon: 'success', content: i18next.t(`success.${env.msg}`), duration: ERROR_TOAST_MS });
  }
  return { data: env.data };
};
