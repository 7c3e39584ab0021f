/** Deposits waiting for review (admin/deposits) with Approve and Reject (asks for a reason). */
import { Button, Dialog, Selector, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminDepositsQuery, useApproveDepositMutation, useRejectDepositMutation } from '../api/api';
import { formatDateTime, formatMinor } from '../lib/format';
import { NoData } from '../ui/no-data';

function RejectDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [reject, { isLoading }] = useRejectDepositMutation();
  const submit = async () => {
    if (id === null || !reason.trim()) return;
    const res = await reject({ id, reason: reason.trim() });
    if ('data' in res) {
      setReason('');
      onClose();
    }
  };
  return (
    <Dialog
      visible={id !== null}
      title={t('admin.rejectTitle')}
      onClose={onClose}
      closeOnMaskClick
      content={
        <div className="reject-form">
          <TextArea
            value={reason}
            onChange={setReason}
            placeholder={t('admin.rejectReason')}
            maxLength={200}
            rows={3}
            showCount
            data-testid="reject-reason-box"
          />
          <div className="reject-actions">
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              color="danger"
              disabled={!reason.trim()}
              loading={isLoading}
              onClick={submit}
              data-testid="reject-confirm"
            >
              {t('admin.reject')}
            </Button>
          </div>
        </div>
      }
    />
  );
}

export function DepositsQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<'pending' | 'all'>('pending');
  const { data, isFetching, refetch } = useAdminDepositsQuery({ status, page: 1 });
  const [approve, approveState] = useApproveDepositMutation();
  const [rejecting, setRejecting] = useState<number | null>(null);
  const items = data?.items ?? [];

  return (
    <section className="admin-section">
      <div className="admin-toolbar">
        <Selector<'pending' | 'all'>
          value={[status]}
          showCheckMark={false}
          onChange={(v) => v[0] && setStatus(v[0])}
          options={[
            { value: 'pending', label: t('depositStatus.pending') },
            { value: 'all', label: t('admin.all') },
          ]}
        />
        <Button size="small" onClick={() => void refetch()} loading={isFetching}>
          {t('admin.refresh')}
        </Button>
        <span className="muted">{t('admin.total', { n: data?.total ?? 0 })}</span>
      </div>
      {items.length === 0 ? (
        <NoData />
      ) : (
        <table className="admin-table" data-testid="admin-deposits">
          <thead>
            <tr>
              <th>{t('admin.col.id')}</th>
              <th>{t('admin.col.account')}</th>
              <th className="num">{t('admin.col.amount')}</th>
              <th>{t('admin.col.status')}</th>
              <th>{t('admin.col.created')}</th>
              <th>{t('admin.col.reason')}</th>
              <th>{t('admin.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.id} data-testid={`deposit-row-${d.id}`}>
                <td>{d.id}</td>
                <td>{d.account}</td>
                <td className="num">
                  {d.currency} {formatMinor(d.amountMinor)}
                </td>
                <td>{t(`depositStatus.${d.status}`)}</td>
                <td>{formatDateTime(d.createdAt)}</td>
                <td>{d.reason ?? ''}</td>
                <td>
                  {d.status === 'pending' && (
                    <div className="actions">
                      <Button
                        size="mini"
                        color="success"
                        loading={approveState.isLoading && approveState.originalArgs?.id === d.id}
                        onClick={() => void approve({ id: d.id })}
                        data-testid={`deposit-approve-${d.id}`}
                      >
                        {t('admin.approve')}
                      </Button>
                      <Button
                        size="mini"
                        color="danger"
                        fill="outline"
                        onClick={() => setRejecting(d.id)}
                        data-testid={`deposit-reject-${d.id}`}
                      >
                        {t('admin.reject')}
                      </Button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RejectDialog id={rejecting} onClose={() => setRejecting(null)} />
    </section>
  );
}
