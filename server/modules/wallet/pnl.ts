/**
 * Realised P&L by month (contract/wallet.ts monthlyPnlSchema): the member's closed positions
 * (orders with status `closed`) grouped by the calendar month of their close in Asia/Taipei.
 * Amounts come from the ledger: the realisedPnl postings of each position (gross, trading
 * fills.ts) and its tradeFee and transactionTax postings (opening and closing, including a
 * day-trade tax adjustment), all on the member's own accounts and referenced to the order
 * (ref_type `order`). So a month's gross equals the sum of its positions' orders.pnl_minor and
 * its costs the negated sum of their fees and taxes.
 */
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { TWSE_ZONE } from '../../../contract/trading-session';
import type { monthlyPnlSchema } from '../../../contract/wallet';
import type { Db } from '../../db/client';

type MonthlyPnl = z.infer<typeof monthlyPnlSchema>;

/** The member's realised P&L per month of close, newest month first (TWD minor). */
export async function realisedByMonth(db: Db, userId: number): Promise<MonthlyPnl[]> {
  const res = await db.execute<{ month: string; closed: string; gross: string; costs: string }>(sql`
    with closed as (
      select id, to_char(timezone(${TWSE_ZONE}, closed_at), 'YYYY-MM') as month
      from orders where user_id = ${userId} and status = 'closed' and closed_at is not null
    ), legs as (
      select c.month, t.type, p.amount_minor
      from closed c
      join ledger_transactions t on t.ref_type = 'order' and t.ref_id = c.id::text
      join ledger_postings p on p.transaction_id = t.id
      join ledger_accounts a on a.id = p.account_id and a.user_id = ${userId}
      where t.type in ('realisedPnl', 'tradeFee', 'transactionTax')
    )
    select c.month, count(*) as closed,
      coalesce((select sum(l.amount_minor) from legs l where l.month = c.month and l.type = 'realisedPnl'), 0) as gross,
      coalesce((select sum(l.amount_minor) from legs l where l.month = c.month and l.type <> 'realisedPnl'), 0) as costs
    from closed c group by c.month order by c.month desc`);
  const rows = (res as { rows?: unknown[] }).rows ?? (res as unknown[]);
  return (rows as Array<{ month: string; closed: string; gross: string; costs: string }>).map((r) => ({
    month: r.month,
    closed: Number(r.closed),
    grossMinor: Number(r.gross),
    costsMinor: Number(r.costs),
    netMinor: Number(r.gross) + Number(r.costs),
  }));
}
