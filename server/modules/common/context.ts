/**
 * What every request handler receives: the request's database handle, the market feed, the
 * trading engine, the config, the app's Services (every runner, hub, closer and limiter, built
 * once by buildApp) and, for member/operator endpoints, the authenticated user.
 *
 * `common` sits below every domain folder, so it names no domain type: `Services` is declared
 * here with what every request shares, and the rest is added by module augmentation where it
 * is built (the trading engine: server/modules/trading/services.ts; every runner, hub and
 * limiter: server/services.ts). Folders depend on common, never back.
 */
import type { z } from 'zod';
import type { Api, EndpointName, ResOf } from '../../../contract/api';
import type { Role } from '../../../contract/auth';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { MarketFeed } from '../../market/feed';

/** The authenticated caller; trade/withdraw bans already include the frozen flag. */
export interface AuthUser {
  id: number;
  account: string;
  role: Role;
  tradeBanned: boolean;
  withdrawBanned: boolean;
  frozen: boolean;
}

/**
 * The app's long-lived services, built once by buildApp. Augmented (see the module docstring)
 * with `trading` (server/modules/trading/services.ts) and every runner, hub, closer and limiter
 * (server/services.ts).
 */
export interface Services {
  /** The app's database (a handler uses ctx.db: it may be the request's transaction). */
  db: Db;
  config: Config;
  feed: MarketFeed;
  /** Wall-clock time in epoch ms (injected by tests; Date.now otherwise). */
  now: () => number;
}

/** Per-request context handed to a handler. */
export interface Ctx {
  /**
   * The request's database handle: the app's database, or the request's transaction on an
   * idempotent endpoint (contract/api.ts `idempotent: true`). Use this, not `services.db`.
   */
  db: Db;
  config: Config;
  feed: MarketFeed;
  trading: Services['trading'];
  /** Wall-clock time in epoch ms (injected by tests; Date.now otherwise): deposit hours, audit. */
  now: () => number;
  /** The app's long-lived services (server/services.ts). */
  services: Services;
  /** Present on member and operator endpoints (checked before the handler runs). */
  user: AuthUser | null;
  /** The raw session token of this request, if any. */
  token: string | null;
  /**
   * Order entry (contract/api.ts idempotent `'orderRow'`): the member's idempotency key and the
   * request's hash, to be written into the order row; absent on other endpoints.
   */
  idempotency?: { key: string; requestSha256: string };
  /** The client's address (server/http/client-address.ts, TRUST_PROXY aware): the key of per-client throttling. */
  ip: string;
}

export type Handler<N extends EndpointName> = (body: z.output<Api[N]['req']>, ctx: Ctx) => Promise<ResOf<N>>;
export type Handlers = { [N in EndpointName]: Handler<N> };

/** The member's identity; throws if the endpoint is public (a programming error). */
export function requireUser(ctx: Ctx): AuthUser {
  if (!ctx.user) throw new Error('handler needs a user but the endpoint is public');
  return ctx.user;
}
