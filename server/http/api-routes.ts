/**
 * Registers every endpoint of contract/api.ts as `POST /api/vue/{name}`: zod validates the body
 * at the edge, the access rule is checked (401 with no or an expired session, 403 for a member on
 * an operator endpoint and for an operator on a member endpoint), the handler runs, and the answer
 * goes out in the envelope
 * `{status, msg, data}`. Bad input is a 4xx envelope with a message key, never a 500.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { api, type EndpointName } from '../../contract/api';
import { ERROR_KEYS, ERROR_STATUS, type ErrorKey, type SuccessKey } from '../../contract/errors';
import type { SetFundsPasswordRes } from '../../contract/identity';
import type { SetBlockTradePasswordRes } from '../../contract/primary';
import { envelope } from '../../contract/envelope';
import { AppError } from '../modules/common/errors';
import { clientAddress } from './client-address';
import { rowKey, runIdempotent, type RowKey } from './idempotency';
import type { Db } from '../db/client';
import { IDEMPOTENCY_HEADER } from '../../contract/constants';
import type { Ctx, Handlers, Services } from '../modules/common/context';

/**
 * Success toast key per endpoint (product-spec §8 "Success toasts"), or a function of the
 * handler's answer when one endpoint ends in different ways; others answer "ok".
 */
const SUCCESS_MSG: Partial<Record<EndpointName, SuccessKey | ((data: unknown) => SuccessKey)>> = {
  'user/login': 'login',
  'admin/login': 'login',
  'user/register': 'register',
  'user/logout': 'logout',
  'user/recharge': 'deposit',
  'trade/placeOrder': 'purchase',
  'trade/cancelOrder': 'cancel',
  'trade/closePosition': 'close',
  'user/withdraw': 'withdrawal',
  'user/exchange': 'exchange',
  'user/addBankCard': 'cardAdd',
  'user/deleteBankCard': 'unbind',
  'user/submitKyc': 'kycSubmitted',
  'user/loginPassword': 'passwordChanged',
  // The first funds password is "set", a later one "changed" (identity handlers' outcome).
  'user/setPassword': (data) =>
    (data as SetFundsPasswordRes).outcome === 'set' ? 'fundsPasswordSet' : 'passwordChanged',
  'user/setBlockTradePassword': (data) =>
    (data as SetBlockTradePasswordRes).outcome === 'set' ? 'blockTradePasswordSet' : 'passwordChanged',
};

/** The envelope's `msg` for a successful answer of `name`. */
function successMsg(name: EndpointName, data: unknown): string {
  const msg = SUCCESS_MSG[name];
  return typeof msg === 'function' ? msg(data) : (msg ?? 'ok');
}

const errorKeySet = new Set<string>(ERROR_KEYS);

/** Maps a zod issue message to an error key when it is one (e.g. 'passwordsDiffer'). */
function keyFromValidation(issues: ReadonlyArray<{ message?: string }> | undefined): ErrorKey {
  for (const issue of issues ?? []) {
    if (issue.message && errorKeySet.has(issue.message)) return issue.message as ErrorKey;
  }
  return 'parameterError';
}

function send(reply: FastifyReply, msg: ErrorKey, data: unknown = null) {
  return reply.code(ERROR_STATUS[msg]).send({ status: 0, msg, data });
}

/** Registers one route per contract endpoint plus the error handler; throws if a handler is missing. */
export function registerApiRoutes(app: FastifyInstance, handlers: Handlers, services: Services): void {
  app.setErrorHandler(
    (error: Error & { validation?: unknown; statusCode?: number; code?: string }, req, reply) => {
      if (error instanceof AppError) return send(reply, error.key, error.data);
      if (error.validation) {
        const issues = (error as unknown as { validation: Array<{ message?: string }> }).validation;
        return send(reply, keyFromValidation(issues));
      }
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
        return send(reply, 'parameterError');
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        // Malformed JSON, body too large, bad content type: the caller's mistake.
        return send(reply, error.statusCode === 429 ? 'tooFrequent' : 'parameterError');
      }
      req.log.error({ err: error }, 'unhandled error');
      return send(reply, 'systemBusy');
    },
  );

  const authUsers = new WeakMap<FastifyRequest, NonNullable<Ctx['user']>>();
  const { db, config, feed, trading, now } = services;
  /** What every request's context starts from (its user, token, address and db are its own). */
  const base = { db, config, feed, trading, now, services };
  const tokenOf = (req: FastifyRequest) =>
    typeof req.headers.token === 'string' && req.headers.token ? req.headers.token : null;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const name of Object.keys(api) as EndpointName[]) {
    const def = api[name];
    const handler = handlers[name] as (body: unknown, ctx: Ctx) => Promise<unknown>;
    if (!handler) throw new Error(`no handler for ${name}`);
    typed.post(
      `/api/vue/${name}`,
      {
        // Authentication runs before the body is parsed or validated: no session, no 400 hints.
        onRequest: async (req: FastifyRequest, reply: FastifyReply) => {
          if (def.access === 'public') return;
          const token = tokenOf(req);
          if (!token) return send(reply, 'notLoggedIn');
          const found = await services.sessions.authenticate(services.db, token);
          if (found === 'expired') return send(reply, 'sessionExpired');
          if (!found) return send(reply, 'notLoggedIn');
          // Roles never cross: a member is no operator, and an operator never acts as a member.
          if (def.access === 'operator' && found.role === 'member') return send(reply, 'forbidden');
          if (def.access === 'member' && found.role !== 'member') return send(reply, 'forbidden');
          authUsers.set(req, found);
        },
        schema: {
          summary: def.summary,
          tags: [name.split('/')[0]!],
          body: def.req as z.ZodType,
          response: { 200: envelope(def.res as z.ZodType) },
          ...(def.access !== 'public' ? { security: [{ token: [] }] } : {}),
        },
      },
      async (req: FastifyRequest, reply: FastifyReply) => {
        const user = authUsers.get(req) ?? null;
        const header = req.headers[IDEMPOTENCY_HEADER];
        const run = async (idempotency?: RowKey) => {
          const data = await handler(req.body, {
            ...base,
            user,
            token: tokenOf(req),
            ip: clientAddress(req),
            idempotency,
          });
          return { status: 1, msg: successMsg(name, data), data };
        };
        if (!def.idempotent || !user) return reply.send(await run());
        if (def.idempotent === 'orderRow') {
          // The handler writes the key into the row it creates (see contract/api.ts Endpoint).
          const key = rowKey(typeof header === 'string' ? header : undefined, name, req.body);
          return key ? reply.send(await run(key)) : send(reply, 'idempotencyKeyRequired');
        }
        const answer = await runIdempotent(
          services.db,
          user.id,
          typeof header === 'string' ? header : undefined,
          name,
          req.body,
          async (tx) => {
            // The handler runs on the request's transaction: its own transactions nest as savepoints.
            const data = await handler(req.body, {
              ...base,
              db: tx as unknown as Db,
              user,
              token: tokenOf(req),
              ip: clientAddress(req),
            });
            return { status: 1, msg: successMsg(name, data), data };
          },
        );
        return reply.code(answer.http).send(answer.body);
      },
    );
  }
}
