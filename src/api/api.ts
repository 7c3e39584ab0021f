/**
 * Every REST call the client makes, typed from the contract registry (contract/api.ts).
 * Features import the generated hooks from here; cache tags keep account, orders, watchlist and
 * fund records fresh after the mutations that change them.
 */
import { createApi, type EndpointBuilder } from '@reduxjs/toolkit/query/react';
import type { EndpointName, ReqOf, ResOf } from '../../contract/api';
import type { FundTab } from '../../contract/funds';
import type { CandlePeriod } from '../../contract/market';
import { PAGE_SIZE, type MarketSort, type PositionTab } from '../../contract/constants';
import { envelopeBaseQuery } from './base-query';
import type { KeyedCall } from './idempotency';

/** Page size for the infinite lists. */
export const LIST_PAGE_SIZE = PAGE_SIZE;

type Paged = { page: number; pageSize: number; total: number; items: unknown[] };

/** Next page number while pages remain. */
function nextPage(last: Paged): number | undefined {
  return last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined;
}

export type SiteConfig = Record<string, string>;

/** A money-moving call: its body and the idempotency key of this submission. */
export interface MoneyCall<N extends 'user/recharge' | 'user/withdraw' | 'user/exchange'> {
  body: ReqOf<N>;
  idempotencyKey: string;
}

/**
 * An order action (place, cancel, close): its body, the idempotency key of the member's tap
 * (./idempotency.ts sendTap; reused on its automatic retries) and whether to skip the refusal toast.
 */
export type OrderCall<N extends EndpointName> = KeyedCall<ReqOf<N>>;

/** Cache tags: each names a kind of record the mutations below invalidate. */
const TAG_TYPES = [
  'Account',
  'Orders',
  'Watchlist',
  'Funds',
  'Kyc',
  'Security',
  'Cards',
  'Channels',
  'Rates',
] as const;

type Builder = EndpointBuilder<typeof envelopeBaseQuery, (typeof TAG_TYPES)[number], 'api'>;

/** Site-wide reads: the configuration. */
function commonEndpoints(b: Builder) {
  return {
    config: b.query<SiteConfig, void>({
      query: () => ({ name: 'common/config', body: { type: 'all' }, silent: true }),
      transformResponse: (items: ResOf<'common/config'>) =>
        Object.fromEntries((items ?? []).map((i) => [i.name, i.value])),
      keepUnusedDataFor: 3600,
    }),
  };
}

/** Auth, the member's account and watchlist. */
function accountEndpoints(b: Builder) {
  return {
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
  };
}

/** Identity: real-name verification, passwords, bank cards. */
function identityEndpoints(b: Builder) {
  return {
    kyc: b.query<ResOf<'user/kyc'>, void>({
      query: () => ({ name: 'user/kyc', body: {} }),
      providesTags: ['Kyc'],
    }),
    submitKyc: b.mutation<ResOf<'user/submitKyc'>, ReqOf<'user/submitKyc'>>({
      query: (body) => ({ name: 'user/submitKyc', body }),
      invalidatesTags: ['Kyc', 'Account'],
    }),
    changeLoginPassword: b.mutation<ResOf<'user/loginPassword'>, ReqOf<'user/loginPassword'>>({
      query: (body) => ({ name: 'user/loginPassword', body }),
    }),
    setFundsPassword: b.mutation<ResOf<'user/setPassword'>, ReqOf<'user/setPassword'>>({
      query: (body) => ({ name: 'user/setPassword', body }),
      invalidatesTags: ['Security', 'Account'],
    }),
    security: b.query<ResOf<'user/security'>, void>({
      query: () => ({ name: 'user/security', body: {} }),
      providesTags: ['Security'],
    }),
    bankCards: b.query<ResOf<'user/bankCards'>, void>({
      query: () => ({ name: 'user/bankCards', body: {} }),
      providesTags: ['Cards'],
    }),
    addBankCard: b.mutation<ResOf<'user/addBankCard'>, ReqOf<'user/addBankCard'>>({
      query: (body) => ({ name: 'user/addBankCard', body }),
      invalidatesTags: ['Cards'],
    }),
    deleteBankCard: b.mutation<ResOf<'user/deleteBankCard'>, ReqOf<'user/deleteBankCard'>>({
      query: (body) => ({ name: 'user/deleteBankCard', body }),
      invalidatesTags: ['Cards'],
    }),
  };
}

