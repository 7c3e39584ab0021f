/**
 * The stock-lending calls (lending/* of contract/api.ts), injected into the shared RTK Query api
 * from this feature so only its chunk carries them. `Lending` tags the overview, orders and the
 * margin view; lending or recalling also refreshes the account, orders and fund records.
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import { api, LIST_PAGE_SIZE } from '../../../api/api';

/** A money-moving call: its body and the idempotency key of this submission. */
export interface LendingCall<N extends 'lending/lend' | 'lending/recall'> {
  body: ReqOf<N>;
  idempotencyKey: string;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['Lending'] });

export const lendingApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    lendingOverview: b.query<ResOf<'lending/overview'>, void>({
      query: () => ({ name: 'lending/overview', body: {} }),
      providesTags: ['Lending'],
    }),
    lendingOrders: b.query<ResOf<'lending/orders'>, void>({
      query: () => ({ name: 'lending/orders', body: { page: 1, pageSize: LIST_PAGE_SIZE } }),
      providesTags: ['Lending'],
    }),
    marginView: b.query<ResOf<'lending/margin'>, void>({
      query: () => ({ name: 'lending/margin', body: {} }),
      providesTags: ['Lending', 'Orders'],
    }),
    lend: b.mutation<ResOf<'lending/lend'>, LendingCall<'lending/lend'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'lending/lend', body, idempotencyKey }),
      invalidatesTags: ['Lending', 'Orders'],
    }),
    recallLending: b.mutation<ResOf<'lending/recall'>, LendingCall<'lending/recall'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'lending/recall', body, idempotencyKey }),
      invalidatesTags: ['Lending', 'Orders', 'Account', 'Funds'],
    }),
  }),
});

export const {
  useLendingOverviewQuery,
  useLendingOrdersQuery,
  useMarginViewQuery,
  useLendMutation,
  useRecallLendingMutation,
} = lendingApi;
