/** Deposits to review (admin/deposits): channel, amount and the transfer receipt. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMinor } from '../lib/format';
import {
  useAdminDepositsQuery,
  useApproveDepositMutation,
  useRejectDepositMutation,
  type AdminDepositRow,
  type QueueStatus,
  adminApi,
  replaceRow,
  useAdminDispatch,
} from './admin-api';
import { Money, UploadThumb, type Column } from './admin-ui';
import { ReviewQueue } from './review-queue';

export function DepositsQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<QueueStatus>('pending');
  const [page, setPage] = useState(1);
  const list = useAdminDepositsQuery({ status, page }, { refetchOnMountOrArgChange: true });
  const [approve, approveState] = useApproveDepositMutation();
  const [reject] = useRejectDepositMutation();
  const dispatch = useAdminDispatch();
  /** Shows an action's result in place at once (the list refetches after it). */
  const patch = (res: { data?: AdminDepositRow }): boolean => {
    const row = res.data;
    if (!row) return false;
    dispatch(adminApi.util.updateQueryData('adminDeposits', { status, page }, (d) => replaceRow(d, row)));
    return true;
  };

  const columns: Column<AdminDepositRow>[] = [
    { key: 'id', title: t('admin.col.id'), render: (d) => d.id },
    { key: 'account', title: t('admin.col.account'), render: (d) => d.account },
    { key: 'channel', title: t('admin.col.channel'), render: (d) => d.channelName ?? '--' },
    {
      key: 'amount',
      title: t('admin.col.amount'),
      num: true,
      render: (d) => <Money currency={d.currency}>{formatMinor(d.amountMinor)}</Money>,
    },
    {
      key: 'receipt',
      title: t('admin.col.receipt'),
      render: (d) => (
        <UploadThumb
          id={d.receiptUploadId}
          label={t('admin.col.receipt')}
          testId={`deposit-receipt-${d.id}`}
        />
      ),
    },
    {
      key: 'status',
      title: t('admin.col.status'),
      render: (d) => <span className={`status status-${d.status}`}>{t(`depositStatus.${d.status}`)}</span>,
    },
    { key: 'created', title: t('admin.col.created'), render: (d) => formatDateTime(d.createdAt) },
    { key: 'reason', title: t('admin.col.reason'), render: (d) => d.reason ?? '' },
  ];

  return (
    <ReviewQueue
      kind="deposit"
      status={status}
      onStatus={setStatus}
      page={page}
      onPage={setPage}
      list={list}
      columns={columns}
      canReview={(d) => d.status === 'pending'}
      approvingId={approveState.isLoading ? approveState.originalArgs?.id : undefined}
      onApprove={(id) => void approve({ id }).then(patch)}
      onReject={async (id, reason) => patch(await reject({ id, reason }))}
      rejectTitle={(d) => t('admin.rejectDepositTitle', { account: d.account })}
    />
  );
}
