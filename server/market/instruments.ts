/**
 * The instrument directory: every row of the instruments table as the contract's Instrument
 * (symbol, name, English name, market, industry, security type, rule kind, listing date), sorted by symbol.
 * Both feeds load it once at start and serve it from memory (MarketFeed.instruments()), so
 * listings, rankings, filters and search read no table per request. ~2,400 rows ≈ 0.5 MB.
 */
import { asc, gt } from 'drizzle-orm';
import type { Instrument } from '../../contract/market';
import type { Db } from '../db/client';
import { instruments } from '../db/schema';

/**
 * Loads the directory (all instruments; the operator's delisted flag is the trading engine's),
 * ascending by symbol. One query by default; with `pageSize`, keyset pages of that many rows
 * (symbol > the last one read), awaiting `between()` after each page (the replay feed yields to
 * the event loop there: on PGlite the one ~2,300-row query blocked it for 40–120 ms).
 */
export async function loadInstruments(
  db: Db,
  opts: { pageSize?: number; between?: () => Promise<void> } = {},
): Promise<Instrument[]> {
  const pageSize = opts.pageSize ?? Number.POSITIVE_INFINITY;
  const out: Instrument[] = [];
  for (;;) {
    const after = out.at(-1)?.symbol;
    const query = db
      .select({
        symbol: instruments.symbol,
        name: instruments.name,
        nameEn: instruments.nameEn,
        market: instruments.market,
        industry: instruments.industry,
        securityType: instruments.securityType,
        kind: instruments.kind,
        listingDate: instruments.listingDate,
      })
      .from(instruments)
      .where(after === undefined ? undefined : gt(instruments.symbol, after))
      .orderBy(asc(instruments.symbol));
    const page = await (Number.isFinite(pageSize) ? query.limit(pageSize) : query);
    out.push(...page);
    if (page.length < pageSize) return out;
    await opts.between?.();
  }
}
