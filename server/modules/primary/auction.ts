/**
 * Auctions (競價拍賣): bids with frozen deposits and the market-clock steps (contract/primary.ts
 * for the rules, contract/auction.ts allocateAuction for the allocation). Every money movement is
 * a ledger transaction of fund-flow type `auction` (refType `auctionBid`) in the same database
 * transaction as the state change it belongs to:
 *
 * | when              | ledger (TWD minor)                                                  |
 * |-------------------|---------------------------------------------------------------------|
 * | bid               | available → frozen: deposit = ceil(price × lots × 1,000 × bps / 1e4) |
 * | allocation, lost  | frozen → available: the deposit                                     |
 * | allocation, won   | frozen → available: deposit − kept; available → frozen: balance      |
 * |                   | (kept = min(deposit, cost), cost = own price × lots won × 1,000,     |
 * |                   | balance = cost − kept)                                              |
 * | allocation, won   | without the balance available: forfeited, frozen → fee_revenue: kept |
 * | listing day       | frozen → margin: cost (the long holding; trading fills.ts)           |
 *
 * Bids need a verified identity, and the per-bidder cap holds per person across accounts
 * (checkPersonCap: realNameNotCompleted, auctionBidOverCap; docs/tw-market-rules.md "Public
 * subscription and auction: one person, one ticket").
 *
 * Steps (runAuctionsDue): allocation on the business day after the last bidding day, delivery on
 * the listing day; each is one transaction that locks the offering row, checks its `stage`, writes
 * its effects and moves the stage on, so a crash rolls it back whole and a committed step never
 * runs again (as server/modules/ipo/service.ts).
 */
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { allocateAuction } from '../../../contract/auction';
import {
  AUCTION_BID_CLOSE_MS,
  AUCTION_BID_OPEN_MS,
  SHARES_PER_LOT,
  auctionCapLots,
  auctionDepositMinor,
  type AuctionBidStatus,
  type PrimaryStage,
} from '../../../contract/primary';
import { yieldToEventLoop, type Db, type Tx } from '../../db/client';
import { auctionBids, primaryOfferings, users } from '../../db/schema';
import { fail } from '../common/errors';
import { move, post } from '../ledger/ledger';
import { lockedAvailable, openPaidHolding } from '../trading/fills';
import type { IpoCalendar } from '../ipo/service';
import { lockIdNumber, verifiedIdNumberOf } from '../identity/kyc';

export type PrimaryOfferingRow = typeof primaryOfferings.$inferSelect;
export type AuctionBidRow = typeof auctionBids.$inferSelect;

const ref = (b: { id: number; userId: number }) =>
  ({ refType: 'auctionBid', refId: b.id, actorUserId: b.userId }) as const;
const member = (userId: number, purpose: 'available' | 'frozen') => ({ userId, purpose }) as const;

/** The allocation day: the business day after the last bidding day. */
export const allocationDay = (o: Pick<PrimaryOfferingRow, 'endDay'>) => o.endDay + 1;

/**
 * Whether bids are taken: an auction still `scheduled`, on a bidding day, and (when the clock
 * gives a market time) 09:00 ≤ t < 14:00.
 */
export function isBiddingOpen(
  o: Pick<PrimaryOfferingRow, 'kind' | 'stage' | 'startDay' | 'endDay'>,
  day: number,
  timeOfDayMs: number | null,
): boolean {
  if (o.kind !== 'auction' || o.stage !== 'scheduled' || day < o.startDay || day > o.endDay) return false;
  return timeOfDayMs === null || (timeOfDayMs >= AUCTION_BID_OPEN_MS && timeOfDayMs < AUCTION_BID_CLOSE_MS);
}

/**
 * Places a bid of `lots` lots at `priceMinor` per share for `userId` and freezes its deposit, in
 * one transaction (the member's available row is locked first, so concurrent bids of one member
 * run one after another and never overdraw).
 * @throws AppError offeringNotFound | auctionNotOpen | auctionBidBelowMinimum |
 *   auctionBidOverCap (checkBidderCap) | insufficientBalance
 */
