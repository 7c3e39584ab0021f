/**
 * The trading engine's public types: its interface (TradingEngine), its options, the match event
 * it announces, an order entry's idempotency key and the member fee terms it reads. engine.ts
 * re-exports them, so callers import from there.
 */
import type { FeeSchedule, InstrumentKind } from '../../../contract/market-rules';
import type { CloseReason, PlaceOrderInput, PlaceOrderReq } from '../../../contract/trading';
import type { IsTradingDay } from '../../../contract/trading-session';
import type { Db, Tx } from '../../db/client';
import type { orders } from '../../db/schema';
import type { AuthUser } from '../common/context';
import type { MarketFeed } from '../../market/feed';
import type { TradingConfig } from './config';
import type { OrderRow } from './fills';
import type { LaneStats } from './open-lanes';

/** A call-auction match or the after-hours match, announced after its fills are written. */
export interface MatchEvent {
  kind: 'opening' | 'closing' | 'afterHours';
  symbol: string;
  /** The trading date matched (YYYY-MM-DD). */
  tradeDate: string;
  /** The auction price (opening / closing price; the fixed price after hours). */
  priceMinor: number;
}

/** The trading core's interface; every method throws AppError for a refused request. */
export interface TradingEngine {
  /** Loads live orders (pending, closing) into memory, catches up on missed matches, listens to quotes. */
  start(): Promise<void>;
  stop(): void;
  /**
   * Places an order. `dayTrade`: entered as a day trade (dayTrade/placeOrder; the member's
   * eligibility checked there). `idempotency`: the member's key and the request's hash, written
   * into the order row by the same INSERT that places it (unique per member); when this request
   * cannot place its order and the member already has one with that key (a retry, or a duplicate
   * running at the same time), the answer is that order as it stands now, or `keyMismatch` when it
   * was placed by a different request.
   * @throws AppError for a refused order (nothing written), keyMismatch.
   */
  placeOrder(
    user: AuthUser,
    req: PlaceOrderInput | PlaceOrderReq,
    opts?: { dayTrade?: boolean; idempotency?: OrderKey },
  ): Promise<OrderRow>;
  /**
   * Opens a position at market now inside the caller's transaction `tx` (copy trading mirrors a
   * mentor's order this way, so the follow's cash moves and the copy opens in one transaction):
   * the same entry checks as placeOrder for a market ROD order (ban, leverage, max lots,
   * tradable, traded today, closed to trading, continuous trading only, the whole-account check
   * against `req.followId`'s pool, recorded on the row), the best opposite price within the day's
   * limits, and the same ledger (fills.ts openFromAvailable: margin, fee and tax from `available`).
   * @throws AppError for a refused order (nonTradingTime outside continuous trading,
   *   priceUnavailable, exceedsPriceLimit, insufficientBalance, …); the caller's transaction
   *   must then roll back (PostgreSQL aborts it on the ledger's refusal).
   */
  openAtMarket(
    tx: Tx,
    user: AuthUser,
    req: { symbol: string; side: 'long' | 'short'; lots: number; leverage: number; followId?: number },
  ): Promise<OrderRow>;
  /**
   * Cancels a pending order. `within`: the caller's transaction to run in (a savepoint; the
   * request's idempotency transaction, server/http/idempotency.ts), default a transaction of its own.
   */
  cancelOrder(user: AuthUser, orderId: number, within?: Db): Promise<OrderRow>;
  /** Closes a holding at market (or queues it in a call phase); `within` as for cancelOrder. */
  closePosition(user: AuthUser, orderId: number, within?: Db): Promise<OrderRow>;
  /**
   * Closes a holding (or a position queued to close) at `priceMinor` inside the caller's
   * transaction, the caller having locked the row (`for update`): the same ledger code as the
   * member's close (fills.ts closeAt), with the day-trade settlement (`settleDayTrade`). For
   * forced closes (`liquidation`, `dayTradeClose`); skips the member's rules (T+1, lock-up,
   * session). @throws AppError('orderNotHolding').
   */
  closeAt(tx: Tx, order: OrderRow, priceMinor: number, reason: CloseReason): Promise<OrderRow>;
  /**
   * A forced close in its own transaction (liquidation, day-trade close): locks the order and
   * closes it through closeAt at market now (bid for a long, ask for a short, as the member's
   * close; continuous trading only) or at `at.priceMinor` (a match price the caller knows, e.g.
   * the closing print; `at.tradeDate`: that match's trading date, on which a same-day day trade
   * is decided), then runs `onClosed` in the same transaction (the risk monitor records
   * why there). Resolves null when the order is no longer holding or closing (closed first: the
   * row lock and status check make one winner). Skips the member's rules (T+1, lock-up).
   * `within`: the caller's transaction to run in (a savepoint; copy trading's follow/stop runs
   * in the request's idempotency transaction), default a transaction of its own.
   * @throws AppError nonTradingTime outside continuous trading, priceUnavailable without a price.
   */
  forceClose(
    orderId: number,
    reason: CloseReason,
    onClosed?: (tx: Tx, closed: OrderRow) => Promise<void>,
    at?: { priceMinor: number; tradeDate?: string },
    within?: Db,
  ): Promise<OrderRow | null>;
  /** The trading date (YYYY-MM-DD) orders of `symbol` entered or closed now belong to. */
  tradeDate(symbol: string): string;
  /** Group-commit counters of the orders that fill on arrival (open-lanes.ts). */
  readonly laneStats: LaneStats;
  /** Runs the clock-driven matches due now (the after-hours 14:30 match); resolves when written. */
  sweep(): Promise<void>;
  /** Listens to matches (opening, closing, after-hours) after their fills are written. */
  onMatch(fn: (e: MatchEvent) => void | Promise<void>): () => void;
  /** Resolves when every fill and match queued so far has been written (tests). */
  idle(): Promise<void>;
  /** Number of resting orders in the trigger index. */
  restingCount(): number;
  /**
   * Waits for the queued work, then checks the resting book against the database (book.ts
   * RestingBook.assertInvariants): the book's ids equal the pending orders' ids, the queued
   * closes equal the closing orders' ids, every entry matches its row. For tests and the fuzz,
   * not the hot path. @throws Error naming the first difference.
   */
  assertInvariants(): Promise<void>;
  /**
   * Re-reads a resting order the caller changed in the database (a corporate action re-priced or
   * cancelled it, server/modules/corporate-actions): drops it from the trigger index and the
   * opening queue and, while it is still pending, admits it again at its new limit price.
   */
  readmit(row: OrderRow): void;
}

