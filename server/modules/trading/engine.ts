/**
 * The trading core: a simulated venue that executes members' orders against the live quote.
 *
 * - Market orders fill at once at the best ask (long) or best bid (short).
 * - Limit orders that cross on arrival fill at once at the best opposite price; the others rest
 *   as `pending` with margin + fee (+ tax) frozen, in the TriggerIndex, and fill at their limit
 *   price when a quote crosses (the resting order's price, as on the exchange).
 * - A pending order can be cancelled (funds unfrozen); a holding can be closed at market.
 *
 * Every state change and its ledger transactions happen in one DB transaction; status changes are
 * conditional (`where status = …`) so a race between a trigger, a cancel and a close has exactly
 * one winner. Costs come from contract/market-rules.ts, the same code as the client's preview.
 * Units: minor units (TWD), shares, lots.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { PlaceOrderReq } from '../../../contract/trading';
import {
  SHARES_PER_LOT,
  closeResult,
  isOnTick,
  openCosts,
  type FeeSchedule,
  DEFAULT_FEES,
} from '../../../contract/market-rules';
import type { Db, Tx } from '../../db/client';
import { instruments, ledgerAccounts, orders } from '../../db/schema';
import { fail } from '../../http/errors';
import type { AuthUser } from '../../http/context';
import type { MarketFeed } from '../../market/feed';
import type { Quote } from '../../../contract/market';
import { move, post } from '../ledger/ledger';
import { TriggerIndex } from './trigger-index';

export type OrderRow = typeof orders.$inferSelect;

/** The trading core's interface; every method throws AppError for a refused request. */
export interface TradingEngine {
  /** Loads resting orders into the trigger index and starts listening to quotes. */
  start(): Promise<void>;
  stop(): void;
  placeOrder(user: AuthUser, req: PlaceOrderReq): Promise<OrderRow>;
  cancelOrder(user: AuthUser, orderId: number): Promise<OrderRow>;
  closePosition(user: AuthUser, orderId: number): Promise<OrderRow>;
  /** Resolves when every trigger fill queued so far has been written (tests). */
  idle(): Promise<void>;
  /** Number of resting orders in the trigger index. */
  restingCount(): number;
}

const newOrderNo = () =>
  `T${Date.now().toString(36).toUpperCase()}${randomBytes(3).toString('hex').toUpperCase()}`;

