/**
 * The bidding screen's calls (auction/*, blockTrade/*, placement/apply, primary/applications of
 * contract/api.ts) and the block-trade password screen's (user/blockTradePassword,
 * user/setBlockTradePassword), injected into the shared RTK Query api from this feature so only its chunk
 * carries them. `Primary` tags the lists; a bid or application also refreshes the account and the
 * fund records (money is held).
 */
import type { ReqOf, ResOf } from '../../contract/api';
import { api, LIST_PAGE_SIZE } from './api';

/** A money-moving call: its body and the idempotency key of this submission. */
export interface KeyedBody<N extends 'auction/bid' | 'blockTrade/apply' | 'placement/apply'> {
  body: ReqOf<N>;
  idempotencyKey: string;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['Primary', 'BlockTradePassword'] });

export const primaryApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    auctions: b.query<ResOf<'auction/list'>, void>({
      query: () => ({ name: 'auction/list', body: { tab: 'open', pageSize: LIST_PAGE_SIZE } }),
      providesTags: ['Primary'],
    }),
    primaryOfferings: b.query<ResOf<'blockTrade/offerings'>, 'blockTrade' | 'placement'>({
      query: (kind) => ({ name: 'blockTrade/offerings', body: { kind, pageSize: LIST_PAGE_SIZE } }),
      providesTags: ['Primary'],
    }),
    myBids: b.query<ResOf<'auction/bids'>, void>({
      query: () => ({ name: 'auction/bids', body: { pageSize: LIST_PAGE_SIZE } }),
      providesTags: ['Primary'],
    }),
    myApplications: b.query<ResOf<'primary/applications'>, void>({
      query: () => ({ name: 'primary/applications', body: { pageSize: LIST_PAGE_SIZE } }),
      providesTags: ['Primary'],
    }),
    bid: b.mutation<ResOf<'auction/bid'>, KeyedBody<'auction/bid'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'auction/bid', body, idempotencyKey }),
      invalidatesTags: ['Primary', 'Account', 'Funds'],
    }),
    applyBlockTrade: b.mutation<ResOf<'blockTrade/apply'>, KeyedBody<'blockTrade/apply'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'blockTrade/apply', body, idempotencyKey }),
      invalidatesTags: ['Primary', 'Account', 'Funds'],
    }),
    blockTradePassword: b.query<ResOf<'user/blockTradePassword'>, void>({
      query: () => ({ name: 'user/blockTradePassword', body: {} }),
      providesTags: ['BlockTradePassword'],
    }),
    setBlockTradePassword: b.mutation<
      ResOf<'user/setBlockTradePassword'>,
      ReqOf<'user/setBlockTradePassword'>
    >({
      query: (body) => ({ name: 'user/setBlockTradePassword', body }),
      invalidatesTags: ['BlockTradePassword'],
    }),
    applyPlacement: b.mutation<ResOf<'placement/apply'>, KeyedBody<'placement/apply'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'placement/apply', body, idempotencyKey }),
      invalidatesTags: ['Primary', 'Account', 'Funds'],
    }),
  }),
});

export const {
  useAuctionsQuery,
  usePrimaryOfferingsQuery,
  useMyBidsQuery,
  useMyApplicationsQuery,
  useBidMutation,
  useApplyBlockTradeMutation,
  useApplyPlacementMutation,
  useBlockTradePasswordQuery,
  useSetBlockTradePasswordMutation,
} = primaryApi;
