/**
 * risk/* endpoints: the member's maintenance ratio and liquidation prices at the server's marks
 * (`risk/summary`: the account-wide figures, and each position's liquidation price from its risk
 * pool, the member's own or one follow's, as the risk monitor judges it), their margin-call and
 * liquidation notices (`risk/events`) and marking them read (`risk/markRead`). Thresholds come from the config (MARGIN_CALL_BPS, MAINTENANCE_BPS).
 */
import { and, eq } from 'drizzle-orm';
import { orders } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { loadAccountRisk } from './account-risk';
import { lastEventId, listRiskEvents, markRiskEventsRead, openMarginCall, unreadCount } from './events';

/** risk/* handlers. risk/events with another member's orderId answers 404 orderNotFound. */
export const riskHandlers: Pick<Handlers, 'risk/summary' | 'risk/events' | 'risk/markRead'> = {
  async 'risk/summary'(_body, ctx) {
    const user = requireUser(ctx);
    const thresholds = {
      marginCallBps: ctx.config.marginCallBps,
      maintenanceBps: ctx.config.maintenanceBps,
    };
    const snap = await loadAccountRisk(ctx.db, ctx.feed, user.id, thresholds);
    const byId = new Map(snap.holdings.map((h) => [h.id, h]));
    const r = snap.risk;
    const call = await openMarginCall(ctx.db, user.id);
    return {
      ...thresholds,
      openingBps: ctx.config.openingMarginBps,
      availableMinor: snap.availableMinor,
      frozenMinor: snap.frozenMinor,
      frozenForOrdersMinor: snap.frozenForOrdersMinor,
      restingMarginMinor: snap.restingMarginMinor,
      debtMinor: snap.debtMinor,
      usedMarginMinor: r.usedMarginMinor,
      unrealisedPnlMinor: r.unrealisedPnlMinor,
      equityMinor: r.equityMinor,
      ratioBps: r.ratioBps,
      level: r.level,
      marginCallEquityMinor: r.marginCallEquityMinor,
      maintenanceEquityMinor: r.maintenanceEquityMinor,
      marginCallActive: call !== null,
      marginCallSaleDate: call?.saleDate ?? null,
      marginCallSaleOrder: call?.saleOrder ?? [],
      unreadEvents: await unreadCount(ctx.db, user.id),
      lastEventId: await lastEventId(ctx.db, user.id),
      // Every pool's positions, each with its liquidation price in its own pool (account-risk.ts).
      positions: snap.pools.flatMap((pool) =>
        pool.risk.positions.map((p) => {
          const h = byId.get(p.id)!;
          return {
            orderId: p.id,
            symbol: h.symbol,
            side: h.side,
            kind: ctx.feed.kind(h.symbol) ?? 'stock',
            leverage: h.leverage,
            cash: p.cash,
            followId: pool.followId,
            openPriceMinor: h.openPriceMinor!,
            openValueMinor: h.openValueMinor!,
            shares: h.shares,
            marginMinor: h.marginMinor,
            markMinor: p.markMinor,
            unrealisedPnlMinor: p.unrealisedPnlMinor,
            equityMinor: p.equityMinor,
            ratioBps: p.ratioBps,
            liquidationPriceMinor: p.liquidationPriceMinor,
          };
        }),
      ),
      pools: snap.pools
        .filter((p) => p.followId !== null)
        .map((p) => ({ followId: p.followId!, cashMinor: p.collateral.availableMinor })),
    };
  },
  async 'risk/events'(body, ctx) {
    const user = requireUser(ctx);
    if (body.orderId !== undefined) {
      const own = await ctx.db
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.id, body.orderId), eq(orders.userId, user.id)));
      if (own.length === 0) throw fail('orderNotFound');
    }
    return listRiskEvents(ctx.db, user.id, body);
  },
  async 'risk/markRead'(body, ctx) {
    const user = requireUser(ctx);
    const unread = await markRiskEventsRead(ctx.db, user.id, body.eventIds, new Date(ctx.now()));
    return { ok: true as const, unread };
  },
};
