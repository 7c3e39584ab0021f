/**
 * Stock lending (contract/lending.ts for the rules): lending orders on members' fully paid long
 * positions, their daily fees on the market clock's business days, and the allocation of lent
 * shares to short positions.
 *
 * Money (TWD minor, refType `lendingOrder`), each a balanced ledger transaction in the same
 * database transaction as the state it belongs to:
 *
 * | when                               | ledger                                              | fund flow     |
 * |------------------------------------|-----------------------------------------------------|---------------|
 * | each business day a loan is in loan | platform fee_revenue → lender available: lendingFeeMinor(shares) | lendingRebate |
 * | the same day, per open allocation  | short seller available (the rest: debt) → fee_revenue: lendingFeeMinor(allocated shares); a copied short's from its follow's cash (copy-trading/settlement.ts) | stockLending |
 *
 * Who pays: the platform's fee income account (`fee_revenue`) pays every lender's rebate; the
 * short sellers who borrow lent shares pay the same rate on what they borrow into that account (a
 * borrow fee beyond their available cash becomes debt, like a loss beyond their funds). Lent
 * shares nobody borrows are still paid for by the platform (it keeps them as its lending pool).
 *
 * Days are market-clock sessions (the runner's calendar: consecutive numbers, whatever date each
 * replays, so a period never runs backwards when the replay window starts over). A loan made on
 * business day S runs for `days` days; the fee of day d (S ≤ d < S + days) accrues on day d, at
 * day d's own reference price (the feed's `referenceAt(symbol, d)`, contract/lending.ts "the
 * day's reference price"), and is paid once day d is over (the clock shows a later day), also
 * when a step catches up several days. On day S + days the loan expires (finished). A recall
 * finishes it at once: the current day is not charged.
 *
 * Concurrency: a lend locks the position row (`for update`), so one position's lends run one after
 * another and never exceed its shares; the instrument's quota is taken by one conditional UPDATE
 * (lent_shares + n ≤ quota_shares), so concurrent lends of many members never exceed it.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { lendingFeeMinor } from '../../../contract/lending';
import type { Db, Tx } from '../../db/client';
import { lendingAllocations, lendingChannel, lendingOrders, lendingQuotas, orders } from '../../db/schema';
import { fail } from '../common/errors';
import { postCopyCashFlow } from '../copy-trading/settlement';
import { move, post, type PostingInput } from '../ledger/ledger';
import { lockedAvailable } from '../trading/fills';

export type LendingOrderRow = typeof lendingOrders.$inferSelect;
export type LendingChannelRow = typeof lendingChannel.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/** The business-day calendar the module runs on (the public-subscription runner's). */
export interface LendingCalendar {
  today(): number;
  label(day: number): string;
  now(): number;
}

/** The reference price of `symbol` (TWD minor) on business day `day`, or null when the feed has none. */
export type ReferencePrice = (symbol: string, day: number) => number | null;

/** The channel row (created by the migration). */
export async function channelOf(db: Db | Tx): Promise<LendingChannelRow> {
  const [c] = await db.select().from(lendingChannel).where(eq(lendingChannel.id, 1));
  return c!;
}

/** Whether a position may be lent: a fully paid (1×) long, still holding, not a day trade. */
export function isLendable(o: Pick<OrderRow, 'side' | 'leverage' | 'status' | 'dayTrade'>): boolean {
  return o.side === 'long' && o.leverage === 1 && o.status === 'holding' && !o.dayTrade;
}

/** Shares of position `orderId` in loan now. */
export async function sharesInLoan(db: Db | Tx, orderId: number): Promise<number> {
  const [r] = await db
    .select({ n: sql<string>`coalesce(sum(${lendingOrders.shares}), 0)` })
    .from(lendingOrders)
    .where(and(eq(lendingOrders.orderId, orderId), eq(lendingOrders.status, 'inLoan')));
  return Number(r!.n);
}

/**
 * Lends `shares` of the member's position `orderId` at `rateBps` for `days` business days from
 * `today`, inside the request's transaction.
 * @throws AppError lendingUnavailable (channel closed or the instrument's quota would be
 *   exceeded) | lendingTermsExceeded | orderNotFound | lendingNotEligible |
 *   lendingExceedsHolding
 */
