/**
 * Auction (競價拍賣) allocation, as a pure function: the first piece of the auction flow, ahead of
 * its screens and ledger (docs/tw-market-rules.md "Auction allocation", TWSE auction rules
 * Art. 11/15/16).
 *
 * Rules: every bid is a price ≥ the minimum and a quantity in lots; bids are filled from the
 * highest price down; bids at the same price are filled in a random order, here the order of
 * their tickets HMAC-SHA256(seed, bid number) (contract/ipo.ts drawTicket, so the tie order is as
 * verifiable as the subscription draw); each bidder wins at most `capBps` of the tranche over all
 * their bids (10 %); the last bid filled may be filled in part; each winner pays their own bid.
 * The price of the public tranche that follows and the listing reference is the quantity-weighted
 * average of the winning prices, capped at 1.3 × the minimum price.
 * Units: prices in TWD minor per share, quantities in lots, `capBps` in basis points.
 */
import { drawTicket } from './ipo';

/** One bid. `bidNo` is unique; `bidderId` groups a bidder's bids for the cap. */
export interface AuctionBid {
  bidNo: string;
  bidderId: string;
  priceMinor: number;
  lots: number;
}

/** One bid's result, in fill order. */
export interface AuctionFill extends AuctionBid {
  lotsWon: number;
}

export interface AuctionResult {
  /** Every bid in fill order (price descending, ties by ticket), with the lots it won (0 if none). */
  fills: AuctionFill[];
  lotsSold: number;
  /** Quantity-weighted average of the winning prices, rounded half up to the minor unit; null if none sold. */
  weightedAverageMinor: number | null;
  /** min(weighted average, floor(1.3 × minimum)); null if none sold. */
  listingPriceMinor: number | null;
}

/** Default per-bidder cap: 10 % of the tranche. */
export const AUCTION_CAP_BPS = 1_000;

/**
 * Allocates a tranche of `trancheLots` among `bids` (see the module docstring).
 * @throws RangeError when a bid is below `minPriceMinor`, not whole lots, or a bid number repeats
 */
export async function allocateAuction(input: {
  bids: readonly AuctionBid[];
  trancheLots: number;
  minPriceMinor: number;
  seedHex: string;
  capBps?: number;
}): Promise<AuctionResult> {
  const { bids, trancheLots, minPriceMinor, seedHex } = input;
  const cap = Math.floor((trancheLots * (input.capBps ?? AUCTION_CAP_BPS)) / 10_000);
  if (new Set(bids.map((b) => b.bidNo)).size !== bids.length) throw new RangeError('duplicate bid number');
  for (const b of bids) {
    if (!Number.isSafeInteger(b.priceMinor) || b.priceMinor < minPriceMinor)
      throw new RangeError(`bid ${b.bidNo} below the minimum price`);
    if (!Number.isInteger(b.lots) || b.lots <= 0)
      throw new RangeError(`bid ${b.bidNo}: lots must be whole and positive`);
  }
  const ticketed = await Promise.all(bids.map(async (b) => ({ b, t: await drawTicket(seedHex, b.bidNo) })));
  ticketed.sort((x, y) => y.b.priceMinor - x.b.priceMinor || (x.t < y.t ? -1 : x.t > y.t ? 1 : 0));
  let left = trancheLots;
  const byBidder = new Map<string, number>();
  const fills: AuctionFill[] = [];
  let value = 0;
  for (const { b } of ticketed) {
    const had = byBidder.get(b.bidderId) ?? 0;
    const lotsWon = Math.max(0, Math.min(b.lots, left, cap - had));
    left -= lotsWon;
    byBidder.set(b.bidderId, had + lotsWon);
    value += b.priceMinor * lotsWon;
    fills.push({ ...b, lotsWon });
  }
  const lotsSold = trancheLots - left;
  if (lotsSold === 0) return { fills, lotsSold, weightedAverageMinor: null, listingPriceMinor: null };
  const weightedAverageMinor = Math.floor((2 * value + lotsSold) / (2 * lotsSold));
  const ceiling = Math.floor((minPriceMinor * 13) / 10);
  return {
    fills,
    lotsSold,
    weightedAverageMinor,
    listingPriceMinor: Math.min(weightedAverageMinor, ceiling),
  };
}
