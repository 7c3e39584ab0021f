/**
 * buildApp(config): the whole server as a Fastify instance, started in-process by tests
 * (`app.inject`) and by main.ts. Opens the database (unless one is passed), imports market data
 * and the public-subscription announcements on first start, creates the first-run operator and
 * invitation code, builds every service once (server/services.ts: the market feed on
 * MARKET_SOURCE, the replay feed or the stress source; the trading engine; every runner, hub and
 * limiter) and starts the selected modules (server/app-modules.ts; default all: the feed, the
 * engine, the background jobs, `/api/vue/*`, `/api/docs`, `/ws` and the built client), stopping
 * them in reverse order on close.
 * On a MARKET_CLOCK=manual test build only, it also registers POST /api/test/clock
 * (http/test-clock.ts).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { importExRightsEvents, importIpoAnnouncements, importMarketData } from './market/import';
import { registerResponseCompression } from './http/static-client';
import {
  loggerOptions,
  registerNotFound,
  registerRefusalLog,
  registerSecurityHeaders,
  registerTextGuard,
  timeoutOptions,
} from './http/edges';
import { createClock } from './market/clock';
import { createManualTime } from './market/manual-time';
import { registerTestClock } from './http/test-clock';
import { createMarketFeed, type MarketFeed } from './market/feed';
import { loadWindowDates, replayWindow } from './market/window';
import { createStressFeed } from './market/stress';
import { installSeed } from './market/install-seed';
import { firstRun, type FirstRunResult } from './modules/auth/first-run';
import { ensurePlatformAccounts } from './modules/ledger/ledger';
import { seedFxRates } from './modules/fx/rate-source';
import type { TradingEngine } from './modules/trading/engine';
import type { CopyTrader } from './modules/copy-trading/copier';
import type { RiskMonitor } from './modules/risk/monitor';
import type { IpoRunner } from './modules/ipo/runner';
import type { DividendRunner } from './modules/dividends/runner';
import type { CorporateActionRunner } from './modules/corporate-actions/runner';
import type { NewsRunner } from './modules/news/runner';
import type { LendingRunner } from './modules/lending/runner';
import { WS_MAX_MESSAGE_BYTES, type Gateway } from './realtime/gateway';
import { createServices, type Services } from './services';
import { selectModules, type ModuleContext, type ModuleName, type Stop } from './app-modules';

/** What buildApp returns: the Fastify app plus the services tests drive directly. */
export interface BuiltApp {
  app: FastifyInstance;
  database: Database;
  feed: MarketFeed;
  trading: TradingEngine;
  /** The margin-call and liquidation monitor (tests await `risk.idle()` after a tick). */
  risk: RiskMonitor;
  /** Public-subscription steps on the market clock (tests call `ipo.run()` after moving it). */
  ipo: IpoRunner;
  /** Cash dividends on replayed ex-dates (tests call `dividends.run()` after moving the clock). */
  dividends: DividendRunner;
  /**
   * Corporate actions on open positions and resting orders (splits, face-value changes, the
   * window's restart, stock dividends); tests call `corporateActions.run()` after moving the clock.
   */
  corporateActions: CorporateActionRunner;
  /** Generated news items (tests call `news.run()`). */
  news: NewsRunner;
  /** Stock-lending steps (tests call `lending.run()` after moving the clock). */
  lending: LendingRunner;
  /** Copy trading's mirroring passes (tests call `copyTrading.runOnce()`). */
  copyTrading: CopyTrader;
  /** The `/ws` gateway (tests read its stats); null when the `realtime` module is not started. */
  gateway: Gateway | null;
  firstRun: FirstRunResult;
  /** Every long-lived service, as request handlers see them (`ctx.services`). */
  services: Services;
  /** The modules started, in start order (server/app-modules.ts). */
  modules: ModuleName[];
}

/** buildApp options for tests: a shared database, an injected wall clock, no feed timer, no logger. */
export interface BuildOptions {
  /** Reuse an open database (tests share one per file). */
  database?: Database;
  /**
   * The database already holds the bundled seed data for `config.importSymbols`
   * (importMarketData, importExRightsEvents): a copy of a test template
   * (tests/support/db-template.ts). Skips re-reading the seed files (seconds per start; the
   * import would insert nothing). Default false.
   */
  seedDataImported?: boolean;
  /** Inject a clock's wall time (tests; also the stress source's clock); default Date.now. */
  now?: () => number;
  /** Start the feed's timer (default true); tests drive `feed.tick()` themselves. */
  feedTimer?: boolean;
  logger?: boolean;
  /** Write the server log (at config.logLevel) to this stream instead of stdout; wins over `logger`. */
  logStream?: NodeJS.WritableStream;
  /**
   * The modules to start (server/app-modules.ts MODULE_NAMES or a MODULE_ROLES list), each with
   * what it needs; default every module.
   */
  modules?: readonly ModuleName[];
}

