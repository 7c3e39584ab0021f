/**
 * The credit calls (credit/* of contract/api.ts), injected into the shared RTK Query api here
 * because two features read them: the credit screens (src/features/credit) and the member
 * centre's credit line (score, limit, debt). `Credit` tags the summary and the loan records; an
 * application or repayment also refreshes the account and fund records (money moves).
 */
import type { ReqOf, ResOf } from '../../contract/api';
import { api, LIST_PAGE_SIZE } from './api';

/** A money-moving call: its body and the idempotency key of this submission. */
export interface CreditCall<N extends 'credit/apply' | 'credit/repay'> {
  body: ReqOf<N>;
  idempotencyKey: string;
}

type Paged = { page: number; pageSize: number; total: number; items: unknown[] };
const nextPage = (last: Paged): number | undefined =>
  last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined;

const tagged = api.enhanceEndpoints({ addTagTypes: ['Credit'] });

export const creditApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    creditSummary: b.query<ResOf<'credit/summary'>, void>({
      query: () => ({ name: 'credit/summary', body: {} }),
      providesTags: ['Credit'],
    }),
    creditLoans: b.infiniteQuery<ResOf<'credit/loans'>, void, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ pageParam }) => ({
        name: 'credit/loans',
        body: { page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['Credit'],
    }),
    creditApply: b.mutation<ResOf<'credit/apply'>, CreditCall<'credit/apply'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'credit/apply', body, idempotencyKey }),
      invalidatesTags: ['Credit', 'Account', 'Funds'],
    }),
    creditRepay: b.mutation<ResOf<'credit/repay'>, CreditCall<'credit/repay'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'credit/repay', body, idempotencyKey }),
      invalidatesTags: ['Credit', 'Account', 'Funds'],
    }),
  }),
});

export const {
  useCreditSummaryQuery,
  useCreditLoansInfiniteQuery,
  useCreditApplyMutation,
  useCreditRepayMutation,
} = creditApi;
