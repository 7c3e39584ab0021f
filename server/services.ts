/**
 * The app's object graph, built once per buildApp (server/app.ts): every long-lived runner, hub,
 * closer, limiter and cache, created but not started. Request handlers receive this object as
 * `ctx.services`; buildApp's modules (server/app-modules.ts) start and stop the parts that do
 * background work. Nothing here is reached through a module-level lookup: a process holds what
 * buildApp gave it, so two apps in one process (tests) never share state by accident.
 */
import type { Config } from './config';
import type { Services } from './modules/common/context';
import './modules/trading/services';
import type { Db } from './db/client';
import type { IpoAnnouncement } from './market/import';
import type { Clock } from './market/clock';
import { nextTradingDay } from './market/calendar';
import type { MarketFeed } from './market/feed';
import type { ReplayWindow } from './market/window';
import { createSessionSockets, type SessionSockets } from './modules/auth/session-sockets';
import { createSessionAuth, type SessionAuth } from './modules/auth/sessions';
import { createAuthThrottle, type AuthThrottle } from './modules/auth/throttle';
import { createMemberQuotas, type MemberQuotas } from './modules/common/member-quota';
import { createCopyTrader, type CopyTrader } from './modules/copy-trading/copier';
import { settleCopyClose } from './modules/copy-trading/settlement';
import { createCorporateActionRunner, type CorporateActionRunner } from './modules/corporate-actions/runner';
import { createCreditRunner, type CreditRunner } from './modules/credit/runner';
import { createDayTradeCloser, type DayTradeCloser } from './modules/day-trading/auto-close';
import { settleDayTradeClose } from './modules/day-trading/tax';
import { createDividendRunner, type DividendRunner } from './modules/dividends/runner';
import { createIpoRunner, type IpoRunner } from './modules/ipo/runner';
import { createLendingRunner, type LendingRunner } from './modules/lending/runner';
import { refuseCloseInLoan } from './modules/lending/service';
import { createRankings, type Rankings } from './modules/market/rankings';
import { createNewsRunner, type NewsRunner } from './modules/news/runner';
import { rewardsFeeTerms } from './modules/rewards/fee-terms';
import { createLevelDiscounts, type LevelDiscounts } from './modules/rewards/levels';
import { createRiskMonitor, type RiskMonitor } from './modules/risk/monitor';
import { createSupportHub, type SupportHub } from './modules/support/hub';
import { createTradingEngine } from './modules/trading/engine';
import { createEquitySnapshotter, type EquitySnapshotter } from './modules/wallet/snapshots';

declare module './modules/common/context' {
  /** Every long-lived runner, hub, closer and limiter of one app (see the module docstring). */
  interface Services {
    /** Session authentication with the app's idle times; logout closes the session's sockets. */
    sessions: SessionAuth;
    /** Sockets authenticated by a session (support channel), revoked when their session ends. */
    sessionSockets: SessionSockets;
    /** Login, registration and password-reset throttling. */
    authThrottle: AuthThrottle;
    /** Per-member request quotas (support/send, user/feedback, search/addHistory). */
    memberQuotas: MemberQuotas;
    /** Account-level fee discounts, cached for the order path. */
    levels: LevelDiscounts;
    /** Market rankings, breadth and industries over the feed. */
    rankings: Rankings;
    /** Corporate actions on positions and resting orders; gates the feed the engine sees. */
    corporateActions: CorporateActionRunner;
    /** Day-trade auto-close at the closing match. */
    dayTrades: DayTradeCloser;
    /** Margin-call and liquidation monitor. */
    risk: RiskMonitor;
    /** Public-subscription steps; its calendar is the market calendar of ipo, primary and lending. */
    ipo: IpoRunner;
    /** Cash dividends on replayed ex-dates; its calendar is the dividend screens' and news'. */
    dividends: DividendRunner;
    /** Generated news items. */
    news: NewsRunner;
    /** Credit interest accrual; `today()` is the credit screens' trading day. */
    credit: CreditRunner;
    /** Stock-lending steps. */
    lending: LendingRunner;
    /** Copy trading's mirroring passes. */
    copyTrading: CopyTrader;
    /** Daily equity snapshots at the closing match. */
    snapshots: EquitySnapshotter;
    /** Live support conversations over /ws; REST handlers publish through it. */
    supportHub: SupportHub;
  }
}

