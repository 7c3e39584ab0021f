/**
 * ipo/* handlers (public subscription; contract/ipo.ts): list (open / upcoming / ended), detail
 * (every field of the spec's subscription entity, the member's application, the published draw),
 * apply and pay (money-moving: the request's transaction carries the idempotency key), the
 * member's records, and the public draw record anyone can verify.
 */
import { and, count, desc, eq, gt, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import {
  IPO_STEP_OFFSETS,
  ipoDiscountBps,
  ipoPayableMinor,
  ipoUnits,
  type IpoApplication,
  type IpoDraw,
  type IpoOffering,
  type IpoPhase,
} from '../../../contract/ipo';
import type { Db } from '../../db/client';
import { instruments, ipoApplications, ipoDraws, ipoOfferings } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';
import { requireUser, type Ctx, type Handlers } from '../common/context';
import { fail } from '../common/errors';
import { pageOf } from '../common/paging';
import { apply, pay, type ApplicationRow, type OfferingRow, type IpoCalendar } from './service';

/** An offering with its instrument's English short name (null when none, or not yet listed here). */
type NamedOffering = OfferingRow & { nameEn: string | null };

/** Offerings (`o`) joined with their instrument's English short name; callers add where/orderBy. */
const offeringsWithNameEn = (db: Db) =>
  db
    .select({ o: ipoOfferings, nameEn: instruments.nameEn })
    .from(ipoOfferings)
    .leftJoin(instruments, eq(instruments.symbol, ipoOfferings.symbol));

const named = (r: { o: OfferingRow; nameEn: string | null }): NamedOffering => ({ ...r.o, nameEn: r.nameEn });

function calendarOf(ctx: Ctx): IpoCalendar {
  return ctx.services.ipo.calendar;
}

function phaseOf(o: OfferingRow, today: number): IpoPhase {
  if (today < o.applyStartDay) return 'notStarted';
  return today <= o.applyStartDay + IPO_STEP_OFFSETS.lastApply ? 'inProgress' : 'ended';
}

function offeringDto(
  o: NamedOffering,
  cal: IpoCalendar,
  feed: Pick<MarketFeed, 'quote'>,
  applications: number,
  myStatus: IpoOffering['myStatus'],
): IpoOffering {
  const today = cal.today();
  const day = (k: number) => cal.label(o.applyStartDay + k);
  const q = feed.quote(o.symbol);
  // Priced from a replayed close: hidden until the offering opens (the close is then history).
  const fromClose = o.pricing === 'announcement' || o.pricing === 'rule';
  const shown = !fromClose || today >= o.applyStartDay;
  const ratio = o.ratioNum !== null && o.ratioDen !== null ? ipoDiscountBps(o.ratioNum, o.ratioDen) : null;
  return {
    id: o.id,
    symbol: o.symbol,
    name: o.name,
    nameEn: o.nameEn,
    marketType: o.marketType,
    priceMinor: shown ? o.priceMinor : null,
    pricing: o.pricing,
    referenceMinor: shown ? o.referenceMinor : null,
    referenceDate: shown && o.referenceDay !== null ? cal.label(o.referenceDay) : null,
    discountBps: ratio,
    sharesOffered: o.sharesOffered,
    sharesPerApplication: o.sharesPerApplication,
    units: ipoUnits(o.sharesOffered, o.sharesPerApplication),
    phase: phaseOf(o, today),
    stage: o.stage,
    applyStart: day(0),
    applyEnd: day(IPO_STEP_OFFSETS.lastApply),
    deductionDate: day(IPO_STEP_OFFSETS.deduction),
    drawDate: day(IPO_STEP_OFFSETS.draw),
    refundDate: day(IPO_STEP_OFFSETS.refund),
    listingDate: cal.label(o.listingDay),
    source: o.source.startsWith('twse:')
      ? {
          applyStart: o.realApplyStart,
          priceMinor: o.announcedPriceMinor ?? o.priceMinor,
          closeMinor: o.announcedCloseMinor,
          closeDate: o.announcedCloseDate,
        }
      : null,
    payableMinor: shown ? ipoPayableMinor(o.priceMinor, o.sharesPerApplication) : null,
    marketPriceMinor: q && q.traded && q.lastMinor > 0 ? q.lastMinor : null,
    // The announcements carry no earnings: shown as '--'.
    pe: null,
    industryPe: null,
    applications,
    myStatus,
  };
}

function applicationDto(a: ApplicationRow, o: NamedOffering, cal: IpoCalendar): IpoApplication {
  return {
    id: a.id,
    applicationNo: a.applicationNo,
    offeringId: a.offeringId,
    symbol: o.symbol,
    name: o.name,
    nameEn: o.nameEn,
    status: a.status,
    shares: a.shares,
    priceMinor: a.priceMinor,
    payableMinor: a.payableMinor,
    paidMinor: a.paidMinor,
    refundedMinor: a.refundedMinor,
    wonUnits: a.wonUnits,
    orderId: a.orderId,
    payable: a.status === 'unpaid' && o.stage === 'scheduled',
    drawDate: cal.label(o.applyStartDay + IPO_STEP_OFFSETS.draw),
    listingDate: cal.label(o.listingDay),
    createdAt: a.createdAt.getTime(),
  };
}

async function drawDto(db: Db, offeringId: number): Promise<IpoDraw> {
  const [d] = await db.select().from(ipoDraws).where(eq(ipoDraws.offeringId, offeringId));
  if (!d) throw fail('ipoNotFound');
  return {
    offeringId,
    commitment: d.commitment,
    seed: d.seed,
    units: d.units,
    oversubscribed: d.oversubscribed,
    qualified: d.qualified ?? [],
    winners: d.winners ?? [],
    drawnAt: d.drawnAt?.getTime() ?? null,
  };
}

/** Applications per offering (all but waived) and the member's own status, for `ids`. */
async function countsAndMine(db: Db, ids: number[], userId: number) {
  if (!ids.length) return { counts: new Map<number, number>(), mine: new Map<number, ApplicationRow>() };
  const counts = await db
    .select({ id: ipoApplications.offeringId, n: count() })
    .from(ipoApplications)
    .where(and(inArray(ipoApplications.offeringId, ids), ne(ipoApplications.status, 'waived')))
    .groupBy(ipoApplications.offeringId);
  const mine = await db
    .select()
    .from(ipoApplications)
    .where(and(inArray(ipoApplications.offeringId, ids), eq(ipoApplications.userId, userId)));
  return {
    counts: new Map(counts.map((r) => [r.id, Number(r.n)])),
    mine: new Map(mine.map((a) => [a.offeringId, a])),
  };
}

async function offeringOrFail(db: Db, id: number): Promise<NamedOffering> {
  const [r] = await offeringsWithNameEn(db).where(eq(ipoOfferings.id, id));
  if (!r) throw fail('ipoNotFound');
  return named(r);
}

export const ipoHandlers: Pick<
  Handlers,
  'ipo/list' | 'ipo/detail' | 'ipo/apply' | 'ipo/pay' | 'ipo/records' | 'ipo/draw'
> = {
  async 'ipo/list'(body, ctx) {
    const user = requireUser(ctx);
    const cal = calendarOf(ctx);
    const today = cal.today();
    const start = ipoOfferings.applyStartDay;
    const where: SQL | undefined =
      body.tab === 'upcoming'
        ? gt(start, today)
        : body.tab === 'ended'
          ? lt(start, today - IPO_STEP_OFFSETS.lastApply)
          : sql`${start} between ${today - IPO_STEP_OFFSETS.lastApply} and ${today}`;
    const order = body.tab === 'ended' ? [desc(start), desc(ipoOfferings.id)] : [start, ipoOfferings.id];
    const rows = offeringsWithNameEn(ctx.db)
      .where(where)
      .orderBy(...order);
    const page = await pageOf(ctx.db, rows, { table: ipoOfferings, where }, body);
    const { counts, mine } = await countsAndMine(
      ctx.db,
      page.items.map((r) => r.o.id),
      user.id,
    );
    return {
      ...page,
      items: page.items.map((r) =>
        offeringDto(named(r), cal, ctx.feed, counts.get(r.o.id) ?? 0, mine.get(r.o.id)?.status ?? null),
      ),
    };
  },

  async 'ipo/detail'(body, ctx) {
    const user = requireUser(ctx);
    const cal = calendarOf(ctx);
    const o = await offeringOrFail(ctx.db, body.id);
    const { counts, mine } = await countsAndMine(ctx.db, [o.id], user.id);
    const own = mine.get(o.id) ?? null;
    return {
      offering: offeringDto(o, cal, ctx.feed, counts.get(o.id) ?? 0, own?.status ?? null),
      application: own ? applicationDto(own, o, cal) : null,
      draw: await drawDto(ctx.db, o.id),
      today: cal.label(cal.today()),
    };
  },

  async 'ipo/apply'(body, ctx) {
    const user = requireUser(ctx);
    if (user.tradeBanned || user.frozen) throw fail('cannotWithdrawOrTrade');
    const cal = calendarOf(ctx);
    const a = await apply(ctx.db, user.id, body.offeringId, cal.today());
    return applicationDto(a, await offeringOrFail(ctx.db, a.offeringId), cal);
  },

  async 'ipo/pay'(body, ctx) {
    const user = requireUser(ctx);
    if (user.tradeBanned || user.frozen) throw fail('cannotWithdrawOrTrade');
    const cal = calendarOf(ctx);
    const a = await pay(ctx.db, user.id, body.applicationId);
    return applicationDto(a, await offeringOrFail(ctx.db, a.offeringId), cal);
  },

  async 'ipo/records'(body, ctx) {
    const user = requireUser(ctx);
    const cal = calendarOf(ctx);
    const where = and(
      eq(ipoApplications.userId, user.id),
      body.status ? eq(ipoApplications.status, body.status) : undefined,
    );
    const rows = ctx.db
      .select({ a: ipoApplications, o: ipoOfferings, nameEn: instruments.nameEn })
      .from(ipoApplications)
      .innerJoin(ipoOfferings, eq(ipoOfferings.id, ipoApplications.offeringId))
      .leftJoin(instruments, eq(instruments.symbol, ipoOfferings.symbol))
      .where(where)
      .orderBy(desc(ipoApplications.id));
    const page = await pageOf(ctx.db, rows, { table: ipoApplications, where }, body);
    return { ...page, items: page.items.map((r) => applicationDto(r.a, named(r), cal)) };
  },

  async 'ipo/draw'(body, ctx) {
    await offeringOrFail(ctx.db, body.id);
    return drawDto(ctx.db, body.id);
  },
};
