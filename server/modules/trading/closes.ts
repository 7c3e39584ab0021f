/**
 * Every close of a position goes through here (createCloser): the member's close, a close queued
 * for a call auction, and forced closes. One ledger code (fills.ts closeAt) with the day-trade
 * settlement (TradingEngineOptions.settleDayTrade) and the close hook (onClose) in the same
 * transaction.
 */
import { eq } from 'drizzle-orm';
import type { CloseReason } from '../../../contract/trading';
import type { Tx } from '../../db/client';
import { orders } from '../../db/schema';
import type { EngineContext } from './engine-context';
import { closeAt as closeAtLedger, type OrderRow } from './fills';

/** Reads order `orderId` locked `for update` in `tx`; undefined when there is none. */
export async function lockOrder(tx: Tx, orderId: number): Promise<OrderRow | undefined> {
  return (await tx.select().from(orders).where(eq(orders.id, orderId)).for('update'))[0];
}

/** The engine's closes (createCloser). */
export interface Closer {
  /** The trading date (YYYY-MM-DD) a close of `symbol` happens on now. */
  tradeDate(symbol: string): string;
  /**
   * Closes the locked holding (or closing) `order` at `priceMinor` in `tx` for `reason`;
   * `tradeDate`: the date of the match closing it (a call auction's), on which a same-day day
   * trade is decided, default the symbol's date now. @throws AppError('orderNotHolding').
   */
  closeAt(
    tx: Tx,
    order: OrderRow,
    priceMinor: number,
    reason: CloseReason,
    tradeDate?: string,
  ): Promise<OrderRow>;
}

/** The closes of the engine sharing `ctx`. */
export function createCloser(ctx: EngineContext): Closer {
  const tradeDate = (symbol: string) => ctx.days.tradeDateFor(ctx.view(), symbol);

  async function dayTradeOn(tx: Tx, order: OrderRow, date?: string): Promise<string | undefined> {
    if (!ctx.opts.settleDayTrade) return undefined;
    return ctx.opts.settleDayTrade(tx, {
      order,
      tradeDate: date ?? tradeDate(order.symbol),
      kind: ctx.kindOf(order.symbol),
      fees: ctx.fees,
    });
  }

  return {
    tradeDate,
    async closeAt(tx, order, priceMinor, reason, date) {
      const closed = await closeAtLedger(tx, ctx.env, order, priceMinor, reason, {
        dayTradeOn: await dayTradeOn(tx, order, date),
      });
      if (ctx.opts.onClose) await ctx.opts.onClose(tx, closed);
      return closed;
    },
  };
}
