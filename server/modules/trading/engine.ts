/**
 * The trading core: a simulated venue that executes members' orders against the live quote, by
 * the Taiwan market's session rules on the MARKET clock (market-session.ts says what each clock
 * has of the TWSE day).
 *
 * Order entry (placeOrder), refusals carry the fix in the envelope's `data.fix`
 * (contract/trading.ts OrderFix):
 * - regular session: pre-open 08:30–09:00 and the closing call 13:25–13:30 take limit ROD orders
 *   only (market, IOC and FOK orders exist only in continuous trading: TWSE/TPEx continuous-trading
 *   rules of 2020-03-23, "Order types" row of TW-MARKET-RULES) → `orderTypeNotInSession`;
 *   continuous trading 09:00–13:25 takes everything; any other time → `nonTradingTime` with when
 *   entry opens (trading-session.ts nextOpen).
 * - after-hours fixed price (`session: 'afterHours'`): 14:00–14:30, a limit ROD order at exactly
 *   the day's close (`afterHoursFixedPrice` otherwise), whole lots; filled once at 14:30 at that
 *   price (TW-MARKET-RULES "After-hours fixed price"). The exchange and replay clocks have this
 *   window; the stress source does not.
 * - prices: on the tick table and within the day's limits (priceRejection: the nearest valid
 *   prices, or the limit price, as the fix) — the quote's own limitUpMinor/limitDownMinor (the
 *   feed's band of the day for the instrument's class, reference.ts) and its `priceLimits` (none
 *   for a foreign-index ETF and in a first listing's first five trading days); a source that does
 *   not say falls back to the listing rule (hasPriceLimits). In pre-open before the new day shows,
 *   the reference is the last close the feed shows and the band is ±10 % of it.
 * - the sale's tax: the row in force on the quote's date for its tax kind (contract/dated-rules.ts;
 *   a bond ETF's sale untaxed through 2026-12-31), FillEnv.saleOf.
 * - configurable rules (config.ts, all off by default: the spec gives no values): most lots per
 *   order (`exceedsOrderShares`), orders per member per trading day (`dailyPurchaseLimit`),
 *   instruments closed to trading (`tradeClosed`); delisted instruments (`productDelisted`).
 *
 * Execution:
 * - market orders fill at once at the best opposite price (ask for a long, bid for a short), which
 *   must lie within the day's limits.
 * - limit orders that cross on arrival fill at once at the best opposite price; the others rest as
 *   `pending` with margin + fee (+ tax) frozen, in the TriggerIndex (by symbol and price, never a
 *   scan), and fill at their limit when a continuous-trading quote crosses it.
 * - IOC and FOK: fill at once or are cancelled (`close_reason` ioc / fok, nothing frozen). One
 *   order is one position here (no partial fills), so IOC ("fill what can be filled, cancel the
 *   rest") and FOK ("all or nothing") behave the same: the whole order fills at once or none.
 * - call auctions: at the opening print (the first print of a trading day seen once the pre-open is over;
 *   quotes without volume or seen during the pre-open never match) orders queued in pre-open
 *   fill at the opening price when it crosses their limit (long: limit ≥ price, short: limit ≤
 *   price), else rest for continuous trading; at the 13:30 closing print resting orders that the
 *   closing price crosses fill at it (TWSE Art. 58-3). Positions closed during a call wait as
 *   `closing` and close at that call's price.
 * - ROD orders still resting after the closing match expire (`cancelled`, close_reason `expired`,
 *   frozen funds released with `orderUnfreeze`); so do orders whose session ended unseen (the
 *   feed jumped or the server was down).
 * - cancellation only while pending (in any phase: withdrawing a resting order is always safe, so
 *   the engine does not keep funds frozen behind a closed market).
 * - closing a holding: at market (bid for a long, ask for a short) in continuous trading; queued
 *   as `closing` in pre-open and the closing call; `nonTradingTime` otherwise. Rules (config):
 *   T+1 (a long opened today cannot be sold today unless the member may day trade), lock-up
 *   minutes after opening.
 *
 * Every state change and its ledger transactions happen in one DB transaction (fills.ts); status
 * changes are conditional (`for update` + status checks), so a race between a trigger, a cancel and
 * a close has exactly one winner. Matches run one at a time on an internal queue in the order the
 * quotes arrived. Units: minor units (TWD), shares, lots.
 */
import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import { quoteTaxKind, type Quote } from '../../../contract/market';
import {
  DEFAULT_FEES,
  hasPriceLimits,
  priceRejection,
  SHARES_PER_LOT,
  type FeeSchedule,
  type InstrumentKind,
  type PriceLimits,
  type SaleContext,
} from '../../../contract/market-rules';
import type { CloseReason, OrderFix, PlaceOrderInput, PlaceOrderReq } from '../../../contract/trading';
import { nextOpen, type IsTradingDay } from '../../../contract/trading-session';
import { BPS } from '../../../contract/risk';
import type { Db, Tx } from '../../db/client';
import { instruments, orders } from '../../db/schema';
import { fail } from '../common/errors';
import { isNotNullViolation } from '../common/db-errors';
import type { AuthUser } from '../common/context';
import { isTradingDay as calendarIsTradingDay, nextTradingDay } from '../../market/calendar';
import type { MarketFeed } from '../../market/feed';
import { TRADING_DEFAULTS, type TradingConfig } from './config';
import {
  closeAt as closeAtLedger,
  costsAt,
  fillFromFrozen,
  freezeFor,
  listedSymbol,
  lockedAvailable,
  openFromAvailable,
  releaseOrder,
  type FillEnv,
  type OrderRow,
} from './fills';
import { openLanes, type LaneStats } from './open-lanes';
import { createOpeningChecker } from './opening-check';
import { dayTimes, entryClosed, marketDate, opensAt, sessionView, type SessionView } from './market-session';
import { TriggerIndex, type RestingOrder } from './trigger-index';

export type { OrderRow } from './fills';

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
type EntryColumns = Pick<
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

