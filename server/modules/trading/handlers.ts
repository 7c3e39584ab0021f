/** trade/* endpoints: thin wrappers over the TradingEngine plus the position lists. */
import { and, desc, eq, inArray } from 'drizzle-orm';
import { instruments, orders } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { pageOf } from '../common/paging';
import { orderWithName, toOrderDto } from './engine';
import { realisedByPosition } from '../wallet/pnl';

/** Order states shown on each positions tab (contract/trading.ts ORDER_STATUSES). */
const TAB_STATUSES = {
  holdings: ['holding', 'closing'],
  orders: ['pending'],
  terminated: ['closed', 'cancelled', 'sold'],
  // Holdings of ETFs (filtered by instrument kind below).
  etf: ['holding', 'closing'],
} as const;

/** trade/* handlers: refusals come from the engine as AppErrors (4xx envelopes). */
export const tradingHandlers: Pick<
  Handlers,
  'trade/placeOrder' | 'trade/cancelOrder' | 'trade/closePosition' | 'trade/orders' | 'trade/orderDetail'
> = {
  /** Idempotent by its order row (contract/api.ts 'orderRow'): the key goes into the INSERT. */
  async 'trade/placeOrder'(body, ctx) {
    const row = await ctx.trading.placeOrder(requireUser(ctx), body, { idempotency: ctx.idempotency });
    return orderWithName(ctx.db, row);
  },
  /**
   * Idempotent through server/http/idempotency.ts: `ctx.db` is the request's transaction, which
   * also stores the answer under the key, so the engine runs its change inside it.
   */
  async 'trade/cancelOrder'(body, ctx) {
    return orderWithName(ctx.db, await ctx.trading.cancelOrder(requireUser(ctx), body.orderId, ctx.db));
  },
  /** Idempotent as trade/cancelOrder. */
  async 'trade/closePosition'(body, ctx) {
    return orderWithName(ctx.db, await ctx.trading.closePosition(requireUser(ctx), body.orderId, ctx.db));
  },
  async 'trade/orders'(body, ctx) {
    const user = requireUser(ctx);
    const where = and(
      eq(orders.userId, user.id),
      inArray(orders.status, [...TAB_STATUSES[body.tab]]),
      body.tab === 'etf'
        ? inArray(
            orders.symbol,
            ctx.db.select({ s: instruments.symbol }).from(instruments).where(eq(instruments.kind, 'etf')),
          )
        : undefined,
    );
    const page = await pageOf(
      ctx.db,
      ctx.db
        .select({ order: orders, name: instruments.name, nameEn: instruments.nameEn })
        .from(orders)
        .innerJoin(instruments, eq(instruments.symbol, orders.symbol))
        .where(where)
        .orderBy(desc(orders.id)),
      { table: orders, where },
      body,
    );
    const rows = page.items;
    const closed = rows.filter((r) => r.order.status === 'closed').map((r) => r.order.id);
    const realised = await realisedByPosition(ctx.db, user.id, closed);
    return {
      ...page,
      items: rows.map((r) => ({
        ...toOrderDto(r.order, r),
        realisedMinor: realised.get(r.order.id)?.netMinor ?? null,
      })),
    };
  },
  async 'trade/orderDetail'(body, ctx) {
    const user = requireUser(ctx);
    const row = (
      await ctx.db
        .select()
        .from(orders)
        .where(and(eq(orders.id, body.orderId), eq(orders.userId, user.id)))
    )[0];
    if (!row) throw fail('orderNotFound');
    const realised = await realisedByPosition(ctx.db, user.id, [row.id]);
    return { ...(await orderWithName(ctx.db, row)), realisedMinor: realised.get(row.id)?.netMinor ?? null };
  },
};