export async function lend(
  db: Db | Tx,
  userId: number,
  req: { orderId: number; shares: number; rateBps: number; days: number },
  today: number,
): Promise<LendingOrderRow> {
  return db.transaction(async (tx) => {
    const [channel] = await tx.select().from(lendingChannel).where(eq(lendingChannel.id, 1)).for('share');
    if (!channel!.open) throw fail('lendingUnavailable');
    if (req.rateBps > channel!.rateCapBps) throw fail('lendingTermsExceeded');
    if (req.days > channel!.maxDays) throw fail('lendingTermsExceeded');
    const [pos] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, req.orderId), eq(orders.userId, userId)))
      .for('update');
    if (!pos) throw fail('orderNotFound');
    if (!isLendable(pos)) throw fail('lendingNotEligible');
    if ((await sharesInLoan(tx, pos.id)) + req.shares > pos.shares) throw fail('lendingExceedsHolding');
    const taken = await tx
      .update(lendingQuotas)
      .set({ lentShares: sql`${lendingQuotas.lentShares} + ${req.shares}`, updatedAt: new Date() })
      .where(
        and(
          eq(lendingQuotas.symbol, pos.symbol),
          sql`${lendingQuotas.lentShares} + ${req.shares} <= ${lendingQuotas.quotaShares}`,
        ),
      )
      .returning({ symbol: lendingQuotas.symbol });
    if (taken.length === 0) throw fail('lendingUnavailable');
    const [idRow] = (await tx
      .execute(sql`select nextval(pg_get_serial_sequence('lending_orders', 'id'))::int as id`)
      .then((r) => (r as unknown as { rows?: unknown[] }).rows ?? (r as unknown as unknown[]))) as Array<{
      id: number;
    }>;
    const id = Number(idRow!.id);
    const [row] = await tx
      .insert(lendingOrders)
      .values({
        id,
        lendingNo: `L${String(id).padStart(8, '0')}`,
        userId,
        orderId: pos.id,
        symbol: pos.symbol,
        shares: req.shares,
        rateBps: req.rateBps,
        days: req.days,
        startDay: today,
      })
      .returning();
    return row!;
  });
}

/**
 * Recalls the member's loan `id` now (pays the days already over first, then finishes it).
 * @throws AppError notFound (not theirs) | lendingNotInLoan
 */
export async function recall(
  db: Db | Tx,
  userId: number,
  id: number,
  cal: LendingCalendar,
  reference: ReferencePrice,
): Promise<LendingOrderRow> {
  return db.transaction(async (tx) => {
    const [own] = await tx
      .select()
      .from(lendingOrders)
      .where(and(eq(lendingOrders.id, id), eq(lendingOrders.userId, userId)))
      .for('update');
    if (!own) throw fail('notFound');
    if (own.status !== 'inLoan') throw fail('lendingNotInLoan');
    const paid = await accrue(tx, own, cal.today(), reference);
    return finish(tx, paid, 'recall', cal);
  });
}

/** Finishes a loan: shares back to the quota, allocations returned. Caller holds the row lock. */
async function finish(
  tx: Tx,
  loan: LendingOrderRow,
  reason: NonNullable<LendingOrderRow['finishReason']>,
  cal: LendingCalendar,
): Promise<LendingOrderRow> {
  await tx
    .update(lendingQuotas)
    .set({ lentShares: sql`greatest(${lendingQuotas.lentShares} - ${loan.shares}, 0)` })
    .where(eq(lendingQuotas.symbol, loan.symbol));
  await tx
    .update(lendingAllocations)
    .set({ status: 'returned', endDay: cal.today() })
    .where(and(eq(lendingAllocations.lendingOrderId, loan.id), eq(lendingAllocations.status, 'open')));
  const [row] = await tx
    .update(lendingOrders)
    .set({ status: 'finished', finishReason: reason, finishedAt: new Date(cal.now()) })
    .where(eq(lendingOrders.id, loan.id))
    .returning();
  return row!;
}