/** An order entry's idempotency: the member's key and the hash of the request that carried it. */
export interface OrderKey {
  key: string;
  requestSha256: string;
}

/**
 * The columns an order entry sets besides the request's own: day trade, idempotency and the
 * member's account-level fee discount (FeeTerms.levelBps).
 */
export type EntryColumns = Pick<
  typeof orders.$inferInsert,
  'dayTrade' | 'idempotencyKey' | 'requestSha256' | 'feeDiscountBps'
>;

/**
 * Where an order's fee discount comes from (server/modules/rewards; contract/market-rules.ts
 * FeeDiscount, docs/levels.md). Only the fee computation reads the result: it is recorded on the
 * order row and every fill and close of the order charges with it.
 */
export interface FeeTerms {
  /** The member's account-level discount now, bps of the commission. */
  levelBps(userId: number): Promise<number>;
  /**
   * Marks the member's fee coupon `couponId` used by order `orderNo` inside `tx` (a conditional
   * update: a coupon is used once, also under concurrent orders) and returns its terms.
   * @throws AppError couponUnavailable (not theirs, used or expired)
   */
  claimCoupon(
    tx: Tx,
    userId: number,
    couponId: number,
    orderNo: string,
  ): Promise<{ couponBps: number; couponOffMinor: number }>;
}

/** createTradingEngine options. */
export interface TradingEngineOptions {
  db: Db;
  feed: MarketFeed;
  leverages: number[];
  fees?: FeeSchedule;
  /** Trading-rule settings (config.ts); default TRADING_DEFAULTS (all off). */
  rules?: TradingConfig;
  /**
   * The opening line in basis points (config OPENING_MARGIN_BPS): an opening order must leave its
   * risk pool at or above it (opening-check.ts). Default 10000: none.
   */
  openingMarginBps?: number;
  /** Wall clock (epoch ms) for order timestamps and lock-up minutes; default Date.now. */
  now?: () => number;
  /** Exchange calendar; default server/market/calendar.ts isTradingDay. */
  isTradingDay?: IsTradingDay;
  /** Run sweep() every second (default true); tests call it themselves. */
  timer?: boolean;
  /**
   * Day-trade settlement of a close (the day-trading module's settleDayTradeClose), called in the
   * close's transaction before it posts: returns the date to tax the sale at the day-trade rate,
   * or undefined for an ordinary close. Default: no day trades.
   */
  settleDayTrade?: (
    tx: Tx,
    args: { order: OrderRow; tradeDate: string; kind: InstrumentKind; fees: FeeSchedule },
  ) => Promise<string | undefined>;
  /**
   * Called in the member's close transaction with the locked holding before anything is written:
   * throws the AppError that refuses the close (stock lending's shares in loan,
   * server/modules/lending/service.ts refuseCloseInLoan). Forced closes (liquidation, day-trade
   * close) do not call it. Default: none.
   */
  closeGuard?: (tx: Tx, order: OrderRow) => Promise<void>;
  /**
   * Called in every close's transaction right after the close is written (the member's close, a
   * queued close at its call auction, every forced close), with the closed row: copy trading
   * settles a copy's proceeds and profit share there, whoever closed it
   * (server/modules/copy-trading/settlement.ts settleCopyClose). Default: none.
   */
  onClose?: (tx: Tx, closed: OrderRow) => Promise<void>;
  log?: (msg: string, err?: unknown) => void;
  /** Member fee discounts (FeeTerms); default none. */
  feeTerms?: FeeTerms;
}
