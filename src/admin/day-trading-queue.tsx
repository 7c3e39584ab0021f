/**
 * Day-trading applications to review (admin/dayTradeApplications): the member, their account
 * age and trades in the last year against the rule (TW-MARKET-RULES "Day trading"), and
 * Approve / Reject (with a reason) for the pending ones. Eligible members are approved by the
 * rule when they apply, so the queue holds the others. Each decision writes an audit entry
 * (dayTrade.approve / dayTrade.reject). The calls are injected here so only this tab carries them.
 * Testids: the ReviewQueue's with kind `daytrade`.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReqOf, ResOf } from '../../contract/api';
import { formatDateTime } from '../lib/format';
import { ADMIN_PAGE_SIZE, adminApi, type QueueStatus } from './admin-api';
import type { Column } from './admin-ui';
import { ReviewQueue } from './review-queue';

export type AdminDayTradeRow = ResOf<'admin/dayTradeApplications'>['items'][number];

const dayTradeAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['AdminDayTrade'] }).injectEndpoints({
  endpoints: (b) => ({
    adminDayTradeApplications: b.query<
      ResOf<'admin/dayTradeApplications'>,
      { status: QueueStatus; page: number }
    >({
      query: ({ status, page }) => ({
        name: 'admin/dayTradeApplications',
        body: { status, page, pageSize: ADMIN_PAGE_SIZE },
      }),
      providesTags: ['AdminDayTrade'],
    }),
    approveDayTrade: b.mutation<ResOf<'admin/approveDayTrade'>, ReqOf<'admin/approveDayTrade'>>({
      query: (body) => ({ name: 'admin/approveDayTrade', body }),
      invalidatesTags: ['AdminDayTrade', 'AdminAudit'],
    }),
    rejectDayTrade: b.mutation<ResOf<'admin/rejectDayTrade'>, ReqOf<'admin/rejectDayTrade'>>({
      query: (body) => ({ name: 'admin/rejectDayTrade', body }),
      invalidatesTags: ['AdminDayTrade', 'AdminAudit'],
    }),
  }),
});

const STATUS_CLASS: Record<AdminDayTradeRow['status'], string> = {
  pending: 'status-pending',
  approved: 'status-approved',
  rejected: 'status-rejected',
};

export function DayTradingQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<QueueStatus>('pending');
  const [page, setPage] = useState(1);
  const list = dayTradeAdminApi.useAdminDayTradeApplicationsQuery(
    { status, page },
    { refetchOnMountOrArgChange: true },
  );
  const [approve, approveState] = dayTradeAdminApi.useApproveDayTradeMutation();
  const [reject] = dayTradeAdminApi.useRejectDayTradeMutation();
  const yesNo = (v: boolean) => t(v ? 'admin.dayTrading.yes' : 'admin.dayTrading.no');

  const columns: Column<AdminDayTradeRow>[] = [
    { key: 'id', title: t('admin.col.id'), render: (r) => r.id },
    { key: 'account', title: t('admin.col.account'), render: (r) => r.account },
    {
      key: 'accountDays',
      title: t('admin.dayTrading.accountDays'),
      render: (r) => <span data-testid={`daytrade-days-${r.id}`}>{r.accountDays}</span>,
    },
    { key: 'trades', title: t('admin.dayTrading.trades'), render: (r) => r.tradesLastYear },
    { key: 'eligible', title: t('admin.dayTrading.eligible'), render: (r) => yesNo(r.eligible) },
    {
      key: 'status',
      title: t('admin.col.status'),
      render: (r) => (
        <span className={`status ${STATUS_CLASS[r.status]}`}>{t(`admin.dayTrading.status.${r.status}`)}</span>
      ),
    },
    {
      key: 'grantedBy',
      title: t('admin.dayTrading.grantedBy'),
      render: (r) => (r.grantedBy ? t(`admin.dayTrading.granted.${r.grantedBy}`) : ''),
    },
    { key: 'created', title: t('admin.col.created'), render: (r) => formatDateTime(r.createdAt) },
    { key: 'reason', title: t('admin.col.reason'), render: (r) => r.reason ?? '' },
  ];

  return (
    <ReviewQueue
      kind="daytrade"
      status={status}
      onStatus={setStatus}
      page={page}
      onPage={setPage}
      list={list}
      columns={columns}
      canReview={(r) => r.status === 'pending'}
      approvingId={approveState.isLoading ? approveState.originalArgs?.id : undefined}
      onApprove={(id) => void approve({ id })}
      onReject={async (id, reason) => 'data' in (await reject({ id, reason }))}
      rejectTitle={(r) => t('admin.dayTrading.rejectTitle', { account: r.account })}
    />
  );
}