/** Random bytes for order numbers, drawn 3 at a time from a pool refilled 3 KiB at once. */
let orderNoPool = Buffer.alloc(0);
let orderNoAt = 0;
/** A new order number: "T", the epoch ms in base 36, then 6 random hex digits (upper case). */
const newOrderNo = () => {
  if (orderNoAt + 3 > orderNoPool.length) [orderNoPool, orderNoAt] = [randomBytes(3072), 0];
  const rnd = orderNoPool.toString('hex', orderNoAt, (orderNoAt += 3)).toUpperCase();
  return `T${Date.now().toString(36).toUpperCase()}${rnd}`;
};

/** Wall ms between sweeps (the after-hours match is due at one instant a day). */
export const SWEEP_INTERVAL_MS = 1_000;

const MS_PER_DAY = 86_400_000;

/** One instrument's current trading day as seen from its quotes. */
interface DayState {
  date: string;
  /** [startMs, endMs): the Asia/Taipei calendar day of `date` (no DST in Taipei). */
  startMs: number;
  endMs: number;
  callMs: number;
  closeMs: number;
  /** The closing match of `date` has run; its price. */
  closeDone: boolean;
  closePriceMinor: number | null;
  /** The previous day's closing match (for a close queued just before it ran). */
  prevClose: { date: string; priceMinor: number } | null;
  /**
   * The opening match of `date` has run. false while only pre-open quotes of the day were seen
   * (the reference price before any print, or a print the feed showed before 09:00): orders of
   * `date` queue for the opening match until the day's first print in continuous trading.
   */
  opened: boolean;
}

/** Refusal with a fix (the key's status from contract/errors.ts ERROR_STATUS). */
const refuse = (key: Parameters<typeof fail>[0], fix: OrderFix) => fail(key, { fix });

