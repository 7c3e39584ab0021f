/**
 * Where a catch-up starts (runner.ts): the session after the oldest open position or resting
 * order of an instrument with corporate actions, so every action after it applies in order.
 */
import { and, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders } from '../../db/schema';

/**
 * One past the smallest session (`sessionOf`, apply.ts) of the open positions and pending orders
 * of `symbols`; +∞ when there are none.
 */
export async function oldestOpenSession(
  db: Db,
  symbols: ReadonlySet<string>,
  sessionOf: (tradeDate: string | null, at: Date | null) => number,
): Promise<number> {
  if (symbols.size === 0) return Number.POSITIVE_INFINITY;
  const rows = await db
    .select({ tradeDate: orders.tradeDate, openedAt: orders.openedAt, createdAt: orders.createdAt })
    .from(orders)
    .where(
      and(inArray(orders.status, ['holding', 'closing', 'pending']), inArray(orders.symbol, [...symbols])),
    );
  let min = Number.POSITIVE_INFINITY;
  for (const r of rows) min = Math.min(min, sessionOf(r.tradeDate, r.openedAt ?? r.createdAt) + 1);
  return min;
}
