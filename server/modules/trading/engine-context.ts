/**
 * What every part of the engine shares (createEngineContext): the database and the feed, the
 * options with their defaults filled in, the fill environment (fees, tax kind, clock), the
 * member lanes and the opening check, the instruments' trading days, the resting book, and the
 * serial queue every match and queued fill runs on, one at a time, in the order queued.
 */
import { quoteTaxKind } from '../../../contract/market';
import {
  DEFAULT_FEES,
  type FeeSchedule,
  type InstrumentKind,
  type SaleContext,
} from '../../../contract/market-rules';
import type { IsTradingDay } from '../../../contract/trading-session';
import { BPS } from '../../../contract/risk';
import type { Db } from '../../db/client';
import { isTradingDay as calendarIsTradingDay } from '../../market/calendar';
import type { MarketFeed } from '../../market/feed';
import { RestingBook } from './book';
import { TRADING_DEFAULTS, type TradingConfig } from './config';
import type { TradingEngineOptions } from './engine-types';
import type { FillEnv } from './fills';
import { marketDate, sessionView, type SessionView } from './market-session';
import { openLanes, type OpenLanes } from './open-lanes';
import { createOpeningChecker, type OpeningChecker } from './opening-check';
import { createSessionDays, type SessionDays } from './session-days';

/** The engine's shared state and services (see the module docstring). */
export interface EngineContext {
  db: Db;
  feed: MarketFeed;
  opts: TradingEngineOptions;
  fees: FeeSchedule;
  rules: TradingConfig;
  /** Wall clock, epoch ms (TradingEngineOptions.now). */
  wallNow: () => number;
  isTradingDay: IsTradingDay;
  /** The instrument's kind ('stock' when the feed does not know it). */
  kindOf(symbol: string): InstrumentKind;
  env: FillEnv;
  lanes: OpenLanes;
  opening: OpeningChecker;
  days: SessionDays;
  book: RestingBook;
  /** The session view of the market clock now. */
  view(): SessionView;
  log(msg: string, err?: unknown): void;
  /** Appends work to the serial queue; a failure is logged (as `label`) and does not stop the queue. */
  enqueue(label: string, work: () => Promise<void>): void;
  /** Resolves when everything queued so far has run. */
  idle(): Promise<void>;
}

/** The shared context of an engine built with `opts` (defaults as TradingEngineOptions says). */
export function createEngineContext(opts: TradingEngineOptions): EngineContext {
  const { db, feed } = opts;
  const fees = opts.fees ?? DEFAULT_FEES;
  const wallNow = opts.now ?? Date.now;
  const isTradingDay = opts.isTradingDay ?? calendarIsTradingDay;
  const kindOf = (symbol: string): InstrumentKind => feed.kind(symbol) ?? 'stock';
  /**
   * A sale's tax kind and trade date (contract/dated-rules.ts): the quote's tax kind, the
   * replayed date on the replay (the rule in force that day), else the market date.
   */
  const saleOf = (symbol: string): SaleContext => {
    const q = feed.quote(symbol);
    return {
      taxKind: q ? quoteTaxKind(q) : kindOf(symbol),
      date: q?.replayDate ?? marketDate(wallNow()),
    };
  };
  const env: FillEnv = { fees, kindOf, saleOf, now: () => new Date(wallNow()) };
  const view = (): SessionView => sessionView(feed.clock(), isTradingDay);
  const log = (msg: string, err?: unknown) => opts.log?.(msg, err);
  let queue: Promise<void> = Promise.resolve();
  return {
    db,
    feed,
    opts,
    fees,
    rules: opts.rules ?? TRADING_DEFAULTS,
    wallNow,
    isTradingDay,
    kindOf,
    env,
    lanes: openLanes(db, env),
    opening: createOpeningChecker(env, feed, opts.openingMarginBps ?? BPS),
    days: createSessionDays(feed, isTradingDay, view),
    book: new RestingBook(),
    view,
    log,
    enqueue(label, work) {
      queue = queue.then(() => work().catch((err) => log(label, err)));
    },
    idle: () => queue,
  };
}
