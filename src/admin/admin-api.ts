/**
 * The operator console's REST calls (every `admin/*` endpoint of contract/api.ts), injected into
 * the shared RTK Query api so the member app's bundle never carries them. Each list is tagged;
 * each operator action invalidates the lists it changes and the audit log it writes to
 * (server/modules/common/audit.ts: one entry per action). Types come from the contract registry.
 */
import type { ThunkAction, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch } from 'react-redux';
import type { ReqOf, ResOf } from '../../contract/api';
import { api } from '../api/api';

/** Page size of the review queues and the users list. */
export const ADMIN_PAGE_SIZE = 50;
/** Page size of the audit log and the ledger (infinite lists). */
export const ADMIN_LOG_PAGE_SIZE = 30;

/** Queue filter: only what waits for a decision, or everything. */
export type QueueStatus = 'pending' | 'all';

type Paged = { page: number; pageSize: number; total: number; items: unknown[] };

/** Next page number while pages remain. */
function nextPage(last: Paged): number | undefined {
  return last.page * last.pageSize < last.total && last.items.length > 0 ? last.page + 1 : undefined;
}

const tagged = api.enhanceEndpoints({
  addTagTypes: [
    'AdminDeposits',
    'AdminUsers',
    'AdminKyc',
    'AdminWithdrawals',
    'AdminChannels',
    'AdminRates',
    'AdminConfig',
    'AdminAudit',
    'AdminLedger',
    'AdminLending',
  ],
});

export const adminApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    adminLogin: b.mutation<ResOf<'admin/login'>, ReqOf<'admin/login'>>({
      query: (body) => ({ name: 'admin/login', body }),
    }),

    // ---- stock lending ----
    adminLending: b.query<ResOf<'admin/lending'>, void>({
      query: () => ({ name: 'admin/lending', body: {} }),
      providesTags: ['AdminLending'],
    }),
    saveLendingChannel: b.mutation<ResOf<'admin/saveLendingChannel'>, ReqOf<'admin/saveLendingChannel'>>({
      query: (body) => ({ name: 'admin/saveLendingChannel', body }),
      invalidatesTags: ['AdminLending', 'AdminAudit'],
    }),
    saveLendingQuota: b.mutation<ResOf<'admin/saveLendingQuota'>, ReqOf<'admin/saveLendingQuota'>>({
      query: (body) => ({ name: 'admin/saveLendingQuota', body }),
      invalidatesTags: ['AdminLending', 'AdminAudit'],
    }),

    // ---- review queues ----
    adminKyc: b.query<ResOf<'admin/kyc'>, { status: QueueStatus; page: number }>({
      query: ({ status, page }) => ({ name: 'admin/kyc', body: { status, page, pageSize: ADMIN_PAGE_SIZE } }),
      providesTags: ['AdminKyc'],
    }),
    approveKyc: b.mutation<ResOf<'admin/approveKyc'>, ReqOf<'admin/approveKyc'>>({
      query: (body) => ({ name: 'admin/approveKyc', body }),
      invalidatesTags: ['AdminKyc', 'AdminUsers', 'AdminAudit'],
    }),
    rejectKyc: b.mutation<ResOf<'admin/rejectKyc'>, ReqOf<'admin/rejectKyc'>>({
      query: (body) => ({ name: 'admin/rejectKyc', body }),
      invalidatesTags: ['AdminKyc', 'AdminUsers', 'AdminAudit'],
    }),
    adminDeposits: b.query<ResOf<'admin/deposits'>, { status: QueueStatus; page: number }>({
      query: ({ status, page }) => ({
        name: 'admin/deposits',
        body: { status, page, pageSize: ADMIN_PAGE_SIZE },
      }),
      providesTags: ['AdminDeposits'],
    }),
    approveDeposit: b.mutation<ResOf<'admin/approveDeposit'>, ReqOf<'admin/approveDeposit'>>({
      query: (body) => ({ name: 'admin/approveDeposit', body }),
      invalidatesTags: ['AdminDeposits', 'AdminUsers', 'AdminAudit', 'AdminLedger'],
    }),
    rejectDeposit: b.mutation<ResOf<'admin/rejectDeposit'>, ReqOf<'admin/rejectDeposit'>>({
      query: (body) => ({ name: 'admin/rejectDeposit', body }),
      invalidatesTags: ['AdminDeposits', 'AdminAudit'],
    }),
    adminWithdrawals: b.query<ResOf<'admin/withdrawals'>, { status: QueueStatus; page: number }>({
      query: ({ status, page }) => ({
        name: 'admin/withdrawals',
        body: { status, page, pageSize: ADMIN_PAGE_SIZE },
      }),
      providesTags: ['AdminWithdrawals'],
    }),
    approveWithdrawal: b.mutation<ResOf<'admin/approveWithdrawal'>, ReqOf<'admin/approveWithdrawal'>>({
      query: (body) => ({ name: 'admin/approveWithdrawal', body }),
      invalidatesTags: ['AdminWithdrawals', 'AdminUsers', 'AdminAudit', 'AdminLedger'],
    }),
    rejectWithdrawal: b.mutation<ResOf<'admin/rejectWithdrawal'>, ReqOf<'admin/rejectWithdrawal'>>({
      query: (body) => ({ name: 'admin/rejectWithdrawal', body }),
      invalidatesTags: ['AdminWithdrawals', 'AdminUsers', 'AdminAudit', 'AdminLedger'],
    }),

    // ---- users ----
    adminUsers: b.query<ResOf<'admin/users'>, { q?: string; page: number }>({
      query: ({ q, page }) => ({
        name: 'admin/users',
        body: { q: q || undefined, page, pageSize: ADMIN_PAGE_SIZE },
      }),
      providesTags: ['AdminUsers'],
    }),
    setUserFlags: b.mutation<ResOf<'admin/setUserFlags'>, ReqOf<'admin/setUserFlags'>>({
      query: (body) => ({ name: 'admin/setUserFlags', body }),
      invalidatesTags: ['AdminUsers', 'AdminAudit'],
    }),
    unlockFundsPassword: b.mutation<ResOf<'admin/unlockFundsPassword'>, ReqOf<'admin/unlockFundsPassword'>>({
      query: (body) => ({ name: 'admin/unlockFundsPassword', body }),
      invalidatesTags: ['AdminUsers', 'AdminAudit'],
    }),

    // ---- channels, rates, site settings ----
    adminChannels: b.query<ResOf<'admin/channels'>, void>({
      query: () => ({ name: 'admin/channels', body: {} }),
      providesTags: ['AdminChannels'],
    }),
    saveChannel: b.mutation<ResOf<'admin/saveChannel'>, ReqOf<'admin/saveChannel'>>({
      query: (body) => ({ name: 'admin/saveChannel', body }),
      invalidatesTags: ['AdminChannels', 'AdminAudit'],
    }),
    adminRates: b.query<ResOf<'admin/rates'>, void>({
      query: () => ({ name: 'admin/rates', body: {} }),
      providesTags: ['AdminRates'],
    }),
    saveRate: b.mutation<ResOf<'admin/saveRate'>, ReqOf<'admin/saveRate'>>({
      query: (body) => ({ name: 'admin/saveRate', body }),
      invalidatesTags: ['AdminRates', 'AdminAudit'],
    }),
    adminConfig: b.query<ResOf<'admin/config'>, void>({
      query: () => ({ name: 'admin/config', body: {} }),
      providesTags: ['AdminConfig'],
    }),
    saveConfig: b.mutation<ResOf<'admin/saveConfig'>, ReqOf<'admin/saveConfig'>>({
      query: (body) => ({ name: 'admin/saveConfig', body }),
      invalidatesTags: ['AdminConfig', 'AdminAudit'],
    }),

    // ---- audit log and ledger ----
    auditLog: b.infiniteQuery<ResOf<'admin/auditLog'>, void, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ pageParam }) => ({
        name: 'admin/auditLog',
        body: { page: pageParam, pageSize: ADMIN_LOG_PAGE_SIZE },
      }),
      providesTags: ['AdminAudit'],
    }),
    adminLedger: b.infiniteQuery<ResOf<'admin/ledger'>, { userId?: number }, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => nextPage(last) },
      query: ({ queryArg, pageParam }) => ({
        name: 'admin/ledger',
        body: { userId: queryArg.userId, page: pageParam, pageSize: ADMIN_LOG_PAGE_SIZE },
      }),
      providesTags: ['AdminLedger'],
    }),
    reconcile: b.query<ResOf<'admin/reconcile'>, void>({
      query: () => ({ name: 'admin/reconcile', body: {} }),
      providesTags: ['AdminLedger'],
    }),
  }),
});