export async function placeBid(
  db: Db | Tx,
  input: { userId: number; offeringId: number; priceMinor: number; lots: number },
  day: number,
  timeOfDayMs: number | null,
): Promise<AuctionBidRow> {
  return db.transaction(async (tx) => {
    const [o] = await tx
      .select()
      .from(primaryOfferings)
      .where(eq(primaryOfferings.id, input.offeringId))
      .for('share');
    if (!o || o.kind !== 'auction') throw fail('offeringNotFound');
    if (!isBiddingOpen(o, day, timeOfDayMs)) throw fail('auctionNotOpen');
    if (input.priceMinor < o.priceMinor) throw fail('auctionBidBelowMinimum');
    await checkBidderCap(tx, o, input.userId, input.lots);
    const deposit = auctionDepositMinor(input.priceMinor, input.lots, o.depositBps);
    const idNumber = await checkPersonCap(tx, o, input.userId, input.lots);
    if ((await lockedAvailable(tx, input.userId)) < deposit) throw fail('insufficientBalance');
    const res = (await tx.execute(
      sql`select nextval(pg_get_serial_sequence('auction_bids', 'id'))::int as id`,
    )) as unknown as { rows?: Array<{ id: number }> } & Array<{ id: number }>;
    const id = Number((res.rows ?? res)[0]!.id);
    const [b] = await tx
      .insert(auctionBids)
      .values({
        id,
        bidNo: bidNo(o.id, id),
        offeringId: o.id,
        userId: input.userId,
        idNumber,
        priceMinor: input.priceMinor,
        lots: input.lots,
        depositMinor: deposit,
      })
      .returning();
    if (deposit > 0)
      await post(tx, {
        type: 'auction',
        ...ref(b!),
        postings: move(member(b!.userId, 'available'), member(b!.userId, 'frozen'), deposit),
      });
    return b!;
  });
}

/**
 * The per-bidder cap at entry (TWSE auction rules Art. 15: one bidder wins at most 10 % of the
 * tranche; docs/tw-market-rules.md "Auction (競價拍賣): bidding"): the lots of the member's bids
 * already in auction `o` plus `lots` may not exceed auctionCapLots(o.lots, o.capBps), so a member
 * never holds deposits for lots it could never win. Locks the member's users row first (NO KEY
 * UPDATE, as the request's idempotency row holds a KEY SHARE lock on it), so one member's
 * concurrent bids are summed one after another inside the caller's transaction.
 * @throws AppError auctionBidOverCap
 */
export async function checkBidderCap(
  tx: Tx,
  o: Pick<PrimaryOfferingRow, 'id' | 'lots' | 'capBps'>,
  userId: number,
  lots: number,
): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  const [row] = await tx
    .select({ lots: sql<number>`coalesce(sum(${auctionBids.lots}), 0)::int` })
    .from(auctionBids)
    .where(and(eq(auctionBids.offeringId, o.id), eq(auctionBids.userId, userId)));
  if (Number(row?.lots ?? 0) + lots > auctionCapLots(o.lots, o.capBps)) throw fail('auctionBidOverCap');
}

/**
 * Bids need a verified identity, and the per-bidder cap (checkBidderCap) holds per person: the
 * lots of every bid in auction `o` under the bidder's verified ID number, from any account (and
 * the member's own bids), plus `lots`, stay within auctionCapLots. The sum is read under a
 * transaction-scoped lock of the ID number (identity/kyc.ts lockIdNumber), so concurrent bids of
 * one person, from one account or many, are counted one after another. Returns the ID number the
 * bid is recorded under.
 * @throws AppError realNameNotCompleted | auctionBidOverCap
 */
export async function checkPersonCap(
  tx: Tx,
  o: Pick<PrimaryOfferingRow, 'id' | 'lots' | 'capBps'>,
  userId: number,
  lots: number,
): Promise<string> {
  const idNumber = await verifiedIdNumberOf(tx, userId);
  if (idNumber === null) throw fail('realNameNotCompleted');
  await lockIdNumber(tx, `auction:${o.id}`, idNumber);
  const [held] = await tx
    .select({ lots: sql<string>`coalesce(sum(${auctionBids.lots}), 0)` })
    .from(auctionBids)
    .where(
      and(
        eq(auctionBids.offeringId, o.id),
        or(eq(auctionBids.idNumber, idNumber), eq(auctionBids.userId, userId)),
      ),
    );
  if (Number(held!.lots) + lots > auctionCapLots(o.lots, o.capBps)) throw fail('auctionBidOverCap');
  return idNumber;
}

/** The published bid number: `A`, offering id and bid id, zero-padded (A0003-000042). */
export function bidNo(offeringId: number, id: number): string {
  return `A${String(offeringId).padStart(4, '0')}-${String(id).padStart(6, '0')}`;
}

// ---------- steps ----------

const STEPS: Array<{ from: PrimaryStage; to: PrimaryStage; due: (o: PrimaryOfferingRow) => number }> = [
  { from: 'scheduled', to: 'allocated', due: allocationDay },
  { from: 'allocated', to: 'listed', due: (o) => o.listingDay },
];

/**
 * Runs every auction step due on business day `cal.today()`, each in its own transaction (see the
 * module docstring). Returns the number of steps run.
 */
