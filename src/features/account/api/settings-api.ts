/**
 * The settings area's calls (common/page, user/feedback, user/myFeedback), injected into the
 * shared RTK Query api from this feature so only its chunk carries them.
 */
import type { PageName } from '../../../../contract/common';
import type { ReqOf, ResOf } from '../../../../contract/api';
import { api } from '../../../api/api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Feedback'] });

export const settingsApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    sitePage: b.query<ResOf<'common/page'>, PageName>({
      query: (name) => ({ name: 'common/page', body: { name } }),
      keepUnusedDataFor: 600,
    }),
    myFeedback: b.query<ResOf<'user/myFeedback'>, void>({
      query: () => ({ name: 'user/myFeedback', body: {} }),
      providesTags: ['Feedback'],
    }),
    sendFeedback: b.mutation<ResOf<'user/feedback'>, ReqOf<'user/feedback'>>({
      query: (body) => ({ name: 'user/feedback', body }),
      invalidatesTags: ['Feedback'],
    }),
  }),
});

export const { useSitePageQuery, useMyFeedbackQuery, useSendFeedbackMutation } = settingsApi;
