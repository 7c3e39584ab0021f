/**
 * Day-trade taxation of a close (TW-MARKET-RULES "Securities transaction tax": a same-day day
 * trade's sale is taxed at 0.15 % ⚠ until 2027-12-31 instead of 0.3 %; contract/market-rules.ts
 * `sellTaxPpm`). A position is a day trade when its member holds an approved day-trading
 * application (applications.ts) and it is offset on its own trade date (orders.trade_date).
 *
 * The sale of a long is its closing trade: the engine's close passes `dayTradeOn` to closeResult.
 * The sale of a short is its opening trade, taxed at the stock rate when it opened (nobody knows
 * then whether it will be offset the same day); when it is offset the same day the difference
 * down to the day-trade rate is refunded here (`transactionTax`, tax_payable → available) and
 * the row's open_tax_minor becomes the day-trade tax, so the order's figures keep adding up to
 * its ledger entries.
 */
import { eq } from 'drizzle-orm';
import type { FeeSchedule, InstrumentKind } from '../../../contract/market-rules';
import { sellTaxMinor } from '../../../contract/market-rules';
import type { Tx } from '../../db/client';
import { orders } from '../../db/schema';
import { move, post } from '../ledger/ledger';
import { isDayTradeApproved } from './applications';

type OrderRow = typeof orders.$inferSelect;

/**
 * The short's opening-sale tax at the day-trade rate of `dayTradeOn`: sellTaxMinor of the opening
 * notional, the position's open value (openCosts' own formula). Pure.
 */
export function shortDayTradeOpenTaxMinor(
  order: Pick<OrderRow, 'openValueMinor'>,
  kind: InstrumentKind,
  fees: FeeSchedule,
  dayTradeOn: string,
): number {
  return sellTaxMinor(order.openValueMinor!, kind, fees, dayTradeOn);
}

/**
 * Call inside the close's transaction, before the close posts anything (the refund goes to
 * `available`, which the close reads): returns the ISO date to pass as `dayTradeOn` to the
 * engine's closeAt when closing `order` on trading date `tradeDate` is a day trade, else
 * undefined. For a short that is a day trade, refunds the opening tax down to the day-trade rate
 * and updates the row (see the module docstring). `order` is the row locked by the caller.
 */
export async function settleDayTradeClose(
  tx: Tx,
  args: { order: OrderRow; tradeDate: string; kind: InstrumentKind; fees: FeeSchedule },
): Promise<string | undefined> {
  const { order, tradeDate } = args;
  if (order.tradeDate === null || order.tradeDate !== tradeDate || order.openValueMinor === null)
    return undefined;
  if (!(await isDayTradeApproved(tx, order.userId))) return undefined;
  if (order.side === 'short') {
    const reduced = shortDayTradeOpenTaxMinor(order, args.kind, args.fees, tradeDate);
    const refund = order.openTaxMinor - reduced;
    if (refund > 0) {
      await post(tx, {
        type: 'transactionTax',
        refType: 'order',
        refId: order.id,
        actorUserId: order.userId,
        postings: move({ platform: 'tax_payable' }, { userId: order.userId, purpose: 'available' }, refund),
      });
      await tx.update(orders).set({ openTaxMinor: reduced }).where(eq(orders.id, order.id));
      order.openTaxMinor = reduced;
    }
  }
  return tradeDate;
}
