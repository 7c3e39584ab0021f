/**
 * notice/* calls (contract/notices.ts), injected into the shared RTK Query api from this feature.
 * `Notices` tags the list, detail and unread counts; opening a notice refreshes the counts.
 */
import type { ResOf } from '../../../../contract/api';
import type { NoticeTab } from '../../../../contract/notices';
import { api, LIST_PAGE_SIZE } from '../../../api/api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Notices'] });

export const noticesApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    noticeList: b.infiniteQuery<ResOf<'notice/list'>, NoticeTab, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) =>
          last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined,
      },
      query: ({ queryArg, pageParam }) => ({
        name: 'notice/list',
        body: { tab: queryArg, page: pageParam, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['Notices'],
    }),
    /** A mutation: opening marks the notice read. */
    noticeOpen: b.mutation<ResOf<'notice/detail'>, string>({
      query: (id) => ({ name: 'notice/detail', body: { id } }),
      invalidatesTags: ['Notices'],
    }),
  }),
});

export const { useNoticeListInfiniteQuery, useNoticeOpenMutation } = noticesApi;
export { useNoticeUnreadQuery } from '../../../ui/notice-bell';
