/**
 * The shape every review queue (KYC, deposits, withdrawals) shares: pending / all filter, the
 * rows with Approve and Reject (a reason is required, asked in a dialog), paging. Testids:
 * `<kind>-row-<id>`, `<kind>-approve-<id>`, `<kind>-reject-<id>`, then the dialog's
 * `reject-reason-box` / `reject-confirm` / `reject-cancel`.
 */
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_PAGE_SIZE, type QueueStatus } from './admin-api';
import { AdminTable, Pager, QueueToolbar, ReasonDialog, type Column } from './admin-ui';

/** A queue row: every queue item has an id. */
interface Reviewable {
  id: number;
}

/** The list query's state, as RTK Query hooks return it. */
interface ListState<Row> {
  data?: { items: Row[]; total: number };
  isFetching: boolean;
  refetch: () => unknown;
}

export function ReviewQueue<Row extends Reviewable>({
  kind,
  status,
  onStatus,
  page,
  onPage,
  list,
  columns,
  canReview,
  approvingId,
  onApprove,
  onReject,
  rejectTitle,
}: {
  /** kyc | deposit | withdrawal: the testid prefix. */
  kind: string;
  status: QueueStatus;
  onStatus: (s: QueueStatus) => void;
  page: number;
  onPage: (p: number) => void;
  list: ListState<Row>;
  columns: Column<Row>[];
  canReview: (row: Row) => boolean;
  /** The id whose approval is in flight, if any. */
  approvingId: number | undefined;
  onApprove: (id: number) => void;
  /** Resolves true when the rejection succeeded. */
  onReject: (id: number, reason: string) => Promise<boolean>;
  rejectTitle: (row: Row) => string;
}) {
  const { t } = useTranslation();
  const [rejecting, setRejecting] = useState<Row | null>(null);
  const items = list.data?.items ?? [];

  const actions: Column<Row> = {
    key: 'actions',
    title: t('admin.col.actions'),
    render: (r) =>
      canReview(r) ? (
        <div className="actions">
          <Button
            size="mini"
            color="success"
            loading={approvingId === r.id}
            disabled={approvingId !== undefined}
            onClick={() => onApprove(r.id)}
            data-testid={`${kind}-approve-${r.id}`}
          >
            {t('admin.approve')}
          </Button>
          <Button
            size="mini"
            color="danger"
            fill="outline"
            onClick={() => setRejecting(r)}
            data-testid={`${kind}-reject-${r.id}`}
          >
            {t('admin.reject')}
          </Button>
        </div>
      ) : (
        <span className="muted">{t('admin.reviewed')}</span>
      ),
  };

  return (
    <section className="admin-section">
      <QueueToolbar
        kind={kind}
        status={status}
        onStatus={(s) => {
          onStatus(s);
          onPage(1);
        }}
        total={list.data?.total ?? 0}
        fetching={list.isFetching}
        onRefresh={() => void list.refetch()}
      />
      <AdminTable
        columns={[...columns, actions]}
        rows={items}
        rowKey={(r) => r.id}
        rowTestId={(r) => `${kind}-row-${r.id}`}
        testId={`admin-${kind}-queue`}
      />
      <Pager page={page} pageSize={ADMIN_PAGE_SIZE} total={list.data?.total ?? 0} onChange={onPage} />
      <ReasonDialog
        open={rejecting !== null}
        title={rejecting ? rejectTitle(rejecting) : ''}
        confirmText={t('admin.reject')}
        testIdPrefix="reject"
        onCancel={() => setRejecting(null)}
        onSubmit={(reason) => (rejecting ? onReject(rejecting.id, reason) : Promise.resolve(false))}
      />
    </section>
  );
}
