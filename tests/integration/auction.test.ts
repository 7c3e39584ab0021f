/**
 * Auctions (競價拍賣) end to end through the HTTP API on the harness's manual market clock (PGlite
 * by default, PostgreSQL with --project postgres): TWSE auction rules Art. 11/15/16 as
 * docs/tw-market-rules.md "Auction (競價拍賣)" states them.
 * - the operator creates an auction (audited), edits it before it starts, cannot edit it after;
 *   creates a public subscription from the console that members then see;
 * - bids on the three bidding days 09:00–14:00 only, price ≥ the minimum, a member's lots ≤ the
 *   10 % cap (the sum of its bids, at entry),
 *   each freezing a 20 % deposit; an idempotent retry freezes once;
 * - the allocation against the hand-computed table below (ties at the margin in the order of the
 *   published tickets HMAC-SHA256(seed, bid number), whose seed matches the commitment published
 *   at creation; the 10 % cap per member; a winner without the balance forfeits the deposit);
 *   losers' deposits released, winners' balances held, the listing price the weighted average
 *   capped at 1.3 × the minimum; on the listing day each winning bid is a long holding without
 *   leverage at its own price; the ledger reconciles after every step and a second run does nothing;
 * - concurrent bids of one member never freeze more than it has.
 *
 * Hand-computed table (minimum NT$46.00, 20 lots, cap 10 % = 2 lots, deposit 20 %):
 *
 * | member | bid (NT$ × lots) | deposit NT$ | won | cost NT$  | after allocation                      |
 * |--------|------------------|-------------|-----|-----------|---------------------------------------|
 * | A      | 70.00 × 2        | 28,000      | 2   | 140,000   | won, balance 112,000                  |
 * | A      | 69.00 × 2        | refused at entry: A's bids would pass the 2-lot cap (auctionBidOverCap) |
 * | B      | 68.00 × 2        | 27,200      | 2   | 136,000   | won                                   |
 * | C, D   | 66.00 × 2        | 26,400      | 2   | 132,000   | won                                   |
 * | E, F   | 60.00 × 2        | 24,000      | 2   | 120,000   | won                                   |
 * | G      | 55.00 × 2        | 22,000      | 2   | 110,000   | won                                   |
 * | H      | 55.00 × 2        | 22,000      | 2   | 110,000   | forfeited (NT$30,000 funds): kept     |
 * | I,J,K  | 52.00 × 2        | 20,800      | 2,2,0 by ticket | 104,000 | the last in ticket order lost |
 *
 * Weighted average = (70×2 + 68×2 + 66×4 + 60×4 + 55×4 + 52×4) / 20 = 1,208 / 20 = NT$60.40;
 * ceiling 1.3 × 46.00 = NT$59.80, so the listing price is NT$59.80.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawCommitment, drawTicket } from '../../contract/ipo';
import { REPLAY_DAY_MS } from '../../server/market/clock';
import { auctionBids, auditLog, orders, primaryOfferings } from '../../server/db/schema';
import { isClean, memberBalances, platformBalance, reconcile } from '../../server/modules/ledger/ledger';
import { idem, startHarness, type Harness } from './harness';

const FUNDS = 20_000_000; // NT$200,000
let h: Harness;
let op: string;

async function ok(name: Parameters<Harness['call']>[0], body: unknown, token: string, key?: string) {
  const r = await h.call(name, body, token, key === undefined ? {} : idem(key));
  if (r.body.status !== 1) throw new Error(`${name} refused: ${r.http} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
async function advance(days: number): Promise<number> {
  h.wall.now += days * REPLAY_DAY_MS;
  h.feed.tick();
  return h.ipo.run();
}
const today = () => h.ipo.calendar.today();
const clean = async () => expect(isClean(await reconcile(h.database.db))).toBe(true);
const bal = (id: number) => memberBalances(h.database.db, id);

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
});
afterAll(async () => {
  await h?.close();
});

describe('operator offerings', () => {
  it('creates an auction (audited), edits it before its first day, refuses edits after', async () => {
    const base = { kind: 'auction', symbol: '2317', name: '鴻海', priceMinor: 10_000, depositBps: 2_000 };
    const created = await ok(
      'admin/saveOffering',
      { ...base, lots: 100, startDay: today() + 1, listingDay: today() + 6 },
      op,
    );
    expect(created).toMatchObject({ kind: 'auction', lots: 100, endDay: today() + 3, capBps: 1_000 });
    expect(created.editable).toBe(true);
    const edited = await ok(
      'admin/saveOffering',
      { ...base, id: created.id, lots: 50, startDay: today() + 1, listingDay: today() + 6 },
      op,
    );
    expect(edited.lots).toBe(50);
    const audits = await h.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'primaryOffering'), eq(auditLog.targetId, String(created.id))));
    expect(audits.map((a) => a.action).sort()).toEqual(['offering.create', 'offering.update']);
    expect(JSON.parse(audits.find((a) => a.action === 'offering.update')!.before!).lots).toBe(100);

    const early = await h.call(
      'admin/saveOffering',
      { ...base, lots: 100, startDay: today() + 1, listingDay: today() + 3 },
      op,
    );
    expect([early.http, early.body.msg]).toEqual([422, 'auctionListingTooEarly']);
    const unknown = await h.call(
      'admin/saveOffering',
      { ...base, symbol: '0000X', lots: 100, startDay: today() + 1, listingDay: today() + 6 },
      op,
    );
    expect(unknown.body.msg).toBe('offeringSymbolUnknown');
    const list = await ok('admin/offerings', { kind: 'auction' }, op);
    expect(list.items.map((o: { id: number }) => o.id)).toContain(created.id);

    await advance(1);
    const locked = await h.call(
      'admin/saveOffering',
      { ...base, id: created.id, lots: 60, startDay: today(), listingDay: today() + 6 },
      op,
    );
    expect([locked.http, locked.body.msg]).toEqual([409, 'offeringLocked']);
    await clean();
  });

  it('creates a public subscription from the console that members see as upcoming', async () => {
    const s = await ok(
      'admin/saveOffering',
      {
        kind: 'subscription',
        symbol: '2330',
        name: '台積電',
        priceMinor: 50_000,
        sharesOffered: 5_000,
        sharesPerApplication: 1_000,
        startDay: today() + 2,
        listingDay: today() + 10,
      },
      op,
    );
    const member = await h.fundedMember('0920000001', FUNDS);
    const upcoming = await ok('ipo/list', { tab: 'upcoming' }, member);
    expect(upcoming.items.find((o: { id: number }) => o.id === s.id)).toMatchObject({
      priceMinor: 50_000,
      units: 5,
    });
    const edited = await ok(
      'admin/saveOffering',
      {
        kind: 'subscription',
        id: s.id,
        symbol: '2330',
        name: '台積電',
        priceMinor: 50_000,
        sharesOffered: 3_000,
        sharesPerApplication: 1_000,
        startDay: today() + 2,
        listingDay: today() + 10,
      },
      op,
    );
    expect(edited.lots).toBe(3);
    const draw = await ok('ipo/draw', { id: s.id }, member);
    expect(draw.units).toBe(3);
  });
});

describe('an auction with ties and the 10 % cap', () => {
  let auctionId: number;
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const bidNos: Record<string, string> = {};
  let feeBefore: number;

  const BIDS: Array<[string, number, number]> = [
    ['A', 7_000, 2],
    ['B', 6_800, 2],
    ['C', 6_600, 2],
    ['D', 6_600, 2],
    ['E', 6_000, 2],
    ['F', 6_000, 2],
    ['G', 5_500, 2],
    ['H', 5_500, 2],
    ['I', 5_200, 2],
    ['J', 5_200, 2],
    ['K', 5_200, 2],
  ];
  const who = (label: string) => label[0]!;
  const stage = async () =>
    (await h.database.db.select().from(primaryOfferings).where(eq(primaryOfferings.id, auctionId)))[0]!.stage;

  it('takes bids 09:00–14:00 on bidding days, each freezing a 20 % deposit', async () => {
    const created = await ok(
      'admin/saveOffering',
      {
        kind: 'auction',
        symbol: '2330',
        name: '台積電',
        priceMinor: 4_600,
        lots: 20,
        depositBps: 2_000,
        startDay: today(),
        listingDay: today() + 5,
      },
      op,
    );
    auctionId = created.id;
    feeBefore = await platformBalance(h.database.db, 'fee_revenue');
    for (const [i, m] of 'ABCDEFGHIJK'.split('').entries()) {
      const account = `09300000${String(i).padStart(2, '0')}`;
      tokens[m] = await h.fundedMember(account, m === 'H' ? 3_000_000 : FUNDS);
      ids[m] = await h.userId(account);
    }
    const list = await ok('auction/list', { tab: 'open' }, tokens.A!);
    expect(list.items.find((a: { id: number }) => a.id === auctionId)).toMatchObject({
      nameEn: 'TSMC',
      capLots: 2,
      phase: 'inProgress',
      seed: null,
    });

    const low = await h.call(
      'auction/bid',
      { offeringId: auctionId, priceMinor: 4_599, lots: 1 },
      tokens.A!,
      idem(),
    );
    expect([low.http, low.body.msg]).toEqual([422, 'auctionBidBelowMinimum']);
    const big = await h.call(
      'auction/bid',
      { offeringId: auctionId, priceMinor: 5_000, lots: 3 },
      tokens.A!,
      idem(),
    );
    expect(big.body.msg).toBe('auctionBidOverCap');
    const missing = await h.call(
      'auction/bid',
      { offeringId: 999_999, priceMinor: 5_000, lots: 1 },
      tokens.A!,
      idem(),
    );
    expect([missing.http, missing.body.msg]).toEqual([404, 'offeringNotFound']);

    for (const [label, priceMinor, lots] of BIDS) {
      const key = `bid-${label}-0000000000`;
      const body = { offeringId: auctionId, priceMinor, lots };
      const b = await ok('auction/bid', body, tokens[who(label)]!, key);
      expect(b).toMatchObject({ status: 'bidding', depositMinor: (priceMinor * lots * 1000) / 5 });
      bidNos[label] = b.bidNo;
      // A retry with the same key answers the same bid and freezes nothing more.
      const again = await ok('auction/bid', body, tokens[who(label)]!, key);
      expect(again.id).toBe(b.id);
    }
    // A second bid of A's would take it past the cap: refused at entry, nothing frozen.
    const a2 = await h.call(
      'auction/bid',
      { offeringId: auctionId, priceMinor: 6_900, lots: 2 },
      tokens.A!,
      idem(),
    );
    expect([a2.http, a2.body.msg]).toEqual([422, 'auctionBidOverCap']);
    expect(await bal(ids.A!)).toMatchObject({ frozen: 2_800_000, available: FUNDS - 2_800_000 });
    expect(await bal(ids.H!)).toMatchObject({ frozen: 2_200_000, available: 800_000 });

    // 14:00 market time: closed (the harness stands at 09:30 of the day).
    h.wall.now += 4.5 * 3_600_000;
    const late = await h.call(
      'auction/bid',
      { offeringId: auctionId, priceMinor: 5_000, lots: 1 },
      tokens.B!,
      idem(),
    );
    expect([late.http, late.body.msg]).toEqual([422, 'auctionNotOpen']);
    h.wall.now -= 4.5 * 3_600_000;
    await clean();
  });

  it('still takes bids on day 3, not on the allocation day', async () => {
    await advance(2);
    expect(await stage()).toBe('scheduled');
    const mine = await ok('auction/bids', {}, tokens.A!);
    expect(mine.total).toBe(1);
    expect(mine.items[0]).toMatchObject({ symbol: '2330', nameEn: 'TSMC' });
    await advance(1); // allocation day
    expect(await stage()).toBe('allocated');
    const closed = await h.call(
      'auction/bid',
      { offeringId: auctionId, priceMinor: 5_000, lots: 1 },
      tokens.B!,
      idem(),
    );
    expect(closed.body.msg).toBe('auctionNotOpen');
    expect(await h.ipo.run()).toBe(0);
  });

  it('allocates by the hand-computed table: cap, ties by published ticket, forfeit, listing price', async () => {
    const [o] = await h.database.db.select().from(primaryOfferings).where(eq(primaryOfferings.id, auctionId));
    expect(o).toMatchObject({ stage: 'allocated', weightedAverageMinor: 6_040, listingPriceMinor: 5_980 });
    const list = await ok('auction/list', { tab: 'ended' }, tokens.A!);
    const a = list.items.find((x: { id: number }) => x.id === auctionId);
    expect(await drawCommitment(a.seed)).toBe(a.commitment);
    // The tie at NT$52.00: the two lowest tickets of I, J, K win.
    const tickets = await Promise.all(
      ['I', 'J', 'K'].map(async (m) => ({ m, t: await drawTicket(a.seed, bidNos[m]!) })),
    );
    tickets.sort((x, y) => (x.t < y.t ? -1 : 1));
    const tieLoser = tickets[2]!.m;

    const rows = await h.database.db.select().from(auctionBids).where(eq(auctionBids.offeringId, auctionId));
    const byNo = new Map(rows.map((r) => [r.bidNo, r]));
    const expected: Record<string, [string, number]> = {
      A: ['won', 2],
      B: ['won', 2],
      C: ['won', 2],
      D: ['won', 2],
      E: ['won', 2],
      F: ['won', 2],
      G: ['won', 2],
      H: ['forfeited', 2],
    };
    for (const m of ['I', 'J', 'K']) expected[m] = m === tieLoser ? ['lost', 0] : ['won', 2];
    for (const [label, priceMinor] of BIDS) {
      const r = byNo.get(bidNos[label]!)!;
      expect([label, r.status, r.lotsWon]).toEqual([label, ...expected[label]!]);
      if (r.status === 'won') expect(r.balanceMinor).toBe(priceMinor * 2_000 - r.depositMinor);
    }
    // Balances: winners hold their cost frozen; losers have everything back; H forfeited its deposit.
    for (const [label, priceMinor] of BIDS) {
      const m = who(label);
      const [status] = expected[label]!;
      const cost = priceMinor * 2_000;
      if (status === 'won')
        expect(await bal(ids[m]!)).toMatchObject({ frozen: cost, available: FUNDS - cost });
      if (status === 'lost') expect(await bal(ids[m]!)).toMatchObject({ frozen: 0, available: FUNDS });
    }
    expect(await bal(ids.H!)).toMatchObject({ frozen: 0, available: 800_000 });
    expect((await platformBalance(h.database.db, 'fee_revenue')) - feeBefore).toBe(2_200_000);
    await clean();
  });

  it('listing day: each winning bid is a long holding without leverage at its own price', async () => {
    await advance(1);
    expect(await stage()).toBe('allocated');
    await advance(1);
    expect(await stage()).toBe('listed');
    const delivered = await h.database.db
      .select()
      .from(auctionBids)
      .where(and(eq(auctionBids.offeringId, auctionId), eq(auctionBids.status, 'delivered')));
    expect(delivered).toHaveLength(9);
    for (const b of delivered) {
      const [order] = await h.database.db.select().from(orders).where(eq(orders.id, b.orderId!));
      expect(order).toMatchObject({
        userId: b.userId,
        symbol: '2330',
        side: 'long',
        leverage: 1,
        shares: 2_000,
        status: 'holding',
        openPriceMinor: b.priceMinor,
      });
      expect(await bal(b.userId)).toMatchObject({ frozen: 0, margin: b.priceMinor * 2_000 });
    }
    const positions = await ok('auction/bids', { status: 'delivered' }, tokens.A!);
    expect(positions.items).toHaveLength(1);
    expect(await h.ipo.run()).toBe(0);
    await clean();
  });
});

describe('concurrent bids of one member', () => {
  it('freeze no more than the member has', async () => {
    const created = await ok(
      'admin/saveOffering',
      {
        kind: 'auction',
        symbol: '2330',
        name: '台積電',
        priceMinor: 10_000,
        lots: 100,
        depositBps: 10_000,
        startDay: today(),
        listingDay: today() + 5,
      },
      op,
    );
    // Each bid of 1 lot at NT$100 freezes NT$100,000: the member has enough for 3.
    const token = await h.fundedMember('0940000001', 35_000_000);
    const id = await h.userId('0940000001');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        h.call('auction/bid', { offeringId: created.id, priceMinor: 10_000, lots: 1 }, token, idem()),
      ),
    );
    const accepted = answers.filter((r) => r.body.status === 1);
    expect(accepted).toHaveLength(3);
    expect(
      answers.filter((r) => r.body.status !== 1).every((r) => r.body.msg === 'insufficientBalance'),
    ).toBe(true);
    expect(await bal(id)).toMatchObject({ frozen: 30_000_000, available: 5_000_000 });
    await clean();
  });
});
