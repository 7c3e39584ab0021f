/**
 * The copy-trading calls (mentor/*, follow/* of contract/api.ts), injected into the shared RTK
 * Query api from this feature so only the follow screens' chunk carries them. `Follow` tags
 * mentors, follows and records; following and stopping also refresh the account and funds.
 * Following and stopping move money: each carries an idempotency key (src/api/idempotency.ts;
 * a stop is sent with sendTap, one key per tap reused on its automatic retries).
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import { api, LIST_PAGE_SIZE } from '../../../api/api';
import type { KeyedCall } from '../../../api/idempotency';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Follow'] });

export const followApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    mentorList: b.query<ResOf<'mentor/list'>, ReqOf<'mentor/list'>>({
      query: (body) => ({ name: 'mentor/list', body: { pageSize: LIST_PAGE_SIZE, ...body } }),
      providesTags: ['Follow'],
    }),
    mentorInfo: b.query<ResOf<'mentor/info'>, number>({
      query: (mentorId) => ({ name: 'mentor/info', body: { mentorId } }),
      providesTags: ['Follow'],
    }),
    mentorMinFollow: b.query<ResOf<'mentor/minFollow'>, number>({
      query: (mentorId) => ({ name: 'mentor/minFollow', body: { mentorId } }),
      providesTags: ['Follow'],
    }),
    mentorStatus: b.query<ResOf<'mentor/status'>, void>({
      query: () => ({ name: 'mentor/status', body: {} }),
      providesTags: ['Follow'],
    }),
    mentorApply: b.mutation<ResOf<'mentor/apply'>, void>({
      query: () => ({ name: 'mentor/apply', body: {} }),
      invalidatesTags: ['Follow'],
    }),
    followStart: b.mutation<ResOf<'follow/start'>, KeyedCall<ReqOf<'follow/start'>>>({
      query: ({ body, idempotencyKey }) => ({ name: 'follow/start', body, idempotencyKey }),
      invalidatesTags: ['Follow', 'Account', 'Funds'],
    }),
    followStop: b.mutation<ResOf<'follow/stop'>, KeyedCall<ReqOf<'follow/stop'>>>({
      query: ({ body, idempotencyKey, silent }) => ({ name: 'follow/stop', body, idempotencyKey, silent }),
      invalidatesTags: ['Follow', 'Account', 'Funds', 'Orders'],
    }),
    followPause: b.mutation<ResOf<'follow/pause'>, { followId: number; paused: boolean }>({
      query: ({ followId, paused }) => ({
        name: paused ? 'follow/pause' : 'follow/resume',
        body: { followId },
      }),
      invalidatesTags: ['Follow'],
    }),
    followList: b.query<ResOf<'follow/list'>, void>({
      query: () => ({ name: 'follow/list', body: { pageSize: LIST_PAGE_SIZE } }),
      providesTags: ['Follow'],
    }),
    /** One follow's records, or (no id) the records of all the member's follows. */
    followRecords: b.query<ResOf<'follow/records'>, number | undefined>({
      query: (followId) => ({
        name: 'follow/records',
        body: followId === undefined ? { pageSize: LIST_PAGE_SIZE } : { followId, pageSize: LIST_PAGE_SIZE },
      }),
      providesTags: ['Follow'],
    }),
  }),
});

export const {
  useMentorListQuery,
  useMentorInfoQuery,
  useMentorMinFollowQuery,
  useMentorStatusQuery,
  useMentorApplyMutation,
  useFollowStartMutation,
  useFollowStopMutation,
  useFollowPauseMutation,
  useFollowListQuery,
  useFollowRecordsQuery,
} = followApi;
