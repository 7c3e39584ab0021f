/**
 * The search calls (search/* of contract/api.ts), injected into the shared RTK Query api from
 * this feature so only the search chunks carry them. `SearchHistory` tags the member's history:
 * recording an opened result or clearing refreshes it.
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import { api } from '../../../api/api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['SearchHistory'] });

export const searchApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    searchInstruments: b.query<ResOf<'search/query'>, ReqOf<'search/query'>>({
      query: (body) => ({ name: 'search/query', body, silent: true }),
      keepUnusedDataFor: 60,
    }),
    hotSearches: b.query<ResOf<'search/hot'>, void>({
      query: () => ({ name: 'search/hot', body: {} }),
      providesTags: ['SearchHistory'],
    }),
    searchHistory: b.query<ResOf<'search/history'>, void>({
      query: () => ({ name: 'search/history', body: {} }),
      providesTags: ['SearchHistory'],
    }),
    addSearchHistory: b.mutation<ResOf<'search/addHistory'>, ReqOf<'search/addHistory'>>({
      query: (body) => ({ name: 'search/addHistory', body, silent: true }),
      invalidatesTags: ['SearchHistory'],
    }),
    clearSearchHistory: b.mutation<ResOf<'search/clearHistory'>, void>({
      query: () => ({ name: 'search/clearHistory', body: {} }),
      invalidatesTags: ['SearchHistory'],
    }),
  }),
});

export const {
  useSearchInstrumentsQuery,
  useHotSearchesQuery,
  useSearchHistoryQuery,
  useAddSearchHistoryMutation,
  useClearSearchHistoryMutation,
} = searchApi;
