/**
 * lending/* handlers (contract/lending.ts): the member's lendable holdings and the channel's terms,
 * lend and recall (money-moving: the request's transaction carries the idempotency key), the
 * member's lending orders, the margin loan / short sale view; and the operator's lending panel
 * (channel, quotas, orders; audited `lending.*`).
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { LendingOrder, MarginPosition } from '../../../contract/lending';
import type { Db } from '../../db/client';
import {
  instruments,
  lendingAllocations,
  lendingChannel,
  lendingOrders,
  lendingQuotas,
  orders,
  users,
} from '../../db/schema';
import { audit } from '../common/audit';
import type { InstrumentNames } from '../trading/engine';
import { requireUser, type Ctx, type Handlers } from '../common/context';
import { fail } from '../common/errors';
import { pageOf } from '../common/paging';
import { loadAccountRisk } from '../risk/account-risk';
import { currentReferenceOf, referenceOf } from './runner';
import { channelOf, isLendable, lend, recall, type LendingCalendar, type LendingOrderRow } from './service';

function calendarOf(ctx: Ctx): LendingCalendar {
  return ctx.services.ipo.calendar;
}

/**
 * The Chinese and English short names of `symbols`, by symbol: an unknown symbol names itself
 * (nameEn null).
 */
async function namesOf(db: Db, symbols: string[]): Promise<(symbol: string) => InstrumentNames> {
  const rows = symbols.length
    ? await db
        .select({ symbol: instruments.symbol, name: instruments.name, nameEn: instruments.nameEn })
        .from(instruments)
        .where(inArray(instruments.symbol, [...new Set(symbols)]))
    : [];
  const bySymbol = new Map(rows.map((r) => [r.symbol, { name: r.name, nameEn: r.nameEn }]));
  return (symbol) => bySymbol.get(symbol) ?? { name: symbol, nameEn: null };
}

/** Open allocated shares per lending order (or per short order with `by: 'short'`). */
async function openAllocated(db: Db, ids: number[], by: 'loan' | 'short'): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const col = by === 'loan' ? lendingAllocations.lendingOrderId : lendingAllocations.shortOrderId;
  const rows = await db
    .select({ id: col, n: sql<string>`coalesce(sum(${lendingAllocations.shares}), 0)` })
    .from(lendingAllocations)
    .where(and(inArray(col, ids), eq(lendingAllocations.status, 'open')))
    .groupBy(col);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

async function toDtos(db: Db, rows: LendingOrderRow[], cal: LendingCalendar): Promise<LendingOrder[]> {
  const names = await namesOf(
    db,
    rows.map((r) => r.symbol),
  );
  const borrowed = await openAllocated(
    db,
    rows.map((r) => r.id),
    'loan',
  );
  return rows.map((r) => ({
    id: r.id,
    lendingNo: r.lendingNo,
    orderId: r.orderId,
    symbol: r.symbol,
    ...names(r.symbol),
    shares: r.shares,
    rateBps: r.rateBps,
    days: r.days,
    status: r.status,
    finishReason: r.finishReason,
    startDate: cal.label(r.startDay),
    daysLeft: r.status === 'inLoan' ? Math.max(0, r.startDay + r.days - cal.today()) : 0,
    accruedDays: r.accruedDays,
    rebateMinor: r.rebateMinor,
    borrowedShares: borrowed.get(r.id) ?? 0,
    createdAt: r.createdAt.getTime(),
    finishedAt: r.finishedAt?.getTime() ?? null,
  }));
}

export const lendingHandlers: Pick<
  Handlers,
  | 'lending/overview'
  | 'lending/lend'
  | 'lending/recall'
  | 'lending/orders'
  | 'lending/margin'
  | 'admin/lending'
  | 'admin/saveLendingChannel'
  | 'admin/saveLendingQuota'
