/**
 * The risk endpoints (contract/api.ts "issue 5: risk"), injected into the app's one RTK Query API:
 * the summary (balances, thresholds, per-position risk at the server's marks), the notices and
 * marking them read. The summary also refetches when orders or the account change (a new or
 * closed position moves the ratio).
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import { api } from '../../../api/api';

/** How often an open screen re-reads the summary (ms): liquidations happen on the server. */
export const RISK_POLL_MS = 5_000;

export const riskApi = api.enhanceEndpoints({ addTagTypes: ['Risk'] }).injectEndpoints({
  endpoints: (b) => ({
    riskSummary: b.query<ResOf<'risk/summary'>, void>({
      query: () => ({ name: 'risk/summary', body: {}, silent: true }),
      providesTags: ['Risk', 'Orders', 'Account'],
    }),
    riskEvents: b.query<ResOf<'risk/events'>, ReqOf<'risk/events'>>({
      query: (body) => ({ name: 'risk/events', body, silent: true }),
      providesTags: ['Risk'],
    }),
    markRiskRead: b.mutation<ResOf<'risk/markRead'>, ReqOf<'risk/markRead'>>({
      query: (body) => ({ name: 'risk/markRead', body, silent: true }),
      invalidatesTags: ['Risk'],
    }),
  }),
});

export const { useRiskSummaryQuery, useRiskEventsQuery, useMarkRiskReadMutation } = riskApi;
