/**
 * Public market endpoints, served from the live feed (quotes, depth, candles, trades) and the
 * instrument table.
 */
import { eq } from 'drizzle-orm';
import type { Quote } from '../../../contract/market';
import { instruments } from '../../db/schema';
import { fail } from '../common/errors';
import type { Ctx, Handlers } from '../common/context';

/** Change in basis points of the previous close (integer arithmetic; for sorting only). */
const changeBp = (q: Quote) =>
  q.prevCloseMinor > 0 ? Math.trunc(((q.lastMinor - q.prevCloseMinor) * 10_000) / q.prevCloseMinor) : 0;

function quoteOr404(ctx: Ctx, symbol: string): Quote {
  const q = ctx.feed.quote(symbol);
  if (!q) throw fail('productNotFound');
  return q;
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
> = {
  async 'market/list'(body, ctx) {
    let items = ctx.feed.listQuotes();
    if (body.sort === 'gainers') items = [...items].sort((a, b) => changeBp(b) - changeBp(a));
    else if (body.sort === 'losers') items = [...items].sort((a, b) => changeBp(a) - changeBp(b));
    else if (body.sort === 'volume') items = [...items].sort((a, b) => b.volumeShares - a.volumeShares);
    const start = (body.page - 1) * body.pageSize;
    return {
      items: items.slice(start, start + body.pageSize),
      total: items.length,
      page: body.page,
      pageSize: body.pageSize,
      clock: ctx.feed.clock(),
    };
  },
  async 'market/detail'(body, ctx) {
    const quote = quoteOr404(ctx, body.symbol);
    const inst = (
      await ctx.db.select().from(instruments).where(eq(instruments.symbol, body.symbol)).limit(1)
    )[0];
    return {
      quote,
      industry: inst?.industry ?? null,
      market: inst?.market ?? 'TWSE',
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
