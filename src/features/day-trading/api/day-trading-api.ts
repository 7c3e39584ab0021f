/**
 * The day-trading calls (dayTrade/* of contract/api.ts), injected into the shared RTK Query api
 * from this feature so only the day-trading chunk carries them. `DayTrade` tags the status,
 * applications and lists; placing a day-trade order also refreshes the positions and account.
 */
import type { ResOf } from '../../../../contract/api';
import { api, LIST_PAGE_SIZE, type OrderCall } from '../../../api/api';

type Paged = { page: number; pageSize: number; total: number; items: unknown[] };

/** Next page number while pages remain. */
function nextPage(last: Paged): number | undefined {
  return last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['DayTrade'] });

export const dayTradingApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    dayTradeStatus: b.query<ResOf<'dayTrade/status'>, void>({
      query: () => ({ name: 'dayTrade/status', body: {} }),
      providesTags: ['DayTrade'],
    }),
    applyDayTrade: b.mutation<ResOf<'dayTrade/apply'>, void>({
      query: () => ({ name: 'dayTrade/apply', body: {} }),
      invalidatesTags: ['DayTrade'],
    }),
    dayTradeApplications: b.infiniteQuery<ResOf<'dayTrade/applications'>, void, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ pageParam }) => ({
        name: 'dayTrade/applications',
        body: { page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['DayTrade'],
    }),
    // Keyed per tap like trade/placeOrder (src/api/idempotency.ts sendTap).
    placeDayTradeOrder: b.mutation<ResOf<'dayTrade/placeOrder'>, OrderCall<'dayTrade/placeOrder'>>({
      query: ({ body, idempotencyKey, silent }) => ({
        name: 'dayTrade/placeOrder',
        body,
        idempotencyKey,
        silent,
      }),
      invalidatesTags: ['DayTrade', 'Orders', 'Account', 'Funds'],
    }),
    dayTradeTransactions: b.infiniteQuery<ResOf<'dayTrade/transactions'>, void, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ pageParam }) => ({
        name: 'dayTrade/transactions',
        body: { page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['DayTrade', 'Orders'],
    }),
    dayTradeDetails: b.infiniteQuery<ResOf<'dayTrade/details'>, void, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ pageParam }) => ({
        name: 'dayTrade/details',
        body: { page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['DayTrade', 'Orders'],
    }),
  }),
});

export const {
  useDayTradeStatusQuery,
  useApplyDayTradeMutation,
  useDayTradeApplicationsInfiniteQuery,
  usePlaceDayTradeOrderMutation,
  useDayTradeTransactionsInfiniteQuery,
  useDayTradeDetailsInfiniteQuery,
} = dayTradingApi;
