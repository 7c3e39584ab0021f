/**
 * search/* handlers (contract/search.ts): the query runs over the feed's in-memory directory
 * (no table read); history and hot searches read and write search_history.
 */
import type { Quote } from '../../../contract/market';
import { HOT_MAX, HOT_WINDOW_DAYS } from '../../../contract/search';
import { requireUser, type Handlers } from '../common/context';
import { searchDirectory, searchIndexOf } from './directory';
import { clearHistory, hotFromHistory, listHistory, recordOpened } from './history';

/** search/query, search/hot, search/history, search/addHistory, search/clearHistory. */
export const searchHandlers: Pick<
  Handlers,
  'search/query' | 'search/hot' | 'search/history' | 'search/addHistory' | 'search/clearHistory'
> = {
  async 'search/query'(body, ctx) {
    const feed = ctx.feed;
    const { items, total } = searchDirectory(
      searchIndexOf(feed.instruments()),
      body.q,
      (symbol) => feed.quote(symbol)?.turnoverMinor ?? -1,
      body.limit,
    );
    const quotes = items.map((h) => feed.quote(h.symbol)).filter((q): q is Quote => q !== undefined);
    return { items, total, quotes };
  },
  async 'search/hot'(_body, ctx) {
    const hot = await hotFromHistory(ctx.db, ctx.now());
    if (hot.length > 0)
      return {
        basis: 'searches' as const,
        windowDays: HOT_WINDOW_DAYS,
        replayDate: null,
        items: hot.map((h) => ({ ...h, turnoverMinor: null })),
      };
    // No member searches yet: the replayed day's most traded instruments, said to be so.
    const quotes = ctx.feed.listQuotes();
    const top = [...quotes].sort((a, b) => b.turnoverMinor - a.turnoverMinor).slice(0, HOT_MAX);
    const bySymbol = new Map(ctx.feed.instruments().map((i) => [i.symbol, i]));
    return {
      basis: 'turnover' as const,
      windowDays: HOT_WINDOW_DAYS,
      replayDate: quotes[0]?.replayDate ?? null,
      items: top.map((q) => ({
        symbol: q.symbol,
        name: q.name,
        nameEn: bySymbol.get(q.symbol)?.nameEn ?? null,
        members: null,
        turnoverMinor: q.turnoverMinor,
      })),
    };
  },
  async 'search/history'(_body, ctx) {
    return { items: await listHistory(ctx.db, requireUser(ctx).id) };
  },
  async 'search/addHistory'(body, ctx) {
    const user = requireUser(ctx);
    await ctx.services.memberQuotas.consume('searchHistory', user.id);
    await recordOpened(ctx.db, user.id, body.symbol, ctx.now());
    return { ok: true as const };
  },
  async 'search/clearHistory'(_body, ctx) {
    await clearHistory(ctx.db, requireUser(ctx).id);
    return { ok: true as const };
  },
};