/**
 * Pays the fees of every day of `loan` that is over by `today` and not yet paid (at most its term),
 * each at that day's reference price: the lender's rebate and, per allocation open on that day,
 * the borrower's fee. Stops at a day without a price (paid on a later run). Caller holds the
 * loan's row lock. Returns the updated row (unchanged when nothing was due or priced).
 */
async function accrue(
  tx: Tx,
  loan: LendingOrderRow,
  today: number,
  reference: ReferencePrice,
): Promise<LendingOrderRow> {
  const due = Math.min(today - loan.startDay, loan.days) - loan.accruedDays;
  if (due <= 0) return loan;
  const ref = { refType: 'lendingOrder', refId: loan.id } as const;
  let rebate = 0;
  let paid = 0;
  for (let k = 0; k < due; k++) {
    const day = loan.startDay + loan.accruedDays + k;
    const price = reference(loan.symbol, day);
    if (price === null || price <= 0) break;
    paid++;
    const fee = lendingFeeMinor(loan.shares, price, loan.rateBps);
    if (fee > 0) {
      await post(tx, {
        type: 'lendingRebate',
        ...ref,
        actorUserId: loan.userId,
        memo: `day ${day}`,
        postings: move({ platform: 'fee_revenue' }, { userId: loan.userId, purpose: 'available' }, fee),
      });
      rebate += fee;
    }
    await chargeBorrowers(tx, loan, day, price);
  }
  if (paid === 0) return loan;
  const [row] = await tx
    .update(lendingOrders)
    .set({ accruedDays: loan.accruedDays + paid, rebateMinor: loan.rebateMinor + rebate })
    .where(eq(lendingOrders.id, loan.id))
    .returning();
  return row!;
}

/** The borrow fee of business day `day` from every short that borrowed from `loan` on that day. */
async function chargeBorrowers(tx: Tx, loan: LendingOrderRow, day: number, price: number): Promise<void> {
  const allocations = await tx
    .select()
    .from(lendingAllocations)
    .where(
      and(
        eq(lendingAllocations.lendingOrderId, loan.id),
        sql`${lendingAllocations.startDay} <= ${day}`,
        sql`(${lendingAllocations.endDay} is null or ${lendingAllocations.endDay} > ${day})`,
      ),
    )
    .orderBy(asc(lendingAllocations.id))
    .for('update');
  for (const a of allocations) {
    const fee = lendingFeeMinor(a.shares, price, loan.rateBps);
    if (fee <= 0) continue;
    const entry = {
      type: 'stockLending' as const,
      refType: 'lendingAllocation',
      refId: a.id,
      actorUserId: a.userId,
      memo: `day ${day}`,
    };
    // A copied short's borrow fee is paid from its follow's pool, not the member's wallet.
    if ((await postCopyCashFlow(tx, a.shortOrderId, -fee, { platform: 'fee_revenue' }, entry)) === null) {
      const fromCash = Math.min(fee, Math.max(0, await lockedAvailable(tx, a.userId)));
      const postings: PostingInput[] = [
        { account: { userId: a.userId, purpose: 'available' }, amountMinor: -fromCash },
        { account: { userId: a.userId, purpose: 'debt' }, amountMinor: -(fee - fromCash) },
        { account: { platform: 'fee_revenue' }, amountMinor: fee },
      ];
      await post(tx, { ...entry, postings });
    }
    await tx
      .update(lendingAllocations)
      .set({ feeMinor: a.feeMinor + fee })
      .where(eq(lendingAllocations.id, a.id));
  }
}

/**
 * The lending steps due on `cal.today()`, each loan in its own transaction: allocations of shorts
 * that are no longer open are returned; loans whose position was closed (by force: the member's
 * close is refused) finish `positionClosed`; every loan pays the days that are over; loans whose
 * term is over expire; then holding shorts without a borrow are allocated lent shares still free
 * (allocateShorts). Idempotent: a second run on the same day changes nothing. Returns the number
 * of loans that changed.
 */
