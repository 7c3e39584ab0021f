/**
 * Order entry (createOrderEntry): placeOrder in the regular session and the after-hours fixed-price
 * session, with its idempotency key, and openAtMarket inside a caller's transaction (copy
 * trading). The rules are entry-rules.ts's; this file writes the order and its ledger (fills.ts)
 * and admits a resting order into the book (matching.ts). engine.ts module docstring has the rules.
 */
import { randomBytes } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { SHARES_PER_LOT } from '../../../contract/market-rules';
import type { PlaceOrderInput, PlaceOrderReq } from '../../../contract/trading';
import type { Tx } from '../../db/client';
import { orders } from '../../db/schema';
import { isNotNullViolation } from '../common/db-errors';
import type { AuthUser } from '../common/context';
import { fail } from '../common/errors';
import type { EngineContext } from './engine-context';
import type { EntryColumns, OrderKey, TradingEngine } from './engine-types';
import { checkEntry, continuousFix, refuse, regularExecution } from './entry-rules';
import { costsAt, freezeFor, listedSymbol, lockedAvailable, openFromAvailable, type OrderRow } from './fills';
import { entryClosed, opensAt, type SessionView } from './market-session';
import type { Matcher } from './matching';

/** Random bytes for order numbers, drawn 3 at a time from a pool refilled 3 KiB at once. */
let orderNoPool = Buffer.alloc(0);
let orderNoAt = 0;
/** A new order number: "T", the epoch ms in base 36, then 6 random hex digits (upper case). */
const newOrderNo = () => {
  if (orderNoAt + 3 > orderNoPool.length) [orderNoPool, orderNoAt] = [randomBytes(3072), 0];
  const rnd = orderNoPool.toString('hex', orderNoAt, (orderNoAt += 3)).toUpperCase();
  return `T${Date.now().toString(36).toUpperCase()}${rnd}`;
};

type OrderInsert = typeof orders.$inferInsert;

/** The insert of `req` by `user` (a new order number, status pending), with `extra` columns. */
function orderValues(user: AuthUser, req: PlaceOrderReq, extra: Partial<OrderInsert>): OrderInsert {
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

/** Inserts the order (its symbol through fills.ts listedSymbol) and returns the row. */
async function insertOrder(
  tx: Tx,
  user: AuthUser,
  req: PlaceOrderReq,
  extra: Partial<OrderInsert>,
): Promise<OrderRow> {
  const values = orderValues(user, req, extra);
  const [row] = await tx
    .insert(orders)
    .values({ ...values, symbol: listedSymbol(values.symbol) })
    .returning();
  return row!;
}

/** Refuses a member's order past the orders-per-trading-day limit (config), if one is set. */
async function checkDailyLimit(ctx: EngineContext, tx: Tx, userId: number, tradeDate: string): Promise<void> {
  if (ctx.rules.tradeDailyOrderLimit <= 0) return;
  await lockedAvailable(tx, userId); // serialises one member's orders for the count
  const [n] = await tx
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.tradeDate, tradeDate)));
  if (n!.n >= ctx.rules.tradeDailyOrderLimit)
    throw refuse('dailyPurchaseLimit', {
      rule: 'dailyLimit',
      limit: ctx.rules.tradeDailyOrderLimit,
      tradeDate,
    });
}

/**
 * The order number and coupon columns of an order entered with `req.couponId`, the coupon
 * claimed in `tx` (FeeTerms.claimCoupon); none without one.
 */
async function couponColumns(
  ctx: EngineContext,
  tx: Tx,
  user: AuthUser,
  req: PlaceOrderReq,
): Promise<Partial<OrderInsert>> {
  if (req.couponId === undefined) return {};
  if (!ctx.opts.feeTerms) throw fail('couponUnavailable');
  const orderNo = newOrderNo();
  const c = await ctx.opts.feeTerms.claimCoupon(tx, user.id, req.couponId, orderNo);
  return { orderNo, couponId: req.couponId, ...c };
}

/** The member's order placed with idempotency key `key`, if any. */
async function orderByKey(ctx: EngineContext, userId: number, key: string): Promise<OrderRow | undefined> {
  return (
    await ctx.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)))
  )[0];
}

/** The session's own prices must be in (not the previous session's close). @throws priceUnavailable */
function checkSessionPrices(
  ctx: EngineContext,
  v: SessionView,
  symbol: string,
  tradeDate: string,
  ts: number,
): void {
  if (!v.shaped) return;
  const st = ctx.days.dayOf(symbol);
  if (!st || st.date !== tradeDate || ts >= st.closeMs) throw fail('priceUnavailable');
}

