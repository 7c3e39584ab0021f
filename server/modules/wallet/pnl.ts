/**
 * Realised P&L, the one definition every screen shows (docs/glossary.md "Realised P&L"): the
 * member centre's figure (user/info), the asset overview's months and total (wallet/history), the
 * positions' terminated tab and a position's detail (trade/orders, trade/orderDetail) and the fund
 * records' trade tab (user/fundRecords) all come from `realisedByPosition`.
 *
 * A position (an `orders` row) is realised when it is closed (status `closed`), in the calendar
 * month (Asia/Taipei) of its close. Its realised P&L is every amount the ledger moved on the
 * member's own accounts for it, apart from its own margin going in and out:
 * - gross: the close's `realisedPnl` (price difference × shares, trading fills.ts);
 * - costs: its `tradeFee` and `transactionTax` postings, opening and closing (a day-trade tax
 *   refund included), ≤ 0;
 * - income: the cash dividends it received or, short, paid (`dividend`), the borrow fees a short
 *   paid on lent shares (`stockLending`, via lending_allocations.short_order_id) and the rebates a
 *   lent long earned (`lendingRebate`, via lending_orders.order_id), and a corporate action's
 *   cash (`corporateAction`: a stock dividend's ex-rights value, a fraction of a share); signed.
 * net = gross + costs + income. TWD minor units. A position still open contributes nothing yet.
 */
import { DateTime } from 'luxon';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { TWSE_ZONE } from '../../../contract/trading-session';
import type { monthlyPnlSchema } from '../../../contract/wallet';
import type { Db, Tx } from '../../db/client';

type MonthlyPnl = z.infer<typeof monthlyPnlSchema>;

/** The realised P&L of one closed position (TWD minor; see the module docstring). */
export interface PositionRealised {
  orderId: number;
  /** When it was closed (epoch ms). */
  closedAt: number;
  grossMinor: number;
  costsMinor: number;
  incomeMinor: number;
  netMinor: number;
}

type Row = { id: number; closed_at: string | Date; gross: string; costs: string; income: string };

/**
 * The realised P&L of each of the member's closed positions, or only of `orderIds` when given
 * (ids that are not the member's closed positions are absent from the result).
 */
export async function realisedByPosition(
  db: Db | Tx,
  userId: number,
  orderIds?: readonly number[],
): Promise<Map<number, PositionRealised>> {
  if (orderIds && orderIds.length === 0) return new Map();
  const only = orderIds
    ? sql`and id in (${sql.join(
        orderIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const res = await db.execute(sql`
    with closed as (
      select id, closed_at from orders
      where user_id = ${userId} and status = 'closed' and closed_at is not null ${only}
    ), legs as (
      select c.id as order_id, t.type, p.amount_minor
      from closed c
      join ledger_transactions t on t.ref_type = 'order' and t.ref_id = c.id::text
      join ledger_postings p on p.transaction_id = t.id
      join ledger_accounts a on a.id = p.account_id and a.user_id = ${userId}
      where t.type in ('realisedPnl', 'tradeFee', 'transactionTax', 'dividend', 'corporateAction')
      union all
      select c.id, t.type, p.amount_minor
      from closed c
      join lending_allocations la on la.short_order_id = c.id
      join ledger_transactions t on t.ref_type = 'lendingAllocation' and t.ref_id = la.id::text
      join ledger_postings p on p.transaction_id = t.id
      join ledger_accounts a on a.id = p.account_id and a.user_id = ${userId}
      where t.type = 'stockLending'
      union all
      select c.id, t.type, p.amount_minor
      from closed c
      join lending_orders lo on lo.order_id = c.id
      join ledger_transactions t on t.ref_type = 'lendingOrder' and t.ref_id = lo.id::text
      join ledger_postings p on p.transaction_id = t.id
      join ledger_accounts a on a.id = p.account_id and a.user_id = ${userId}
      where t.type = 'lendingRebate'
    )
    select c.id, c.closed_at,
      coalesce(sum(l.amount_minor) filter (where l.type = 'realisedPnl'), 0) as gross,
      coalesce(sum(l.amount_minor) filter (where l.type in ('tradeFee', 'transactionTax')), 0) as costs,
      coalesce(sum(l.amount_minor) filter (where l.type in ('dividend', 'corporateAction', 'stockLending', 'lendingRebate')), 0)
        as income
    from closed c left join legs l on l.order_id = c.id
    group by c.id, c.closed_at`);
  const rows = ((res as { rows?: unknown[] }).rows ?? (res as unknown as unknown[])) as Row[];
  const out = new Map<number, PositionRealised>();
  for (const r of rows) {
    const gross = Number(r.gross);
    const costs = Number(r.costs);
    const income = Number(r.income);
    out.set(Number(r.id), {
      orderId: Number(r.id),
      closedAt: new Date(r.closed_at).getTime(),
      grossMinor: gross,
      costsMinor: costs,
      incomeMinor: income,
      netMinor: gross + costs + income,
    });
  }
  return out;
}

/** The member's realised P&L to date: the sum of every closed position's net (TWD minor). */
export async function realisedTotal(db: Db | Tx, userId: number): Promise<number> {
  let total = 0;
  for (const p of (await realisedByPosition(db, userId)).values()) total += p.netMinor;
  return total;
}

/** The member's realised P&L per month of close (Asia/Taipei), newest month first, and the total. */
export async function realisedByMonth(
  db: Db | Tx,
  userId: number,
): Promise<{ months: MonthlyPnl[]; totalMinor: number }> {
  const by = new Map<string, MonthlyPnl>();
  let totalMinor = 0;
  for (const p of (await realisedByPosition(db, userId)).values()) {
    const month = DateTime.fromMillis(p.closedAt, { zone: TWSE_ZONE }).toFormat('yyyy-MM');
    const m = by.get(month) ?? {
      month,
      closed: 0,
      grossMinor: 0,
      costsMinor: 0,
      incomeMinor: 0,
      netMinor: 0,
    };
    m.closed++;
    m.grossMinor += p.grossMinor;
    m.costsMinor += p.costsMinor;
    m.incomeMinor += p.incomeMinor;
    m.netMinor += p.netMinor;
    by.set(month, m);
    totalMinor += p.netMinor;
  }
  const months = [...by.values()].sort((a, b) => (a.month < b.month ? 1 : -1));
  return { months, totalMinor };
}