/** Creates the engine over the database and the live feed; call start() before use. */
export function createTradingEngine(opts: TradingEngineOptions): TradingEngine {
  const { db, feed } = opts;
  const fees = opts.fees ?? DEFAULT_FEES;
  const rules = opts.rules ?? TRADING_DEFAULTS;
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
  const env: FillEnv = {
    fees,
    kindOf,
    saleOf,
    now: () => new Date(wallNow()),
  };
  const lanes = openLanes(db, env);
  const opening = createOpeningChecker(env, feed, opts.openingMarginBps ?? BPS);

  /** Continuous-trading resting orders (and those entered in the closing call). */
  const index = new TriggerIndex();
  /** Orders entered in pre-open, waiting for their trading day's opening match. */
  const openingQueue = new TriggerIndex();
  /** Trading date of every order in `index` and `openingQueue`. */
  const restingDate = new Map<number, string>();
  /** Positions queued to close at their symbol's next match. */
  const closing = new Map<string, Set<number>>();
  /** Pending after-hours orders: id → trading date. */
  const afterHours = new Map<number, string>();
  const days = new Map<string, DayState>();
  const listingDates = new Map<string, string>();
  const limitsCache = new Map<string, boolean>();
  const matchFns = new Set<(e: MatchEvent) => void | Promise<void>>();
  let queue: Promise<void> = Promise.resolve();
  let unsubscribe: (() => void) | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  const log = (msg: string, err?: unknown) => opts.log?.(msg, err);
  const view = (): SessionView => sessionView(feed.clock(), isTradingDay);

  /** Appends work to the serial queue; a failure is logged and does not stop the queue. */
  function enqueue(label: string, work: () => Promise<void>): void {
    queue = queue.then(() => work().catch((err) => log(label, err)));
  }

  // ---------- trading days per instrument ----------

  function newDayState(ts: number, prev: DayState | undefined, opened = true): DayState {
    const date = marketDate(ts);
    const t = dayTimes(date);
    // Taipei is UTC+8 all year: the calendar day is [08:30 − 8.5 h, + 24 h).
    const startMs = t.preOpenMs - (8 * 60 + 30) * 60_000;
    return {
      date,
      startMs,
      endMs: startMs + MS_PER_DAY,
      callMs: t.closingCallMs,
      closeMs: t.regularCloseMs,
      closeDone: false,
      closePriceMinor: null,
      opened,
      prevClose:
        prev && prev.closeDone && prev.closePriceMinor !== null
          ? { date: prev.date, priceMinor: prev.closePriceMinor }
          : (prev?.prevClose ?? null),
    };
  }

  /** The instrument's day state, created from its current quote when first needed. */
  function dayOf(symbol: string): DayState | undefined {
    let st = days.get(symbol);
    if (!st) {
      const q = feed.quote(symbol);
      if (!q) return undefined;
      st = newDayState(q.ts, undefined, !awaitingOpen(q, view()));
      days.set(symbol, st);
    }
    return st;
  }

  /**
   * The trading date an order entered now for `symbol` belongs to: the exchange clock's date; on
   * the replay clock the replayed date of the instrument's session (its quotes' date).
   */
  function tradeDateFor(v: SessionView, symbol: string): string {
    if (!v.replay) return marketDate(v.nowMs);
    return dayOf(symbol)?.date ?? marketDate(v.nowMs);
  }

  /**
   * True when `q` is not yet a print of an opened day: no volume yet (the reference price a feed
   * shows before the opening), or a quote of an unfinished day seen during the pre-open (a feed
   * that shows the 09:00 opening print early). Such quotes never match anything.
   */
  function awaitingOpen(q: Quote, v: SessionView): boolean {
    if (!v.shaped) return false;
    if (q.volumeShares === 0) return true;
    return v.phase === 'preOpen' && q.ts < dayTimes(marketDate(q.ts)).regularCloseMs;
  }

  /**
   * Whether daily price limits apply to an order on `symbol` for `date`: the quote's own flag when
   * its source gives one (the replay: none for foreign-index ETFs and a first listing's first 5
   * days, contract/dated-rules.ts), else the listing rule (limitsApply).
   */
  function limitsFor(q: Quote, symbol: string, date: string): boolean {
    return q.priceLimits ?? limitsApply(symbol, date);
  }

  /** Whether daily price limits apply to `symbol` on `date` (none in a new listing's first 5 days). */
  function limitsApply(symbol: string, date: string): boolean {
    const listing = listingDates.get(symbol);
    if (!listing || listing > date) return true;
    const key = `${symbol}|${date}`;
    let v = limitsCache.get(key);
    if (v === undefined) {
      try {
        v = hasPriceLimits({ listingDate: listing, today: date, isTradingDay });
      } catch {
        v = true; // not trading yet by the calendar: keep the limits
      }
      if (limitsCache.size > 50_000) limitsCache.clear();
      limitsCache.set(key, v);
    }
    return v;
  }

  // ---------- admitting resting orders ----------

  const resting = (row: OrderRow): RestingOrder => ({
    id: row.id,
    symbol: row.symbol,
    side: row.side as 'long' | 'short',
    limitPriceMinor: row.limitPriceMinor!,
  });

  /**
   * Puts a pending regular order where it waits: the opening queue when its trading day has not
   * opened yet for the instrument, the trigger index during its day, or expiry when its day's
   * closing match has already run.
   */
  function admit(row: OrderRow, shaped: boolean): void {
    const st = shaped ? dayOf(row.symbol) : undefined;
    const date = row.tradeDate ?? st?.date ?? '';
    if (st && !st.opened && date >= st.date) {
      // Entered in the pre-open of the instrument's day: waits for its opening match.
      openingQueue.add(resting(row));
      restingDate.set(row.id, date);
    } else if (!st || date === st.date) {
      if (st?.closeDone) {
        enqueue(`expiry of order ${row.id}`, () => expire(row.id));
        return;
      }
      index.add(resting(row));
      restingDate.set(row.id, date);
    } else if (date > st.date) {
      openingQueue.add(resting(row));
      restingDate.set(row.id, date);
    } else {
      enqueue(`expiry of order ${row.id}`, () => expire(row.id));
    }
  }

  /** Queues a position asked to close in a call phase; closes it now if its match already ran. */
  function admitClosing(row: OrderRow, requestedOn: string, shaped: boolean): void {
    const st = shaped ? dayOf(row.symbol) : undefined;
    let price: number | null = null;
    if (st && requestedOn === st.date && st.closeDone) price = st.closePriceMinor;
    else if (st && requestedOn < st.date)
      price =
        st.prevClose?.date === requestedOn
          ? st.prevClose.priceMinor
          : (feed.quote(row.symbol)?.openMinor ?? null);
    if (price !== null) {
      const p = price;
      enqueue(`queued close of order ${row.id}`, () => closeQueued(row.id, p, requestedOn));
      return;
    }
    let set = closing.get(row.symbol);
    if (!set) closing.set(row.symbol, (set = new Set()));
    set.add(row.id);
  }

  // ---------- queued DB work ----------

  async function lockOrder(tx: Tx, orderId: number): Promise<OrderRow | undefined> {
    return (await tx.select().from(orders).where(eq(orders.id, orderId)).for('update'))[0];
  }

  async function expire(orderId: number): Promise<void> {
    restingDate.delete(orderId);
    await db.transaction(async (tx) => {
      const order = await lockOrder(tx, orderId);
      if (order?.status === 'pending') await releaseOrder(tx, env, order, 'expired');
    });
  }

  /** Fills a resting order at `priceMinor`; false when it could not be written. */
  async function fillResting(orderId: number, priceMinor: number): Promise<boolean> {
    restingDate.delete(orderId);
    try {
      await db.transaction(async (tx) => {
        const order = await lockOrder(tx, orderId);
        if (order?.status === 'pending') await fillFromFrozen(tx, env, order, priceMinor);
      });
      return true;
    } catch (err) {
      log(`fill failed for order ${orderId}`, err);
      return false;
    }
  }

  /**
   * Closes a position queued during a call auction at that auction's price. `tradeDate` is the
   * auction's trading date (the replay may already have rolled to the next day when this runs),
   * so a same-day offset is still taxed as a day trade.
   */
  async function closeQueued(orderId: number, priceMinor: number, tradeDate: string): Promise<void> {
    await db.transaction(async (tx) => {
      const order = await lockOrder(tx, orderId);
      if (order?.status === 'closing') await engineCloseAt(tx, order, priceMinor, 'user', tradeDate);
    });
  }

  async function announce(e: MatchEvent): Promise<void> {
    for (const fn of matchFns) {
      try {
        await fn(e);
      } catch (err) {
        log(`match listener failed (${e.kind} ${e.symbol})`, err);
      }
    }
  }

  // ---------- quotes ----------

  function takeClosing(symbol: string): number[] {
    const set = closing.get(symbol);
    if (!set || set.size === 0) return [];
    closing.delete(symbol);
    return [...set];
  }

  /**
   * Replay clock: a quote of an earlier date than the instrument's day that is the clock's own
   * date is the replay starting its window over, a new day (not a late quote).
   */
  function windowRestarted(q: Quote): boolean {
    const v = view();
    return v.replay && marketDate(q.ts) === marketDate(v.nowMs);
  }

  /** A quote of a new trading day: expire what missed its close, run the opening match. */
  function openDay(q: Quote, prev: DayState | undefined): DayState {
    const st = newDayState(q.ts, prev);
    days.set(q.symbol, st);
    const stale = index.countFor(q.symbol) ? index.drain(q.symbol) : [];
    const queued = openingQueue.countFor(q.symbol) ? openingQueue.drain(q.symbol) : [];
    const closes = takeClosing(q.symbol);
    if (stale.length === 0 && queued.length === 0 && closes.length === 0) return st;
    const open = q.openMinor;
    const expiring: number[] = [];
    const fills: number[] = [];
    // The trigger index holds the orders of the day that has ended (or of this one): the others
    // missed their close. A replay that starts its window over goes back in date, hence `!==`.
    for (const o of stale) {
      if ((restingDate.get(o.id) ?? '') !== st.date) expiring.push(o.id);
      else index.add(o);
    }
    for (const o of queued) {
      const d = restingDate.get(o.id) ?? st.date;
      if (d > st.date) openingQueue.add(o);
      else if (d < st.date) expiring.push(o.id);
      else if (o.side === 'long' ? o.limitPriceMinor >= open : o.limitPriceMinor <= open) fills.push(o.id);
      else index.add(o); // rests for continuous trading
    }
    enqueue(`opening match ${q.symbol} ${st.date}`, async () => {
      for (const id of expiring) await expire(id);
      for (const id of fills) await fillResting(id, open);
      for (const id of closes) await closeQueued(id, open, st.date);
      if (fills.length || closes.length)
        await announce({ kind: 'opening', symbol: q.symbol, tradeDate: st.date, priceMinor: open });
    });
    return st;
  }

  /** The 13:30 closing print: the closing call's single match, then ROD expiry. */
  function closeDay(q: Quote, st: DayState): void {
    const price = q.lastMinor;
    st.closeDone = true;
    st.closePriceMinor = price;
    const fills = index.takeAtAuction(q.symbol, price).map((o) => o.id);
    const expiring = index.drain(q.symbol).map((o) => o.id);
    const closes = takeClosing(q.symbol);
    enqueue(`closing match ${q.symbol} ${st.date}`, async () => {
      for (const id of fills) await fillResting(id, price);
      for (const id of closes) await closeQueued(id, price, st.date);
      for (const id of expiring) await expire(id);
      await announce({ kind: 'closing', symbol: q.symbol, tradeDate: st.date, priceMinor: price });
    });
  }

  function continuous(q: Quote): void {
    if (index.size === 0) return;
    for (const hit of index.take(q.symbol, q.bidMinor, q.askMinor)) {
      enqueue(`limit fill of order ${hit.id}`, async () => {
        const date = restingDate.get(hit.id);
        if (!(await fillResting(hit.id, hit.limitPriceMinor))) {
          index.add(hit); // retry on a later quote
          if (date !== undefined) restingDate.set(hit.id, date);
        }
      });
    }
  }

  let shapedSource = true;

  function onQuote(q: Quote): void {
    if (!shapedSource) return continuous(q);
    let st = days.get(q.symbol);
    if (st && q.ts < st.startMs && !windowRestarted(q)) return; // a late quote of an earlier day
    const newDay = !st || q.ts >= st.endMs || q.ts < st.startMs;
    if (newDay || !st!.opened) {
      if (awaitingOpen(q, view())) {
        // Pre-open: the day exists (orders queue for its opening) but nothing matches yet.
        if (newDay) days.set(q.symbol, newDayState(q.ts, st, false));
        return;
      }
      st = openDay(q, st);
    }
    st = st!;
    if (q.ts >= st.closeMs) {
      if (!st.closeDone) closeDay(q, st);
      return;
    }
    if (q.ts >= st.callMs) return; // closing call: indicative prices, no continuous matching
    continuous(q);
  }

  // ---------- order entry ----------

  function continuousFix(v: SessionView, q: Quote | undefined): OrderFix {
    const t = dayTimes(marketDate(v.nowMs));
    return {
      rule: 'continuousOnly',
      phase: v.phase,
      orderType: 'limit',
      timeInForce: 'ROD',
      priceMinor: q && q.lastMinor > 0 ? q.lastMinor : null,
      continuousAtMs: v.phase === 'preOpen' ? t.continuousMs : v.fullDay ? nextContinuous(v.nowMs) : null,
    };
  }

  /** Start of the next continuous session on the exchange calendar. */
  function nextContinuous(nowMs: number): number {
    const preOpen = nextOpen(nowMs, isTradingDay, 'regular');
    return dayTimes(marketDate(preOpen)).continuousMs;
  }

  function priceFix(
    priceMinor: number,
    kind: InstrumentKind,
    referenceMinor: number,
    limits: boolean,
    band?: PriceLimits,
  ): { key: 'priceOffTick' | 'exceedsPriceLimit' | 'parameterError'; fix: OrderFix | null } | null {
    const r = priceRejection(priceMinor, { kind, referenceMinor, hasPriceLimits: limits, limits: band });
    if (!r) return null;
    switch (r.rule) {
      case 'offTick':
        return { key: 'priceOffTick', fix: { rule: 'offTick', nearestMinor: r.nearestMinor } };
      case 'aboveLimitUp':
        return { key: 'exceedsPriceLimit', fix: { rule: 'aboveLimitUp', limitUpMinor: r.limitUpMinor } };
      case 'belowLimitDown':
        return {
          key: 'exceedsPriceLimit',
          fix: { rule: 'belowLimitDown', limitDownMinor: r.limitDownMinor },
        };
      default:
        return { key: 'parameterError', fix: null };
    }
  }

  async function checkDailyLimit(tx: Tx, userId: number, tradeDate: string): Promise<void> {
    if (rules.tradeDailyOrderLimit <= 0) return;
    await lockedAvailable(tx, userId); // serialises one member's orders for the count
    const [n] = await tx
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.tradeDate, tradeDate)));
    if (n!.n >= rules.tradeDailyOrderLimit)
      throw refuse('dailyPurchaseLimit', {
        rule: 'dailyLimit',
        limit: rules.tradeDailyOrderLimit,
        tradeDate,
      });
  }

  /**
   * The order number and coupon columns of an order entered with `req.couponId`, the coupon
   * claimed in `tx` (FeeTerms.claimCoupon); none without one.
   */
  async function couponColumns(
    tx: Tx,
    user: AuthUser,
    req: PlaceOrderReq,
  ): Promise<Partial<typeof orders.$inferInsert>> {
    if (req.couponId === undefined) return {};
    if (!opts.feeTerms) throw fail('couponUnavailable');
    const orderNo = newOrderNo();
    const c = await opts.feeTerms.claimCoupon(tx, user.id, req.couponId, orderNo);
    return { orderNo, couponId: req.couponId, ...c };
  }

  function orderValues(
    user: AuthUser,
    req: PlaceOrderReq,
    extra: Partial<typeof orders.$inferInsert>,
  ): typeof orders.$inferInsert {
    return {
      orderNo: newOrderNo(),
      userId: user.id,
      symbol: req.symbol,
      side: req.side,
      orderType: req.orderType,
      limitPriceMinor: req.orderType === 'limit' ? req.priceMinor! : null,
      lots: req.lots,
      shares: req.lots * SHARES_PER_LOT,
      leverage: req.leverage,
      status: 'pending',
      timeInForce: req.timeInForce,
      entrySession: req.session,
      ...extra,
    };
  }

  async function insertOrder(
    tx: Tx,
    user: AuthUser,
    req: PlaceOrderReq,
    extra: Partial<typeof orders.$inferInsert>,
  ): Promise<OrderRow> {
    const values = orderValues(user, req, extra);
    const [row] = await tx
      .insert(orders)
      .values({ ...values, symbol: listedSymbol(values.symbol) })
      .returning();
    return row!;
  }

  /** The member's order placed with idempotency key `key`, if any. */
  async function orderByKey(userId: number, key: string): Promise<OrderRow | undefined> {
    return (
      await db
        .select()
        .from(orders)
        .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)))
    )[0];
  }

  async function placeOrder(
    user: AuthUser,
    input: PlaceOrderInput | PlaceOrderReq,
    entry: { dayTrade?: boolean; idempotency?: OrderKey } = {},
  ): Promise<OrderRow> {
    const idem = entry.idempotency;
    try {
      return await enterOrder(user, input, {
        dayTrade: entry.dayTrade === true,
        idempotencyKey: idem?.key ?? null,
        requestSha256: idem?.requestSha256 ?? null,
      });
    } catch (err) {
      // Looked up only when the order was not placed: the hot path pays nothing for the key. A
      // retry of a placed order fails one way or another (the unique (user, key) index refuses
      // its insert; or a rule, the session or the balance refuses it first) and is answered here
      // with the order the key placed. A duplicate running at the same time waits on that
      // index until the first commits, so it finds it too.
      if (!idem) throw err;
      const prior = await orderByKey(user.id, idem.key);
      if (!prior) throw err;
      if (prior.requestSha256 !== idem.requestSha256) throw fail('keyMismatch');
      return prior;
    }
  }

  async function enterOrder(
    user: AuthUser,
    input: PlaceOrderInput | PlaceOrderReq,
    entry: EntryColumns,
  ): Promise<OrderRow> {
    const req: PlaceOrderReq = {
      ...input,
      timeInForce: input.timeInForce ?? 'ROD',
      session: input.session ?? 'regular',
    };
    if (user.tradeBanned) throw fail('cannotWithdrawOrTrade');
    if (!opts.leverages.includes(req.leverage)) throw fail('invalidLeverage');
    if (req.lots > rules.tradeMaxLots)
      throw refuse('exceedsOrderShares', { rule: 'maxLots', maxLots: rules.tradeMaxLots });
    if (!feed.isTradable(req.symbol)) throw fail('productNotFound');
    if (feed.quote(req.symbol)?.traded === false) throw fail('notTradedToday');
    if (rules.tradeClosed === 'all' || rules.tradeClosed.includes(req.symbol)) throw fail('tradeClosed');
    const v = view();
    if (entryClosed(v, req.session))
      throw refuse('nonTradingTime', {
        rule: 'outsideSession',
        phase: v.phase,
        market: req.session,
        opensAtMs: opensAt(v, isTradingDay, req.session),
      });
    const feeDiscountBps = (await opts.feeTerms?.levelBps(user.id)) ?? 0;
    try {
      return await (req.session === 'afterHours'
        ? placeAfterHours(user, req, v, { ...entry, feeDiscountBps })
        : placeRegular(user, req, v, { ...entry, feeDiscountBps }));
    } catch (err) {
      // Every order insert takes its symbol through fills.ts listedSymbol.
      throw isNotNullViolation(err, 'symbol') ? fail('productDelisted') : err;
    }
  }

  async function openAtMarket(
    tx: Tx,
    user: AuthUser,
    input: { symbol: string; side: 'long' | 'short'; lots: number; leverage: number; followId?: number },
  ): Promise<OrderRow> {
    const { followId = null, ...order } = input;
    const req: PlaceOrderReq = { ...order, orderType: 'market', timeInForce: 'ROD', session: 'regular' };
    if (user.tradeBanned) throw fail('cannotWithdrawOrTrade');
    if (!opts.leverages.includes(req.leverage)) throw fail('invalidLeverage');
    if (req.lots > rules.tradeMaxLots)
      throw refuse('exceedsOrderShares', { rule: 'maxLots', maxLots: rules.tradeMaxLots });
    if (!feed.isTradable(req.symbol)) throw fail('productNotFound');
    const q = feed.quote(req.symbol);
    if (q?.traded === false) throw fail('notTradedToday');
    if (rules.tradeClosed === 'all' || rules.tradeClosed.includes(req.symbol)) throw fail('tradeClosed');
    const v = view();
    if (v.phase !== 'continuous')
      throw refuse('nonTradingTime', {
        rule: 'outsideSession',
        phase: v.phase,
        market: 'regular',
        opensAtMs: entryClosed(v, 'regular') ? opensAt(v, isTradingDay, 'regular') : null,
      });
    if (!q || q.lastMinor <= 0) throw fail('priceUnavailable');
    const tradeDate = tradeDateFor(v, req.symbol);
    if (v.shaped) {
      const st = dayOf(req.symbol);
      if (!st || st.date !== tradeDate || q.ts >= st.closeMs) throw fail('priceUnavailable');
    }
    const best = req.side === 'long' ? q.askMinor : q.bidMinor;
    const limits = limitsFor(q, req.symbol, tradeDate);
    if (best <= 0) throw fail('priceUnavailable');
    if (limits && (best < q.limitDownMinor || best > q.limitUpMinor)) throw fail('exceedsPriceLimit');
    await checkDailyLimit(tx, user.id, tradeDate);
    const values = orderValues(user, req, {
      tradeDate,
      dayTrade: false,
      idempotencyKey: null,
      requestSha256: null,
      followId,
    });
    const floorMinor = await opening.check(tx, { userId: user.id, followId, values, priceMinor: best });
    try {
      return await openFromAvailable(tx, env, values, best, { floorMinor });
    } catch (err) {
      throw isNotNullViolation(err, 'symbol') ? fail('productDelisted') : err;
    }
  }

  async function placeRegular(
    user: AuthUser,
    req: PlaceOrderReq,
    v: SessionView,
    entry: EntryColumns,
  ): Promise<OrderRow> {
    const q = feed.quote(req.symbol);
    const isCall = v.phase === 'preOpen' || v.phase === 'closingCall';
    if (isCall && (req.orderType !== 'limit' || req.timeInForce !== 'ROD'))
      throw refuse('orderTypeNotInSession', continuousFix(v, q));
    if (!q || q.lastMinor <= 0) throw fail('priceUnavailable');
    const kind = kindOf(req.symbol);
    const tradeDate = tradeDateFor(v, req.symbol);
    if (v.phase !== 'preOpen' && v.shaped) {
      // The session's own prices must be in: not the previous session's close.
      const st = dayOf(req.symbol);
      if (!st || st.date !== tradeDate || q.ts >= st.closeMs) throw fail('priceUnavailable');
    }
    const limits = limitsFor(q, req.symbol, tradeDate);
    // Pre-open: today's reference is the last close the feed shows (the exchange clock shows the
    // finished previous day), or the new day's own reference price when the feed already shows it.
    const finished = q.ts >= dayTimes(marketDate(q.ts)).regularCloseMs;
    const reference = v.phase === 'preOpen' && finished ? q.lastMinor : q.prevCloseMinor;

    let fillPrice: number | null = null;
    let kill = false;
    if (req.orderType === 'market') {
      const best = req.side === 'long' ? q.askMinor : q.bidMinor;
      const inLimits = !limits || (best >= q.limitDownMinor && best <= q.limitUpMinor);
      if (best > 0 && inLimits) fillPrice = best;
      else if (req.timeInForce === 'ROD') throw fail(best > 0 ? 'exceedsPriceLimit' : 'priceUnavailable');
      else kill = true;
    } else {
      // The day's own band from the feed (its class's band: ±20 % on a domestic 2× ETF,
      // server/market/reference.ts) unless the reference is the finished previous day's close.
      const band =
        reference === q.prevCloseMinor && q.limitUpMinor > 0 && q.limitDownMinor > 0
          ? { upMinor: q.limitUpMinor, downMinor: q.limitDownMinor }
          : undefined;
      const bad = priceFix(req.priceMinor!, kind, reference, limits, band);
      if (bad) throw bad.fix ? refuse(bad.key, bad.fix) : fail(bad.key);
      const limit = req.priceMinor!;
      if (!isCall) {
        const crosses =
          req.side === 'long' ? q.askMinor > 0 && q.askMinor <= limit : q.bidMinor > 0 && q.bidMinor >= limit;
        if (crosses) fillPrice = req.side === 'long' ? q.askMinor : q.bidMinor;
        else if (req.timeInForce !== 'ROD') kill = true;
      }
    }

    // An order that fills on arrival with no daily count to check goes through its member's
    // lane (open-lanes.ts): one statement, shared with the orders that arrive meanwhile.
    // (An order with a coupon claims it in its own transaction.)
    if (fillPrice !== null && rules.tradeDailyOrderLimit <= 0 && req.couponId === undefined) {
      const values = orderValues(user, req, { tradeDate, ...entry });
      const price = fillPrice;
      return opening.serial(user.id, async () => {
        const floorMinor = await opening.check(db, {
          userId: user.id,
          followId: null,
          values,
          priceMinor: price,
        });
        return lanes.open(values, price, floorMinor);
      });
    }
    const entered = () =>
      db.transaction(async (tx) => {
        await checkDailyLimit(tx, user.id, tradeDate);
        if (kill) {
          // IOC / FOK that cannot fill at once: recorded as cancelled, nothing moves. The member must
          // still have been able to pay for it.
          const price = req.orderType === 'limit' ? req.priceMinor! : q.lastMinor;
          const need = costsAt(env, { ...req, feeDiscountBps: entry.feeDiscountBps }, price).requiredMinor;
          if ((await lockedAvailable(tx, user.id)) < need) throw fail('insufficientBalance');
          return insertOrder(tx, user, req, {
            tradeDate,
            ...entry,
            status: 'cancelled',
            closeReason: req.timeInForce === 'IOC' ? 'ioc' : 'fok',
            closedAt: env.now(),
          });
        }
        const coupon = await couponColumns(tx, user, req);
        if (fillPrice !== null) {
          const values = orderValues(user, req, { tradeDate, ...entry, ...coupon });
          const floorMinor = await opening.check(tx, {
            userId: user.id,
            followId: null,
            values,
            priceMinor: fillPrice,
          });
          return openFromAvailable(tx, env, values, fillPrice, { floorMinor });
        }
        const order = await insertOrder(tx, user, req, { tradeDate, ...entry, ...coupon });
        const floorMinor = await opening.check(tx, {
          userId: user.id,
          followId: null,
          values: order,
          priceMinor: req.priceMinor!,
        });
        return freezeFor(tx, env, order, req.priceMinor!, floorMinor);
      });
    const row = await opening.serial(user.id, entered);
    if (row.status === 'pending') {
      admit(row, v.shaped);
      // The quote may already have moved through the limit while we were writing. Not in a call
      // auction: the quote then is the last continuous print (before 13:25), which must not match.
      const now = feed.quote(row.symbol);
      if (now && index.has(row.id) && !isCall) onQuote(now);
    }
    return row;
  }

  async function placeAfterHours(
    user: AuthUser,
    req: PlaceOrderReq,
    v: SessionView,
    entry: EntryColumns,
  ): Promise<OrderRow> {
    const tradeDate = tradeDateFor(v, req.symbol);
    const q = feed.quote(req.symbol);
    const st = dayOf(req.symbol);
    // The fixed price is the day's close: the session must have ended with its closing print.
    if (!q || !st || st.date !== tradeDate || q.ts < st.closeMs || q.lastMinor <= 0)
      throw fail('priceUnavailable');
    const close = q.lastMinor;
    if (req.orderType !== 'limit' || req.timeInForce !== 'ROD' || req.priceMinor !== close)
      throw refuse('afterHoursFixedPrice', {
        rule: 'afterHoursPrice',
        priceMinor: close,
        orderType: 'limit',
        timeInForce: 'ROD',
      });
    const row = await opening.serial(user.id, () =>
      db.transaction(async (tx) => {
        await checkDailyLimit(tx, user.id, tradeDate);
        const coupon = await couponColumns(tx, user, req);
        const order = await insertOrder(tx, user, req, { tradeDate, ...entry, ...coupon });
        const floorMinor = await opening.check(tx, {
          userId: user.id,
          followId: null,
          values: order,
          priceMinor: close,
        });
        return freezeFor(tx, env, order, close, floorMinor);
      }),
    );
    afterHours.set(row.id, tradeDate);
    return row;
  }

  // ---------- member actions on existing orders ----------

  async function ownOrder(tx: Tx, user: AuthUser, orderId: number): Promise<OrderRow> {
    const row = (
      await tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)))
        .for('update')
    )[0];
    if (!row) throw fail('orderNotFound');
    return row;
  }

  function forget(row: OrderRow): void {
    index.remove(row.id);
    openingQueue.remove(row.id);
    restingDate.delete(row.id);
    afterHours.delete(row.id);
  }

  async function cancelOrder(user: AuthUser, orderId: number, within: Db = db): Promise<OrderRow> {
    const row = await within.transaction(async (tx) => {
      const order = await ownOrder(tx, user, orderId);
      if (order.status !== 'pending') throw fail('orderNotPending');
      return releaseOrder(tx, env, order, 'user');
    });
    forget(row);
    return row;
  }

  /** The trading date a close of `symbol` happens on now. */
  function closeDateFor(symbol: string): string {
    return tradeDateFor(view(), symbol);
  }

  /** `tradeDate`: the date of the match closing it (a call auction's), default the symbol's date now. */
  async function dayTradeOn(tx: Tx, order: OrderRow, tradeDate?: string): Promise<string | undefined> {
    if (!opts.settleDayTrade) return undefined;
    return opts.settleDayTrade(tx, {
      order,
      tradeDate: tradeDate ?? closeDateFor(order.symbol),
      kind: kindOf(order.symbol),
      fees,
    });
  }

  async function engineCloseAt(
    tx: Tx,
    order: OrderRow,
    priceMinor: number,
    reason: CloseReason,
    tradeDate?: string,
  ) {
    const closed = await closeAtLedger(tx, env, order, priceMinor, reason, {
      dayTradeOn: await dayTradeOn(tx, order, tradeDate),
    });
    if (opts.onClose) await opts.onClose(tx, closed);
    return closed;
  }

  /** The member's own rules on closing (T+1, lock-up); throws the refusal with its fix. */
  function checkCloseRules(order: OrderRow, v: SessionView): void {
    if (rules.tradeLockupMinutes > 0 && order.openedAt) {
      const closableAtMs = order.openedAt.getTime() + rules.tradeLockupMinutes * 60_000;
      if (wallNow() < closableAtMs) throw refuse('lockUpPeriod', { rule: 'lockUp', closableAtMs });
    }
    // A day trade (entered as one by an eligible member) is meant to be sold the same day.
    if (rules.tradeT1Sell && order.side === 'long' && order.tradeDate && !order.dayTrade) {
      const today = tradeDateFor(v, order.symbol);
      if (order.tradeDate >= today)
        throw refuse('tPlusOneCannotSell', {
          rule: 'tPlusOne',
          tradeDate: order.tradeDate,
          sellableFrom: v.fullDay ? nextTradingDay(order.tradeDate) : null,
        });
    }
  }

  async function closePosition(user: AuthUser, orderId: number, within: Db = db): Promise<OrderRow> {
    if (user.tradeBanned) throw fail('cannotWithdrawOrTrade');
    const v = view();
    let queuedOn: string | null = null;
    const row = await within.transaction(async (tx) => {
      const order = await ownOrder(tx, user, orderId);
      if (order.status !== 'holding') throw fail('orderNotHolding');
      if (opts.closeGuard) await opts.closeGuard(tx, order);
      if (entryClosed(v, 'regular'))
        throw refuse('nonTradingTime', {
          rule: 'outsideSession',
          phase: v.phase,
          market: 'regular',
          opensAtMs: opensAt(v, isTradingDay, 'regular'),
        });
      checkCloseRules(order, v);
      if (v.phase === 'preOpen' || v.phase === 'closingCall') {
        queuedOn = tradeDateFor(v, order.symbol);
        const [updated] = await tx
          .update(orders)
          .set({ status: 'closing' })
          .where(and(eq(orders.id, order.id), eq(orders.status, 'holding')))
          .returning();
        return updated!;
      }
      return engineCloseAt(tx, order, marketClosePrice(order, v), 'user');
    });
    if (queuedOn !== null) admitClosing(row, queuedOn, v.shaped);
    return row;
  }

  /**
   * The price a position closes at market now: the best bid for a long, the best ask for a short,
   * from the current session's quotes. @throws priceUnavailable / productNotFound.
   */
  function marketClosePrice(order: OrderRow, v: SessionView): number {
    if (!feed.isTradable(order.symbol)) throw fail('productNotFound');
    const q = feed.quote(order.symbol);
    if (!q) throw fail('priceUnavailable');
    if (!q.traded) throw fail('notTradedToday');
    if (v.shaped) {
      const st = dayOf(order.symbol);
      if (!st || st.date !== tradeDateFor(v, order.symbol) || q.ts >= st.closeMs)
        throw fail('priceUnavailable');
    }
    const price = order.side === 'long' ? q.bidMinor : q.askMinor;
    if (price <= 0) throw fail('priceUnavailable');
    return price;
  }

  async function forceClose(
    orderId: number,
    reason: CloseReason,
    onClosed?: (tx: Tx, closed: OrderRow) => Promise<void>,
    at?: { priceMinor: number; tradeDate?: string },
    within: Db = db,
  ): Promise<OrderRow | null> {
    const v = view();
    if (!at && v.phase !== 'continuous')
      throw refuse('nonTradingTime', {
        rule: 'outsideSession',
        phase: v.phase,
        market: 'regular',
        opensAtMs:
          v.phase === 'preOpen' || v.phase === 'closingCall' ? null : opensAt(v, isTradingDay, 'regular'),
      });
    const row = await within.transaction(async (tx) => {
      const order = await lockOrder(tx, orderId);
      if (!order || (order.status !== 'holding' && order.status !== 'closing')) return null;
      const price = at ? at.priceMinor : marketClosePrice(order, v);
      const closed = await engineCloseAt(tx, order, price, reason, at?.tradeDate);
      if (onClosed) await onClosed(tx, closed);
      return closed;
    });
    if (row) closing.get(row.symbol)?.delete(row.id);
    return row;
  }

  // ---------- clock-driven work ----------

  async function sweep(): Promise<void> {
    if (afterHours.size > 0) {
      const v = view();
      const due: Array<[number, string]> = [];
      for (const [id, date] of afterHours)
        if (v.nowMs >= dayTimes(date).afterHoursMatchMs) due.push([id, date]);
      if (due.length) {
        for (const [id] of due) afterHours.delete(id);
        enqueue('after-hours match', async () => {
          const announced = new Map<string, MatchEvent>();
          for (const [id, date] of due) {
            const row = (await db.select().from(orders).where(eq(orders.id, id)))[0];
            if (!row || row.status !== 'pending') continue;
            if (await fillResting(id, row.limitPriceMinor!))
              announced.set(`${row.symbol}|${date}`, {
                kind: 'afterHours',
                symbol: row.symbol,
                tradeDate: date,
                priceMinor: row.limitPriceMinor!,
              });
          }
          for (const e of announced.values()) await announce(e);
        });
      }
    }
    await queue;
  }

  return {
    laneStats: lanes.stats,
    async start() {
      for (const r of await db
        .select({ symbol: instruments.symbol, listingDate: instruments.listingDate })
        .from(instruments))
        if (r.listingDate) listingDates.set(r.symbol, r.listingDate);
      const v = view();
      shapedSource = v.shaped;
      const live = await db
        .select()
        .from(orders)
        .where(inArray(orders.status, ['pending', 'closing']));
      for (const found of live) {
        let row = found;
        if (row.status === 'closing') {
          // When the close was asked for is not stored: it waits for the symbol's next match.
          admitClosing(row, tradeDateFor(v, row.symbol), v.shaped);
        } else if (row.entrySession === 'afterHours') {
          afterHours.set(row.id, row.tradeDate ?? marketDate(v.nowMs));
        } else {
          if (!row.tradeDate) {
            // Orders from before trading dates were recorded live until today's close.
            const [dated] = await db
              .update(orders)
              .set({ tradeDate: tradeDateFor(v, row.symbol) })
              .where(eq(orders.id, row.id))
              .returning();
            row = dated!;
          }
          admit(row, v.shaped);
        }
      }
      // Catch up on a closing print already shown (the server started after a close).
      if (v.shaped)
        for (const symbol of new Set(live.map((r) => r.symbol))) {
          const q = feed.quote(symbol);
          const st = dayOf(symbol);
          if (q && st && !st.closeDone && q.ts >= st.closeMs) closeDay(q, st);
        }
      unsubscribe = feed.onQuote(onQuote);
      if (opts.timer !== false) {
        timer = setInterval(() => {
          sweep().catch((err) => log('sweep failed', err));
        }, SWEEP_INTERVAL_MS);
        timer.unref?.();
      }
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
      if (timer) clearInterval(timer);
      timer = null;
    },
    placeOrder,
    openAtMarket,
    cancelOrder,
    closePosition,
    closeAt: engineCloseAt,
    forceClose,
    tradeDate: closeDateFor,
    sweep,
    onMatch(fn) {
      matchFns.add(fn);
      return () => matchFns.delete(fn);
    },
    idle: () => queue,
    restingCount: () => index.size,
    readmit(row) {
      forget(row);
      if (row.status === 'pending') {
        if (row.entrySession === 'afterHours')
          afterHours.set(row.id, row.tradeDate ?? marketDate(view().nowMs));
        else admit(row, view().shaped);
      }
    },
  };
}

