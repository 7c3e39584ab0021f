/**
 * buildApp's modules: each names what it serves (HTTP routes) and what it runs in the background
 * (a start that returns its stop), and which modules it needs started before it. buildApp starts
 * the selected modules, with what they need, in the order of APP_MODULES and stops them in the
 * reverse order on close, so a process can run a subset (MODULE_ROLES: the API, or the background
 * worker) while the default stays every module in one process.
 *
 * Order matters: corporate actions catch up before the engine trades; the engine starts before
 * what listens to its matches (day-trade close, risk, copy trading, snapshots); routes come after
 * the background work, so nothing is served before the engine is ready.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Services } from './services';
import type { Handlers } from './modules/common/context';
import { registerApiRoutes } from './http/api-routes';
import { staticClientOptions } from './http/static-client';
import { accountHandlers } from './modules/account/handlers';
import { feedbackHandlers } from './modules/account/feedback';
import { preferenceHandlers } from './modules/account/preferences';
import { adminHandlers } from './modules/admin/handlers';
import { invitationHandlers } from './modules/admin/invitations';
import { authHandlers } from './modules/auth/handlers';
import { passwordResetHandlers } from './modules/auth/password-reset';
import { commonHandlers } from './modules/common/handlers';
import { pageHandlers } from './modules/common/pages';
import { copyTradingHandlers } from './modules/copy-trading/handlers';
import { creditHandlers } from './modules/credit/handlers';
import { dayTradingHandlers } from './modules/day-trading/handlers';
import { dividendHandlers } from './modules/dividends/handlers';
import { depositReviewHandlers } from './modules/funds/deposit-review';
import { fundsHandlers } from './modules/funds/handlers';
import { moneyHandlers } from './modules/funds/money-handlers';
import { identityHandlers } from './modules/identity/handlers';
import { registerUploadRoutes } from './http/uploads';
import { ipoHandlers } from './modules/ipo/handlers';
import { lendingHandlers } from './modules/lending/handlers';
import { marketHandlers } from './modules/market/handlers';
import { registerNewsCoverRoute } from './http/news-cover';
import { newsHandlers } from './modules/news/handlers';
import { noticeHandlers } from './modules/notices/handlers';
import { primaryHandlers } from './modules/primary/handlers';
import { rewardsHandlers } from './modules/rewards/handlers';
import { riskHandlers } from './modules/risk/handlers';
import { searchHandlers } from './modules/search/handlers';
import { supportHandlers } from './modules/support/handlers';
import { tradingHandlers } from './modules/trading/handlers';
import { walletHandlers } from './modules/wallet/handlers';
import { registerGateway, type Gateway } from './realtime/gateway';

/** Undoes a start or a route registration's background part; awaited in reverse start order. */
export type Stop = () => void | Promise<void>;

/** What a module's start and routes receive. */
export interface ModuleContext {
  app: FastifyInstance;
  services: Services;
  /** Start the periodic timers (buildApp's feedTimer; false in tests, which drive runs themselves). */
  timer: boolean;
  /** Handles a module hands back to buildApp's caller (the gateway's stats). */
  running: { gateway: Gateway | null };
}

/** One module of the app (see the module docstring). */
export interface AppModule {
  readonly name: ModuleName;
  /** Modules started before this one, and started with it when it is selected alone. */
  readonly needs: readonly ModuleName[];
  /** Background work: starts it and resolves with its stop. */
  start?(ctx: ModuleContext): Promise<Stop>;
  /** Registers HTTP routes (before the app is ready); resolves with a stop when they hold resources. */
  routes?(ctx: ModuleContext): Promise<Stop | void>;
}

/** Every module name, in start order. */
export const MODULE_NAMES = [
  'market',
  'corporate-actions',
  'trading',
  'day-trade-close',
  'risk',
  'ipo',
  'dividends',
  'news',
  'credit',
  'lending',
  'copy-trading',
  'snapshots',
  'support-hub',
  'api',
  'realtime',
  'client',
] as const;
export type ModuleName = (typeof MODULE_NAMES)[number];

/**
 * Named subsets for one process each. `api` serves REST, `/ws` and the client; until the feed and
 * the engine can be reached across processes it still starts them in-process (its needs).
 * `worker` runs every background job and serves nothing.
 */
const API_MODULES: readonly ModuleName[] = ['api', 'realtime', 'client'];
export const MODULE_ROLES: Record<'api' | 'worker', readonly ModuleName[]> = {
  api: API_MODULES,
  worker: MODULE_NAMES.filter((n) => !API_MODULES.includes(n) && n !== 'support-hub'),
};

/** Every REST handler of contract/api.ts (registerApiRoutes refuses a missing one). */
const handlers: Handlers = {
  ...commonHandlers,
  ...authHandlers,
  ...accountHandlers,
  ...fundsHandlers,
  ...depositReviewHandlers,
  ...moneyHandlers,
  ...identityHandlers,
  ...marketHandlers,
  ...searchHandlers,
  ...tradingHandlers,
  ...dayTradingHandlers,
  ...ipoHandlers,
  ...rewardsHandlers,
  ...copyTradingHandlers,
  ...primaryHandlers,
  ...dividendHandlers,
  ...newsHandlers,
  ...creditHandlers,
  ...lendingHandlers,
  ...riskHandlers,
  ...adminHandlers,
  ...invitationHandlers,
  ...pageHandlers,
  ...feedbackHandlers,
  ...preferenceHandlers,
  ...passwordResetHandlers,
  ...walletHandlers,
  ...noticeHandlers,
  ...supportHandlers,
};

