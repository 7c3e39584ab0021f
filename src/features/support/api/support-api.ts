/**
 * support/* calls (contract/support.ts), injected into the shared RTK Query api from this
 * feature. History pages are fetched on demand (`beforeId` cursor); sends and reads are mutations.
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import { api } from '../../../api/api';

export const supportApi = api.injectEndpoints({
  endpoints: (b) => ({
    supportHistory: b.query<ResOf<'support/history'>, ReqOf<'support/history'>>({
      query: (body) => ({ name: 'support/history', body }),
      keepUnusedDataFor: 0,
    }),
    supportSend: b.mutation<ResOf<'support/send'>, ReqOf<'support/send'>>({
      query: (body) => ({ name: 'support/send', body }),
    }),
    supportRead: b.mutation<ResOf<'support/read'>, void>({
      query: () => ({ name: 'support/read', body: {} }),
    }),
  }),
});

export const { useLazySupportHistoryQuery, useSupportSendMutation, useSupportReadMutation } = supportApi;
