/** Withdrawals to review (admin/withdrawals): amount and the card the money goes to. */
import { useTranslation } from 'react-i18next';
import { formatMinor } from '../lib/format';
import {
  useAdminWithdrawalsQuery,
  useApproveWithdrawalMutation,
  useRejectWithdrawalMutation,
  type AdminWithdrawalRow,
} from './admin-api';
import { Money } from './admin-ui';
import { ReviewQueue } from './review-queue';

/**
 * The withdrawal queue: a ReviewQueue with the amount and the card (holder, number, bank, branch,
 * and the bank and branch codes, or the UPI / IFSC of an account outside Taiwan).
 */
export function WithdrawalsQueue() {
  const { t } = useTranslation();
  return (
    <ReviewQueue<AdminWithdrawalRow>
      kind="withdrawal"
      columns={[
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
        {
          key: 'branchCode',
          title: t('admin.col.branchCode'),
          // Taiwan: "004-0037" (bank code, branch code); outside Taiwan: the UPI / IFSC code.
          render: (w) => (
            <span className="mono">
              {w.outsideTaiwan
                ? `${t('admin.col.upi')} ${w.upi ?? ''}`
                : [w.bankCode, w.branchCode].filter(Boolean).join('-')}
            </span>
          ),
        },
      ]}
      calls={{
        list: useAdminWithdrawalsQuery,
        approve: useApproveWithdrawalMutation,
        reject: useRejectWithdrawalMutation,
        cache: 'adminWithdrawals',
      }}
      statusKey="depositStatus"
      rejectTitle="admin.rejectWithdrawalTitle"
    />
  );
}
