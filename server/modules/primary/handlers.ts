/**
 * Operator offerings (admin/offerings, admin/saveOffering) and member auctions (auction/list,
 * auction/bid — money-moving, the request's transaction carries the idempotency key —,
 * auction/bids) on the market clock of the public-subscription runner (server/modules/ipo).
 */
import { and, count, desc, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { auctionCapLots, type Auction, type AuctionBidDto } from '../../../contract/primary';
import type { Db } from '../../db/client';
import { auctionBids, primaryOfferings } from '../../db/schema';
import { requireUser, type Ctx, type Handlers } from '../common/context';
import { fail } from '../common/errors';
import { ipoRunnerOf } from '../ipo/runner';
import type { IpoCalendar } from '../ipo/service';
import { allocationDay, placeBid, type AuctionBidRow, type PrimaryOfferingRow } from './auction';
import { listOfferings, saveOffering } from './offerings';

function calendarOf(ctx: Ctx): IpoCalendar {
  const runner = ipoRunnerOf(ctx.feed);
  if (!runner) throw new Error('no market-clock runner for this feed');
  return runner.calendar;
}

function auctionDto(o: PrimaryOfferingRow, cal: IpoCalendar, myBids: number): Auction {
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

function bidDto(b: AuctionBidRow, o: Pick<PrimaryOfferingRow, 'symbol' | 'name'>): AuctionBidDto {
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

export const primaryHandlers: Pick<
  Handlers,
  'admin/offerings' | 'admin/saveOffering' | 'auction/list' | 'auction/bid' | 'auction/bids'
> = {
  async 'admin/offerings'(body, ctx) {
    const cal = calendarOf(ctx);
    const { items, total } = await listOfferings(ctx.db, cal, body);
    const today = cal.today();
    return { items, total, page: body.page, pageSize: body.pageSize, today, todayDate: cal.label(today) };
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
    const [{ n }] = (await ctx.db.select({ n: count() }).from(primaryOfferings).where(where)) as [
      { n: number },
    ];
    const rows = await ctx.db
      .select()
      .from(primaryOfferings)
      .where(where)
      .orderBy(desc(primaryOfferings.startDay), desc(primaryOfferings.id))
      .limit(body.pageSize)
      .offset((body.page - 1) * body.pageSize);
    const mine = await myBidCounts(
      ctx.db,
      rows.map((r) => r.id),
      user.id,
    );
    return {
      items: rows.map((o) => auctionDto(o, cal, mine.get(o.id) ?? 0)),
      total: Number(n),
      page: body.page,
      pageSize: body.pageSize,
    };
  },

  async 'auction/bid'(body, ctx) {
    const user = requireUser(ctx);
    if (user.tradeBanned || user.frozen) throw fail('cannotWithdrawOrTrade');
    const cal = calendarOf(ctx);
    const b = await placeBid(ctx.db, { userId: user.id, ...body }, cal.today(), cal.timeOfDayMs?.() ?? null);
    const [o] = await ctx.db.select().from(primaryOfferings).where(eq(primaryOfferings.id, b.offeringId));
    return bidDto(b, o!);
  },

  async 'auction/bids'(body, ctx) {
    const user = requireUser(ctx);
    const where = and(
      eq(auctionBids.userId, user.id),
      body.status ? eq(auctionBids.status, body.status) : undefined,
    );
    const [{ n }] = (await ctx.db.select({ n: count() }).from(auctionBids).where(where)) as [{ n: number }];
    const rows = await ctx.db
      .select({ b: auctionBids, o: primaryOfferings })
      .from(auctionBids)
      .innerJoin(primaryOfferings, eq(primaryOfferings.id, auctionBids.offeringId))
      .where(where)
      .orderBy(desc(auctionBids.id))
      .limit(body.pageSize)
      .offset((body.page - 1) * body.pageSize);
    return {
      items: rows.map((r) => bidDto(r.b, r.o)),
      total: Number(n),
      page: body.page,
      pageSize: body.pageSize,
    };
  },
};
