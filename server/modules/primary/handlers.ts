/**
 * Operator offerings (admin/offerings, admin/saveOffering) and member auctions (auction/list,
 * auction/bid — money-moving, the request's transaction carries the idempotency key —,
 * auction/bids) on the market clock of the public-subscription runner (server/modules/ipo).
 */
import { and, count, desc, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  OFFERING_PICKER_DAYS,
  auctionCapLots,
  type Auction,
  type AuctionBidDto,
  type PrimaryApplicationDto,
} from '../../../contract/primary';
import { quoteHasLimits } from '../../../contract/market';
import type { Db } from '../../db/client';
import { auctionBids, primaryApplications, primaryOfferings, users } from '../../db/schema';
import { requireUser, type Ctx, type Handlers } from '../common/context';
import { fail } from '../common/errors';
import { withNameEn, withNamesEn } from '../common/names-en';
import { pageOf, type PageQuery } from '../common/paging';
import type { IpoCalendar } from '../ipo/service';
import { allocationDay, placeBid, type AuctionBidRow, type PrimaryOfferingRow } from './auction';
import { listOfferings, saveOffering } from './offerings';
import {
  applyPrimary,
  blockTradePasswordState,
  reviewPrimary,
  setBlockTradePassword,
  verifyBlockTradePassword,
  type PrimaryApplicationRow,
} from './applications';

/** Page `q` of the offerings matching `where`, latest start first (then newest). */
const offeringsPage = (db: Db, where: SQL | undefined, q: PageQuery) =>
  pageOf(
    db,
    db
      .select()
      .from(primaryOfferings)
      .where(where)
      .orderBy(desc(primaryOfferings.startDay), desc(primaryOfferings.id)),
    { table: primaryOfferings, where },
    q,
  );

function calendarOf(ctx: Ctx): IpoCalendar {
  return ctx.services.ipo.calendar;
}

function auctionDto(o: PrimaryOfferingRow, cal: IpoCalendar, myBids: number): Omit<Auction, 'nameEn'> {
  const today = cal.today();
  const revealed = o.stage !== 'scheduled';
  return {
    id: o.id,
    symbol: o.symbol,
    name: o.name,
    minPriceMinor: o.priceMinor,
    lots: o.lots,
    depositBps: o.depositBps,
    capLots: auctionCapLots(o.lots, o.capBps),
    phase: today < o.startDay ? 'notStarted' : today <= o.endDay ? 'inProgress' : 'ended',
    stage: o.stage,
    bidStart: cal.label(o.startDay),
    bidEnd: cal.label(o.endDay),
    allocationDate: cal.label(allocationDay(o)),
    listingDate: cal.label(o.listingDay),
    weightedAverageMinor: o.weightedAverageMinor,
    listingPriceMinor: o.listingPriceMinor,
    commitment: o.commitment,
    seed: revealed ? o.seed : null,
    myBids,
  };
}

function bidDto(
  b: AuctionBidRow,
  o: Pick<PrimaryOfferingRow, 'symbol' | 'name'>,
): Omit<AuctionBidDto, 'nameEn'> {
  return {
    id: b.id,
    bidNo: b.bidNo,
    offeringId: b.offeringId,
    symbol: o.symbol,
    name: o.name,
    priceMinor: b.priceMinor,
    lots: b.lots,
    depositMinor: b.depositMinor,
    lotsWon: b.lotsWon,
    balanceMinor: b.balanceMinor,
    status: b.status,
    orderId: b.orderId,
    createdAt: b.createdAt.getTime(),
  };
}

