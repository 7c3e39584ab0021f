/**
 * The server's outer edge, applied to every route: socket and request timeouts, a log that never
 * holds a secret or a person's identity, response headers (helmet, with a Content-Security-Policy
 * fitted to the client), refusal of control characters in any JSON body, and unknown routes
 * answered in the envelope.
 *
 * - Timeouts (`SERVER_TIMEOUTS`, Fastify/Node options): a client that sends its headers slowly,
 *   never finishes its body or idles on a socket is cut off, so a handful of slow connections
 *   cannot hold the server's sockets (slowloris).
 * - Log (`loggerOptions`): pino `redact` replaces every field in REDACTED_FIELDS (passwords,
 *   funds and channel passwords, session and device tokens, password hashes, real names, ID
 *   numbers, card and account numbers) and a request body's `code` with `[redacted]` wherever a
 *   request body or request headers are logged; errors go through `serializeError`, which drops
 *   a failed query's parameters and detail and blanks password hashes in any message or stack. A refused request is logged at `info` with its (redacted) body and
 *   error key, so support can see what was sent without seeing who or which secret.
 * - Text (`registerTextGuard`): contract/common.ts `forbiddenTextPath` runs on every parsed JSON
 *   body before the zod schema; a control character or an unpaired surrogate anywhere is
 *   `parameterError` (400), before any handler runs.
 * - Headers (`registerSecurityHeaders`): see CSP_DIRECTIVES for each source and why;
 *   `frame-ancestors 'none'` and `X-Frame-Options: DENY` on every page, the operator console
 *   included. `/api/docs` (Swagger UI) gets SWAGGER_CSP_DIRECTIVES.
 * - Unknown routes (`registerNotFound`): 404 `{status: 0, msg: 'notFound', data: null}`, for
 *   `/api/...` and every other path alike: the client routes with `HashRouter`
 *   (src/app/router.tsx), so the server never needs to answer a client route with index.html.
 */
import fastifyHelmet from '@fastify/helmet';
import type { ServerOptions } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { forbiddenTextPath } from '../../contract/common';
import { ERROR_STATUS } from '../../contract/errors';
import { fail } from '../modules/common/errors';

/**
 * Timeouts in milliseconds (Node http.Server semantics):
 * - `headersTimeoutMs`: the whole request head must arrive within it (slowloris).
 * - `requestTimeoutMs`: the whole request, body included, must arrive within it; sized for the
 *   largest upload (UPLOAD_MAX_BYTES, 5 MiB) over a slow mobile uplink (≈ 0.5 Mbit/s → 84 s).
 * - `connectionTimeoutMs`: a socket idle for this long (nothing read or written) is closed. The
 *   WebSocket gateway's heartbeat (HEARTBEAT_MS) is far shorter, so live sockets never idle.
 * - `keepAliveTimeoutMs`: how long an idle keep-alive connection is kept for the next request
 *   (a phone opening the app fires its requests within a few seconds of each other).
 */
export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 120_000,
  connectionTimeoutMs: 120_000,
  keepAliveTimeoutMs: 30_000,
} as const;

/** The Fastify constructor options that carry SERVER_TIMEOUTS. */
export function timeoutOptions(): {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  return {
    connectionTimeout: SERVER_TIMEOUTS.connectionTimeoutMs,
    keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeoutMs,
    requestTimeout: SERVER_TIMEOUTS.requestTimeoutMs,
    http: { headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs },
  };
}

/**
 * Request and header fields never written to the log: credentials (passwords, funds and channel
 * passwords, the session token, invitation codes) and personal data (real names, ID numbers,
 * card and account numbers).
 */
export const REDACTED_FIELDS = [
  'password',
  'confirmPassword',
  'oldPassword',
  'fundsPassword',
  'confirmFundsPassword',
  'oldFundsPassword',
  'channelPassword',
  'blockTradePassword',
  'token',
  'device',
  'inviteCode',
  'redeemCode',
  'passwordHash',
  'codeHash',
  'tokenHash',
  'fundsPasswordHash',
  'authorization',
  'cookie',
  'name',
  'holderName',
  'accountName',
  'idNumber',
  'cardNumber',
  'accountNumber',
] as const;