export async function runLendingDue(
  db: Db,
  cal: LendingCalendar,
  reference: ReferencePrice,
): Promise<number> {
  const today = cal.today();
  await db.execute(sql`
    update lending_allocations a set status = 'returned', end_day = ${today}
    from orders o
    where a.status = 'open' and o.id = a.short_order_id and o.status not in ('holding', 'closing')`);
  const loans = await db
    .select({ id: lendingOrders.id })
    .from(lendingOrders)
    .where(eq(lendingOrders.status, 'inLoan'))
    .orderBy(asc(lendingOrders.id));
  let changed = 0;
  for (const { id } of loans) {
    const did = await db.transaction(async (tx) => {
      const [loan] = await tx.select().from(lendingOrders).where(eq(lendingOrders.id, id)).for('update');
      if (!loan || loan.status !== 'inLoan') return false;
      const [pos] = await tx
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.id, loan.orderId));
      const paid = await accrue(tx, loan, today, reference);
      if (pos!.status !== 'holding') {
        await finish(tx, paid, 'positionClosed', cal);
        return true;
      }
      if (today >= paid.startDay + paid.days && paid.accruedDays === paid.days) {
        await finish(tx, paid, 'expired', cal);
        return true;
      }
      return paid !== loan;
    });
    if (did) changed++;
  }
  await allocateShorts(db, today);
  return changed;
}

/**
 * Allocates lent shares still free (in loan, not allocated) to holding short positions that have
 * none, oldest short first, from the oldest loans of the same instrument; a short takes at most
 * its own shares and may borrow from several loans. A short on an instrument without free lent
 * shares keeps trading as before, without a borrow.
 */
export async function allocateShorts(db: Db, today: number): Promise<number> {
  const shorts = await db
    .select({ id: orders.id, userId: orders.userId, symbol: orders.symbol, shares: orders.shares })
    .from(orders)
    .leftJoin(lendingAllocations, eq(lendingAllocations.shortOrderId, orders.id))
    .where(
      and(
        eq(orders.side, 'short'),
        eq(orders.status, 'holding'),
        isNull(lendingAllocations.id),
        inArray(
          orders.symbol,
          db
            .selectDistinct({ s: lendingOrders.symbol })
            .from(lendingOrders)
            .where(eq(lendingOrders.status, 'inLoan')),
        ),
      ),
    )
    .orderBy(asc(orders.id));
  let made = 0;
  for (const s of shorts) {
    made += await db.transaction(async (tx) => {
      const [short] = await tx.select().from(orders).where(eq(orders.id, s.id)).for('update');
      if (!short || short.status !== 'holding') return 0;
      const loans = await tx
        .select()
        .from(lendingOrders)
        .where(and(eq(lendingOrders.symbol, s.symbol), eq(lendingOrders.status, 'inLoan')))
        .orderBy(asc(lendingOrders.id))
        .for('update');
      let need = s.shares;
      let n = 0;
      for (const loan of loans) {
        if (need <= 0) break;
        const [r] = await tx
          .select({ n: sql<string>`coalesce(sum(${lendingAllocations.shares}), 0)` })
          .from(lendingAllocations)
          .where(and(eq(lendingAllocations.lendingOrderId, loan.id), eq(lendingAllocations.status, 'open')));
        const free = loan.shares - Number(r!.n);
        const take = Math.min(free, need);
        if (take <= 0) continue;
        await tx.insert(lendingAllocations).values({
          lendingOrderId: loan.id,
          shortOrderId: s.id,
          userId: s.userId,
          shares: take,
          startDay: today,
        });
        need -= take;
        n++;
      }
      return n;
    });
  }
  return made;
}

/**
 * The trading engine's close guard (engine option `closeGuard`): refuses the member's close of a
 * position with shares in loan. @throws AppError lendingSharesInLoan
 */
export async function refuseCloseInLoan(tx: Tx, order: Pick<OrderRow, 'id' | 'side'>): Promise<void> {
  if (order.side !== 'long') return;
  if ((await sharesInLoan(tx, order.id)) > 0) throw fail('lendingSharesInLoan');
}