/** TradingEngine.placeOrder: enters the order; a refused retry of a keyed order answers with it. */
async function placeOrder(
  ctx: EngineContext,
  matcher: Matcher,
  user: AuthUser,
  input: PlaceOrderInput | PlaceOrderReq,
  entry: { dayTrade?: boolean; idempotency?: OrderKey } = {},
): Promise<OrderRow> {
  const idem = entry.idempotency;
  try {
    return await enterOrder(ctx, matcher, user, input, {
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
    const prior = await orderByKey(ctx, user.id, idem.key);
    if (!prior) throw err;
    if (prior.requestSha256 !== idem.requestSha256) throw fail('keyMismatch');
    return prior;
  }
}

/** Checks the entry and the session, then places in the regular or the after-hours session. */
async function enterOrder(
  ctx: EngineContext,
  matcher: Matcher,
  user: AuthUser,
  input: PlaceOrderInput | PlaceOrderReq,
  entry: EntryColumns,
): Promise<OrderRow> {
  const req: PlaceOrderReq = {
    ...input,
    timeInForce: input.timeInForce ?? 'ROD',
    session: input.session ?? 'regular',
  };
  checkEntry(user, req, { leverages: ctx.opts.leverages, rules: ctx.rules, feed: ctx.feed });
  const v = ctx.view();
  if (entryClosed(v, req.session))
    throw refuse('nonTradingTime', {
      rule: 'outsideSession',
      phase: v.phase,
      market: req.session,
      opensAtMs: opensAt(v, ctx.isTradingDay, req.session),
    });
  const feeDiscountBps = (await ctx.opts.feeTerms?.levelBps(user.id)) ?? 0;
  try {
    return await (req.session === 'afterHours'
      ? placeAfterHours(ctx, user, req, v, { ...entry, feeDiscountBps })
      : placeRegular(ctx, matcher, user, req, v, { ...entry, feeDiscountBps }));
  } catch (err) {
    // Every order insert takes its symbol through fills.ts listedSymbol.
    throw isNotNullViolation(err, 'symbol') ? fail('productDelisted') : err;
  }
}

/** TradingEngine.openAtMarket: a market ROD order opened now inside the caller's `tx`. */
async function openAtMarket(
  ctx: EngineContext,
  tx: Tx,
  user: AuthUser,
  input: { symbol: string; side: 'long' | 'short'; lots: number; leverage: number; followId?: number },
): Promise<OrderRow> {
  const { followId = null, ...order } = input;
  const req: PlaceOrderReq = { ...order, orderType: 'market', timeInForce: 'ROD', session: 'regular' };
  checkEntry(user, req, { leverages: ctx.opts.leverages, rules: ctx.rules, feed: ctx.feed });
  const q = ctx.feed.quote(req.symbol);
  const v = ctx.view();
  if (v.phase !== 'continuous')
    throw refuse('nonTradingTime', {
      rule: 'outsideSession',
      phase: v.phase,
      market: 'regular',
      opensAtMs: entryClosed(v, 'regular') ? opensAt(v, ctx.isTradingDay, 'regular') : null,
    });
  if (!q || q.lastMinor <= 0) throw fail('priceUnavailable');
  const tradeDate = ctx.days.tradeDateFor(v, req.symbol);
  checkSessionPrices(ctx, v, req.symbol, tradeDate, q.ts);
  const best = req.side === 'long' ? q.askMinor : q.bidMinor;
  const limits = ctx.days.limitsFor(q, req.symbol, tradeDate);
  if (best <= 0) throw fail('priceUnavailable');
  if (limits && (best < q.limitDownMinor || best > q.limitUpMinor)) throw fail('exceedsPriceLimit');
  await checkDailyLimit(ctx, tx, user.id, tradeDate);
  const values = orderValues(user, req, {
    tradeDate,
    dayTrade: false,
    idempotencyKey: null,
    requestSha256: null,
    followId,
  });
  const floorMinor = await ctx.opening.check(tx, { userId: user.id, followId, values, priceMinor: best });
  try {
    return await openFromAvailable(tx, ctx.env, values, best, { floorMinor });
  } catch (err) {
    throw isNotNullViolation(err, 'symbol') ? fail('productDelisted') : err;
  }
}

/**
 * A regular-session order: filled now (through the member's lane when nothing else is to be
 * checked), killed (IOC / FOK), or resting and admitted into the book.
 */
async function placeRegular(
  ctx: EngineContext,
  matcher: Matcher,
  user: AuthUser,
  req: PlaceOrderReq,
  v: SessionView,
  entry: EntryColumns,
): Promise<OrderRow> {
  const q = ctx.feed.quote(req.symbol);
  const isCall = v.phase === 'preOpen' || v.phase === 'closingCall';
  if (isCall && (req.orderType !== 'limit' || req.timeInForce !== 'ROD'))
    throw refuse('orderTypeNotInSession', continuousFix(v, q, ctx.isTradingDay));
  if (!q || q.lastMinor <= 0) throw fail('priceUnavailable');
  const tradeDate = ctx.days.tradeDateFor(v, req.symbol);
  if (v.phase !== 'preOpen') checkSessionPrices(ctx, v, req.symbol, tradeDate, q.ts);
  const limits = ctx.days.limitsFor(q, req.symbol, tradeDate);
  const { fillPrice, kill } = regularExecution(req, q, v, { kind: ctx.kindOf(req.symbol), limits });

  // An order that fills on arrival with no daily count to check goes through its member's
  // lane (open-lanes.ts): one statement, shared with the orders that arrive meanwhile.
  // (An order with a coupon claims it in its own transaction.)
  if (fillPrice !== null && ctx.rules.tradeDailyOrderLimit <= 0 && req.couponId === undefined) {
    const values = orderValues(user, req, { tradeDate, ...entry });
    return ctx.opening.serial(user.id, async () => {
      const floorMinor = await ctx.opening.check(ctx.db, {
        userId: user.id,
        followId: null,
        values,
        priceMinor: fillPrice,
      });
      return ctx.lanes.open(values, fillPrice, floorMinor);
    });
  }
  const row = await ctx.opening.serial(user.id, () =>
    ctx.db.transaction((tx) =>
      writeRegular(ctx, tx, user, req, { tradeDate, entry, fillPrice, kill, lastMinor: q.lastMinor }),
    ),
  );
  if (row.status === 'pending') {
    matcher.admit(row, v.shaped);
    // The quote may already have moved through the limit while we were writing. Not in a call
    // auction: the quote then is the last continuous print (before 13:25), which must not match.
    const now = ctx.feed.quote(row.symbol);
    if (now && ctx.book.index.has(row.id) && !isCall) matcher.onQuote(now);
  }
  return row;
}

/**
 * Writes a regular order in `tx`: killed (IOC / FOK, recorded as cancelled once the member is
 * shown able to pay for it), filled now at `fillPrice` from `available`, or resting with its
 * funds frozen. @throws AppError insufficientBalance, belowOpeningLine, dailyPurchaseLimit.
 */
async function writeRegular(
  ctx: EngineContext,
  tx: Tx,
  user: AuthUser,
  req: PlaceOrderReq,
  w: { tradeDate: string; entry: EntryColumns; fillPrice: number | null; kill: boolean; lastMinor: number },
): Promise<OrderRow> {
  const { tradeDate, entry } = w;
  await checkDailyLimit(ctx, tx, user.id, tradeDate);
  if (w.kill) {
    const price = req.orderType === 'limit' ? req.priceMinor! : w.lastMinor;
    const need = costsAt(ctx.env, { ...req, feeDiscountBps: entry.feeDiscountBps }, price).requiredMinor;
    if ((await lockedAvailable(tx, user.id)) < need) throw fail('insufficientBalance');
    return insertOrder(tx, user, req, {
      tradeDate,
      ...entry,
      status: 'cancelled',
      closeReason: req.timeInForce === 'IOC' ? 'ioc' : 'fok',
      closedAt: ctx.env.now(),
    });
  }
  const coupon = await couponColumns(ctx, tx, user, req);
  if (w.fillPrice !== null) {
    const values = orderValues(user, req, { tradeDate, ...entry, ...coupon });
    const floorMinor = await ctx.opening.check(tx, {
      userId: user.id,
      followId: null,
      values,
      priceMinor: w.fillPrice,
    });
    return openFromAvailable(tx, ctx.env, values, w.fillPrice, { floorMinor });
  }
  const order = await insertOrder(tx, user, req, { tradeDate, ...entry, ...coupon });
  const floorMinor = await ctx.opening.check(tx, {
    userId: user.id,
    followId: null,
    values: order,
    priceMinor: req.priceMinor!,
  });
  return freezeFor(tx, ctx.env, order, req.priceMinor!, floorMinor);
}

/** An after-hours fixed-price order: a limit ROD at the day's close, frozen until the 14:30 match. */
async function placeAfterHours(
  ctx: EngineContext,
  user: AuthUser,
  req: PlaceOrderReq,
  v: SessionView,
  entry: EntryColumns,
): Promise<OrderRow> {
  const tradeDate = ctx.days.tradeDateFor(v, req.symbol);
  const q = ctx.feed.quote(req.symbol);
  const st = ctx.days.dayOf(req.symbol);
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
  const row = await ctx.opening.serial(user.id, () =>
    ctx.db.transaction(async (tx) => {
      await checkDailyLimit(ctx, tx, user.id, tradeDate);
      const coupon = await couponColumns(ctx, tx, user, req);
      const order = await insertOrder(tx, user, req, { tradeDate, ...entry, ...coupon });
      const floorMinor = await ctx.opening.check(tx, {
        userId: user.id,
        followId: null,
        values: order,
        priceMinor: close,
      });
      return freezeFor(tx, ctx.env, order, close, floorMinor);
    }),
  );
  ctx.book.afterHours.set(row.id, tradeDate);
  return row;
}

/** The order entry of an engine (createOrderEntry). */
export type OrderEntry = Pick<TradingEngine, 'placeOrder' | 'openAtMarket'>;

/** The order entry of the engine sharing `ctx`, admitting resting orders through `matcher`. */
export function createOrderEntry(ctx: EngineContext, matcher: Matcher): OrderEntry {
  return {
    placeOrder: (user, input, entry) => placeOrder(ctx, matcher, user, input, entry),
    openAtMarket: (tx, user, input) => openAtMarket(ctx, tx, user, input),
  };
}