export type { Services };

/** What createServices needs: the opened database, the feed built on the market clock, and the log. */
export interface ServiceInputs {
  db: Db;
  config: Config;
  feed: MarketFeed;
  /** The market clock; null for the stress source. */
  clock: Clock | null;
  /** The replay window; null without one (fewer than two window dates). */
  window: ReplayWindow | null;
  /** Public-subscription announcements imported at start. */
  announcements: readonly IpoAnnouncement[];
  now: () => number;
  /** Start the engine's own timer (buildApp's feedTimer; tests drive it). */
  timer: boolean;
  log: (msg: string, err?: unknown) => void;
}

/**
 * Builds every service (see the module docstring). Nothing is started and nothing is read from
 * the database here; buildApp's modules start them in order.
 */
export function createServices(inputs: ServiceInputs): Services {
  const { db, config, feed, clock, window, now, log } = inputs;
  const sessionSockets = createSessionSockets();
  const sessions = createSessionAuth({
    idle: { memberIdleMs: config.memberIdleMs, operatorIdleMs: config.operatorIdleMs },
    sockets: sessionSockets,
  });
  const levels = createLevelDiscounts(db);
  // Corporate actions catch up before anything trades; the engine, the risk monitor and copy
  // trading then see the market through its gate (server/modules/corporate-actions/runner.ts).
  const corporateActions = createCorporateActionRunner({
    db,
    clock,
    window,
    kindOf: (symbol) => feed.kind(symbol) ?? 'stock',
    now,
    log,
  });
  const marketFeed = corporateActions.gate(feed);
  const trading = createTradingEngine({
    db,
    feed: marketFeed,
    leverages: config.leverages,
    rules: config,
    openingMarginBps: config.openingMarginBps,
    now: inputs.now,
    timer: inputs.timer,
    settleDayTrade: settleDayTradeClose,
    feeTerms: rewardsFeeTerms(levels, now),
    closeGuard: refuseCloseInLoan,
    onClose: settleCopyClose,
    log,
  });
  corporateActions.attach(trading);
  const ipo = createIpoRunner({ db, feed, clock, window, announcements: inputs.announcements, now, log });
  const dividends = createDividendRunner({ db, clock, window, log });
  const rankings = createRankings({ feed, now });
  return {
    db,
    config,
    feed,
    trading,
    now,
    sessions,
    sessionSockets,
    authThrottle: createAuthThrottle(db, config),
    memberQuotas: createMemberQuotas(db),
    levels,
    rankings,
    corporateActions,
    dayTrades: createDayTradeCloser({
      db,
      feed: marketFeed,
      trading,
      enabled: config.dayTradeAutoClose,
      log,
    }),
    risk: createRiskMonitor({
      db,
      feed: marketFeed,
      closer: trading,
      thresholds: { marginCallBps: config.marginCallBps, maintenanceBps: config.maintenanceBps },
      now: inputs.now,
      session: () => (clock ? clock.position().session : Math.floor(now() / 86_400_000)),
      sessionDate: (k) => sessionDateOf(clock, window, k),
      graceDays: config.marginCallGraceDays,
      log,
    }),
    ipo,
    dividends,
    news: createNewsRunner({ db, feed, calendar: dividends.calendar, now, rankings, log }),
    // Credit interest accrues at each market-calendar day change (modules/credit/runner.ts).
    credit: createCreditRunner({ db, clock, log }),
    lending: createLendingRunner({ db, feed, calendar: ipo.calendar, log }),
    copyTrading: createCopyTrader({ db, trading, feed: marketFeed, now, log }),
    snapshots: createEquitySnapshotter({ db, feed, trading, now, log }),
    supportHub: createSupportHub({ db, sessions, sockets: sessionSockets, log }),
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