/** Instrument names per database, read once per symbol: the import never renames a row. */
const namesByDb = new WeakMap<Db, Map<string, string>>();

/** Order rows joined with instrument names, as the API returns them. */
export async function orderWithName(db: Db, row: OrderRow) {
  let names = namesByDb.get(db);
  if (!names) namesByDb.set(db, (names = new Map()));
  let name = names.get(row.symbol);
  if (name === undefined) {
    const found = (
      await db.select({ name: instruments.name }).from(instruments).where(eq(instruments.symbol, row.symbol))
    )[0]?.name;
    if (found === undefined) return toOrderDto(row, row.symbol);
    names.set(row.symbol, (name = found));
  }
  return toOrderDto(row, name);
}

const ms = (d: Date | null) => (d ? d.getTime() : null);

/** An orders row as the API returns it (contract orderSchema): times in epoch ms, money in minor units. */
export function toOrderDto(row: OrderRow, name: string) {
  return {
    id: row.id,
    orderNo: row.orderNo,
    symbol: row.symbol,
    name,
    side: row.side as 'long' | 'short',
    orderType: row.orderType as 'limit' | 'market',
    limitPriceMinor: row.limitPriceMinor,
    lots: row.lots,
    shares: row.shares,
    leverage: row.leverage,
    status: row.status as 'pending' | 'holding' | 'closing' | 'closed' | 'cancelled' | 'sold',
    timeInForce: row.timeInForce as 'ROD' | 'IOC' | 'FOK',
    entrySession: row.entrySession as 'regular' | 'afterHours',
    tradeDate: row.tradeDate,
    dayTrade: row.dayTrade,
    closeReason: row.closeReason,
    frozenMinor: row.frozenMinor,
    openPriceMinor: row.openPriceMinor,
    openValueMinor: row.openValueMinor,
    openedAt: ms(row.openedAt),
    marginMinor: row.marginMinor,
    openFeeMinor: row.openFeeMinor,
    openTaxMinor: row.openTaxMinor,
    closePriceMinor: row.closePriceMinor,
    closedAt: ms(row.closedAt),
    closeFeeMinor: row.closeFeeMinor,
    closeTaxMinor: row.closeTaxMinor,
    pnlMinor: row.pnlMinor,
    createdAt: row.createdAt.getTime(),
  };
}
