/**
 * mentor/minFollow (contract/copy-trading.ts minFollowRes): the smallest follow amount that would
 * have copied each of the mentor's recent orders, from the mentor's real orders and ledger and the
 * allocation rule (rules.ts copyLots, minCopyAmountMinor), never typed in.
 *
 * Orders: the mentor's filled orders opened in the last MIN_FOLLOW_WINDOW_DAYS days, newest first,
 * at most MIN_FOLLOW_MAX_ORDERS. The mentor's equity for an order is the one the copier would have
 * used had it run right after the order opened: available + frozen + margin + debt (≤ 0) after the
 * order's last opening ledger transaction (every transaction referencing the order before its
 * close's `stockSale`), i.e. the equity now less every posting on those accounts since.
 */
import { and, desc, eq, gt, gte, inArray, isNotNull } from 'drizzle-orm';
import {
  MIN_FOLLOW_MAX_ORDERS,
  MIN_FOLLOW_WINDOW_DAYS,
  type MinFollow,
} from '../../../contract/copy-trading';
import type { Db } from '../../db/client';
import { ledgerAccounts, ledgerPostings, ledgerTransactions, mentors, orders } from '../../db/schema';
import { fail } from '../common/errors';
import { minCopyAmountMinor } from './rules';
import { equityOf } from './stats';

const DAY_MS = 86_400_000;
/** The accounts of a member's equity and the sign each counts with (equityOf). */
const EQUITY_SIGN: Record<string, number> = { available: 1, frozen: 1, margin: 1, debt: 1 };

/**
 * The minimum follow amounts of approved mentor `mentorId` at `nowMs`.
 * @throws notFound (404) when the mentor is not approved
 */
export async function minFollow(db: Db, mentorId: number, nowMs: number): Promise<MinFollow> {
  const [m] = await db.select().from(mentors).where(eq(mentors.id, mentorId));
  if (!m || m.status !== 'approved') throw fail('notFound');
  const recent = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, m.userId),
        isNotNull(orders.openedAt),
        gte(orders.openedAt, new Date(nowMs - MIN_FOLLOW_WINDOW_DAYS * DAY_MS)),
        inArray(orders.status, ['holding', 'closing', 'closed']),
      ),
    )
    .orderBy(desc(orders.openedAt), desc(orders.id))
    .limit(MIN_FOLLOW_MAX_ORDERS);
  const base = { windowDays: MIN_FOLLOW_WINDOW_DAYS, mentorMinFollowMinor: m.minFollowMinor };
  if (recent.length === 0) return { ...base, coversAllMinor: null, orders: [] };

  // The last opening transaction of each order.
  const txs = await db
    .select({ id: ledgerTransactions.id, refId: ledgerTransactions.refId, type: ledgerTransactions.type })
    .from(ledgerTransactions)
    .where(
      and(
        eq(ledgerTransactions.refType, 'order'),
        inArray(
          ledgerTransactions.refId,
          recent.map((o) => String(o.id)),
        ),
      ),
    );
  const opened = new Map<number, number>();
  for (const o of recent) {
    const mine = txs.filter((t) => t.refId === String(o.id)).sort((a, b) => a.id - b.id);
    const sale = mine.find((t) => t.type === 'stockSale');
    const before = mine.filter((t) => !sale || t.id < sale.id);
    if (before.length > 0) opened.set(o.id, before[before.length - 1]!.id);
  }
  const since = Math.min(...opened.values());
  const later = Number.isFinite(since)
    ? await db
        .select({
          txId: ledgerPostings.transactionId,
          amount: ledgerPostings.amountMinor,
          purpose: ledgerAccounts.purpose,
        })
        .from(ledgerPostings)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
        .where(
          and(
            eq(ledgerAccounts.userId, m.userId),
            eq(ledgerAccounts.currency, 'TWD'),
            inArray(ledgerAccounts.purpose, Object.keys(EQUITY_SIGN)),
            gt(ledgerPostings.transactionId, since),
          ),
        )
    : [];
  const now = await equityOf(db, m.userId);
  const list = recent.flatMap((o) => {
    const t = opened.get(o.id);
    if (t === undefined) return [];
    const since = later.reduce((s, p) => (p.txId > t ? s + p.amount * EQUITY_SIGN[p.purpose]! : s), 0);
    const equity = now - since;
    return [
      {
        orderId: o.id,
        symbol: o.symbol,
        side: o.side,
        lots: o.lots,
        leverage: o.leverage,
        openedAt: o.openedAt!.getTime(),
        mentorEquityMinor: equity,
        minAmountMinor: minCopyAmountMinor(o.lots, equity),
      },
    ];
  });
  const mins = list.map((x) => x.minAmountMinor);
  const coversAllMinor =
    list.length === 0 || mins.some((x) => x === null)
      ? null
      : Math.max(m.minFollowMinor, ...(mins as number[]));
  return { ...base, coversAllMinor, orders: list };
}
