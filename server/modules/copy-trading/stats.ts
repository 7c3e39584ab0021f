/**
 * A mentor's figures, computed from the orders table and the ledger only (nothing typed in):
 * see contract/copy-trading.ts mentorStatsSchema for each figure and its unit. Filled orders are
 * the member's orders with an opening fill (`opened_at` set); closed ones have status `closed` and
 * a realised P&L. Net P&L of an order = pnl − open fee − open tax − close fee − close tax.
 * The drawdown is measured on the realised-equity curve: it starts at equity now − total net
 * P&L and moves by each closed order's net P&L in closing order (closedAt, id).
 * "Yesterday" is the previous Asia/Taipei calendar day (UTC+8, no daylight saving).
 */
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { MentorStats } from '../../../contract/copy-trading';
import { netPnlMinor } from '../../../contract/trading';
import type { Db, Tx } from '../../db/client';
import { follows, orders } from '../../db/schema';
import { memberBalances } from '../ledger/ledger';

const DAY_MS = 86_400_000;
const TAIPEI_OFFSET_MS = 8 * 3_600_000;

/** An order as the statistics read it. */
export interface StatOrder {
  id: number;
  status: string;
  leverage: number;
  openedAt: Date | null;
  closedAt: Date | null;
  pnlMinor: number | null;
  openFeeMinor: number;
  openTaxMinor: number;
  closeFeeMinor: number;
  closeTaxMinor: number;
}

/** Start (epoch ms) of the Asia/Taipei calendar day containing `ms`. */
export const taipeiDayStart = (ms: number): number =>
  Math.floor((ms + TAIPEI_OFFSET_MS) / DAY_MS) * DAY_MS - TAIPEI_OFFSET_MS;

const div = (a: bigint, b: bigint): number => (b === 0n ? 0 : Number(a / b));

/**
 * The figures of `rows` (the member's orders) with equity `equityMinor` now and followers'
 * allocations `fundScaleMinor`, at `nowMs`. Pure: the same function the API and the tests use.
 */
export function statsFromOrders(
  rows: readonly StatOrder[],
  equityMinor: number,
  fundScaleMinor: number,
  nowMs: number,
): MentorStats {
  const filled = rows.filter((r) => r.openedAt !== null);
  const closed = filled
    .filter((r) => r.status === 'closed' && r.pnlMinor !== null && r.closedAt !== null)
    .sort((a, b) => a.closedAt!.getTime() - b.closedAt!.getTime() || a.id - b.id);
  const net = (r: StatOrder) => netPnlMinor(r)!;
  const today = taipeiDayStart(nowMs);
  let total = 0;
  let gross = 0;
  let yesterday = 0;
  let wins = 0;
  let held = 0;
  for (const r of closed) {
    const n = net(r);
    total += n;
    gross += r.pnlMinor!;
    if (n > 0) wins++;
    held += r.closedAt!.getTime() - r.openedAt!.getTime();
    const at = r.closedAt!.getTime();
    if (at >= today - DAY_MS && at < today) yesterday += n;
  }
  let level = equityMinor - total;
  let peak = level;
  let maxDd = 0;
  for (const r of closed) {
    level += net(r);
    if (level > peak) peak = level;
    if (peak > 0) maxDd = Math.max(maxDd, div(BigInt(peak - level) * 10_000n, BigInt(peak)));
  }
  const first = filled.reduce((m, r) => Math.min(m, r.openedAt!.getTime()), Infinity);
  return {
    fundScaleMinor,
    totalProfitMinor: total,
    yesterdayProfitMinor: yesterday,
    dailyReturnBps: equityMinor > 0 ? div(BigInt(yesterday) * 10_000n, BigInt(equityMinor)) : 0,
    winRateBps: div(BigInt(wins) * 10_000n, BigInt(closed.length)),
    historicalProfitMinor: gross,
    closedTrades: closed.length,
    avgHoldingMs: closed.length ? Math.floor(held / closed.length) : 0,
    maxDrawdownBps: maxDd,
    avgLeverageX100: div(BigInt(filled.reduce((s, r) => s + r.leverage * 100, 0)), BigInt(filled.length)),
    trackDays: filled.length ? Math.floor((nowMs - first) / DAY_MS) : 0,
    equityMinor,
  };
}

/** A member's equity now: available + frozen + margin + debt (debt ≤ 0: what is owed; TWD minor, cached ledger balances). */
export async function equityOf(db: Db | Tx, userId: number): Promise<number> {
  const b = await memberBalances(db, userId);
  return b.available + b.frozen + b.margin + b.debt;
}

/** Followers' allocated amounts of `mentorId`'s running follows (TWD minor). */
export async function fundScaleOf(db: Db | Tx, mentorId: number): Promise<number> {
  const [row] = await db
    .select({ s: sql<string>`coalesce(sum(${follows.amountMinor}), 0)` })
    .from(follows)
    .where(and(eq(follows.mentorId, mentorId), eq(follows.status, 'following')));
  return Number(row!.s);
}

/**
 * The mentor's figures now, from their orders and ledger balances (statsFromOrders).
 * @param mentorId the mentors row (for the fund scale); null for an applicant not yet a mentor
 */
export async function mentorStats(
  db: Db | Tx,
  userId: number,
  mentorId: number | null,
  nowMs: number,
): Promise<MentorStats> {
  const rows = await db
    .select({
      id: orders.id,
      status: orders.status,
      leverage: orders.leverage,
      openedAt: orders.openedAt,
      closedAt: orders.closedAt,
      pnlMinor: orders.pnlMinor,
      openFeeMinor: orders.openFeeMinor,
      openTaxMinor: orders.openTaxMinor,
      closeFeeMinor: orders.closeFeeMinor,
      closeTaxMinor: orders.closeTaxMinor,
    })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        isNotNull(orders.openedAt),
        inArray(orders.status, ['holding', 'closing', 'closed']),
      ),
    );
  return statsFromOrders(
    rows,
    await equityOf(db, userId),
    mentorId === null ? 0 : await fundScaleOf(db, mentorId),
    nowMs,
  );
}
