/**
 * The dividend calls (dividend/* of contract/api.ts), injected into the shared RTK Query api from
 * this feature so only the dividend chunks carry them. Credits change on the replay's ex-dates,
 * so the history keeps a short cache.
 */
import type { ResOf } from '../../../../contract/api';
import type { DividendCalendarTab } from '../../../../contract/dividends';
import { api, LIST_PAGE_SIZE } from '../../../api/api';

type Paged = { page: number; pageSize: number; total: number; items: unknown[] };
const nextPage = (last: Paged) =>
  last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined;

export const dividendsApi = api.injectEndpoints({
  endpoints: (b) => ({
    dividendCalendar: b.infiniteQuery<ResOf<'dividend/calendar'>, DividendCalendarTab, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: nextPage },
      query: ({ queryArg, pageParam }) => ({
        name: 'dividend/calendar',
        body: { tab: queryArg, page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
    }),
    dividendStocks: b.infiniteQuery<ResOf<'dividend/stocks'>, void, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: nextPage },
      query: ({ pageParam }) => ({
        name: 'dividend/stocks',
        body: { page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
    }),
    dividendHistory: b.query<ResOf<'dividend/history'>, string>({
      query: (symbol) => ({ name: 'dividend/history', body: { symbol } }),
      keepUnusedDataFor: 5,
    }),
  }),
});

export const { useDividendCalendarInfiniteQuery, useDividendStocksInfiniteQuery, useDividendHistoryQuery } =
  dividendsApi;
