/**
 * dayTrade/* (member) and admin/dayTradeApplications, admin/approveDayTrade,
 * admin/rejectDayTrade (operator) handlers: thin wrappers over applications.ts, the trading
 * engine and the orders table. Product-spec §2 "Day trading": order submission (status, apply,
 * the day-trade order entry), transactions (today's day trades), details (offset pairs with the
 * day-trade tax), already applied (the member's applications).
 */
import { and, desc, eq } from 'drizzle-orm';
import type { DayTradeDetail } from '../../../contract/day-trading';
import { DEFAULT_FEES, DEFAULT_DAY_TRADE_TAX_UNTIL, sellTaxPpm } from '../../../contract/market-rules';
import { instruments, orders } from '../../db/schema';
import { requireUser, type Ctx, type Handlers } from '../common/context';
import { marketTimeOfWall } from '../../../contract/trading-session';
import { fail } from '../common/errors';
import { pageOf, pageOfList } from '../common/paging';
import { orderWithName, toOrderDto, type InstrumentNames, type OrderRow } from '../trading/engine';
import {
  adminApplications,
  applyForDayTrading,
  isDayTradeApproved,
  latestApplication,
  memberApplications,
  reviewApplication,
  toApplicationDto,
} from './applications';
import { eligibilityOf } from './eligibility';
import { currentTradeDate } from './trade-date';

/**
 * Market time of a wall instant of an event on the replayed date `date` (an order's trade date),
 * from the market clock now (contract/trading-session.ts marketTimeOfWall): what the day-trading
 * lists show instead of the server's wall clock.
 */
export type MarketTimeOf = (wallMs: number, date: string | null) => number;

/** The request's MarketTimeOf: the feed's clock and the services' wall clock now. */
export function marketTimeOf(ctx: Pick<Ctx, 'feed' | 'now'>): MarketTimeOf {
  const clock = ctx.feed.clock();
  const nowWallMs = ctx.now();
  const replay = clock.source === 'replay' && clock.mode === 'replay';
  return (wallMs, date) =>
    marketTimeOfWall({ wallMs, nowWallMs, nowMarketMs: clock.now, speed: clock.speed, replay, date });
}

/** An offset pair of a closed day-trade order (contract dayTradeDetailSchema) with its instrument's names. */
export function toDayTradeDetail(
  row: OrderRow,
  named: InstrumentNames,
  marketAt: MarketTimeOf,
): DayTradeDetail {
  const open = { price: row.openPriceMinor ?? 0, at: row.openedAt?.getTime() ?? row.createdAt.getTime() };
  const close = { price: row.closePriceMinor ?? 0, at: row.closedAt?.getTime() ?? open.at };
  const [buy, sell] = row.side === 'long' ? [open, close] : [close, open];
  const fee = row.openFeeMinor + row.closeFeeMinor;
  const tax = row.openTaxMinor + row.closeTaxMinor;
  const pnl = row.pnlMinor ?? 0;
  return {
    orderId: row.id,
    orderNo: row.orderNo,
    symbol: row.symbol,
    name: named.name,
    nameEn: named.nameEn,
    side: row.side as DayTradeDetail['side'],
    lots: row.lots,
    shares: row.shares,
    leverage: row.leverage,
    tradeDate: row.tradeDate,
    buyPriceMinor: buy.price,
    buyAt: buy.at,
    buyMarketAt: marketAt(buy.at, row.tradeDate),
    sellPriceMinor: sell.price,
    sellAt: sell.at,
    sellMarketAt: marketAt(sell.at, row.tradeDate),
    pnlMinor: pnl,
    feeMinor: fee,
    taxMinor: tax,
    netMinor: pnl - fee - tax,
    closeReason: row.closeReason,
  };
}

/** Day-trade orders of a member scanned for today's (far more than anyone enters in a day). */
export const TODAY_SCAN_LIMIT = 500;

type DayTradeEndpoints =
  | 'dayTrade/status'
  | 'dayTrade/apply'
  | 'dayTrade/applications'
  | 'dayTrade/placeOrder'
  | 'dayTrade/transactions'
  | 'dayTrade/details'
  | 'admin/dayTradeApplications'
  | 'admin/approveDayTrade'
  | 'admin/rejectDayTrade';

