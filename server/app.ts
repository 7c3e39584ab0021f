/**
 * buildApp(config): the whole server as a Fastify instance, started in-process by tests
 * (`app.inject`) and by main.ts. Opens the database (unless one is passed), imports market data
 * and the public-subscription announcements on first start, creates the first-run operator and
 * invitation code, starts the market feed (MARKET_SOURCE: the replay feed, or the stress source),
 * the trading engine and the public-subscription steps on the market clock, registers `/api/vue/*`, `/ws`, `/api/docs` and the built client
 * (and, on a MARKET_CLOCK=manual test build only, POST /api/test/clock: http/test-clock.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { importExRightsEvents, importIpoAnnouncements, importMarketData } from './db/import';
import type { Handlers, Services } from './modules/common/context';
import { registerApiRoutes } from './http/api-routes';
import { registerResponseCompression, staticClientOptions } from './http/static-client';
import {
  loggerOptions,
  registerNotFound,
  registerRefusalLog,
  registerSecurityHeaders,
  registerTextGuard,
  timeoutOptions,
} from './http/edges';
import { createClock, type Clock } from './market/clock';
import { createManualTime } from './market/manual-time';
import { registerTestClock } from './http/test-clock';
import { nextTradingDay } from './market/calendar';
import { createMarketFeed, type MarketFeed } from './market/feed';
import { loadWindowDates, replayWindow, type ReplayWindow } from './market/window';
import { createStressFeed } from './market/stress';
import { installSeed } from './market/install-seed';
import { accountHandlers } from './modules/account/handlers';
import { adminHandlers } from './modules/admin/handlers';
import { invitationHandlers } from './modules/admin/invitations';
import { authHandlers } from './modules/auth/handlers';
import { firstRun, type FirstRunResult } from './modules/auth/first-run';
import { configureSessionIdle } from './modules/auth/sessions';
import { commonHandlers } from './modules/common/handlers';
import { pageHandlers } from './modules/common/pages';
import { feedbackHandlers } from './modules/account/feedback';
import { preferenceHandlers } from './modules/account/preferences';
import { passwordResetHandlers } from './modules/auth/password-reset';
import { fundsHandlers } from './modules/funds/handlers';
import { depositReviewHandlers } from './modules/funds/deposit-review';
import { moneyHandlers } from './modules/funds/money-handlers';
import { identityHandlers } from './modules/identity/handlers';
import { registerUploadRoutes } from './modules/identity/uploads';
import { ensurePlatformAccounts } from './modules/ledger/ledger';
import { seedFxRates } from './modules/fx/rate-source';
import { marketHandlers } from './modules/market/handlers';
import { searchHandlers } from './modules/search/handlers';
import { createTradingEngine, type TradingEngine } from './modules/trading/engine';
import { tradingHandlers } from './modules/trading/handlers';
import { dayTradingHandlers } from './modules/day-trading/handlers';
import { createCopyTrader, type CopyTrader } from './modules/copy-trading/copier';
import { settleCopyClose } from './modules/copy-trading/settlement';
import { copyTradingHandlers } from './modules/copy-trading/handlers';
import { createDayTradeCloser } from './modules/day-trading/auto-close';
import { settleDayTradeClose } from './modules/day-trading/tax';
import { riskHandlers } from './modules/risk/handlers';
import { createRiskMonitor, type RiskMonitor } from './modules/risk/monitor';
import { ipoHandlers } from './modules/ipo/handlers';
import { rewardsFeeTerms } from './modules/rewards/fee-terms';
import { rewardsHandlers } from './modules/rewards/handlers';
import { primaryHandlers } from './modules/primary/handlers';
import { createIpoRunner, type IpoRunner } from './modules/ipo/runner';
import { createDividendRunner, type DividendRunner } from './modules/dividends/runner';
import { createCorporateActionRunner, type CorporateActionRunner } from './modules/corporate-actions/runner';
import { dividendHandlers } from './modules/dividends/handlers';
import { createNewsRunner, type NewsRunner } from './modules/news/runner';
import { newsHandlers } from './modules/news/handlers';
import { registerNewsCoverRoute } from './modules/news/cover';
import { walletHandlers } from './modules/wallet/handlers';
import { createEquitySnapshotter } from './modules/wallet/snapshots';
import { createCreditRunner } from './modules/credit/runner';
import { creditHandlers } from './modules/credit/handlers';
import { lendingHandlers } from './modules/lending/handlers';
import { createLendingRunner, type LendingRunner } from './modules/lending/runner';
import { refuseCloseInLoan } from './modules/lending/service';
import { registerGateway, WS_MAX_MESSAGE_BYTES, type Gateway } from './realtime/gateway';
import { noticeHandlers } from './modules/notices/handlers';
import { supportHandlers } from './modules/support/handlers';
import { createSupportHub, registerSupportHub } from './modules/support/hub';

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
  /** The `/ws` gateway (tests read its stats). */
  gateway: Gateway;
  firstRun: FirstRunResult;
}

