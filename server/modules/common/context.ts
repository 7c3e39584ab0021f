/**
 * What every request handler receives: the services (database, market feed, trading engine,
 * config) and, for member/operator endpoints, the authenticated user.
 *
 * `common` sits below every domain folder, so it names no domain type: a domain that adds a
 * long-lived service declares it on `Services` by module augmentation next to its code (the
 * trading engine: server/modules/trading/services.ts). Folders depend on common, never back.
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
 * Long-lived services shared by every request. Domains add theirs by augmentation (see the
 * module docstring): `trading` (server/modules/trading/services.ts).
 */
export interface Services {
  db: Db;
  config: Config;
  feed: MarketFeed;
  /** Wall-clock time in epoch ms (injected by tests; Date.now otherwise): deposit hours, audit. */
  now: () => number;
}

/** Per-request context handed to a handler. */
export interface Ctx extends Services {
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
