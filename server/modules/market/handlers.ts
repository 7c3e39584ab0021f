/**
 * Public market endpoints, served from the live feed (quotes, depth, candles, trades) and the
 * instrument table.
 */
import { eq } from 'drizzle-orm';
import type { Instrument, Quote } from '../../../contract/market';
import { instruments } from '../../db/schema';
import { fail } from '../common/errors';
import { pageOfList } from '../common/paging';
import type { Ctx, Handlers } from '../common/context';

function quoteOr404(ctx: Ctx, symbol: string): Quote {
  const q = ctx.feed.quote(symbol);
  if (!q) throw fail('productNotFound');
  return q;
}

const namesEnByDirectory = new WeakMap<readonly Instrument[], Map<string, string>>();

/** The English short names of `quotes`' instruments, by symbol (from the feed's directory). */
function namesEnOf(ctx: Ctx, quotes: readonly Quote[]): Record<string, string> {
  const directory = ctx.feed.instruments();
  let names = namesEnByDirectory.get(directory);
  if (!names) {
    names = new Map(directory.flatMap((i) => (i.nameEn ? [[i.symbol, i.nameEn] as const] : [])));
    namesEnByDirectory.set(directory, names);
  }
  const out: Record<string, string> = {};
  for (const q of quotes) {
    const n = names.get(q.symbol);
    if (n) out[q.symbol] = n;
  }
  return out;
}

/** market/* handlers: public, served from the feed's in-memory state and the instruments table. */
export const marketHandlers: Pick<
  Handlers,
  | 'market/list'
  | 'market/detail'
  | 'market/depth'
  | 'market/candles'
  | 'market/quotes'
  | 'market/trades'
  | 'market/indices'
  | 'market/industries'
  | 'market/breadth'
> = {
  /**
   * One page of a whole-market ranking (rankings.ts: order from a snapshot at most 1 s old,
   * filters applied server-side); the page's quotes are the feed's latest.
   */
  async 'market/list'(body, ctx) {
    const { snapshot, symbols } = ctx.services.rankings.list(body.sort, body);
    const page = pageOfList(symbols, body);
    const items = page.items.map((s) => ctx.feed.quote(s)).filter((q): q is Quote => q !== undefined);
    return {
      ...page,
      items,
      clock: ctx.feed.clock(),
      rankedAt: snapshot.computedAt,
      replayDate: snapshot.replayDate,
      final: snapshot.final,
      namesEn: namesEnOf(ctx, items),
    };
  },
  async 'market/industries'(_body, ctx) {
    return { items: ctx.services.rankings.industries() };
  },
  /** Breadth of the replayed day from the same snapshot as the rankings. */
  async 'market/breadth'(_body, ctx) {
    const snap = ctx.services.rankings.snapshot();
    return { replayDate: snap.replayDate, rankedAt: snap.computedAt, final: snap.final, ...snap.breadth };
  },
  async 'market/detail'(body, ctx) {
    const quote = quoteOr404(ctx, body.symbol);
    const inst = (
      await ctx.db.select().from(instruments).where(eq(instruments.symbol, body.symbol)).limit(1)
    )[0];
    return {
      quote,
      nameEn: inst?.nameEn ?? null,
      industry: inst?.industry ?? null,
      // The exchange as of the day shown (6589: TPEx in the 2025 window, TWSE today).
      market: ctx.feed.marketOf(body.symbol) ?? inst?.market ?? 'TWSE',
      isin: inst?.isin ?? null,
      listingDate: inst?.listingDate ?? null,
      clock: ctx.feed.clock(),
    };
  },
  async 'market/depth'(body, ctx) {
    quoteOr404(ctx, body.symbol);
    const d = ctx.feed.depth(body.symbol);
    if (!d) throw fail('priceUnavailable');
    return d;
  },
  async 'market/candles'(body, ctx) {
    quoteOr404(ctx, body.symbol);
    const items = await ctx.feed.candles(body.symbol, body.period, body.limit, body.before, body.since);
    return { symbol: body.symbol, period: body.period, items };
  },
  async 'market/quotes'(body, ctx) {
    const items = body.symbols.map((s) => ctx.feed.quote(s)).filter((q): q is Quote => q !== undefined);
    return { items };
  },
  async 'market/trades'(body, ctx) {
    quoteOr404(ctx, body.symbol);
    return { symbol: body.symbol, items: ctx.feed.trades(body.symbol, body.limit) };
  },
  async 'market/indices'(_body, ctx) {
    return { items: ctx.feed.indices() };
  },
};