async function myBidCounts(db: Db, ids: number[], userId: number): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: auctionBids.offeringId, n: count() })
    .from(auctionBids)
    .where(and(inArray(auctionBids.offeringId, ids), eq(auctionBids.userId, userId)))
    .groupBy(auctionBids.offeringId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

function applicationDto(
  a: PrimaryApplicationRow,
  o: Pick<PrimaryOfferingRow, 'kind' | 'symbol' | 'name'>,
  account: string,
): Omit<PrimaryApplicationDto, 'nameEn'> {
  return {
    id: a.id,
    applicationNo: a.applicationNo,
    offeringId: a.offeringId,
    kind: o.kind === 'placement' ? 'placement' : 'blockTrade',
    symbol: o.symbol,
    name: o.name,
    userId: a.userId,
    account,
    priceMinor: a.priceMinor,
    lots: a.lots,
    amountMinor: a.amountMinor,
    status: a.status,
    reason: a.reason,
    orderId: a.orderId,
    createdAt: a.createdAt.getTime(),
    reviewedAt: a.reviewedAt?.getTime() ?? null,
  };
}

/** Applications (the member's own when `userId` is given), newest first, with their offerings. */
async function applicationsPage(
  db: Db,
  q: {
    userId?: number;
    kind?: 'blockTrade' | 'placement';
    status?: PrimaryApplicationRow['status'];
    page: number;
    pageSize: number;
  },
) {
  const where = and(
    q.userId === undefined ? undefined : eq(primaryApplications.userId, q.userId),
    q.kind ? eq(primaryOfferings.kind, q.kind) : undefined,
    q.status ? eq(primaryApplications.status, q.status) : undefined,
  );
  const total = db
    .select({ n: count() })
    .from(primaryApplications)
    .innerJoin(primaryOfferings, eq(primaryOfferings.id, primaryApplications.offeringId))
    .where(where);
  const rows = db
    .select({ a: primaryApplications, o: primaryOfferings, account: users.account })
    .from(primaryApplications)
    .innerJoin(primaryOfferings, eq(primaryOfferings.id, primaryApplications.offeringId))
    .innerJoin(users, eq(users.id, primaryApplications.userId))
    .where(where)
    .orderBy(desc(primaryApplications.id));
  const page = await pageOf(db, rows, { query: total }, q);
  return {
    ...page,
    items: await withNamesEn(
      db,
      page.items.map((r) => applicationDto(r.a, r.o, r.account)),
    ),
  };
}

/** The day's limits of `symbol`; null when unknown or when the day has none (Quote.priceLimits). */
const limitsOf = (ctx: Ctx) => (symbol: string) => {
  const q = ctx.feed.quote(symbol);
  return q && quoteHasLimits(q) ? { limitUpMinor: q.limitUpMinor, limitDownMinor: q.limitDownMinor } : null;
};

async function withOffering(db: Db, a: PrimaryApplicationRow): Promise<PrimaryApplicationDto> {
  const [o] = await db.select().from(primaryOfferings).where(eq(primaryOfferings.id, a.offeringId));
  const [u] = await db.select({ account: users.account }).from(users).where(eq(users.id, a.userId));
  return withNameEn(db, applicationDto(a, o!, u!.account));
}

export const primaryHandlers: Pick<
  Handlers,
  | 'admin/offerings'
  | 'admin/saveOffering'
  | 'auction/list'
  | 'auction/bid'
  | 'auction/bids'
  | 'user/setBlockTradePassword'
  | 'user/blockTradePassword'
  | 'blockTrade/offerings'
  | 'blockTrade/apply'
  | 'placement/apply'
  | 'primary/applications'
  | 'admin/primaryApplications'
  | 'admin/approvePrimary'
  | 'admin/rejectPrimary'
> = {
  async 'user/setBlockTradePassword'(body, ctx) {
    const user = requireUser(ctx);
    const outcome = await setBlockTradePassword(ctx.db, user.id, body.password, body.oldPassword);
    return { ok: true as const, outcome };
  },

  async 'user/blockTradePassword'(_body, ctx) {
    const user = requireUser(ctx);
    return blockTradePasswordState(ctx.db, user.id);
  },

  async 'blockTrade/offerings'(body, ctx) {
    requireUser(ctx);
    const cal = calendarOf(ctx);
    const today = cal.today();
    const where = and(eq(primaryOfferings.kind, body.kind), sql`${primaryOfferings.endDay} >= ${today - 10}`);
    const page = await offeringsPage(ctx.db, where, body);
    const rows = page.items;
    const ids = rows.map((r) => r.id);
    const taken = ids.length
      ? await ctx.db
          .select({
            id: primaryApplications.offeringId,
            lots: sql<number>`sum(${primaryApplications.lots})::int`,
          })
          .from(primaryApplications)
          .where(
            and(
              inArray(primaryApplications.offeringId, ids),
              inArray(primaryApplications.status, ['pendingReview', 'approved']),
            ),
          )
          .groupBy(primaryApplications.offeringId)
      : [];
    const takenById = new Map(taken.map((t) => [t.id, Number(t.lots)]));
    const limits = limitsOf(ctx);
    return {
      ...page,
      items: await withNamesEn(
        ctx.db,
        rows.map((o) => {
          const l = limits(o.symbol);
          return {
            id: o.id,
            kind: o.kind === 'placement' ? ('placement' as const) : ('blockTrade' as const),
            symbol: o.symbol,
            name: o.name,
            priceMinor: o.priceMinor,
            lots: o.lots,
            lotsLeft: o.lots - (takenById.get(o.id) ?? 0),
            limitUpMinor: l?.limitUpMinor ?? null,
            limitDownMinor: l?.limitDownMinor ?? null,
            phase:
              today < o.startDay
                ? ('notStarted' as const)
                : today <= o.endDay
                  ? ('inProgress' as const)
                  : ('ended' as const),
            startDate: cal.label(o.startDay),
            endDate: cal.label(o.endDay),
          };
        }),
      ),
    };
  },

  async 'blockTrade/apply'(body, ctx) {
    const user = requireUser(ctx);
    if (user.tradeBanned || user.frozen) throw fail('cannotWithdrawOrTrade');
    await verifyBlockTradePassword(ctx.db, user.id, body.password);
    const a = await applyPrimary(
      ctx.db,
      {
        userId: user.id,
        offeringId: body.offeringId,
        kind: 'blockTrade',
        priceMinor: body.priceMinor,
        lots: body.lots,
      },
      calendarOf(ctx),
      limitsOf(ctx),
    );
    return withOffering(ctx.db, a);
  },

  async 'placement/apply'(body, ctx) {
    const user = requireUser(ctx);
    if (user.tradeBanned || user.frozen) throw fail('cannotWithdrawOrTrade');
    const a = await applyPrimary(
      ctx.db,
      { userId: user.id, offeringId: body.offeringId, kind: 'placement', lots: body.lots },
      calendarOf(ctx),
      limitsOf(ctx),
    );
    return withOffering(ctx.db, a);
  },

  async 'primary/applications'(body, ctx) {
    const user = requireUser(ctx);
    return applicationsPage(ctx.db, { ...body, userId: user.id });
  },

  async 'admin/primaryApplications'(body, ctx) {
    return applicationsPage(ctx.db, body);
  },

  async 'admin/approvePrimary'(body, ctx) {
    const op = requireUser(ctx);
    const a = await reviewPrimary(
      ctx.db,
      { id: body.id, operatorId: op.id, decision: 'approved', reason: null },
      calendarOf(ctx),
    );
    return withOffering(ctx.db, a);
  },

  async 'admin/rejectPrimary'(body, ctx) {
    const op = requireUser(ctx);
    const a = await reviewPrimary(
      ctx.db,
      { id: body.id, operatorId: op.id, decision: 'rejected', reason: body.reason },
      calendarOf(ctx),
    );
    return withOffering(ctx.db, a);
  },

  async 'admin/offerings'(body, ctx) {
    const cal = calendarOf(ctx);
    const { items, total } = await listOfferings(ctx.db, cal, body);
    const today = cal.today();
    const days = Array.from({ length: OFFERING_PICKER_DAYS }, (_, i) => ({
      day: today + i,
      date: cal.label(today + i),
    }));
    return {
      items,
      total,
      page: body.page,
      pageSize: body.pageSize,
      today,
      todayDate: cal.label(today),
      days,
    };
  },

  async 'admin/saveOffering'(body, ctx) {
    const op = requireUser(ctx);
    return saveOffering(ctx.db, op.id, body, calendarOf(ctx));
  },

  async 'auction/list'(body, ctx) {
    const user = requireUser(ctx);
    const cal = calendarOf(ctx);
    const today = cal.today();
    const tabWhere: SQL =
      body.tab === 'upcoming'
        ? gt(primaryOfferings.startDay, today)
        : body.tab === 'ended'
          ? lt(primaryOfferings.endDay, today)
          : sql`${today} between ${primaryOfferings.startDay} and ${primaryOfferings.endDay}`;
    const where = and(eq(primaryOfferings.kind, 'auction'), tabWhere);
    const page = await offeringsPage(ctx.db, where, body);
    const mine = await myBidCounts(
      ctx.db,
      page.items.map((r) => r.id),
      user.id,
    );
    return {
      ...page,
      items: await withNamesEn(
        ctx.db,
        page.items.map((o) => auctionDto(o, cal, mine.get(o.id) ?? 0)),
      ),
    };
  },

  async 'auction/bid'(body, ctx) {
    const user = requireUser(ctx);
    if (user.tradeBanned || user.frozen) throw fail('cannotWithdrawOrTrade');
    const cal = calendarOf(ctx);
    const b = await placeBid(ctx.db, { userId: user.id, ...body }, cal.today(), cal.timeOfDayMs?.() ?? null);
    const [o] = await ctx.db.select().from(primaryOfferings).where(eq(primaryOfferings.id, b.offeringId));
    return withNameEn(ctx.db, bidDto(b, o!));
  },

  async 'auction/bids'(body, ctx) {
    const user = requireUser(ctx);
    const where = and(
      eq(auctionBids.userId, user.id),
      body.status ? eq(auctionBids.status, body.status) : undefined,
    );
    const rows = ctx.db
      .select({ b: auctionBids, o: primaryOfferings })
      .from(auctionBids)
      .innerJoin(primaryOfferings, eq(primaryOfferings.id, auctionBids.offeringId))
      .where(where)
      .orderBy(desc(auctionBids.id));
    const page = await pageOf(ctx.db, rows, { table: auctionBids, where }, body);
    return {
      ...page,
      items: await withNamesEn(
        ctx.db,
        page.items.map((r) => bidDto(r.b, r.o)),
      ),
    };
  },
};