export const {
  useAdminLendingQuery,
  useSaveLendingChannelMutation,
  useSaveLendingQuotaMutation,
  useAdminLoginMutation,
  useAdminKycQuery,
  useApproveKycMutation,
  useRejectKycMutation,
  useAdminDepositsQuery,
  useApproveDepositMutation,
  useRejectDepositMutation,
  useAdminWithdrawalsQuery,
  useApproveWithdrawalMutation,
  useRejectWithdrawalMutation,
  useAdminUsersQuery,
  useSetUserFlagsMutation,
  useUnlockFundsPasswordMutation,
  useAdminChannelsQuery,
  useSaveChannelMutation,
  useAdminRatesQuery,
  useSaveRateMutation,
  useAdminConfigQuery,
  useSaveConfigMutation,
  useAuditLogInfiniteQuery,
  useAdminLedgerInfiniteQuery,
  useReconcileQuery,
} = adminApi;

/** One row of each operator list, as the contract types them. */
export type AdminKycRow = ResOf<'admin/kyc'>['items'][number];
export type AdminDepositRow = ResOf<'admin/deposits'>['items'][number];
export type AdminWithdrawalRow = ResOf<'admin/withdrawals'>['items'][number];
export type AdminUserRow = ResOf<'admin/users'>['items'][number];
export type AdminChannel = ResOf<'admin/channels'>[number];
export type AdminRate = ResOf<'admin/rates'>[number];
export type AuditEntry = ResOf<'admin/auditLog'>['items'][number];
export type LedgerTransaction = ResOf<'admin/ledger'>['items'][number];
export type Reconciliation = ResOf<'admin/reconcile'>;

/** The root state as the console's api sees it (the shared api with the admin endpoints). */
type AdminRootState =
  ReturnType<typeof adminApi.util.updateQueryData> extends ThunkAction<
    unknown,
    infer S,
    unknown,
    UnknownAction
  >
    ? S
    : never;
type AdminDispatch = ThunkDispatch<AdminRootState, unknown, UnknownAction>;

/** The store's dispatch, typed for the console's cache patches (adminApi.util.updateQueryData). */
export const useAdminDispatch = (): AdminDispatch => useDispatch<AdminDispatch>();

/**
 * Puts the row an action returned into a cached page in place of the row with its id, so the
 * screen shows the result at once; the invalidated list refetches right after.
 */
export function replaceRow<Row extends { id: number }>(page: { items: Row[] }, row: Row): void {
  const i = page.items.findIndex((r) => r.id === row.id);
  if (i >= 0) page.items[i] = row;
}
