/**
 * Deposits to review (admin/deposits): channel, amount and the transfer receipt, with a flag when
 * the same receipt (by picture) is in other deposits: their ids, accounts and states, so the
 * reviewer sees a receipt reused by another member before approving; and a softer one for
 * receipts that look nearly the same (a re-encoded or retouched copy).
 */
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

/**
 * The other deposits with the same receipt picture (testid `deposit-receipt-match-<id>`, one
 * `deposit-receipt-match-<id>-<other id>` per deposit listed), then those whose receipt looks
 * nearly the same (testid `deposit-receipt-near-<id>`, one `deposit-receipt-near-<id>-<other id>`
 * each, with the distance in bits); nothing when the receipt matches no other.
 */
export function ReceiptMatches({ deposit }: { deposit: AdminDepositRow }) {
  const { t } = useTranslation();
  if (!deposit.receiptMatches.length && !deposit.receiptNearMatches.length) return null;
  // One block beside the thumbnail: the exact flag above the near one.
  return (
    <div className="receipt-matches">
      {deposit.receiptMatches.length > 0 && (
        <div className="receipt-match" role="note" data-testid={`deposit-receipt-match-${deposit.id}`}>
          <strong>{t('admin.receiptMatch.title')}</strong>
          <ul>
            {deposit.receiptMatches.map((m) => (
              <li key={m.id} data-testid={`deposit-receipt-match-${deposit.id}-${m.id}`}>
                {t('admin.receiptMatch.item', {
                  id: m.id,
                  account: m.account,
                  status: t(`depositStatus.${m.status}`),
                })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {deposit.receiptNearMatches.length > 0 && (
        <div
          className="receipt-match receipt-near"
          role="note"
          data-testid={`deposit-receipt-near-${deposit.id}`}
        >
          <strong>{t('admin.receiptMatch.nearTitle')}</strong>
          <ul>
            {deposit.receiptNearMatches.map((m) => (
              <li key={m.id} data-testid={`deposit-receipt-near-${deposit.id}-${m.id}`}>
                {t('admin.receiptMatch.nearItem', {
                  id: m.id,
                  account: m.account,
                  status: t(`depositStatus.${m.status}`),
                  distance: m.distance,
                })}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

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
            <>
              <UploadThumb
                id={d.receiptUploadId}
                label={t('admin.col.receipt')}
                testId={`deposit-receipt-${d.id}`}
              />
              <ReceiptMatches deposit={d} />
            </>
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