/** Where a REDACTED_FIELDS field may sit in a log line: up to three levels deep. */
function redactPaths(): string[] {
  const out: string[] = [];
  for (const f of REDACTED_FIELDS) {
    const key = /^[A-Za-z_$][\w$]*$/.test(f) ? f : `["${f}"]`;
    const dot = (prefix: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
    out.push(key, dot('*'), dot('*.*'), dot('*.*.*'));
  }
  // A database error carries the statement's parameters (names, ID numbers): never logged.
  out.push('err.params', 'err.parameters', 'err.detail', 'err.cause.params', 'err.cause.detail');
  // A request body's `code` is a one-time reset code or similar (not a database error's code).
  out.push('body.code', '*.body.code');
  return out;
}

/** Secrets recognisable in free text: password hashes (argon2, legacy scrypt). */
const SECRET_TEXT = [/\$argon2(?:id|i|d)\$[^\s,'"\]]+/g, /scrypt\$\d+\$\d+\$\d+\$[^\s,'"\]]+/g];
/** A failed query's message and stack end with its parameters (drizzle's DrizzleQueryError). */
const QUERY_PARAMS = /\nparams: [^]*?(?=\n\s+at |$)/g;

/**
 * A value the database quotes back in its message: `value "…" is out of range`, `invalid input
 * syntax for type integer: "…"`, `invalid input value for enum …: "…"`. Names of constraints and
 * columns (`constraint "…"`, `column "…"`) are kept.
 */
const QUOTED_VALUE = /(value |: )"(?:[^"\\]|\\.)*"/g;

/** `text` with query parameters, quoted values and recognisable secrets replaced by `[redacted]`. */
export function scrubText(text: string): string {
  let out = text.replace(QUERY_PARAMS, '\nparams: [redacted]').replace(QUOTED_VALUE, '$1"[redacted]"');
  for (const re of SECRET_TEXT) out = out.replace(re, '[redacted]');
  return out;
}

/** An error as the log holds it (pino's shape). */
export interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** Fields of an error kept in the log (others, e.g. `params`, `detail`, `where`, are dropped). */
const ERROR_FIELDS = ['code', 'key', 'statusCode', 'severity', 'routine', 'table', 'constraint'] as const;

/**
 * The log's error serializer (pino `serializers.err`, also for Fastify's own error lines): type,
 * scrubbed message and stack (scrubText), a few diagnostic fields (ERROR_FIELDS) and the cause,
 * at most three deep. A database error's parameters and detail (which hold the values of the
 * failed statement: hashes, names, ID numbers, codes) never reach the log.
 */
export function serializeError(err: unknown, depth = 0): SerializedError {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubText(String(err)), stack: '' };
  const out: SerializedError = {
    type: err.constructor?.name ?? 'Error',
    message: scrubText(err.message),
    stack: err.stack ? scrubText(err.stack) : '',
  };
  const fields = err as unknown as Record<string, unknown>;
  for (const f of ERROR_FIELDS) {
    const v = fields[f];
    if (typeof v === 'string' || typeof v === 'number') out[f] = typeof v === 'string' ? scrubText(v) : v;
  }
  if (typeof fields.query === 'string') out.query = fields.query;
  if (err.cause !== undefined && depth < 3) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

/**
 * pino options for the server log at `level`, redacting REDACTED_FIELDS (see the module
 * docstring); `stream` (tests) receives the JSON lines instead of stdout.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream) {
  return {
    level,
    redact: { paths: redactPaths(), censor: '[redacted]' },
    serializers: { err: (e: unknown) => serializeError(e), error: (e: unknown) => serializeError(e) },
    ...(stream ? { stream } : {}),
  };
}

/**
 * Logs every refused request at `info` with its error key and its body (REDACTED_FIELDS
 * censored by the logger), e.g. a wrong password or a refused KYC submission.
 */
export function registerRefusalLog(app: FastifyInstance): void {
  app.addHook('onError', async (req, _reply, error: Error & { key?: string; code?: string }) => {
    req.log.info({ key: error.key ?? error.code ?? 'error', body: req.body ?? null }, 'request refused');
  });
}

/**
 * Refuses any JSON body holding a control character or an unpaired surrogate (contract/common.ts
 * forbiddenTextPath) with `parameterError` (400), before the route's zod schema and handler run.
 * Register before the routes.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    if (req.body !== undefined && forbiddenTextPath(req.body) !== null) throw fail('parameterError');
  });
}

/**
 * The client's Content-Security-Policy (helmet directive names), each source and why:
 * - scripts and the market Web Worker only from this origin (Vite emits module files, no inline
 *   script); `blob:` for workers, the form some bundlers and dev servers instantiate them in;
 * - `connect-src 'self'`: the REST API and the market WebSocket (`/ws`) on this origin only
 *   (CSP Level 3 counts `ws:`/`wss:` to the page's own host as `'self'`, which Chromium, Firefox
 *   and Safari do; a bare `ws: wss:` would let a script talk to any host);
 * - images from this origin plus `data:` (inline icons) and `blob:` (ID photo previews before
 *   upload); fonts from this origin and `data:`;
 * - styles from this origin plus inline style attributes (`style-src-attr 'unsafe-inline'`):
 *   antd-mobile and React render positions and CSS variables as `style` attributes;
 * - no plugins, no `<base>` rewriting, forms post here only, and no page may be framed
 *   (`frame-ancestors 'none'`, clickjacking), the operator console included.
 * No `upgrade-insecure-requests`: the app is also served over plain HTTP on a LAN.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  connectSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  styleSrc: ["'self'"],
  styleSrcAttr: ["'unsafe-inline'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/**
 * Swagger UI (`/api/docs`) injects a `<style>` element from its bundle, which `style-src 'self'`
 * blocks (seen in Chromium); it is a developer page without member data, so its styles may be
 * inline. Scripts stay `'self'`.
 */
export const SWAGGER_CSP_DIRECTIVES = { ...CSP_DIRECTIVES, styleSrc: ["'self'", "'unsafe-inline'"] };

/**
 * Registers helmet on every route (CSP_DIRECTIVES, `X-Frame-Options: DENY` and helmet's other
 * defaults: nosniff, `Referrer-Policy: no-referrer`, same-origin opener and resource policies,
 * HSTS, which browsers ignore over plain HTTP) and SWAGGER_CSP_DIRECTIVES on the `/api/docs`
 * routes. Register before any route.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    // @fastify/helmet reads a route's own options from `config.helmet` at request time.
    if (route.url.startsWith('/api/docs'))
      route.config = Object.assign(route.config ?? {}, {
        helmet: { contentSecurityPolicy: { useDefaults: false, directives: SWAGGER_CSP_DIRECTIVES } },
      });
  });
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
  });
}

/** Answers every unknown route with the 404 `notFound` envelope (see the module docstring). */
export function registerNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((_req, reply) =>
    reply.code(ERROR_STATUS.notFound).send({ status: 0, msg: 'notFound', data: null }),
  );
}
