/**
 * The operator console's offerings: create and edit public subscriptions (ipo_offerings, through
 * server/modules/ipo/schedule.ts createOffering) and auctions, block trades and placements
 * (primary_offerings) on an instrument, each change audited in its transaction
 * (server/modules/common/audit.ts: offering.create / offering.update with the record before and
 * after). Days are market-clock business days.
 *
 * Rules checked, each refused with its own key (offeringRuleBroken): the instrument exists
 * (offeringSymbolUnknown); the first day is today or later (offeringStartPast); a subscription
 * offers at least one application (offeringSharesPerApplication) and lists after its refund day
 * (listing day > first apply day + 5, subscriptionListingTooEarly); an auction bids on three
 * business days (end = start + 2, contract/primary.ts AUCTION_BID_DAYS), allocates the day after
 * and lists after that (listing day > start + 3, auctionListingTooEarly), its tranche has at least
 * 10 lots (so the 10 % cap is one lot or more, auctionTrancheTooSmall); a block trade offers at
 * least the block-trade minimum (500 lots or NT$15M at its price, blockTradeOfferingTooSmall); a
 * block trade or placement ends on or after its start (offeringEndBeforeStart) and delivers after
 * its end (offeringDeliveryTooEarly). An offering whose first day has come cannot be edited
 * (offeringLocked).
 */
import { randomBytes } from 'node:crypto';
import { count, desc, eq, inArray } from 'drizzle-orm';
import { IPO_STEP_OFFSETS, drawCommitment, ipoUnits } from '../../../contract/ipo';
import {
  AUCTION_BID_DAYS,
  SHARES_PER_LOT,
  auctionCapLots,
  meetsBlockTradeMinimum,
  type AdminOffering,
  type OfferingKind,
  type SaveOfferingReq,
} from '../../../contract/primary';
import type { ErrorKey } from '../../../contract/errors';
import type { Db, Tx } from '../../db/client';
import {
  auctionBids,
  instruments,
  ipoApplications,
  ipoDraws,
  ipoOfferings,
  primaryApplications,
  primaryOfferings,
} from '../../db/schema';
import { fail } from '../common/errors';
import { audit } from '../common/audit';
import { pageOf } from '../common/paging';
import { createOffering } from '../ipo/schedule';
import type { IpoCalendar } from '../ipo/service';
import type { PrimaryOfferingRow } from './auction';

type IpoRow = typeof ipoOfferings.$inferSelect;

/** A subscription as the console lists it. */
export function subscriptionDto(o: IpoRow, cal: IpoCalendar, entries: number): AdminOffering {
  const endDay = o.applyStartDay + IPO_STEP_OFFSETS.lastApply;
  return {
    kind: 'subscription',
    id: o.id,
    symbol: o.symbol,
    name: o.name,
    priceMinor: o.priceMinor,
    lots: Math.floor(o.sharesOffered / SHARES_PER_LOT),
    sharesPerApplication: o.sharesPerApplication,
    depositBps: null,
    capBps: null,
    startDay: o.applyStartDay,
    endDay,
    listingDay: o.listingDay,
    startDate: cal.label(o.applyStartDay),
    endDate: cal.label(endDay),
    listingDate: cal.label(o.listingDay),
    stage: o.stage,
    listingPriceMinor: null,
    entries,
    editable: o.stage === 'scheduled' && cal.today() < o.applyStartDay,
  };
}

/** An auction, block trade or placement as the console lists it. */
export function primaryDto(o: PrimaryOfferingRow, cal: IpoCalendar, entries: number): AdminOffering {
  return {
    kind: o.kind,
    id: o.id,
    symbol: o.symbol,
    name: o.name,
    priceMinor: o.priceMinor,
    lots: o.lots,
    sharesPerApplication: null,
    depositBps: o.kind === 'auction' ? o.depositBps : null,
    capBps: o.kind === 'auction' ? o.capBps : null,
    startDay: o.startDay,
    endDay: o.endDay,
    listingDay: o.listingDay,
    startDate: cal.label(o.startDay),
    endDate: cal.label(o.endDay),
    listingDate: cal.label(o.listingDay),
    stage: o.stage,
    listingPriceMinor: o.listingPriceMinor,
    entries,
    editable: o.stage === 'scheduled' && cal.today() < o.startDay,
  };
}