export async function runAuctionsDue(db: Db, cal: IpoCalendar): Promise<number> {
  const today = cal.today();
  const due = await db
    .select({ id: primaryOfferings.id })
    .from(primaryOfferings)
    .where(
      and(
        eq(primaryOfferings.kind, 'auction'),
        sql`${primaryOfferings.stage} <> 'listed'`,
        sql`${primaryOfferings.endDay} + 1 <= ${today}`,
      ),
    )
    .orderBy(asc(primaryOfferings.id));
  let ran = 0;
  for (const { id } of due) {
    for (;;) {
      await yieldToEventLoop();
      const done = await db.transaction((tx) => runNextStep(tx, id, today, cal));
      if (!done) break;
      ran++;
    }
  }
  return ran;
}

async function runNextStep(tx: Tx, offeringId: number, today: number, cal: IpoCalendar): Promise<boolean> {
  const [o] = await tx
    .select()
    .from(primaryOfferings)
    .where(eq(primaryOfferings.id, offeringId))
    .for('update');
  const step = STEPS.find((s) => s.from === o!.stage);
  if (!step || step.due(o!) > today) return false;
  if (step.to === 'allocated') await allocate(tx, o!);
  else await deliver(tx, o!, cal);
  await tx.update(primaryOfferings).set({ stage: step.to }).where(eq(primaryOfferings.id, o!.id));
  return true;
}

const bidsOf = (tx: Tx, offeringId: number, statuses: AuctionBidStatus[]) =>
  tx
    .select()
    .from(auctionBids)
    .where(and(eq(auctionBids.offeringId, offeringId), inArray(auctionBids.status, statuses)))
    .orderBy(asc(auctionBids.id))
    .for('update');

/**
 * Allocation day: allocateAuction over every bid (ties by HMAC-SHA256(seed, bid number), 10 % cap
 * per member); losers' deposits released; winners keep min(deposit, cost) frozen, get the rest of
 * the deposit back and pay the balance from available (forfeited, deposit kept, when they
 * cannot); the weighted average and listing price are stored on the offering.
 */
async function allocate(tx: Tx, o: PrimaryOfferingRow): Promise<void> {
  const bids = await bidsOf(tx, o.id, ['bidding']);
  const result = await allocateAuction({
    bids: bids.map((b) => ({
      bidNo: b.bidNo,
      bidderId: String(b.userId),
      priceMinor: b.priceMinor,
      lots: b.lots,
    })),
    trancheLots: o.lots,
    minPriceMinor: o.priceMinor,
    seedHex: o.seed,
    capBps: o.capBps,
  });
  const byNo = new Map(bids.map((b) => [b.bidNo, b]));
  for (const f of result.fills) {
    const b = byNo.get(f.bidNo)!;
    const cost = b.priceMinor * f.lotsWon * SHARES_PER_LOT;
    const kept = Math.min(b.depositMinor, cost);
    const release = b.depositMinor - kept;
    if (release > 0)
      await post(tx, {
        type: 'auction',
        ...ref(b),
        postings: move(member(b.userId, 'frozen'), member(b.userId, 'available'), release),
      });
    if (f.lotsWon === 0) {
      await tx.update(auctionBids).set({ status: 'lost' }).where(eq(auctionBids.id, b.id));
      continue;
    }
    const balance = cost - kept;
    if ((await lockedAvailable(tx, b.userId)) < balance) {
      if (kept > 0)
        await post(tx, {
          type: 'auction',
          ...ref(b),
          postings: move(member(b.userId, 'frozen'), { platform: 'fee_revenue' }, kept),
        });
      await tx
        .update(auctionBids)
        .set({ status: 'forfeited', lotsWon: f.lotsWon })
        .where(eq(auctionBids.id, b.id));
      continue;
    }
    if (balance > 0)
      await post(tx, {
        type: 'auction',
        ...ref(b),
        postings: move(member(b.userId, 'available'), member(b.userId, 'frozen'), balance),
      });
    await tx
      .update(auctionBids)
      .set({ status: 'won', lotsWon: f.lotsWon, balanceMinor: balance })
      .where(eq(auctionBids.id, b.id));
  }
  await tx
    .update(primaryOfferings)
    .set({
      weightedAverageMinor: result.weightedAverageMinor,
      listingPriceMinor: result.listingPriceMinor,
    })
    .where(eq(primaryOfferings.id, o.id));
}

/** Listing day: each winning bid becomes a long holding without leverage at its own price. */
async function deliver(tx: Tx, o: PrimaryOfferingRow, cal: IpoCalendar): Promise<void> {
  for (const b of await bidsOf(tx, o.id, ['won'])) {
    const order = await openPaidHolding(
      tx,
      { now: () => new Date(cal.now()) },
      {
        orderNo: b.bidNo.replace('-', ''),
        userId: b.userId,
        symbol: o.symbol,
        lots: b.lotsWon,
        shares: b.lotsWon * SHARES_PER_LOT,
        tradeDate: cal.label(o.listingDay),
      },
      b.priceMinor,
    );
    await tx
      .update(auctionBids)
      .set({ status: 'delivered', orderId: order.id })
      .where(eq(auctionBids.id, b.id));
  }
}