> = {
  async 'lending/overview'(_body, ctx) {
    const user = requireUser(ctx);
    const channel = await channelOf(ctx.db);
    const held = (
      await ctx.db
        .select()
        .from(orders)
        .where(and(eq(orders.userId, user.id), eq(orders.status, 'holding'), eq(orders.side, 'long')))
        .orderBy(desc(orders.id))
    ).filter(isLendable);
    const ids = held.map((o) => o.id);
    const inLoan = ids.length
      ? await ctx.db
          .select({ id: lendingOrders.orderId, n: sql<string>`sum(${lendingOrders.shares})` })
          .from(lendingOrders)
          .where(and(inArray(lendingOrders.orderId, ids), eq(lendingOrders.status, 'inLoan')))
          .groupBy(lendingOrders.orderId)
      : [];
    const lent = new Map(inLoan.map((r) => [r.id, Number(r.n)]));
    const symbols = held.map((o) => o.symbol);
    const quotas = symbols.length
      ? await ctx.db.select().from(lendingQuotas).where(inArray(lendingQuotas.symbol, symbols))
      : [];
    const quota = new Map(quotas.map((q) => [q.symbol, q]));
    const names = await namesOf(ctx.db, symbols);
    const reference = currentReferenceOf(ctx.feed);
    const [total] = await ctx.db
      .select({ n: sql<string>`coalesce(sum(${lendingOrders.rebateMinor}), 0)` })
      .from(lendingOrders)
      .where(eq(lendingOrders.userId, user.id));
    return {
      channelOpen: channel.open,
      rateCapBps: channel.rateCapBps,
      maxDays: channel.maxDays,
      rebateTotalMinor: Number(total!.n),
      holdings: held.map((o) => ({
        orderId: o.id,
        symbol: o.symbol,
        ...names(o.symbol),
        shares: o.shares,
        lendableShares: o.shares - (lent.get(o.id) ?? 0),
        referenceMinor: reference(o.symbol) ?? o.openPriceMinor ?? 0,
        quotaShares: quota.get(o.symbol)?.quotaShares ?? 0,
        lentShares: quota.get(o.symbol)?.lentShares ?? 0,
      })),
    };
  },

  async 'lending/lend'(body, ctx) {
    const user = requireUser(ctx);
    if (user.tradeBanned || user.frozen) throw fail('cannotWithdrawOrTrade');
    const cal = calendarOf(ctx);
    const row = await lend(ctx.db, user.id, body, cal.today());
    return (await toDtos(ctx.db, [row], cal))[0]!;
  },

  async 'lending/recall'(body, ctx) {
    const user = requireUser(ctx);
    const cal = calendarOf(ctx);
    const row = await recall(ctx.db, user.id, body.id, cal, referenceOf(ctx.feed));
    return (await toDtos(ctx.db, [row], cal))[0]!;
  },

  async 'lending/orders'(body, ctx) {
    const user = requireUser(ctx);
    const cal = calendarOf(ctx);
    const where = and(
      eq(lendingOrders.userId, user.id),
      body.status ? eq(lendingOrders.status, body.status) : undefined,
    );
    const rows = ctx.db.select().from(lendingOrders).where(where).orderBy(desc(lendingOrders.id));
    const page = await pageOf(ctx.db, rows, { table: lendingOrders, where }, body);
    return { ...page, items: await toDtos(ctx.db, page.items, cal) };
  },

  async 'lending/margin'(_body, ctx) {
    const user = requireUser(ctx);
    const thresholds = { marginCallBps: ctx.config.marginCallBps, maintenanceBps: ctx.config.maintenanceBps };
    const snap = await loadAccountRisk(ctx.db, ctx.feed, user.id, thresholds);
    const risk = new Map(snap.risk.positions.map((p) => [p.id, p]));
    const names = await namesOf(
      ctx.db,
      snap.holdings.map((h) => h.symbol),
    );
    const shortIds = snap.holdings.filter((h) => h.side === 'short').map((h) => h.id);
    const borrowed = await openAllocated(ctx.db, shortIds, 'short');
    const feeRows = shortIds.length
      ? await ctx.db
          .select({
            id: lendingAllocations.shortOrderId,
            fee: sql<string>`sum(${lendingAllocations.feeMinor})`,
          })
          .from(lendingAllocations)
          .where(inArray(lendingAllocations.shortOrderId, shortIds))
          .groupBy(lendingAllocations.shortOrderId)
      : [];
    const borrowFees = new Map(feeRows.map((r) => [r.id, Number(r.fee)]));
    const dto = (h: (typeof snap.holdings)[number]): MarginPosition => {
      const p = risk.get(h.id)!;
      const openValue = h.openValueMinor!;
      return {
        orderId: h.id,
        symbol: h.symbol,
        ...names(h.symbol),
        side: h.side as 'long' | 'short',
        shares: h.shares,
        leverage: h.leverage,
        openPriceMinor: h.openPriceMinor!,
        markMinor: p.markMinor,
        marginMinor: h.marginMinor,
        financedMinor: h.side === 'long' ? Math.max(0, openValue - h.marginMinor) : openValue,
        unrealisedPnlMinor: p.unrealisedPnlMinor,
        ratioBps: p.ratioBps,
        liquidationPriceMinor: p.liquidationPriceMinor,
        feesMinor: h.openFeeMinor + h.openTaxMinor + (borrowFees.get(h.id) ?? 0),
        borrowedShares: borrowed.get(h.id) ?? 0,
      };
    };
    return {
      ...thresholds,
      usedMarginMinor: snap.risk.usedMarginMinor,
      equityMinor: snap.risk.equityMinor,
      ratioBps: snap.risk.ratioBps,
      level: snap.risk.level,
      marginLoans: snap.holdings.filter((h) => h.side === 'long' && h.leverage > 1).map(dto),
      shortSales: snap.holdings.filter((h) => h.side === 'short').map(dto),
    };
  },

  async 'admin/lending'(_body, ctx) {
    requireUser(ctx);
    const cal = calendarOf(ctx);
    const channel = await channelOf(ctx.db);
    const quotas = await ctx.db.select().from(lendingQuotas).orderBy(lendingQuotas.symbol);
    const names = await namesOf(
      ctx.db,
      quotas.map((q) => q.symbol),
    );
    const rows = await ctx.db
      .select({ o: lendingOrders, account: users.account })
      .from(lendingOrders)
      .innerJoin(users, eq(users.id, lendingOrders.userId))
      .orderBy(desc(lendingOrders.id))
      .limit(100);
    const dtos = await toDtos(
      ctx.db,
      rows.map((r) => r.o),
      cal,
    );
    return {
      channelOpen: channel.open,
      rateCapBps: channel.rateCapBps,
      maxDays: channel.maxDays,
      quotas: quotas.map((q) => ({
        symbol: q.symbol,
        ...names(q.symbol),
        quotaShares: q.quotaShares,
        lentShares: q.lentShares,
      })),
      orders: dtos.map((d, i) => ({ ...d, account: rows[i]!.account })),
    };
  },

  async 'admin/saveLendingChannel'(body, ctx) {
    const op = requireUser(ctx);
    await ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(lendingChannel).where(eq(lendingChannel.id, 1)).for('update');
      const [after] = await tx
        .update(lendingChannel)
        .set({
          open: body.channelOpen,
          rateCapBps: body.rateCapBps,
          maxDays: body.maxDays,
          updatedAt: new Date(),
        })
        .where(eq(lendingChannel.id, 1))
        .returning();
      await audit(tx, {
        actorUserId: op.id,
        action: 'lending.channel',
        targetType: 'lendingChannel',
        targetId: 1,
        before,
        after,
      });
    });
    return { ok: true as const };
  },

  async 'admin/saveLendingQuota'(body, ctx) {
    const op = requireUser(ctx);
    const [inst] = await ctx.db
      .select({ symbol: instruments.symbol })
      .from(instruments)
      .where(eq(instruments.symbol, body.symbol));
    if (!inst) throw fail('productNotFound');
    await ctx.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(lendingQuotas)
        .where(eq(lendingQuotas.symbol, body.symbol))
        .for('update');
      const [after] = await tx
        .insert(lendingQuotas)
        .values({ symbol: body.symbol, quotaShares: body.quotaShares })
        .onConflictDoUpdate({
          target: lendingQuotas.symbol,
          set: { quotaShares: body.quotaShares, updatedAt: new Date() },
        })
        .returning();
      await audit(tx, {
        actorUserId: op.id,
        action: 'lending.quota',
        targetType: 'lendingQuota',
        targetId: body.symbol,
        before: before ?? null,
        after,
      });
    });
    return { ok: true as const };
  },
};