/** Funds: deposits, withdrawals, exchange, balances, records, statements. */
function fundsEndpoints(b: Builder) {
  return {
    // Money-moving calls carry an idempotency key (one per submission, reused on a retry).
    recharge: b.mutation<ResOf<'user/recharge'>, MoneyCall<'user/recharge'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'user/recharge', body, idempotencyKey }),
      invalidatesTags: ['Funds', 'Account'],
    }),
    withdraw: b.mutation<ResOf<'user/withdraw'>, MoneyCall<'user/withdraw'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'user/withdraw', body, idempotencyKey }),
      // A wrong funds password counts against the tries left.
      invalidatesTags: ['Funds', 'Account', 'Security'],
    }),
    withdrawable: b.query<ResOf<'user/withdrawable'>, void>({
      query: () => ({ name: 'user/withdrawable', body: {} }),
      providesTags: ['Funds', 'Account'],
    }),
    exchange: b.mutation<ResOf<'user/exchange'>, MoneyCall<'user/exchange'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'user/exchange', body, idempotencyKey }),
      invalidatesTags: ['Funds', 'Account'],
    }),
    depositChannels: b.query<ResOf<'user/depositChannels'>, void>({
      query: () => ({ name: 'user/depositChannels', body: {} }),
      providesTags: ['Channels'],
      keepUnusedDataFor: 0,
    }),
    rates: b.query<ResOf<'user/rates'>, void>({
      query: () => ({ name: 'user/rates', body: {} }),
      providesTags: ['Rates'],
      keepUnusedDataFor: 0,
    }),
    balances: b.query<ResOf<'user/balances'>, void>({
      query: () => ({ name: 'user/balances', body: {} }),
      providesTags: ['Account', 'Funds'],
    }),
    /** A CSV statement (a mutation: fetched on demand, never cached). */
    statement: b.mutation<ResOf<'user/statement'>, ReqOf<'user/statement'>>({
      query: (body) => ({ name: 'user/statement', body }),
    }),
    fundRecords: b.infiniteQuery<ResOf<'user/fundRecords'>, { tab: FundTab }, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ queryArg, pageParam }) => ({
        name: 'user/fundRecords',
        body: { tab: queryArg.tab, page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['Funds'],
    }),
  };
}

/** Market data: lists, details, quotes, candles, indices. */
function marketEndpoints(b: Builder) {
  return {
    marketList: b.infiniteQuery<ResOf<'market/list'>, { sort: MarketSort }, number>({
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
  };
}

/** Trading: orders, closes, loans in loan and the privacy agreement page. */
function tradingEndpoints(b: Builder) {
  return {
    placeOrder: b.mutation<ResOf<'trade/placeOrder'>, OrderCall<'trade/placeOrder'>>({
      query: ({ body, idempotencyKey, silent }) => ({
        name: 'trade/placeOrder',
        body,
        idempotencyKey,
        silent,
      }),
      invalidatesTags: ['Orders', 'Account', 'Funds'],
    }),
    cancelOrder: b.mutation<ResOf<'trade/cancelOrder'>, OrderCall<'trade/cancelOrder'>>({
      query: ({ body, idempotencyKey, silent }) => ({
        name: 'trade/cancelOrder',
        body,
        idempotencyKey,
        silent,
      }),
      invalidatesTags: ['Orders', 'Account', 'Funds'],
    }),
    closePosition: b.mutation<ResOf<'trade/closePosition'>, OrderCall<'trade/closePosition'>>({
      query: ({ body, idempotencyKey, silent }) => ({
        name: 'trade/closePosition',
        body,
        idempotencyKey,
        silent,
      }),
      invalidatesTags: ['Orders', 'Account', 'Funds'],
    }),
    /** The privacy agreement (common/page), for its version: the login form remembers acceptance of it. */
    agreementPage: b.query<ResOf<'common/page'>, void>({
      query: () => ({ name: 'common/page', body: { name: 'agreement' } }),
      keepUnusedDataFor: 600,
    }),
    /**
     * The member's stock loans still in loan (up to 200, the page limit), asked before a close: a
     * long with shares among them cannot be sold until they are recalled (server
     * lending/service.ts refuseCloseInLoan). Fetched on the tap, never cached for a screen.
     */
    loansInLoan: b.query<ResOf<'lending/orders'>, void>({
      query: () => ({ name: 'lending/orders', body: { status: 'inLoan', page: 1, pageSize: 200 } }),
    }),
    orders: b.infiniteQuery<ResOf<'trade/orders'>, { tab: PositionTab }, number>({
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
  };
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery: envelopeBaseQuery,
  tagTypes: TAG_TYPES,
  keepUnusedDataFor: 30,
  endpoints: (b) => ({
    ...commonEndpoints(b),
    ...accountEndpoints(b),
    ...identityEndpoints(b),
    ...fundsEndpoints(b),
    ...marketEndpoints(b),
    ...tradingEndpoints(b),
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
  useKycQuery,
  useSubmitKycMutation,
  useChangeLoginPasswordMutation,
  useSetFundsPasswordMutation,
  useSecurityQuery,
  useBankCardsQuery,
  useAddBankCardMutation,
  useDeleteBankCardMutation,
  useRechargeMutation,
  useWithdrawMutation,
  useWithdrawableQuery,
  useExchangeMutation,
  useDepositChannelsQuery,
  useRatesQuery,
  useBalancesQuery,
  useStatementMutation,
  useFundRecordsInfiniteQuery,
  useMarketListInfiniteQuery,
  useMarketDetailQuery,
  useQuotesQuery,
  useIndicesQuery,
  usePlaceOrderMutation,
  useCancelOrderMutation,
  useClosePositionMutation,
  useAgreementPageQuery,
  useOrdersInfiniteQuery,
  useOrderDetailQuery,
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
