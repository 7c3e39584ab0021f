/** Deposits to review (admin/deposits): channel, amount and the transfer receipt. */
import { useTranslation } from 'react-i18next';
import { formatMinor } from '../lib/format';
import {
  useAdminDepositsQuery,
  useApproveDepositMutation,
  useRejectDepositMutation,
  type AdminDepositRow,
} from './admin-api';
import { Money, UploadThumb } from './admin-ui';
import { ReviewQueue } from './review-queue';

/** The deposit queue: a ReviewQueue with the channel, the amount and the receipt's thumbnail. */
export function DepositsQueue() {
  const { t } = useTranslation();
  return (
    <ReviewQueue<AdminDepositRow>
      kind="deposit"
      columns={[
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
      ]}
      calls={{
        list: useAdminDepositsQuery,
        approve: useApproveDepositMutation,
        reject: useRejectDepositMutation,
        cache: 'adminDeposits',
      }}
      statusKey="depositStatus"
      rejectTitle="admin.rejectDepositTitle"
    />
  );
}
