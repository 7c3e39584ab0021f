/** Real-name verifications to review (admin/kyc): name, full ID number, both ID photos. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format';
import {
  useAdminKycQuery,
  useApproveKycMutation,
  useRejectKycMutation,
  type AdminKycRow,
  type QueueStatus,
  adminApi,
  replaceRow,
  useAdminDispatch,
} from './admin-api';
import { UploadThumb, type Column } from './admin-ui';
import { ReviewQueue } from './review-queue';

export function KycQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<QueueStatus>('pending');
  const [page, setPage] = useState(1);
  const list = useAdminKycQuery({ status, page }, { refetchOnMountOrArgChange: true });
  const [approve, approveState] = useApproveKycMutation();
  const [reject] = useRejectKycMutation();
  const dispatch = useAdminDispatch();
  /** Shows an action's result in place at once (the list refetches after it). */
  const patch = (res: { data?: AdminKycRow }): boolean => {
    const row = res.data;
    if (!row) return false;
    dispatch(adminApi.util.updateQueryData('adminKyc', { status, page }, (d) => replaceRow(d, row)));
    return true;
  };

  const columns: Column<AdminKycRow>[] = [
    { key: 'id', title: t('admin.col.id'), render: (r) => r.id },
    { key: 'account', title: t('admin.col.account'), render: (r) => r.account },
    { key: 'name', title: t('admin.col.name'), render: (r) => r.name },
    {
      key: 'idNumber',
      title: t('admin.col.idNumber'),
      render: (r) => (
        <span className="mono" data-testid={`kyc-id-number-${r.id}`}>
          {r.idNumber}
        </span>
      ),
    },
    {
      key: 'photos',
      title: t('admin.col.photos'),
      render: (r) => (
        <div className="thumbs">
          <UploadThumb id={r.frontUploadId} label={t('admin.idFront')} testId={`kyc-front-${r.id}`} />
          <UploadThumb id={r.backUploadId} label={t('admin.idBack')} testId={`kyc-back-${r.id}`} />
        </div>
      ),
    },
    {
      key: 'status',
      title: t('admin.col.status'),
      render: (r) => <span className={`status status-${r.status}`}>{t(`kyc.${r.status}`)}</span>,
    },
    { key: 'created', title: t('admin.col.created'), render: (r) => formatDateTime(r.createdAt) },
    { key: 'reason', title: t('admin.col.reason'), render: (r) => r.reason ?? '' },
  ];

  return (
    <ReviewQueue
      kind="kyc"
      status={status}
      onStatus={setStatus}
      page={page}
      onPage={setPage}
      list={list}
      columns={columns}
      canReview={(r) => r.status === 'review'}
      approvingId={approveState.isLoading ? approveState.originalArgs?.id : undefined}
      onApprove={(id) => void approve({ id }).then(patch)}
      onReject={async (id, reason) => patch(await reject({ id, reason }))}
      rejectTitle={(r) => t('admin.rejectKycTitle', { account: r.account })}
    />
  );
}
