/**
 * The ETF list: market/list narrowed to `securityType: 'etf'` and, optionally, one ETF category
 * (contract/market.ts ETF_CATEGORIES), paged like the market list. Injected from this feature so
 * only the ETF chunk carries it.
 */
import type { MARKET_SORTS } from '../../../../contract/constants';
import type { ResOf } from '../../../../contract/api';
import type { EtfCategory } from '../../../../contract/market';
import { api, LIST_PAGE_SIZE } from '../../../api/api';

type MarketSort = (typeof MARKET_SORTS)[number];

/** The ETF list's arguments: the sort and the category filter (null: every ETF). */
export interface EtfListArg {
  sort: MarketSort;
  category: EtfCategory | null;
}

export const etfApi = api.injectEndpoints({
  endpoints: (b) => ({
    etfList: b.infiniteQuery<ResOf<'market/list'>, EtfListArg, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) =>
          last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined,
      },
      query: ({ queryArg, pageParam }) => ({
        name: 'market/list',
        body: {
          sort: queryArg.sort,
          securityType: 'etf',
          ...(queryArg.category ? { etfCategory: queryArg.category } : {}),
          page: pageParam,
          pageSize: LIST_PAGE_SIZE,
        },
      }),
    }),
  }),
});

export const { useEtfListInfiniteQuery } = etfApi;
