/**
 * The public-subscription calls (ipo/* of contract/api.ts), injected into the shared RTK Query api
 * from this feature so only the subscription chunk carries them. `Ipo` tags the lists, detail and
 * records; applying or paying also refreshes the account and fund records (money is held). The
 * market clock moves offerings and applications on the server (draw, refund, listing), so the
 * screens ask again each time they open (refetchOnMountOrArgChange), not only after a mutation.
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import type { IpoTab } from '../../../../contract/ipo';
import { api, LIST_PAGE_SIZE } from '../../../api/api';

type Paged = { page: number; pageSize: number; total: number; items: unknown[] };

/** Next page number while pages remain. */
function nextPage(last: Paged): number | undefined {
  return last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined;
}

/** A money-moving call: its body and the idempotency key of this submission. */
export interface IpoCall<N extends 'ipo/apply' | 'ipo/pay'> {
  body: ReqOf<N>;
  idempotencyKey: string;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['Ipo'] });

export const ipoApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    ipoList: b.infiniteQuery<ResOf<'ipo/list'>, IpoTab, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ queryArg, pageParam }) => ({
        name: 'ipo/list',
        body: { tab: queryArg, page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['Ipo'],
    }),
    ipoDetail: b.query<ResOf<'ipo/detail'>, number>({
      query: (id) => ({ name: 'ipo/detail', body: { id } }),
      providesTags: ['Ipo'],
    }),
    ipoRecords: b.infiniteQuery<ResOf<'ipo/records'>, void, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ pageParam }) => ({
        name: 'ipo/records',
        body: { page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['Ipo'],
    }),
    ipoApply: b.mutation<ResOf<'ipo/apply'>, IpoCall<'ipo/apply'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'ipo/apply', body, idempotencyKey }),
      invalidatesTags: ['Ipo', 'Account', 'Funds'],
    }),
    ipoPay: b.mutation<ResOf<'ipo/pay'>, IpoCall<'ipo/pay'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'ipo/pay', body, idempotencyKey }),
      invalidatesTags: ['Ipo', 'Account', 'Funds'],
    }),
  }),
});

export const {
  useIpoListInfiniteQuery,
  useIpoDetailQuery,
  useIpoRecordsInfiniteQuery,
  useIpoApplyMutation,
  useIpoPayMutation,
} = ipoApi;
