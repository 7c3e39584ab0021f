/**
 * Orders as the API returns them (contract/trading.ts orderSchema): the row joined with its
 * instrument's Chinese and English short names, times in epoch ms, money in minor units.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { instruments } from '../../db/schema';
import type { OrderRow } from './fills';

/** An instrument's Chinese short name and the exchange's English one (null when none is published). */
export interface InstrumentNames {
  name: string;
  nameEn: string | null;
}

/** Instrument names per database, read once per symbol: the import never renames a row. */
const namesByDb = new WeakMap<Db, Map<string, InstrumentNames>>();

/** Order rows joined with instrument names, as the API returns them (an unknown symbol names itself). */
export async function orderWithName(db: Db, row: OrderRow) {
  let names = namesByDb.get(db);
  if (!names) namesByDb.set(db, (names = new Map()));
  let named = names.get(row.symbol);
  if (named === undefined) {
    const found = (
      await db
        .select({ name: instruments.name, nameEn: instruments.nameEn })
        .from(instruments)
        .where(eq(instruments.symbol, row.symbol))
    )[0];
    if (found === undefined) return toOrderDto(row, { name: row.symbol, nameEn: null });
    names.set(row.symbol, (named = found));
  }
  return toOrderDto(row, named);
}

const ms = (d: Date | null) => (d ? d.getTime() : null);

/**
 * An orders row as the API returns it (contract orderSchema) with its instrument's names: times
 * in epoch ms, money in minor units.
 */
export function toOrderDto(row: OrderRow, named: InstrumentNames) {
  return {
    id: row.id,
    orderNo: row.orderNo,
    symbol: row.symbol,
    name: named.name,
    nameEn: named.nameEn,
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
