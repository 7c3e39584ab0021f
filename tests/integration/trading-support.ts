/**
 * Helpers of the trading scenario tests (tests/integration/trading-*.test.ts): moving the market
 * clock, reading an order's ledger entries, and the member's balances.
 */
import { sql } from 'drizzle-orm';
import type { Quote } from '../../contract/market';
import { sessionTimes, taipeiIsoDate } from '../../contract/trading-session';
import type { Db } from '../../server/db/client';
import { memberBalances } from '../../server/modules/ledger/ledger';
import type { Harness } from './harness';

/** One ledger posting of an order: its transaction type, the account and the signed amount. */
export interface OrderPosting {
  type: string;
  /** Member purpose (available, frozen, margin, debt) or platform purpose. */
  purpose: string;
  member: boolean;
  amountMinor: number;
}

/** Every posting of the ledger transactions referring to `orderId`, in transaction order. */
export async function orderPostings(db: Db, orderId: number): Promise<OrderPosting[]> {
  const r = (await db.execute(sql`
    select t.type, a.purpose, (a.user_id is not null) as member, p.amount_minor
    from ledger_transactions t
    join ledger_postings p on p.transaction_id = t.id
    join ledger_accounts a on a.id = p.account_id
    where t.ref_type = 'order' and t.ref_id = ${String(orderId)}
    order by t.id, p.id`)) as unknown as { rows?: Array<Record<string, unknown>> } & Array<
    Record<string, unknown>
  >;
  return (r.rows ?? r).map((x) => ({
    type: String(x.type),
    purpose: String(x.purpose),
    member: x.member === true || x.member === 't',
    amountMinor: Number(x.amount_minor),
  }));
}

/** Sum of the member-side postings of one transaction type into (positive) or out of one purpose. */
export function net(postings: OrderPosting[], type: string, purpose: string): number {
  return postings
    .filter((p) => p.member && p.type === type && p.purpose === purpose)
    .reduce((s, p) => s + p.amountMinor, 0);
}

/** Member balances by purpose. */
export const balances = (h: Harness, userId: number) => memberBalances(h.database.db, userId);

/** A place-order body: one lot of 2330, long, limit, 10× leverage, with `o` overriding. */
export const orderBody = (o: Record<string, unknown>) => ({
  symbol: '2330',
  side: 'long',
  orderType: 'limit',
  lots: 1,
  leverage: 10,
  ...o,
});

/** trade/orderDetail's data for the member's order `id`. */
export const orderDetail = async (h: Harness, token: string, id: number) =>
  (await h.call('trade/orderDetail', { orderId: id }, token)).body.data;

/** Market time now (epoch ms). */
export const marketNow = (h: Harness): number => h.feed.clock().now;

/**
 * Moves the wall clock (and so the market clock) forward by `marketMs` of market time, in steps
 * of at most `stepMs`, ticking the feed and waiting for the engine after each step.
 */
export async function advanceMarket(h: Harness, marketMs: number, stepMs = 60_000): Promise<void> {
  const speed = h.feed.clock().speed || 1;
  let left = marketMs;
  while (left > 0) {
    const d = Math.min(stepMs, left);
    h.wall.now += Math.ceil(d / speed);
    h.feed.tick();
    await h.trading.idle();
    left -= d;
  }
}

/** Replay clock: moves to `hh:mm:ss` market time of the current replayed session (forward only). */
export async function replayTo(h: Harness, hh: number, mm: number, ss = 0, stepMs = 60_000): Promise<void> {
  const now = marketNow(h);
  const date = taipeiIsoDate(now);
  const target = sessionTimes(date).preOpenMs + ((hh - 8) * 3600 + (mm - 30) * 60 + ss) * 1000;
  if (target < now) throw new Error(`market time is already past ${hh}:${mm}`);
  await advanceMarket(h, target - now, stepMs);
}

/**
 * Replay clock: moves to `hh:mm:ss` market time of the NEXT replayed day (each replayed day runs
 * 08:30 → 14:30 and the next one starts at its 08:30; its date is the replay's, not known here).
 */
export async function replayNextDay(
  h: Harness,
  hh: number,
  mm: number,
  ss = 0,
  stepMs = 60_000,
): Promise<void> {
  const now = marketNow(h);
  const t = sessionTimes(taipeiIsoDate(now));
  const intoNext = ((hh - 8) * 3600 + (mm - 30) * 60 + ss) * 1000;
  await advanceMarket(h, t.afterHoursMatchMs - now + intoNext, stepMs);
}

/** Exchange clock: sets the wall clock to `iso` (an Asia/Taipei wall time, e.g. '2026-01-05T08:45'). */
export async function exchangeAt(h: Harness, iso: string): Promise<void> {
  const t = Date.parse(`${iso}+08:00`);
  if (!(t >= h.wall.now)) throw new Error(`${iso} is not after the wall clock`);
  h.wall.now = t;
  h.feed.tick();
  await h.trading.idle();
}

/** Records the feed's quotes of one symbol (e.g. to find a session's opening and closing prints). */
export function recordQuotes(h: Harness, symbol: string): { quotes: Quote[]; stop: () => void } {
  const quotes: Quote[] = [];
  const stop = h.feed.onQuote((q) => {
    if (q.symbol === symbol) quotes.push(q);
  });
  return { quotes, stop };
}