/**
 * The first rule `req` breaks (module docstring), as its own error key so the console can say
 * which field is wrong, or null when it keeps them all. Pure: the instrument's existence is
 * checked by `check`.
 * Block trade: offered lots × price must reach the single-stock block-trade minimum (500 lots or
 * NT$15,000,000, TWSE Block Trading Rules; docs/tw-market-rules.md "Block trade offering"),
 * otherwise no member's application could ever meet it (contract/primary.ts
 * meetsBlockTradeMinimum at the offering's price).
 */
export function offeringRuleBroken(req: SaveOfferingReq, today: number): ErrorKey | null {
  if (req.startDay < today) return 'offeringStartPast';
  switch (req.kind) {
    case 'subscription':
      if (req.sharesOffered < req.sharesPerApplication) return 'offeringSharesPerApplication';
      if (req.listingDay <= req.startDay + IPO_STEP_OFFSETS.refund) return 'subscriptionListingTooEarly';
      return null;
    case 'auction':
      if (auctionCapLots(req.lots, req.capBps) < 1) return 'auctionTrancheTooSmall';
      if (req.listingDay <= req.startDay + AUCTION_BID_DAYS) return 'auctionListingTooEarly';
      return null;
    default:
      if (req.kind === 'blockTrade' && !meetsBlockTradeMinimum(req.priceMinor, req.lots))
        return 'blockTradeOfferingTooSmall';
      if (req.endDay < req.startDay) return 'offeringEndBeforeStart';
      if (req.listingDay <= req.endDay) return 'offeringDeliveryTooEarly';
      return null;
  }
}

/**
 * Checks the request's rules (module docstring).
 * @throws AppError offeringSymbolUnknown | the key offeringRuleBroken returns
 */
async function check(tx: Tx, req: SaveOfferingReq, today: number): Promise<void> {
  const [inst] = await tx
    .select({ symbol: instruments.symbol })
    .from(instruments)
    .where(eq(instruments.symbol, req.symbol));
  if (!inst) throw fail('offeringSymbolUnknown');
  const broken = offeringRuleBroken(req, today);
  if (broken) throw fail(broken);
}

/**
 * Creates (no id) or edits (id) an offering as operator `actorUserId`, audited in the same
 * transaction. Returns the offering as listed.
 * @throws AppError offeringSymbolUnknown | a rule's key (offeringRuleBroken) | offeringNotFound (no
 *   such id of that kind) | offeringLocked
 */
export async function saveOffering(
  db: Db,
  actorUserId: number,
  req: SaveOfferingReq,
  cal: IpoCalendar,
): Promise<AdminOffering> {
  const today = cal.today();
  return db.transaction(async (tx) => {
    await check(tx, req, today);
    if (req.kind === 'subscription') return saveSubscription(tx, actorUserId, req, cal);
    const values = {
      kind: req.kind,
      symbol: req.symbol,
      name: req.name,
      priceMinor: req.priceMinor,
      lots: req.lots,
      startDay: req.startDay,
      endDay: req.kind === 'auction' ? req.startDay + AUCTION_BID_DAYS - 1 : req.endDay,
      listingDay: req.listingDay,
      ...(req.kind === 'auction' ? { depositBps: req.depositBps, capBps: req.capBps } : {}),
    };
    if (req.id === undefined) {
      const seed = randomBytes(32).toString('hex');
      const [row] = await tx
        .insert(primaryOfferings)
        .values({ ...values, seed, commitment: await drawCommitment(seed), createdBy: actorUserId })
        .returning();
      const after = primaryDto(row!, cal, 0);
      await audit(tx, {
        actorUserId,
        action: 'offering.create',
        targetType: 'primaryOffering',
        targetId: row!.id,
        after,
      });
      return after;
    }
    const [before] = await tx
      .select()
      .from(primaryOfferings)
      .where(eq(primaryOfferings.id, req.id))
      .for('update');
    if (!before || before.kind !== req.kind) throw fail('offeringNotFound');
    if (before.stage !== 'scheduled' || today >= before.startDay) throw fail('offeringLocked');
    const [row] = await tx
      .update(primaryOfferings)
      .set(values)
      .where(eq(primaryOfferings.id, req.id))
      .returning();
    const after = primaryDto(row!, cal, 0);
    await audit(tx, {
      actorUserId,
      action: 'offering.update',
      targetType: 'primaryOffering',
      targetId: row!.id,
      before: primaryDto(before, cal, 0),
      after,
    });
    return after;
  });
}

