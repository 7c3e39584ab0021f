/**
 * Day-trading applications to review (admin/dayTradeApplications): the member, their account
 * age and trades in the last year against the rule (TW-MARKET-RULES "Day trading"), and
 * Approve / Reject (with a reason) for the pending ones. Eligible members are approved by the
 * rule when they apply, so the queue holds the others. Each decision writes an audit entry
 * (dayTrade.approve / dayTrade.reject). The calls are injected here so only this tab carries them.
 * Testids: the ReviewQueue's with kind `daytrade`.
 */
import { useTranslation } from 'react-i18next';
import type { ReqOf, ResOf } from '../../contract/api';
import { ADMIN_PAGE_SIZE, adminApi, type QueueStatus } from './admin-api';
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

/** The day-trading queue: a ReviewQueue with the account age, trades, eligibility and who granted it. */
export function DayTradingQueue() {
  const { t } = useTranslation();
  const yesNo = (v: boolean) => t(v ? 'admin.dayTrading.yes' : 'admin.dayTrading.no');
  return (
    <ReviewQueue<AdminDayTradeRow>
      kind="daytrade"
      columns={[
        {
          key: 'accountDays',
          title: t('admin.dayTrading.accountDays'),
          render: (r) => <span data-testid={`daytrade-days-${r.id}`}>{r.accountDays}</span>,
        },
        { key: 'trades', title: t('admin.dayTrading.trades'), render: (r) => r.tradesLastYear },
        { key: 'eligible', title: t('admin.dayTrading.eligible'), render: (r) => yesNo(r.eligible) },
      ]}
      afterStatus={[
        {
          key: 'grantedBy',
          title: t('admin.dayTrading.grantedBy'),
          render: (r) => (r.grantedBy ? t(`admin.dayTrading.granted.${r.grantedBy}`) : ''),
        },
      ]}
      calls={{
        list: dayTradeAdminApi.useAdminDayTradeApplicationsQuery,
        approve: dayTradeAdminApi.useApproveDayTradeMutation,
        reject: dayTradeAdminApi.useRejectDayTradeMutation,
      }}
      statusKey="admin.dayTrading.status"
      rejectTitle="admin.dayTrading.rejectTitle"
    />
  );
}