/** buildApp options for tests: a shared database, an injected wall clock, no feed timer, no logger. */
export interface BuildOptions {
  /** Reuse an open database (tests share one per file). */
  database?: Database;
  /** Inject a clock's wall time (tests; also the stress source's clock); default Date.now. */
  now?: () => number;
  /** Start the feed's timer (default true); tests drive `feed.tick()` themselves. */
  feedTimer?: boolean;
  logger?: boolean;
  /** Write the server log (at config.logLevel) to this stream instead of stdout; wins over `logger`. */
  logStream?: NodeJS.WritableStream;
}

/**
 * Builds the whole server (see the module docstring). Throws if the database cannot be opened or
 * migrated. The returned app is not listening yet: call `app.listen` or use `app.inject`.
 */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<BuiltApp> {
  const database = opts.database ?? (await openDatabase(config.databaseUrl));
  const { db } = database;
  await importMarketData(db, config.importSymbols ? { symbols: config.importSymbols } : undefined);
  await ensurePlatformAccounts(db);
  await seedFxRates(db);
  const first = await firstRun(db, config);
  configureSessionIdle(db, config);

  await importExRightsEvents(db);
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
      : manual
        ? createClock({ mode: 'replay', speed: 1, now: manual.now })
        : createClock({ mode: config.marketClock, speed: config.marketSpeed, now: opts.now });
  const feed =
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
  await feed.start({ timer: opts.feedTimer ?? true });

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
  const windowDates = await loadWindowDates(db);
  const window = windowDates.length >= 2 ? replayWindow(windowDates) : null;
  // Corporate actions catch up before anything trades; the engine, the risk monitor and copy
  // trading then see the market through its gate (server/modules/corporate-actions/runner.ts).
  const corporateActions = createCorporateActionRunner({
    db,
    clock,
    window,
    kindOf: (symbol) => feed.kind(symbol) ?? 'stock',
    now: opts.now ?? Date.now,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  await corporateActions.start({ timer: opts.feedTimer ?? true });
  const marketFeed = corporateActions.gate(feed);
  const trading = createTradingEngine({
    db,
    feed: marketFeed,
    leverages: config.leverages,
    rules: config,
    openingMarginBps: config.openingMarginBps,
    now: opts.now,
    timer: opts.feedTimer ?? true,
    settleDayTrade: settleDayTradeClose,
    feeTerms: rewardsFeeTerms(db, opts.now ?? Date.now),
    closeGuard: refuseCloseInLoan,
    onClose: settleCopyClose,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  corporateActions.attach(trading);
  await trading.start();
  const dayTrades = createDayTradeCloser({
    db,
    feed: marketFeed,
    trading,
    enabled: config.dayTradeAutoClose,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  await dayTrades.start();
  const risk = createRiskMonitor({
    db,
    feed: marketFeed,
    closer: trading,
    thresholds: { marginCallBps: config.marginCallBps, maintenanceBps: config.maintenanceBps },
    now: opts.now,
    session: () => (clock ? clock.position().session : Math.floor((opts.now ?? Date.now)() / 86_400_000)),
    sessionDate: (k) => sessionDateOf(clock, window, k),
    graceDays: config.marginCallGraceDays,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  await risk.start();
  const ipo = createIpoRunner({
    db,
    feed,
    clock,
    window,
    announcements: ipoAnnouncements,
    now: opts.now ?? Date.now,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  await ipo.start({ timer: opts.feedTimer ?? true });
  const dividends = createDividendRunner({
    db,
    feed,
    clock,
    window,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  await dividends.start({ timer: opts.feedTimer ?? true });
  const news = createNewsRunner({
    db,
    feed,
    calendar: dividends.calendar,
    now: opts.now ?? Date.now,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  await news.start({ timer: opts.feedTimer ?? true });
  // Credit interest accrues at each market-calendar day change (modules/credit/runner.ts).
  const credit = createCreditRunner({ db, feed, clock, log: (msg, err) => app.log.error({ err }, msg) });
  await credit.start({ timer: opts.feedTimer ?? true });
  const lending = createLendingRunner({
    db,
    feed,
    calendar: ipo.calendar,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  await lending.start({ timer: opts.feedTimer ?? true });
  const copyTrading = createCopyTrader({
    db,
    trading,
    feed: marketFeed,
    now: opts.now ?? Date.now,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  copyTrading.start({ timer: opts.feedTimer ?? true });
  const snapshots = createEquitySnapshotter({
    db,
    feed,
    trading,
    now: opts.now ?? Date.now,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  snapshots.start();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Compresses the replies of every route below (static-client.ts), so it comes first.
  await registerResponseCompression(app);
  // Edge: security headers, control-character guard, refusal log, envelope 404 (server/http/edges.ts).
  await registerSecurityHeaders(app);
  registerTextGuard(app);
  registerRefusalLog(app);
  registerNotFound(app);
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
  await app.register(fastifyWebsocket, { options: { maxPayload: WS_MAX_MESSAGE_BYTES } });

  const services: Services = { db, config, feed, trading, now: opts.now ?? Date.now };
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
  registerApiRoutes(app, handlers, services);
  await registerUploadRoutes(app, services);
  registerNewsCoverRoute(app, services);
  const supportHub = createSupportHub(db, (msg, err) => app.log.error({ err }, msg));
  registerSupportHub(feed, supportHub);
  const gateway = registerGateway(app, feed, supportHub, config.wsLimits);
  // POST /api/test/clock exists only on a manual clock, which config.ts allows only with NODE_ENV=test.
  if (manual && clock)
    registerTestClock(app, {
      time: manual,
      clock,
      feed,
      trading,
      jobs: [corporateActions, dividends, ipo, credit, lending],
      risk,
    });

  // Built client: precompressed .br/.gz, immutable hashed assets, no-cache HTML (static-client.ts).
  if (existsSync(path.join(config.clientDir, 'index.html'))) {
    await app.register(fastifyStatic, staticClientOptions(config.clientDir));
  }

  app.addHook('onClose', async () => {
    gateway.stop();
    supportHub.stop();
    ipo.stop();
    corporateActions.stop();
    dividends.stop();
    news.stop();
    credit.stop();
    lending.stop();
    risk.stop();
    await risk.idle();
    dayTrades.stop();
    copyTrading.stop();
    await copyTrading.idle();
    snapshots.stop();
    await snapshots.idle();
    trading.stop();
    feed.stop();
    if (!opts.database) await database.close();
  });

  return {
    app,
    database,
    feed,
    trading,
    risk,
    ipo,
    dividends,
    corporateActions,
    news,
    lending,
    copyTrading,
    gateway,
    firstRun: first,
  };
}

/**
 * The trading date of clock session `k`: the replayed date on the replay clock; on the exchange
 * clock the trading day `k − today` trading days after today's session date; null for the stress
 * source (no clock).
 */
function sessionDateOf(clock: Clock | null, window: ReplayWindow | null, k: number): string | null {
  if (!clock) return null;
  if (clock.mode === 'replay') return window ? window.dateOf(k) : null;
  const pos = clock.position();
  let date = pos.sessionDate;
  for (let i = pos.session; i < k && date; i++) date = nextTradingDay(date);
  return date;
}
