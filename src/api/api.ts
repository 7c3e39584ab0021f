/**
 * Every REST call the client makes, typed from the contract registry (contract/api.ts).
 * Features import the generated hooks from here; cache tags keep account, orders, watchlist and
 * fund records fresh after the mutations that change them.
 */
import { createApi } from '@reduxjs/toolkit/query/react';
import type { ReqOf, ResOf } from '../../contract/api';
import type { FundTab } from '../../contract/funds';
import type { CandlePeriod } from '../../contract/market';
import { PAGE_SIZE } from '../../contract/constants';
import { envelopeBaseQuery } from './base-query';

/** Page size for the infinite lists. */
export const LIST_PAGE_SIZE = PAGE_SIZE;

type Paged = { page: number; pageSize: number; total: number; items: unknown[] };

/** Next page number while pages remain. */
function nextPage(last: Paged): number | undefined {
  return last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined;
}

export type SiteConfig = Record<string, string>;

export const api = createApi({
  reducerPath: 'api',
  baseQuery: envelopeBaseQuery,
  tagTypes: ['Account', 'Orders', 'Watchlist', 'Funds', 'AdminDeposits', 'AdminUsers'],
  keepUnusedDataFor: 30,
  endpoints: (b) => ({
    // ---- common ----
    config: b.query<SiteConfig, void>({
      query: () => ({ name: 'common/config', body: { type: 'all' }, silent: true }),
      transformResponse: (items: ResOf<'common/config'>) =>
        Object.fromEntries((items ?? []).map((i) => [i.name, i.value])),
      keepUnusedDataFor: 3600,
    }),

    // ---- auth and account ----
    register: b.mutation<ResOf<'user/register'>, ReqOf<'user/register'>>({
      query: (body) => ({ name: 'user/register', body }),
    }),
    login: b.mutation<ResOf<'user/login'>, ReqOf<'user/login'>>({
      query: (body) => ({ name: 'user/login', body }),
    }),
    logout: b.mutation<ResOf<'user/logout'>, void>({
      query: () => ({ name: 'user/logout', body: {} }),
    }),
    userInfo: b.query<ResOf<'user/info'>, void>({
      query: () => ({ name: 'user/info', body: {} }),
      providesTags: ['Account'],
    }),
    watchlist: b.query<ResOf<'user/Optionallist'>, void>({
      query: () => ({ name: 'user/Optionallist', body: { type: 'twd' } }),
      providesTags: ['Watchlist'],
    }),
    addOptional: b.mutation<ResOf<'user/addOptional'>, ReqOf<'user/addOptional'>>({
      query: (body) => ({ name: 'user/addOptional', body }),
      invalidatesTags: ['Watchlist'],
    }),
    delOptional: b.mutation<ResOf<'user/delOptional'>, ReqOf<'user/delOptional'>>({
      query: (body) => ({ name: 'user/delOptional', body }),
      invalidatesTags: ['Watchlist'],
    }),

    // ---- funds ----
    recharge: b.mutation<ResOf<'user/recharge'>, ReqOf<'user/recharge'>>({
      query: (body) => ({ name: 'user/recharge', body }),
      invalidatesTags: ['Funds', 'Account'],
    }),
    fundRecords: b.infiniteQuery<ResOf<'user/fundRecords'>, { tab: FundTab }, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ queryArg, pageParam }) => ({
        name: 'user/fundRecords',
        body: { tab: queryArg.tab, page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['Funds'],
    }),

    // ---- market ----
    marketList: b.infiniteQuery<
      ResOf<'market/list'>,
      { sort: 'all' | 'gainers' | 'losers' | 'volume' },
      number
    >({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ queryArg, pageParam }) => ({
        name: 'market/list',
        body: { sort: queryArg.sort, page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
    }),
    marketDetail: b.query<ResOf<'market/detail'>, string>({
      query: (symbol) => ({ name: 'market/detail', body: { symbol } }),
    }),
    quotes: b.query<ResOf<'market/quotes'>, string[]>({
      query: (symbols) => ({ name: 'market/quotes', body: { symbols } }),
    }),
    candles: b.query<
      ResOf<'market/candles'>,
      { symbol: string; period: CandlePeriod; limit?: number; before?: number }
    >({
      query: (body) => ({ name: 'market/candles', body }),
      keepUnusedDataFor: 0,
    }),
    indices: b.query<ResOf<'market/indices'>, void>({
      query: () => ({ name: 'market/indices', body: {} }),
    }),

    // ---- trading ----
    placeOrder: b.mutation<ResOf<'trade/placeOrder'>, ReqOf<'trade/placeOrder'>>({
      query: (body) => ({ name: 'trade/placeOrder', body }),
      invalidatesTags: ['Orders', 'Account', 'Funds'],
    }),
    cancelOrder: b.mutation<ResOf<'trade/cancelOrder'>, ReqOf<'trade/cancelOrder'>>({
      query: (body) => ({ name: 'trade/cancelOrder', body }),
      invalidatesTags: ['Orders', 'Account', 'Funds'],
    }),
    closePosition: b.mutation<ResOf<'trade/closePosition'>, ReqOf<'trade/closePosition'>>({
      query: (body) => ({ name: 'trade/closePosition', body }),
      invalidatesTags: ['Orders', 'Account', 'Funds'],
    }),
    orders: b.infiniteQuery<ResOf<'trade/orders'>, { tab: 'holdings' | 'orders' | 'terminated' }, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ queryArg, pageParam }) => ({
        name: 'trade/orders',
        body: { tab: queryArg.tab, page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['Orders'],
    }),
    orderDetail: b.query<ResOf<'trade/orderDetail'>, number>({
      query: (orderId) => ({ name: 'trade/orderDetail', body: { orderId } }),
      providesTags: ['Orders'],
    }),

    // ---- operator console ----
    adminLogin: b.mutation<ResOf<'admin/login'>, ReqOf<'admin/login'>>({
      query: (body) => ({ name: 'admin/login', body }),
    }),
    adminDeposits: b.query<ResOf<'admin/deposits'>, { status: 'pending' | 'all'; page: number }>({
      query: ({ status, page }) => ({ name: 'admin/deposits', body: { status, page, pageSize: 50 } }),
      providesTags: ['AdminDeposits'],
    }),
    approveDeposit: b.mutation<ResOf<'admin/approveDeposit'>, ReqOf<'admin/approveDeposit'>>({
      query: (body) => ({ name: 'admin/approveDeposit', body }),
      invalidatesTags: ['AdminDeposits', 'AdminUsers'],
    }),
    rejectDeposit: b.mutation<ResOf<'admin/rejectDeposit'>, ReqOf<'admin/rejectDeposit'>>({
      query: (body) => ({ name: 'admin/rejectDeposit', body }),
      invalidatesTags: ['AdminDeposits'],
    }),
    adminUsers: b.query<ResOf<'admin/users'>, { q?: string; page: number }>({
      query: ({ q, page }) => ({ name: 'admin/users', body: { q: q || undefined, page, pageSize: 50 } }),
      providesTags: ['AdminUsers'],
    }),
  }),
});

export const {
  useConfigQuery,
  useRegisterMutation,
  useLoginMutation,
  useLogoutMutation,
  useUserInfoQuery,
  useWatchlistQuery,
  useAddOptionalMutation,
  useDelOptionalMutation,
  useRechargeMutation,
  useFundRecordsInfiniteQuery,
  useMarketListInfiniteQuery,
  useMarketDetailQuery,
  useQuotesQuery,
  useIndicesQuery,
  usePlaceOrderMutation,
  useCancelOrderMutation,
  useClosePositionMutation,
  useOrdersInfiniteQuery,
  useOrderDetailQuery,
  useAdminLoginMutation,
  useAdminDepositsQuery,
  useApproveDepositMutation,
  useRejectDepositMutation,
  useAdminUsersQuery,
} = api;

/** Site configuration's leverage list ("1,2,5,10"), falling back to the contract default. */
export function parseLeverages(value: string | undefined, fallback: readonly number[]): number[] {
  const parsed = (value ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n >= 1 && n <= 100);
  const unique = Array.from(new Set(parsed)).sort((a, b) => a - b);
  return unique.length ? unique : [...fallback];
}
