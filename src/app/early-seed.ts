/**
 * Before the app's first render: the early answers that have already come (src/api/early.ts, asked
 * by ./entry.ts for the static shell) go into the store, so the first render draws what the shell
 * shows (./shell-fill.ts) instead of a loading state: a stock's detail into RTK Query's cache and
 * its quote and the clock into the market store; the home screen's indices into RTK Query's cache;
 * a market list page's quotes and clock (the list's
 * order is taken by src/features/market/ranking-window.ts itself).
 */
import type { ResOf } from '../../contract/api';
import { api } from '../api/api';
import { earlyData, takeEarly } from '../api/early';
import { recordNamesEn } from '../live/names-en';
import { clockSeen, quotesReceived } from '../live/quotes-slice';
import type { AppStore } from './store';

export function seedFromEarly(store: AppStore): void {
  // What goes into RTK Query's cache is consumed here: the cache holds it, so the next call (a
  // refetch, a pull to refresh) must ask the server, not take the same early answer again.
  for (const { body, data } of earlyData('market/detail')) {
    const detail = data as ResOf<'market/detail'>;
    const { symbol } = body as { symbol: string };
    void takeEarly('market/detail', body);
    void store.dispatch(api.util.upsertQueryData('marketDetail', symbol, detail));
    store.dispatch(quotesReceived([detail.quote]));
    if (detail.nameEn) recordNamesEn({ [detail.quote.symbol]: detail.nameEn });
    store.dispatch(clockSeen(detail.clock));
  }
  for (const { body, data } of earlyData('market/indices')) {
    void takeEarly('market/indices', body);
    void store.dispatch(api.util.upsertQueryData('indices', undefined, data as ResOf<'market/indices'>));
  }
  for (const { data } of earlyData('market/list')) {
    const page = data as ResOf<'market/list'>;
    store.dispatch(quotesReceived(page.items));
    recordNamesEn(page.namesEn);
    store.dispatch(clockSeen(page.clock));
  }
}
