/**
 * The news calls (news/* of contract/api.ts), injected into the shared RTK Query api from this
 * shared layer: the news screens (src/features/news), the home section and the stock detail's
 * section all read through them. Items are public; `News` tags them.
 */
import type { ResOf } from '../../../../contract/api';
import type { NewsItem } from '../../../../contract/news';
import { api, LIST_PAGE_SIZE } from '../../../api/api';
import { langOf } from '../../../lib/format';

type Paged = ResOf<'news/list'>;

const tagged = api.enhanceEndpoints({ addTagTypes: ['News'] });

export const newsApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    /** Every published item, newest first, page by page (/home/moreNews). */
    newsPages: b.infiniteQuery<Paged, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) =>
          last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined,
      },
      query: ({ pageParam }) => ({ name: 'news/list', body: { page: pageParam, pageSize: LIST_PAGE_SIZE } }),
      providesTags: ['News'],
    }),
    /** The newest `pageSize` items, optionally naming one instrument (home and detail sections). */
    newsLatest: b.query<Paged, { symbol?: string; pageSize: number }>({
      query: (body) => ({ name: 'news/list', body: { ...body, page: 1 } }),
      providesTags: ['News'],
    }),
    newsDetail: b.query<ResOf<'news/detail'>, number>({
      query: (id) => ({ name: 'news/detail', body: { id } }),
      providesTags: ['News'],
    }),
  }),
});

export const { useNewsPagesInfiniteQuery, useNewsLatestQuery, useNewsDetailQuery } = newsApi;

/** An item's title and summary in the app language. */
export function newsText(item: NewsItem, language: string | undefined): { title: string; summary: string } {
  return langOf(language) === 'en'
    ? { title: item.titleEn, summary: item.summaryEn }
    : { title: item.titleTw, summary: item.summaryTw };
}
