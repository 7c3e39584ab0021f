/**
 * The instrument directory: every row of the instruments table as the contract's Instrument
 * (symbol, name, market, industry, security type, rule kind, listing date), sorted by symbol.
 * Both feeds load it once at start and serve it from memory (MarketFeed.instruments()), so
 * listings, rankings, filters and search read no table per request. ~2,400 rows ≈ 0.5 MB.
 */
import { asc } from 'drizzle-orm';
import type { Instrument } from '../../contract/market';
import type { Db } from '../db/client';
import { instruments } from '../db/schema';

/** Loads the directory (all instruments; the operator's delisted flag is the trading engine's), ascending by symbol. */
export async function loadInstruments(db: Db): Promise<Instrument[]> {
  const rows = await db
    .select({
      symbol: instruments.symbol,
      name: instruments.name,
      market: instruments.market,
      industry: instruments.industry,
      securityType: instruments.securityType,
      kind: instruments.kind,
      listingDate: instruments.listingDate,
    })
    .from(instruments)
    .orderBy(asc(instruments.symbol));
  return rows;
}
