/**
 * The asset overview and invite-friends calls (wallet/overview, wallet/history, user/invite of
 * contract/api.ts), injected into the shared RTK Query api from this feature so only its chunks
 * carry them. The overview and history are tagged `Account` and `Funds`: every money change that
 * refreshes the member centre refreshes them too.
 */
import type { ResOf } from '../../../../contract/api';
import { api } from '../../../api/api';

export const walletApi = api.injectEndpoints({
  endpoints: (b) => ({
    walletOverview: b.query<ResOf<'wallet/overview'>, void>({
      query: () => ({ name: 'wallet/overview', body: {} }),
      providesTags: ['Account', 'Funds'],
    }),
    walletHistory: b.query<ResOf<'wallet/history'>, void>({
      query: () => ({ name: 'wallet/history', body: {} }),
      providesTags: ['Account', 'Funds'],
    }),
    userInvite: b.query<ResOf<'user/invite'>, void>({
      query: () => ({ name: 'user/invite', body: {} }),
      providesTags: ['Kyc'],
    }),
  }),
});

export const { useWalletOverviewQuery, useWalletHistoryQuery, useUserInviteQuery } = walletApi;
