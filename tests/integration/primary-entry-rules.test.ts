/**
 * Primary-market rules refused at entry, through the HTTP API on the harness's manual market clock
 * (PGlite by default, PostgreSQL with --project postgres):
 * - the console refuses a block-trade offering no member could ever meet: under 500 lots and
 *   under NT$15,000,000 at its price (TWSE Block Trading Rules, docs/tw-market-rules.md "Block
 *   trade offering"), with its own key; at 500 lots, or at NT$15M by value, it is taken; a
 *   placement has no such minimum;
 * - each broken rule of an offering answers its own key (not one vague "invalid");
 * - an auction's per-bidder cap (10 % of the tranche) counts the member's bids together at entry:
 *   three 1-lot bids against a 2-lot cap, the third refused with nothing frozen; the same with
 *   concurrent bids (exactly the cap's worth taken); another member's cap is its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { idem, startHarness, type Harness } from './harness';

let h: Harness;
let op: string;
const today = () => h.ipo.calendar.today();

beforeAll(async () => {
  h = await startHarness();
  op = await h.operatorToken();
});
afterAll(async () => {
  await h?.close();
});

const blockTrade = (priceMinor: number, lots: number) => ({
  kind: 'blockTrade',
  symbol: '2330',
  name: '台積電',
  priceMinor,
  lots,
  startDay: today() + 1,
  endDay: today() + 1,
  listingDay: today() + 2,
});

describe('block-trade offerings meet the block-trade minimum at entry', () => {
  it('refuses 10 lots worth less than NT$15M with blockTradeOfferingTooSmall', async () => {
    const r = await h.call('admin/saveOffering', blockTrade(10_000, 10), op);
    expect([r.http, r.body.msg]).toEqual([422, 'blockTradeOfferingTooSmall']);
    // One lot short and one minor unit short of the value: still refused.
    const short = await h.call('admin/saveOffering', blockTrade(3_000, 499), op); // NT$14.97M
    expect(short.body.msg).toBe('blockTradeOfferingTooSmall');
    const cheap = await h.call('admin/saveOffering', blockTrade(149_999, 10), op);
    expect(cheap.body.msg).toBe('blockTradeOfferingTooSmall');
    const listed = await h.call('admin/offerings', { kind: 'blockTrade' }, op);
    expect(listed.body.data.total).toBe(0);
  });

  it('takes 500 lots, or NT$15,000,000 by value, and a small placement', async () => {
    const byLots = await h.call('admin/saveOffering', blockTrade(10_000, 500), op);
    expect(byLots.body).toMatchObject({ status: 1, data: { kind: 'blockTrade', lots: 500 } });
    const byValue = await h.call('admin/saveOffering', blockTrade(150_000, 10), op);
    expect(byValue.body).toMatchObject({ status: 1, data: { kind: 'blockTrade', lots: 10 } });
    const placement = await h.call(
      'admin/saveOffering',
      { ...blockTrade(10_000, 10), kind: 'placement' },
      op,
    );
    expect(placement.body.status).toBe(1);
  });

  it('answers each broken rule with its own key', async () => {
    const auction = {
      kind: 'auction',
      symbol: '2317',
      name: '鴻海',
      priceMinor: 10_000,
      lots: 100,
      depositBps: 2_000,
      startDay: today() + 1,
      listingDay: today() + 6,
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...auction, symbol: '0000X' }, 'offeringSymbolUnknown'],
      [{ ...auction, startDay: today() - 1 }, 'offeringStartPast'],
      [{ ...auction, lots: 9 }, 'auctionTrancheTooSmall'],
      [{ ...auction, listingDay: today() + 4 }, 'auctionListingTooEarly'],
      [{ ...blockTrade(10_000, 500), endDay: today() }, 'offeringEndBeforeStart'],
      [{ ...blockTrade(10_000, 500), listingDay: today() + 1 }, 'offeringDeliveryTooEarly'],
      [
        {
          kind: 'subscription',
          symbol: '2330',
          name: '台積電',
          priceMinor: 50_000,
          sharesOffered: 5_000,
          sharesPerApplication: 1_000,
          startDay: today() + 1,
          listingDay: today() + 6,
        },
        'subscriptionListingTooEarly',
      ],
    ];
    for (const [body, msg] of cases) {
      const r = await h.call('admin/saveOffering', body, op);
      expect([body, r.http, r.body.msg]).toEqual([body, 422, msg]);
    }
  });
});

describe("an auction's per-bidder cap counts the member's bids at entry", () => {
  let auctionId: number;

  beforeAll(async () => {
    const r = await h.call(
      'admin/saveOffering',
      {
        kind: 'auction',
        symbol: '2330',
        name: '台積電',
        priceMinor: 10_000,
        lots: 20, // cap 10 % = 2 lots
        depositBps: 2_000,
        startDay: today(),
        listingDay: today() + 5,
      },
      op,
    );
    auctionId = r.body.data.id;
  });

  it('refuses the third 1-lot bid against a 2-lot cap, freezing nothing for it', async () => {
    const token = await h.fundedMember('0931000001', 10_000_000);
    const id = await h.userId('0931000001');
    const bid = () =>
      h.call('auction/bid', { offeringId: auctionId, priceMinor: 10_000, lots: 1 }, token, idem());
    expect((await bid()).body.status).toBe(1);
    expect((await bid()).body.status).toBe(1);
    const third = await bid();
    expect([third.http, third.body.msg]).toEqual([422, 'auctionBidOverCap']);
    // Two deposits of 20 % × NT$100 × 1,000 shares.
    expect(await memberBalances(h.database.db, id)).toMatchObject({
      frozen: 4_000_000,
      available: 6_000_000,
    });
    const mine = await h.call('auction/bids', {}, token);
    expect(mine.body.data.total).toBe(2);
    // Another member's cap is its own.
    const other = await h.fundedMember('0931000002', 10_000_000);
    const two = await h.call(
      'auction/bid',
      { offeringId: auctionId, priceMinor: 10_500, lots: 2 },
      other,
      idem(),
    );
    expect(two.body.status).toBe(1);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('takes exactly the cap of concurrent 1-lot bids of one member', async () => {
    const token = await h.fundedMember('0931000003', 10_000_000);
    const id = await h.userId('0931000003');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.call('auction/bid', { offeringId: auctionId, priceMinor: 10_000, lots: 1 }, token, idem()),
      ),
    );
    expect(answers.filter((r) => r.body.status === 1)).toHaveLength(2);
    const refused = answers.filter((r) => r.body.status !== 1).map((r) => r.body.msg);
    expect(refused).toEqual(Array(4).fill('auctionBidOverCap'));
    expect(await memberBalances(h.database.db, id)).toMatchObject({ frozen: 4_000_000 });
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
