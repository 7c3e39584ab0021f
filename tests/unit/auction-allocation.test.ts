/**
 * Auction allocation (contract/auction.ts allocateAuction) against hand-computed tables:
 * price from the highest down, the 10 % cap per bidder over all their bids, ties filled in ticket
 * order (HMAC-SHA256(seed, bid number), recomputed here with node:crypto), a partly filled last
 * bid, each winner at their own price, and the listing price (weighted average, capped at 1.3 ×
 * the minimum).
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { allocateAuction, type AuctionBid } from '../../contract/auction';

const SEED = 'ab'.repeat(32);
const ticket = (no: string) => createHmac('sha256', Buffer.from(SEED, 'hex')).update(no).digest('hex');
const bid = (bidNo: string, bidderId: string, price: number, lots: number): AuctionBid => ({
  bidNo,
  bidderId,
  priceMinor: price * 100,
  lots,
});

describe('allocateAuction', () => {
  it('tranche 50 lots, minimum NT$50, cap 5 lots a bidder: the hand-computed table', async () => {
    // 55 is the marginal price: 28 lots are taken above it, so its five 5-lot bids share 22 lots.
    const tied = ['t1', 't2', 't3', 't4', 't5'];
    const bids = [
      bid('a1', 'A', 70, 4),
      bid('b1', 'B', 68, 8), // capped at 5
      bid('c1', 'C', 66, 3),
      bid('d1', 'D', 66, 5),
      bid('a2', 'A', 65, 3), // A has 4: 1 more
      bid('e1', 'E', 60, 5),
      bid('f1', 'F', 60, 5),
      ...tied.map((no, i) => bid(no, `T${i}`, 55, 5)),
      bid('z1', 'Z', 50, 5), // below the marginal price: nothing
    ];
    const r = await allocateAuction({ bids, trancheLots: 50, minPriceMinor: 5_000, seedHex: SEED });
    const won = Object.fromEntries(r.fills.map((f) => [f.bidNo, f.lotsWon]));
    expect(won).toMatchObject({ a1: 4, b1: 5, c1: 3, d1: 5, a2: 1, e1: 5, f1: 5, z1: 0 });
    // Ties at 55 in ticket order: the first four get 5 lots, the fifth 2.
    const order = [...tied].sort((x, y) => (ticket(x) < ticket(y) ? -1 : 1));
    expect(order.map((no) => won[no])).toEqual([5, 5, 5, 5, 2]);
    expect(r.fills.filter((f) => f.priceMinor === 5_500).map((f) => f.bidNo)).toEqual(order);
    expect(r.lotsSold).toBe(50);
    // (70×4 + 68×5 + 66×3 + 66×5 + 65×1 + 60×5 + 60×5 + 55×22) / 50 = 3,023 / 50 = NT$60.46
    expect(r.weightedAverageMinor).toBe(6_046);
    expect(r.listingPriceMinor).toBe(6_046);
    // Price order, highest first.
    const prices = r.fills.map((f) => f.priceMinor);
    expect(prices).toEqual([...prices].sort((x, y) => y - x));
  });

  it('caps the listing price at 1.3 × the minimum; each winner still pays their own bid', async () => {
    const bids = Array.from({ length: 10 }, (_, i) => bid(`x${i}`, `X${i}`, 70 + i, 2));
    const r = await allocateAuction({ bids, trancheLots: 20, minPriceMinor: 5_000, seedHex: SEED });
    expect(r.fills.every((f) => f.lotsWon === 2)).toBe(true);
    // (70 + 71 + … + 79) × 2 / 20 = NT$74.50 > 1.3 × 50 = NT$65.00
    expect(r.weightedAverageMinor).toBe(7_450);
    expect(r.listingPriceMinor).toBe(6_500);
    expect(r.fills[0]).toMatchObject({ bidNo: 'x9', priceMinor: 7_900 });
  });

  it('undersubscribed: every bid is filled; rounds the average half up', async () => {
    const r = await allocateAuction({
      bids: [bid('p', 'P', 51, 1), bid('q', 'Q', 50, 2)],
      trancheLots: 100,
      minPriceMinor: 5_000,
      seedHex: SEED,
    });
    expect(r.lotsSold).toBe(3);
    // (5,100 + 2 × 5,000) / 3 = 5,033.33… → 5,033
    expect(r.weightedAverageMinor).toBe(5_033);
    const none = await allocateAuction({ bids: [], trancheLots: 10, minPriceMinor: 5_000, seedHex: SEED });
    expect(none).toMatchObject({ lotsSold: 0, weightedAverageMinor: null, listingPriceMinor: null });
  });

  it('refuses a bid below the minimum, a fractional quantity and a repeated bid number', async () => {
    const run = (bids: AuctionBid[]) =>
      allocateAuction({ bids, trancheLots: 10, minPriceMinor: 5_000, seedHex: SEED });
    await expect(run([bid('a', 'A', 49, 1)])).rejects.toThrow(RangeError);
    await expect(run([bid('a', 'A', 50, 1.5)])).rejects.toThrow(RangeError);
    await expect(run([bid('a', 'A', 50, 1), bid('a', 'B', 50, 1)])).rejects.toThrow(RangeError);
  });
});
