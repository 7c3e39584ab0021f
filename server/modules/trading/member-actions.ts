/**
 * Actions on existing orders (createMemberActions): the member's cancel of a pending order and
 * close of a holding (at market in continuous trading, queued as `closing` in a call phase, with
 * the T+1 and lock-up rules), and the forced close (liquidation, day-trade close) that skips the
 * member's rules. Each runs in one transaction with the order row locked, so a race between a
 * trigger, a cancel and a close has exactly one winner; the book follows after the commit.
 */
import { and, eq } from 'drizzle-orm';
import type { CloseReason } from '../../../contract/trading';
import type { Db, Tx } from '../../db/client';
import { orders } from '../../db/schema';
import { nextTradingDay } from '../../market/calendar';
import type { AuthUser } from '../common/context';
import { fail } from '../common/errors';
import { lockOrder, type Closer } from './closes';
import type { EngineContext } from './engine-context';
import type { TradingEngine } from './engine-types';
import { refuse } from './entry-rules';
import { releaseOrder, type OrderRow } from './fills';
import { entryClosed, opensAt, type SessionView } from './market-session';
import type { Matcher } from './matching';

/** The member's own order `orderId`, locked `for update` in `tx`. @throws AppError orderNotFound */
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

/** The member actions of an engine (createMemberActions). */
export type MemberActions = Pick<TradingEngine, 'cancelOrder' | 'closePosition' | 'forceClose'>;

/** The member actions of the engine sharing `ctx`, closing through `closer`, queueing through `matcher`. */
export function createMemberActions(ctx: EngineContext, closer: Closer, matcher: Matcher): MemberActions {
  const { db, feed, book, rules } = ctx;

  /** The member's own rules on closing (T+1, lock-up); throws the refusal with its fix. */
  function checkCloseRules(order: OrderRow, v: SessionView): void {
    if (rules.tradeLockupMinutes > 0 && order.openedAt) {
      const closableAtMs = order.openedAt.getTime() + rules.tradeLockupMinutes * 60_000;
      if (ctx.wallNow() < closableAtMs) throw refuse('lockUpPeriod', { rule: 'lockUp', closableAtMs });
    }
    // A day trade (entered as one by an eligible member) is meant to be sold the same day.
    if (rules.tradeT1Sell && order.side === 'long' && order.tradeDate && !order.dayTrade) {
      const today = ctx.days.tradeDateFor(v, order.symbol);
      if (order.tradeDate >= today)
        throw refuse('tPlusOneCannotSell', {
          rule: 'tPlusOne',
          tradeDate: order.tradeDate,
          sellableFrom: v.fullDay ? nextTradingDay(order.tradeDate) : null,
        });
    }
  }

  /**
   * The price a position closes at market now: the best bid for a long, the best ask for a short,
   * from the current session's quotes. @throws priceUnavailable / productNotFound / notTradedToday.
   */
  function marketClosePrice(order: OrderRow, v: SessionView): number {
    if (!feed.isTradable(order.symbol)) throw fail('productNotFound');
    const q = feed.quote(order.symbol);
    if (!q) throw fail('priceUnavailable');
    if (!q.traded) throw fail('notTradedToday');
    if (v.shaped) {
      const st = ctx.days.dayOf(order.symbol);
      if (!st || st.date !== ctx.days.tradeDateFor(v, order.symbol) || q.ts >= st.closeMs)
        throw fail('priceUnavailable');
    }
    const price = order.side === 'long' ? q.bidMinor : q.askMinor;
    if (price <= 0) throw fail('priceUnavailable');
    return price;
  }

  async function cancelOrder(user: AuthUser, orderId: number, within: Db = db): Promise<OrderRow> {
    const row = await within.transaction(async (tx) => {
      const order = await ownOrder(tx, user, orderId);
      if (order.status !== 'pending') throw fail('orderNotPending');
      return releaseOrder(tx, ctx.env, order, 'user');
    });
    book.forget(row.id);
    return row;
  }

  async function closePosition(user: AuthUser, orderId: number, within: Db = db): Promise<OrderRow> {
    if (user.tradeBanned) throw fail('cannotWithdrawOrTrade');
    const v = ctx.view();
    let queuedOn: string | null = null;
    const row = await within.transaction(async (tx) => {
      const order = await ownOrder(tx, user, orderId);
      if (order.status !== 'holding') throw fail('orderNotHolding');
      if (ctx.opts.closeGuard) await ctx.opts.closeGuard(tx, order);
      if (entryClosed(v, 'regular'))
        throw refuse('nonTradingTime', {
          rule: 'outsideSession',
          phase: v.phase,
          market: 'regular',
          opensAtMs: opensAt(v, ctx.isTradingDay, 'regular'),
        });
      checkCloseRules(order, v);
      if (v.phase === 'preOpen' || v.phase === 'closingCall') {
        queuedOn = ctx.days.tradeDateFor(v, order.symbol);
        const [updated] = await tx
          .update(orders)
          .set({ status: 'closing' })
          .where(and(eq(orders.id, order.id), eq(orders.status, 'holding')))
          .returning();
        return updated!;
      }
      return closer.closeAt(tx, order, marketClosePrice(order, v), 'user');
    });
    if (queuedOn !== null) matcher.admitClosing(row, queuedOn, v.shaped);
    return row;
  }

  async function forceClose(
    orderId: number,
    reason: CloseReason,
    onClosed?: (tx: Tx, closed: OrderRow) => Promise<void>,
    at?: { priceMinor: number; tradeDate?: string },
    within: Db = db,
  ): Promise<OrderRow | null> {
    const v = ctx.view();
    if (!at && v.phase !== 'continuous')
      throw refuse('nonTradingTime', {
        rule: 'outsideSession',
        phase: v.phase,
        market: 'regular',
        opensAtMs:
          v.phase === 'preOpen' || v.phase === 'closingCall' ? null : opensAt(v, ctx.isTradingDay, 'regular'),
      });
    const row = await within.transaction(async (tx) => {
      const order = await lockOrder(tx, orderId);
      if (!order || (order.status !== 'holding' && order.status !== 'closing')) return null;
      const price = at ? at.priceMinor : marketClosePrice(order, v);
      const closed = await closer.closeAt(tx, order, price, reason, at?.tradeDate);
      if (onClosed) await onClosed(tx, closed);
      return closed;
    });
    if (row) book.dropClosing(row.symbol, row.id);
    return row;
  }

  return { cancelOrder, closePosition, forceClose };
}