/** Creates the engine over the database and the live feed; call start() before use. */
export function createTradingEngine(opts: {
  db: Db;
  feed: MarketFeed;
  leverages: number[];
  fees?: FeeSchedule;
  log?: (msg: string, err?: unknown) => void;
}): TradingEngine {
  const { db, feed } = opts;
  const fees = opts.fees ?? DEFAULT_FEES;
  const index = new TriggerIndex();
  let queue: Promise<void> = Promise.resolve();
  let unsubscribe: (() => void) | null = null;

  function tradableQuote(symbol: string): Quote {
    if (!feed.isTradable(symbol)) throw fail('productNotFound', 404);
    const q = feed.quote(symbol);
    if (!q || q.bidMinor <= 0 || q.askMinor <= 0) throw fail('priceUnavailable');
    if (q.phase !== 'open') throw fail('nonTradingTime');
    return q;
  }

  async function ownOrder(tx: Tx, user: AuthUser, orderId: number): Promise<OrderRow> {
    const row = (
      await tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)))
        .for('update')
    )[0];
    if (!row) throw fail('orderNotFound', 404);
    return row;
  }

  /** Fills an order now at `price`, taking costs from `fundsFrom` (available or frozen). */
  async function openPosition(
    tx: Tx,
    order: OrderRow,
    priceMinor: number,
    fundsFrom: 'available' | 'frozen',
  ) {
    const kind = feed.kind(order.symbol) ?? 'stock';
    const c = openCosts({
      priceMinor,
      lots: order.lots,
      leverage: order.leverage,
      side: order.side as 'long' | 'short',
      kind,
      fees,
    });
    const from = { userId: order.userId, purpose: fundsFrom } as const;
    const ref = { refType: 'order', refId: order.id, actorUserId: order.userId };
    if (fundsFrom === 'frozen' && c.requiredMinor !== order.frozenMinor) {
      throw new Error(
        `frozen ${order.frozenMinor} differs from cost ${c.requiredMinor} for order ${order.id}`,
      );
    }
    await post(tx, {
      type: 'stockPurchase',
      ...ref,
      postings: move(from, { userId: order.userId, purpose: 'margin' }, c.marginMinor),
    });
    await post(tx, {
      type: 'tradeFee',
      ...ref,
      postings: move(from, { platform: 'fee_revenue' }, c.feeMinor),
    });
    if (c.taxMinor > 0)
      await post(tx, {
        type: 'transactionTax',
        ...ref,
        postings: move(from, { platform: 'tax_payable' }, c.taxMinor),
      });
    const [updated] = await tx
      .update(orders)
      .set({
        status: 'holding',
        openPriceMinor: priceMinor,
        openedAt: new Date(),
        marginMinor: c.marginMinor,
        openFeeMinor: c.feeMinor,
        openTaxMinor: c.taxMinor,
        frozenMinor: 0,
      })
      .where(eq(orders.id, order.id))
      .returning();
    return updated!;
  }

  async function placeOrder(user: AuthUser, req: PlaceOrderReq): Promise<OrderRow> {
    if (user.tradeBanned) throw fail('cannotWithdrawOrTrade', 403);
    if (!opts.leverages.includes(req.leverage)) throw fail('invalidLeverage', 400);
    const q = tradableQuote(req.symbol);
    const kind = feed.kind(req.symbol) ?? 'stock';
    let fillPrice: number | null = null;
    let limit: number | null = null;
    if (req.orderType === 'market') {
      fillPrice = req.side === 'long' ? q.askMinor : q.bidMinor;
    } else {
      limit = req.priceMinor!;
      if (!isOnTick(limit, kind)) throw fail('priceOffTick', 400);
      if (limit > q.limitUpMinor || limit < q.limitDownMinor) throw fail('exceedsPriceLimit', 400);
      const crosses = req.side === 'long' ? q.askMinor <= limit : q.bidMinor >= limit;
      if (crosses) fillPrice = req.side === 'long' ? q.askMinor : q.bidMinor;
    }
    const shares = req.lots * SHARES_PER_LOT;
    const row = await db.transaction(async (tx) => {
      const [order] = await tx
        .insert(orders)
        .values({
          orderNo: newOrderNo(),
          userId: user.id,
          symbol: req.symbol,
          side: req.side,
          orderType: req.orderType,
          limitPriceMinor: limit,
          lots: req.lots,
          shares,
          leverage: req.leverage,
          status: 'pending',
        })
        .returning();
      if (fillPrice !== null) return openPosition(tx, order!, fillPrice, 'available');
      const c = openCosts({
        priceMinor: limit!,
        lots: req.lots,
        leverage: req.leverage,
        side: req.side,
        kind,
        fees,
      });
      await post(tx, {
        type: 'orderFreeze',
        refType: 'order',
        refId: order!.id,
        actorUserId: user.id,
        postings: move(
          { userId: user.id, purpose: 'available' },
          { userId: user.id, purpose: 'frozen' },
          c.requiredMinor,
        ),
      });
      const [frozen] = await tx
        .update(orders)
        .set({ frozenMinor: c.requiredMinor })
        .where(eq(orders.id, order!.id))
        .returning();
      return frozen!;
    });
    if (row.status === 'pending') {
      index.add({
        id: row.id,
        symbol: row.symbol,
        side: row.side as 'long' | 'short',
        limitPriceMinor: row.limitPriceMinor!,
      });
      // The quote may already have moved through the limit while we were writing.
      const now = feed.quote(row.symbol);
      if (now) onQuote(now);
    }
    return row;
  }

  async function cancelOrder(user: AuthUser, orderId: number): Promise<OrderRow> {
    const row = await db.transaction(async (tx) => {
      const order = await ownOrder(tx, user, orderId);
      if (order.status !== 'pending') throw fail('orderNotPending', 409);
      await post(tx, {
        type: 'orderUnfreeze',
        refType: 'order',
        refId: order.id,
        actorUserId: user.id,
        postings: move(
          { userId: user.id, purpose: 'frozen' },
          { userId: user.id, purpose: 'available' },
          order.frozenMinor,
        ),
      });
      const [updated] = await tx
        .update(orders)
        .set({ status: 'cancelled', frozenMinor: 0, closedAt: new Date() })
        .where(eq(orders.id, order.id))
        .returning();
      return updated!;
    });
    index.remove(orderId);
    return row;
  }

  async function closePosition(user: AuthUser, orderId: number): Promise<OrderRow> {
    if (user.tradeBanned) throw fail('cannotWithdrawOrTrade', 403);
    return db.transaction(async (tx) => {
      const order = await ownOrder(tx, user, orderId);
      if (order.status !== 'holding') throw fail('orderNotHolding', 409);
      const q = tradableQuote(order.symbol);
      const side = order.side as 'long' | 'short';
      const closePrice = side === 'long' ? q.bidMinor : q.askMinor;
      const r = closeResult({
        openPriceMinor: order.openPriceMinor!,
        closePriceMinor: closePrice,
        shares: order.shares,
        side,
        kind: feed.kind(order.symbol) ?? 'stock',
        fees,
      });
      const me = (purpose: 'available' | 'margin' | 'debt') => ({ userId: user.id, purpose }) as const;
      const ref = { refType: 'order', refId: order.id, actorUserId: user.id };
      const avail = (
        await tx
          .select({ balance: ledgerAccounts.balanceMinor })
          .from(ledgerAccounts)
          .where(
            and(
              eq(ledgerAccounts.userId, user.id),
              eq(ledgerAccounts.purpose, 'available'),
              eq(ledgerAccounts.currency, 'TWD'),
            ),
          )
          .for('update')
      )[0]!.balance;
      const after = avail + order.marginMinor + r.pnlMinor - r.feeMinor - r.taxMinor;
      await post(tx, {
        type: 'stockSale',
        ...ref,
        postings: move(me('margin'), me('available'), order.marginMinor),
      });
      if (after < 0) {
        // A loss beyond the member's funds becomes debt, never a negative available balance.
        await post(tx, {
          type: 'lossShortfall',
          ...ref,
          postings: move(me('debt'), me('available'), -after),
        });
      }
      await post(tx, {
        type: 'realisedPnl',
        ...ref,
        postings: move({ platform: 'trading_pnl' }, me('available'), r.pnlMinor),
      });
      await post(tx, {
        type: 'tradeFee',
        ...ref,
        postings: move(me('available'), { platform: 'fee_revenue' }, r.feeMinor),
      });
      if (r.taxMinor > 0)
        await post(tx, {
          type: 'transactionTax',
          ...ref,
          postings: move(me('available'), { platform: 'tax_payable' }, r.taxMinor),
        });
      const [updated] = await tx
        .update(orders)
        .set({
          status: 'closed',
          closePriceMinor: closePrice,
          closedAt: new Date(),
          closeFeeMinor: r.feeMinor,
          closeTaxMinor: r.taxMinor,
          pnlMinor: r.pnlMinor,
        })
        .where(and(eq(orders.id, order.id), eq(orders.status, 'holding')))
        .returning();
      return updated!;
    });
  }

  async function fillResting(orderId: number): Promise<void> {
    await db.transaction(async (tx) => {
      const order = (await tx.select().from(orders).where(eq(orders.id, orderId)).for('update'))[0];
      if (!order || order.status !== 'pending') return; // cancelled meanwhile
      await openPosition(tx, order, order.limitPriceMinor!, 'frozen');
    });
  }

  function onQuote(q: Quote): void {
    if (q.phase !== 'open' || index.size === 0) return;
    const hits = index.take(q.symbol, q.bidMinor, q.askMinor);
    for (const hit of hits) {
      queue = queue.then(() =>
        fillResting(hit.id).catch((err) => {
          opts.log?.(`limit fill failed for order ${hit.id}`, err);
          index.add(hit); // retry on a later quote
        }),
      );
    }
  }

  return {
    async start() {
      const resting = await db
        .select({ id: orders.id, symbol: orders.symbol, side: orders.side, limit: orders.limitPriceMinor })
        .from(orders)
        .where(eq(orders.status, 'pending'));
      for (const r of resting)
        index.add({
          id: r.id,
          symbol: r.symbol,
          side: r.side as 'long' | 'short',
          limitPriceMinor: r.limit!,
        });
      unsubscribe = feed.onQuote(onQuote);
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
    },
    placeOrder,
    cancelOrder,
    closePosition,
    idle: () => queue,
    restingCount: () => index.size,
  };
}

/** Order rows joined with instrument names, as the API returns them. */
export async function orderWithName(db: Db, row: OrderRow) {
  const name =
    (
      await db.select({ name: instruments.name }).from(instruments).where(eq(instruments.symbol, row.symbol))
    )[0]?.name ?? row.symbol;
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
    status: row.status as 'pending' | 'holding' | 'closed' | 'cancelled',
    frozenMinor: row.frozenMinor,
    openPriceMinor: row.openPriceMinor,
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