async function saveSubscription(
  tx: Tx,
  actorUserId: number,
  req: Extract<SaveOfferingReq, { kind: 'subscription' }>,
  cal: IpoCalendar,
): Promise<AdminOffering> {
  const fields = {
    symbol: req.symbol,
    name: req.name,
    priceMinor: req.priceMinor,
    sharesOffered: req.sharesOffered,
    sharesPerApplication: req.sharesPerApplication,
    applyStartDay: req.startDay,
    listingDay: req.listingDay,
  };
  if (req.id === undefined) {
    // An operator's offering has no real announcement: its "real" dates are the replayed ones.
    const date = (d: number) => cal.label(d) || new Date(cal.now()).toISOString().slice(0, 10);
    const id = await createOffering(tx, {
      ...fields,
      source: `operator:${randomBytes(8).toString('hex')}`,
      marketType: '',
      realApplyStart: date(req.startDay),
      realDrawDate: date(req.startDay + IPO_STEP_OFFSETS.draw),
    });
    const [row] = await tx.select().from(ipoOfferings).where(eq(ipoOfferings.id, id));
    const after = subscriptionDto(row!, cal, 0);
    await audit(tx, {
      actorUserId,
      action: 'offering.create',
      targetType: 'ipoOffering',
      targetId: id,
      after,
    });
    return after;
  }
  const [before] = await tx.select().from(ipoOfferings).where(eq(ipoOfferings.id, req.id)).for('update');
  if (!before) throw fail('offeringNotFound');
  if (before.stage !== 'scheduled' || cal.today() >= before.applyStartDay) throw fail('offeringLocked');
  const [row] = await tx.update(ipoOfferings).set(fields).where(eq(ipoOfferings.id, req.id)).returning();
  await tx
    .update(ipoDraws)
    .set({ units: ipoUnits(req.sharesOffered, req.sharesPerApplication) })
    .where(eq(ipoDraws.offeringId, req.id));
  const after = subscriptionDto(row!, cal, 0);
  await audit(tx, {
    actorUserId,
    action: 'offering.update',
    targetType: 'ipoOffering',
    targetId: req.id,
    before: subscriptionDto(before, cal, 0),
    after,
  });
  return after;
}

/**
 * The console's list, newest first: `kind` subscription lists public subscriptions (seeded and
 * operator-made), another kind those offerings, none every auction, block trade and placement.
 */
export async function listOfferings(
  db: Db,
  cal: IpoCalendar,
  q: { kind?: OfferingKind; page: number; pageSize: number },
): Promise<{ items: AdminOffering[]; total: number }> {
  if (q.kind === 'subscription') {
    const byStart = db
      .select()
      .from(ipoOfferings)
      .orderBy(desc(ipoOfferings.applyStartDay), desc(ipoOfferings.id));
    const { items: rows, total } = await pageOf(db, byStart, { table: ipoOfferings }, q);
    const ids = rows.map((r) => r.id);
    const counts = ids.length
      ? await db
          .select({ id: ipoApplications.offeringId, n: count() })
          .from(ipoApplications)
          .where(inArray(ipoApplications.offeringId, ids))
          .groupBy(ipoApplications.offeringId)
      : [];
    const byId = new Map(counts.map((c) => [c.id, Number(c.n)]));
    return { items: rows.map((o) => subscriptionDto(o, cal, byId.get(o.id) ?? 0)), total };
  }
  const where = q.kind ? eq(primaryOfferings.kind, q.kind) : undefined;
  const newest = db.select().from(primaryOfferings).where(where).orderBy(desc(primaryOfferings.id));
  const { items: rows, total } = await pageOf(db, newest, { table: primaryOfferings, where }, q);
  const ids = rows.map((r) => r.id);
  const counts = ids.length
    ? await db
        .select({ id: auctionBids.offeringId, n: count() })
        .from(auctionBids)
        .where(inArray(auctionBids.offeringId, ids))
        .groupBy(auctionBids.offeringId)
    : [];
  const applications = ids.length
    ? await db
        .select({ id: primaryApplications.offeringId, n: count() })
        .from(primaryApplications)
        .where(inArray(primaryApplications.offeringId, ids))
        .groupBy(primaryApplications.offeringId)
    : [];
  const byId = new Map<number, number>();
  for (const c of [...counts, ...applications]) byId.set(c.id, (byId.get(c.id) ?? 0) + Number(c.n));
  return { items: rows.map((o) => primaryDto(o, cal, byId.get(o.id) ?? 0)), total };
}
