/**
 * The shape every review queue (KYC, deposits, withdrawals, day trading) shares: pending / all
 * filter, the rows (id, account, the queue's own columns, status, created, reason) with Approve
 * and Reject (a reason is required, asked in a dialog), paging. Testids: `<kind>-row-<id>`,
 * `<kind>-approve-<id>`, `<kind>-reject-<id>`, then the dialog's `reject-reason-box` /
 * `reject-confirm` / `reject-cancel`.
 */
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format';
import { ADMIN_PAGE_SIZE, adminApi, replaceRow, useAdminDispatch, type QueueStatus } from './admin-api';
import { AdminTable, Pager, QueueToolbar, ReasonDialog, type Column } from './admin-ui';

/** A queue row: what the columns every queue has show. */
interface Reviewable {
  id: number;
  account: string;
  status: string;
  createdAt: number;
  reason: string | null;
}

/** What an action's trigger resolves to, as RTK Query's do: the updated row when it succeeded. */
type Outcome<Row> = PromiseLike<{ data?: Row }>;

/**
 * A queue's RTK Query hooks: `list` (one page of the queue, by filter and page number),
 * `approve` ({ id }) and `reject` ({ id, reason }), each action resolving to the updated row;
 * `cache` names the list endpoint whose cached page an action's row replaces at once (the
 * invalidated list refetches after it), when the queue does that.
 */
export interface QueueCalls<Row> {
  list: (
    arg: { status: QueueStatus; page: number },
    options: { refetchOnMountOrArgChange: true },
  ) => { data?: { items: Row[]; total: number }; isFetching: boolean; refetch: () => unknown };
  approve: () => readonly [
    (arg: { id: number }) => Outcome<Row>,
    { isLoading: boolean; originalArgs?: { id: number } },
  ];
  reject: () => readonly [(arg: { id: number; reason: string }) => Outcome<Row>, unknown];
  cache?: 'adminKyc' | 'adminDeposits' | 'adminWithdrawals';
}

/**
 * A review queue: toolbar, table, pager and the reject dialog, with its own filter and page state.
 * Props: `kind` (kyc | deposit | withdrawal | daytrade: the testid prefix), `calls` (its hooks, see
 * QueueCalls), `columns` (its own, shown between account and status), `afterStatus` (its own,
 * shown between status and created), `statusKey` (the i18n prefix of the status labels),
 * `reviewable` (the status that gets Approve / Reject; `pending` by default) and `rejectTitle`
 * (the i18n key of the reject dialog's title, given the row's `account`).
 */
export function ReviewQueue<Row extends Reviewable>({
  kind,
  calls,
  columns,
  afterStatus = [],
  statusKey,
  reviewable = 'pending',
  rejectTitle,
}: {
  kind: string;
  calls: QueueCalls<Row>;
  columns: Column<Row>[];
  afterStatus?: Column<Row>[];
  statusKey: string;
  reviewable?: Row['status'];
  rejectTitle: string;
}) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<QueueStatus>('pending');
  const [page, setPage] = useState(1);
  const list = calls.list({ status, page }, { refetchOnMountOrArgChange: true });
  const [approve, approveState] = calls.approve();
  const [reject] = calls.reject();
  const dispatch = useAdminDispatch();
  const [rejecting, setRejecting] = useState<Row | null>(null);
  const approvingId = approveState.isLoading ? approveState.originalArgs?.id : undefined;

  /** Shows an action's result in place at once (the list refetches after it); true when it succeeded. */
  const done = ({ data: row }: { data?: Row }): boolean => {
    if (row && calls.cache)
      dispatch(
        adminApi.util.updateQueryData(calls.cache, { status, page }, (d) =>
          replaceRow(d as { items: Row[] }, row),
        ),
      );
    return row !== undefined;
  };

  const column = (key: string, render: Column<Row>['render']): Column<Row> => ({
    key,
    title: t(`admin.col.${key}`),
    render,
  });
  const actions: Column<Row> = column('actions', (r) =>
    r.status === reviewable ? (
      <div className="actions">
        <Button
          size="mini"
          color="success"
          loading={approvingId === r.id}
          disabled={approvingId !== undefined}
          onClick={() => void approve({ id: r.id }).then(done)}
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
  );

  return (
    <section className="admin-section">
      <QueueToolbar
        kind={kind}
        status={status}
        onStatus={(s) => {
          setStatus(s);
          setPage(1);
        }}
        total={list.data?.total ?? 0}
        fetching={list.isFetching}
        onRefresh={() => void list.refetch()}
      />
      <AdminTable
        columns={[
          column('id', (r) => r.id),
          column('account', (r) => r.account),
          ...columns,
          column('status', (r) => (
            <span className={`status status-${r.status}`}>{t(`${statusKey}.${r.status}`)}</span>
          )),
          ...afterStatus,
          column('created', (r) => formatDateTime(r.createdAt)),
          column('reason', (r) => r.reason ?? ''),
          actions,
        ]}
        rows={list.data?.items ?? []}
        rowKey={(r) => r.id}
        rowTestId={(r) => `${kind}-row-${r.id}`}
        testId={`admin-${kind}-queue`}
      />
      <Pager page={page} pageSize={ADMIN_PAGE_SIZE} total={list.data?.total ?? 0} onChange={setPage} />
      <ReasonDialog
        open={rejecting !== null}
        title={rejecting ? t(rejectTitle, { account: rejecting.account }) : ''}
        confirmText={t('admin.reject')}
        testIdPrefix="reject"
        onCancel={() => setRejecting(null)}
        onSubmit={async (reason) => (rejecting ? done(await reject({ id: rejecting.id, reason })) : false)}
      />
    </section>
  );
}
