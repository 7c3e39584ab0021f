/** Withdrawals to review (admin/withdrawals): amount and the card the money goes to. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMinor } from '../lib/format';
import {
  useAdminWithdrawalsQuery,
  useApproveWithdrawalMutation,
  useRejectWithdrawalMutation,
  type AdminWithdrawalRow,
  type QueueStatus,
  adminApi,
  replaceRow,
  useAdminDispatch,
} from './admin-api';
import { Money, type Column } from './admin-ui';
import { ReviewQueue } from './review-queue';

export function WithdrawalsQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<QueueStatus>('pending');
  const [page, setPage] = useState(1);
  const list = useAdminWithdrawalsQuery({ status, page }, { refetchOnMountOrArgChange: true });
  const [approve, approveState] = useApproveWithdrawalMutation();
  const [reject] = useRejectWithdrawalMutation();
  const dispatch = useAdminDispatch();
  /** Shows an action's result in place at once (the list refetches after it). */
  const patch = (res: { data?: AdminWithdrawalRow }): boolean => {
    const row = res.data;
    if (!row) return false;
    dispatch(adminApi.util.updateQueryData('adminWithdrawals', { status, page }, (d) => replaceRow(d, row)));
    return true;
  };

  const columns: Column<AdminWithdrawalRow>[] = [
    { key: 'id', title: t('admin.col.id'), render: (w) => w.id },
    { key: 'account', title: t('admin.col.account'), render: (w) => w.account },
    {
      key: 'amount',
      title: t('admin.col.amount'),
      num: true,
      render: (w) => <Money currency={w.currency}>{formatMinor(w.amountMinor)}</Money>,
    },
    { key: 'holder', title: t('admin.col.holder'), render: (w) => w.holderName },
    {
      key: 'cardNumber',
      title: t('admin.col.cardNumber'),
      render: (w) => <span className="mono">{w.cardNumber}</span>,
    },
    { key: 'bank', title: t('admin.col.bank'), render: (w) => w.bankName },
    { key: 'branch', title: t('admin.col.branch'), render: (w) => w.branchName },
    { key: 'branchCode', title: t('admin.col.branchCode'), render: (w) => w.branchCode },
    {
      key: 'status',
      title: t('admin.col.status'),
      render: (w) => <span className={`status status-${w.status}`}>{t(`depositStatus.${w.status}`)}</span>,
    },
    { key: 'created', title: t('admin.col.created'), render: (w) => formatDateTime(w.createdAt) },
    { key: 'reason', title: t('admin.col.reason'), render: (w) => w.reason ?? '' },
  ];

  return (
    <ReviewQueue
      kind="withdrawal"
      status={status}
      onStatus={setStatus}
      page={page}
      onPage={setPage}
      list={list}
      columns={columns}
      canReview={(w) => w.status === 'pending'}
      approvingId={approveState.isLoading ? approveState.originalArgs?.id : undefined}
      onApprove={(id) => void approve({ id }).then(patch)}
      onReject={async (id, reason) => patch(await reject({ id, reason }))}
      rejectTitle={(w) => t('admin.rejectWithdrawalTitle', { account: w.account })}
    />
  );
}