/**
 * Builds the whole server (see the module docstring). Throws if the database cannot be opened or
 * migrated, or on an unknown module name. The returned app is not listening yet: call
 * `app.listen` or use `app.inject`.
 */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<BuiltApp> {
  const database = opts.database ?? (await openDatabase(config.databaseUrl));
  const { db } = database;
  if (!opts.seedDataImported) {
    await importMarketData(db, config.importSymbols ? { symbols: config.importSymbols } : undefined);
  }
  await ensurePlatformAccounts(db);
  await seedFxRates(db);
  const first = await firstRun(db, config);

  if (!opts.seedDataImported) await importExRightsEvents(db);
  const ipoAnnouncements = await importIpoAnnouncements(
    db,
    config.importSymbols ? { symbols: config.importSymbols } : undefined,
  );
  // MARKET_SEED, or this install's own secret seed (market/install-seed.ts).
  const seed = await installSeed(db, config.marketSeed);
  // MARKET_CLOCK=manual (tests): the replay clock at speed 1 on a time only the test moves.
  const manual = config.marketClock === 'manual' ? createManualTime() : null;
  const clock =
    config.marketSource === 'stress'
      ? null
      : config.marketClock === 'manual'
        ? createClock({ mode: 'replay', speed: 1, now: manual!.now })
        : createClock({ mode: config.marketClock, speed: config.marketSpeed, now: opts.now });
  const feed: MarketFeed =
    clock === null
      ? createStressFeed({
          db,
          seed,
          symbols: config.stressSymbols,
          rate: config.stressRate,
          now: opts.now,
        })
      : createMarketFeed({
          db,
          clock,
          seed,
          symbols: config.importSymbols,
          // Announced codes the window never trades list on a comparable's path (listing-proxies.ts).
          listingProxies: ipoAnnouncements.map((a) => ({ symbol: a.code, offerMinor: a.priceMinor })),
        });
  const windowDates = await loadWindowDates(db);
  const window = windowDates.length >= 2 ? replayWindow(windowDates) : null;

  const app = Fastify({
    // Edge: redacted log and timeouts (server/http/edges.ts).
    logger: opts.logStream
      ? loggerOptions(config.logLevel, opts.logStream)
      : opts.logger === false
        ? false
        : loggerOptions(config.logLevel),
    ...timeoutOptions(),
    bodyLimit: 64 * 1024,
    // X-Forwarded-For only from the configured proxies (server/http/client-address.ts).
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
  });
  const services = createServices({
    db,
    config,
    feed,
    clock,
    window,
    announcements: ipoAnnouncements,
    now: opts.now ?? Date.now,
    timer: opts.feedTimer ?? true,
    log: (msg, err) => app.log.error({ err }, msg),
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Compresses the replies of every route below (static-client.ts), so it comes first.
  await registerResponseCompression(app);
  // Edge: security headers, control-character guard, refusal log, envelope 404 (server/http/edges.ts).
  await registerSecurityHeaders(app);
  registerTextGuard(app);
  registerRefusalLog(app);
  registerNotFound(app);
  await app.register(fastifyWebsocket, { options: { maxPayload: WS_MAX_MESSAGE_BYTES } });

  // Modules start in order and stop in reverse; a start that throws stops what already started.
  const ctx: ModuleContext = { app, services, timer: opts.feedTimer ?? true, running: { gateway: null } };
  const started: ModuleName[] = [];
  const stops: Stop[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop();
    stops.length = 0;
  };
  // POST /api/test/clock exists only on a manual clock, which config.ts allows only with NODE_ENV=test.
  if (manual && clock)
    registerTestClock(app, {
      time: manual,
      clock,
      feed,
      trading: services.trading,
      jobs: [services.corporateActions, services.dividends, services.ipo, services.credit, services.lending],
      risk: services.risk,
    });
  try {
    for (const m of selectModules(opts.modules)) {
      if (m.start) stops.push(await m.start(ctx));
      const stop = m.routes ? await m.routes(ctx) : undefined;
      if (stop) stops.push(stop);
      started.push(m.name);
    }
  } catch (err) {
    await stopAll();
    await app.close();
    if (!opts.database) await database.close();
    throw err;
  }

  app.addHook('onClose', async () => {
    await stopAll();
    if (!opts.database) await database.close();
  });

  return {
    app,
    database,
    feed,
    trading: services.trading,
    risk: services.risk,
    ipo: services.ipo,
    dividends: services.dividends,
    corporateActions: services.corporateActions,
    news: services.news,
    lending: services.lending,
    copyTrading: services.copyTrading,
    gateway: ctx.running.gateway,
    firstRun: first,
    services,
    modules: started,
  };
}