/** A periodic job's start as a module start: `start({ timer })` then its stop. */
const job =
  (pick: (s: Services) => { start(o: { timer: boolean }): Promise<void> | void; stop(): void }) =>
  async ({ services, timer }: ModuleContext): Promise<Stop> => {
    const j = pick(services);
    await j.start({ timer });
    return () => j.stop();
  };

/** The modules, in start order (MODULE_NAMES). */
export const APP_MODULES: readonly AppModule[] = [
  {
    name: 'market',
    needs: [],
    start: async ({ services: { feed }, timer }) => {
      await feed.start({ timer });
      return () => feed.stop();
    },
  },
  // Catches up on the actions that fell due before anything trades.
  { name: 'corporate-actions', needs: ['market'], start: job((s) => s.corporateActions) },
  {
    name: 'trading',
    needs: ['corporate-actions'],
    start: async ({ services: { trading } }) => {
      await trading.start();
      return () => trading.stop();
    },
  },
  {
    name: 'day-trade-close',
    needs: ['trading'],
    start: async ({ services: { dayTrades } }) => {
      await dayTrades.start();
      return () => dayTrades.stop();
    },
  },
  {
    name: 'risk',
    needs: ['trading'],
    start: async ({ services: { risk } }) => {
      await risk.start();
      return async () => {
        risk.stop();
        await risk.idle();
      };
    },
  },
  { name: 'ipo', needs: ['market'], start: job((s) => s.ipo) },
  { name: 'dividends', needs: [], start: job((s) => s.dividends) },
  { name: 'news', needs: ['market'], start: job((s) => s.news) },
  { name: 'credit', needs: [], start: job((s) => s.credit) },
  { name: 'lending', needs: ['market'], start: job((s) => s.lending) },
  {
    name: 'copy-trading',
    needs: ['trading'],
    start: async ({ services: { copyTrading }, timer }) => {
      copyTrading.start({ timer });
      return async () => {
        copyTrading.stop();
        await copyTrading.idle();
      };
    },
  },
  {
    name: 'snapshots',
    needs: ['trading'],
    start: async ({ services: { snapshots } }) => {
      snapshots.start();
      return async () => {
        snapshots.stop();
        await snapshots.idle();
      };
    },
  },
  {
    // The periodic re-check of the support sockets' sessions.
    name: 'support-hub',
    needs: [],
    start: async ({ services: { supportHub } }) => {
      supportHub.start();
      return () => supportHub.stop();
    },
  },
  {
    // REST (`/api/vue/*`), uploads, news covers and the API document (`/api/docs`). The handlers
    // read quotes from the feed and place orders on the engine in this process.
    name: 'api',
    needs: ['trading'],
    routes: async ({ app, services }) => {
      await app.register(fastifySwagger, {
        openapi: {
          info: {
            title: 'TW Trade API',
            version: '0.1.0',
            description: 'POST /api/vue/{area}/{action}; envelope {status, msg, data}',
          },
          components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } } },
        },
        transform: jsonSchemaTransform,
      });
      // No validator badge: it would send the API document's address to validator.swagger.io.
      await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });
      registerApiRoutes(app, handlers, services);
      await registerUploadRoutes(app, services);
      registerNewsCoverRoute(app, services);
    },
  },
  {
    // `/ws`: quotes, candles and the support channel.
    name: 'realtime',
    needs: ['market', 'support-hub'],
    routes: async ({ app, services, running }) => {
      const gateway = registerGateway(app, services.feed, services.supportHub, services.config.wsLimits);
      running.gateway = gateway;
      return () => {
        gateway.stop();
        running.gateway = null;
      };
    },
  },
  {
    // Built client: precompressed .br/.gz, immutable hashed assets, no-cache HTML (static-client.ts).
    name: 'client',
    needs: [],
    routes: async ({ app, services: { config } }) => {
      if (existsSync(path.join(config.clientDir, 'index.html')))
        await app.register(fastifyStatic, staticClientOptions(config.clientDir));
    },
  },
];

/**
 * The modules to start for `names` (default: all): each named module and, transitively, what it
 * needs, in APP_MODULES order.
 * @throws Error on an unknown module name (a configuration mistake)
 */
export function selectModules(names?: readonly string[]): AppModule[] {
  if (!names) return [...APP_MODULES];
  const byName = new Map(APP_MODULES.map((m) => [m.name as string, m]));
  const chosen = new Set<string>();
  const add = (name: string): void => {
    const m = byName.get(name);
    if (!m) throw new Error(`unknown app module "${name}" (known: ${MODULE_NAMES.join(', ')})`);
    if (chosen.has(name)) return;
    chosen.add(name);
    m.needs.forEach(add);
  };
  names.forEach(add);
  return APP_MODULES.filter((m) => chosen.has(m.name));
}
