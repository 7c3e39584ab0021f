/**
 * The whole shipped instrument directory (server/db/seed-data, as the import writes it) as the
 * feed's Instrument rows, with the full-market window's last real day's turnover per symbol (TWD
 * minor): the popularity search ranks by mid-session. For the search tests and bench, no database.
 */
import type { Instrument } from '../../contract/market';
import { FULL_MARKET, readSeedMarketData } from '../../server/market/import';

export async function loadSeedDirectory(): Promise<{
  directory: Instrument[];
  turnover: Map<string, number>;
}> {
  const seed = await readSeedMarketData();
  const directory = seed.instruments.map((r) => ({
    symbol: r.symbol,
    name: r.name,
    nameEn: r.nameEn ?? null,
    market: r.market,
    industry: r.industry ?? null,
    securityType: r.securityType ?? 'stock',
    kind: r.kind,
    listingDate: r.listingDate ?? null,
  }));
  const turnover = new Map<string, number>();
  for (const c of seed.candles)
    if (c.date === FULL_MARKET.lastDate && typeof c.turnoverMinor === 'number')
      turnover.set(c.symbol, c.turnoverMinor);
  return { directory, turnover };
}