export const dayTradingHandlers: Pick<Handlers, DayTradeEndpoints> = {
  /** Where the member stands: latest application, eligibility now, the rate and auto-close setting. */
  async 'dayTrade/status'(_body, ctx) {
    const user = requireUser(ctx);
    const app = await latestApplication(ctx.db, user.id);
    const tradeDate = currentTradeDate(ctx.feed);
    const until =
      DEFAULT_FEES.dayTradeTaxUntil === undefined
        ? DEFAULT_DAY_TRADE_TAX_UNTIL
        : DEFAULT_FEES.dayTradeTaxUntil;
    return {
      state: app ? (app.status as 'pending' | 'approved' | 'rejected') : 'none',
      application: app ? toApplicationDto(app) : null,
      eligibility: await eligibilityOf(ctx.db, ctx.config, user.id, ctx.now()),
      autoClose: ctx.config.dayTradeAutoClose,
      taxPpm: sellTaxPpm('stock', DEFAULT_FEES, tradeDate),
      taxUntil: until,
      tradeDate,
    };
  },

  /**
   * Applies: approved at once when eligible, else pending for an operator.
   * @throws dayTradeAlreadyApplied (409), cannotWithdrawOrTrade (403)
   */
  async 'dayTrade/apply'(_body, ctx) {
    const user = requireUser(ctx);
    return toApplicationDto(await applyForDayTrading(ctx.db, ctx.config, user, ctx.now()));
  },

  async 'dayTrade/applications'(body, ctx) {
    const user = requireUser(ctx);
    return memberApplications(ctx.db, user.id, body.page, body.pageSize);
  },

  /**
   * The day-trade order entry: an order marked as a day trade (offset the same day at the
   * day-trade tax rate; closed at the closing call when not offset and DAY_TRADE_AUTO_CLOSE).
   * @throws dayTradeNotApproved (403) without an approved application; the engine's refusals
   */
  async 'dayTrade/placeOrder'(body, ctx) {
    const user = requireUser(ctx);
    if (!(await isDayTradeApproved(ctx.db, user.id))) throw fail('dayTradeNotApproved');
    // Watched before it exists, so its closing match cannot slip by.
    ctx.services.dayTrades.track(body.symbol);
    const row = await ctx.trading.placeOrder(user, body, { dayTrade: true, idempotency: ctx.idempotency });
    return orderWithName(ctx.db, row);
  },

  /**
   * Today's day-trade orders: entered as day trades or offset today at the day-trade rate, whose
   * trade date is their instrument's trading date now (on the replay clock each instrument
   * replays its own date). Newest first, from the member's latest TODAY_SCAN_LIMIT day trades.
   */
  async 'dayTrade/transactions'(body, ctx) {
    const user = requireUser(ctx);
    const rows = await ctx.db
      .select({ order: orders, name: instruments.name, nameEn: instruments.nameEn })
      .from(orders)
      .innerJoin(instruments, eq(instruments.symbol, orders.symbol))
      .where(and(eq(orders.userId, user.id), eq(orders.dayTrade, true)))
      .orderBy(desc(orders.id))
      .limit(TODAY_SCAN_LIMIT);
    const today = rows.filter((r) => r.order.tradeDate === ctx.trading.tradeDate(r.order.symbol));
    const page = pageOfList(today, body);
    const marketAt = marketTimeOf(ctx);
    return {
      ...page,
      items: page.items.map((r) => ({
        ...toOrderDto(r.order, r),
        marketAt: marketAt((r.order.openedAt ?? r.order.createdAt).getTime(), r.order.tradeDate),
      })),
    };
  },

  /** Every offset pair taxed as a day trade, newest first. */
  async 'dayTrade/details'(body, ctx) {
    const user = requireUser(ctx);
    const where = and(eq(orders.userId, user.id), eq(orders.dayTrade, true), eq(orders.status, 'closed'));
    const rows = ctx.db
      .select({ order: orders, name: instruments.name, nameEn: instruments.nameEn })
      .from(orders)
      .innerJoin(instruments, eq(instruments.symbol, orders.symbol))
      .where(where)
      .orderBy(desc(orders.closedAt), desc(orders.id));
    const page = await pageOf(ctx.db, rows, { table: orders, where }, body);
    const marketAt = marketTimeOf(ctx);
    return { ...page, items: page.items.map((r) => toDayTradeDetail(r.order, r, marketAt)) };
  },

  async 'admin/dayTradeApplications'(body, ctx) {
    return adminApplications(ctx.db, ctx.config, body, ctx.now());
  },

  /** @throws notFound (404), forbidden (403: own application), dayTradeNotPending (409) */
  async 'admin/approveDayTrade'(body, ctx) {
    const op = requireUser(ctx);
    return reviewApplication(ctx.db, ctx.config, {
      id: body.id,
      operatorId: op.id,
      decision: 'approved',
      reason: null,
      nowMs: ctx.now(),
    });
  },

  /** @throws notFound (404), forbidden (403: own application), dayTradeNotPending (409) */
  async 'admin/rejectDayTrade'(body, ctx) {
    const op = requireUser(ctx);
    return reviewApplication(ctx.db, ctx.config, {
      id: body.id,
      operatorId: op.id,
      decision: 'rejected',
      reason: body.reason,
      nowMs: ctx.now(),
    });
  },
};
