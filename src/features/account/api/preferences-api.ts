/**
 * The member's preferences (user/preferences, user/savePreferences of contract/api.ts), injected
 * into the app's one RTK Query API from this shared module: the settings screen saves the
 * confirmation threshold, and every order ticket, the pending-order rows and the exchange screen
 * read it (./confirm-above.tsx). The read is silent: without an answer the screens use the default.
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import { api } from '../../../api/api';

export const preferencesApi = api.enhanceEndpoints({ addTagTypes: ['Preferences'] }).injectEndpoints({
  endpoints: (b) => ({
    preferences: b.query<ResOf<'user/preferences'>, void>({
      query: () => ({ name: 'user/preferences', body: {}, silent: true }),
      providesTags: ['Preferences'],
    }),
    savePreferences: b.mutation<ResOf<'user/savePreferences'>, ReqOf<'user/savePreferences'>>({
      query: (body) => ({ name: 'user/savePreferences', body }),
      // The answer is the saved preferences: every screen reads them at once, without a refetch.
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(preferencesApi.util.upsertQueryData('preferences', undefined, data));
        } catch {
          // Refused or lost: the stored preferences are unchanged, and so is the cache.
        }
      },
    }),
  }),
});

export const { usePreferencesQuery, useSavePreferencesMutation } = preferencesApi;
