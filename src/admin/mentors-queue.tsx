/**
 * Mentor applications to review (admin/mentors): the member, their level and the figures the
 * criteria read (closed trades, max drawdown, track days; docs/copy-trading.md), and Approve /
 * Reject (with a reason) for those under review. An operator's own application is refused by the
 * server (selfReview). Each decision writes an audit entry (mentor.approve / mentor.reject). The
 * calls are injected here so only this tab carries them. Testids: the ReviewQueue's with kind
 * `mentor`.
 */
import { useTranslation } from 'react-i18next';
import type { ReqOf, ResOf } from '../../contract/api';
import { ADMIN_PAGE_SIZE, adminApi, type QueueStatus } from './admin-api';
import { ReviewQueue } from './review-queue';
import { formatBps } from '../../contract/money';

export type AdminMentorRow = ResOf<'admin/mentors'>['items'][number];

const mentorAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['AdminMentor'] }).injectEndpoints({
  endpoints: (b) => ({
    adminMentors: b.query<ResOf<'admin/mentors'>, { status: QueueStatus; page: number }>({
      query: ({ status, page }) => ({
        name: 'admin/mentors',
        body: { status: status === 'pending' ? 'review' : 'all', page, pageSize: ADMIN_PAGE_SIZE },
      }),
      providesTags: ['AdminMentor'],
    }),
    approveMentor: b.mutation<ResOf<'admin/approveMentor'>, ReqOf<'admin/approveMentor'>>({
      query: (body) => ({ name: 'admin/approveMentor', body }),
      invalidatesTags: ['AdminMentor', 'AdminAudit'],
    }),
    rejectMentor: b.mutation<ResOf<'admin/rejectMentor'>, ReqOf<'admin/rejectMentor'>>({
      query: (body) => ({ name: 'admin/rejectMentor', body }),
      invalidatesTags: ['AdminMentor', 'AdminAudit'],
    }),
  }),
});

/** The mentor queue: a ReviewQueue with the level and the figures the criteria read. */
export function MentorsQueue() {
  const { t } = useTranslation();
  return (
    <ReviewQueue<AdminMentorRow>
      kind="mentor"
      columns={[
        {
          key: 'level',
          title: t('admin.mentors.level'),
          render: (r) => t(`admin.mentors.levels.${r.level}`),
        },
        {
          key: 'trades',
          title: t('admin.mentors.closedTrades'),
          render: (r) => <span data-testid={`mentor-trades-${r.id}`}>{r.stats.closedTrades}</span>,
        },
        {
          key: 'drawdown',
          title: t('admin.mentors.maxDrawdown'),
          render: (r) => formatBps(r.stats.maxDrawdownBps),
        },
        { key: 'track', title: t('admin.mentors.trackDays'), render: (r) => r.stats.trackDays },
      ]}
      afterStatus={[
        { key: 'share', title: t('admin.mentors.profitShare'), render: (r) => formatBps(r.profitShareBps) },
      ]}
      calls={{
        list: mentorAdminApi.useAdminMentorsQuery,
        approve: mentorAdminApi.useApproveMentorMutation,
        reject: mentorAdminApi.useRejectMentorMutation,
      }}
      statusKey="admin.mentors.status"
      reviewable="review"
      rejectTitle="admin.mentors.rejectTitle"
    />
  );
}
