/**
 * The market screen's calls, injected into the shared RTK Query api from this feature:
 * one page of a whole-market ranking (market/list, polled by `useRankingWindow`), the industries
 * for the filter and the breadth of the replayed day (market/industries, market/breadth).
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import { api } from '../../../api/api';

export const marketApi = api.injectEndpoints({
  endpoints: (b) => ({
    rankingPage: b.query<ResOf<'market/list'>, ReqOf<'market/list'>>({
      query: (body) => ({ name: 'market/list', body }),
      keepUnusedDataFor: 0,
    }),
    industries: b.query<ResOf<'market/industries'>, void>({
      query: () => ({ name: 'market/industries', body: {} }),
      keepUnusedDataFor: 3600,
    }),
    breadth: b.query<ResOf<'market/breadth'>, void>({
      query: () => ({ name: 'market/breadth', body: {} }),
    }),
  }),
});

export const { useIndustriesQuery, useBreadthQuery } = marketApi;
