/**
 * Building blocks shared by the console's tabs: a table that turns into cards on a phone, the
 * pager, the reason dialog every reject / flag change goes through, the queue toolbar and the
 * protected image thumbnail (uploads are fetched with the operator's token, src/api/upload.ts).
 */
import { Button, Dialog, ImageViewer, InfiniteScroll, TextArea, type TextAreaRef } from 'antd-mobile';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { selectSession } from '../api/session';
import { uploadObjectUrl } from '../api/upload';
import { NoData } from '../ui/no-data';
import { Segmented } from '../ui/segmented';
import type { QueueStatus } from './admin-api';

/** One column of an AdminTable: its header (also the label of the value on a phone) and cell. */
export interface Column<Row> {
  key: string;
  title: string;
  render: (row: Row) => ReactNode;
  /** Right-aligned figures. */
  num?: boolean;
  /** Wide content (switch groups, postings): on a phone it goes under its title, full width. */
  wide?: boolean;
}

/**
 * A plain table on a laptop; under 760 px each row becomes a card whose cells carry their column
 * title (`data-label`, shown by admin.css), so nothing needs horizontal scrolling on a phone.
 */
export function AdminTable<Row>({
  columns,
  rows,
  rowKey,
  rowTestId,
  testId,
  empty,
}: {
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  rowTestId?: (row: Row) => string;
  testId?: string;
  empty?: ReactNode;
}) {
  if (rows.length === 0) return <>{empty ?? <NoData testId={testId ? `${testId}-empty` : undefined} />}</>;
  return (
    <table className="admin-table" data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.key} className={c.num ? 'num' : undefined}>
              {c.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={rowKey(r)} data-testid={rowTestId?.(r)}>
            {columns.map((c) => (
              <td
                key={c.key}
                data-label={c.title}
                className={[c.num ? 'num' : '', c.wide ? 'wide' : ''].join(' ').trim() || undefined}
              >
                <div className="cell">{c.render(r)}</div>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A list loaded page by page as it scrolls (the audit log, the ledger): a toolbar with `children`
 * (the list's own filters), Refresh and the total, then the table and the infinite scroll.
 * Props: `kind` (testids `<kind>-refresh` and `admin-<kind>` on the table), `list` (an RTK Query
 * infinite query's result: pages of `{ items, total }`), `columns`, `rowTestId`.
 */
export function InfiniteTable<Row extends { id: number }>({
  kind,
  list,
  columns,
  rowTestId,
  children,
}: {
  kind: string;
  list: {
    data?: { pages: { items: Row[]; total: number }[] };
    isFetching: boolean;
    hasNextPage: boolean;
    fetchNextPage: () => Promise<unknown>;
    refetch: () => unknown;
  };
  columns: Column<Row>[];
  rowTestId: (row: Row) => string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <div className="admin-toolbar">
        {children}
        <Button
          size="small"
          onClick={() => void list.refetch()}
          loading={list.isFetching}
          data-testid={`${kind}-refresh`}
        >
          {t('admin.refresh')}
        </Button>
        <span className="muted">{t('admin.total', { n: list.data?.pages[0]?.total ?? 0 })}</span>
      </div>
      <AdminTable
        columns={columns}
        rows={items}
        rowKey={(r) => r.id}
        rowTestId={rowTestId}
        testId={`admin-${kind}`}
      />
      {items.length > 0 && (
        <InfiniteScroll loadMore={async () => void (await list.fetchNextPage())} hasMore={list.hasNextPage} />
      )}
    </>
  );
}

/** Previous / next page with "page x of y"; hidden when everything fits on one page. */
export function Pager({
  page,
  pageSize,
  total,
  onChange,
}: {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <div className="admin-pager">
      <Button size="small" disabled={page <= 1} onClick={() => onChange(page - 1)} data-testid="pager-prev">
        {t('admin.prevPage')}
      </Button>
      <span className="muted">{t('admin.pageOf', { page, pages })}</span>
      <Button
        size="small"
        disabled={page >= pages}
        onClick={() => onChange(page + 1)}
        data-testid="pager-next"
      >
        {t('admin.nextPage')}
      </Button>
    </div>
  );
}

/** antd-mobile's TextArea with the testid on the <textarea> itself (Playwright fills it). */
export function TestIdTextArea({ testId, ...props }: Parameters<typeof TextArea>[0] & { testId: string }) {
  const ref = useRef<TextAreaRef>(null);
  useLayoutEffect(() => {
    ref.current?.nativeElement?.setAttribute('data-testid', testId);
  }, [testId]);
  return <TextArea ref={ref} {...props} />;
}

/** Largest reason the contract accepts (contract/admin.ts rejectReq, setUserFlagsReq). */
export const REASON_MAX = 200;

function ReasonForm({
  prompt,
  confirmText,
  danger,
  testIdPrefix,
  onCancel,
  onSubmit,
}: {
  prompt?: ReactNode;
  confirmText: string;
  danger: boolean;
  testIdPrefix: string;
  onCancel: () => void;
  onSubmit: (reason: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const r = reason.trim();
    if (!r || busy) return;
    setBusy(true);
    try {
      if (await onSubmit(r)) onCancel();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="reject-form">
      {prompt && <div className="reason-prompt">{prompt}</div>}
      <TestIdTextArea
        testId={`${testIdPrefix}-reason-box`}
        value={reason}
        onChange={setReason}
        placeholder={t('admin.reasonPlaceholder')}
        maxLength={REASON_MAX}
        rows={3}
        showCount
        autoFocus
      />
      <div className="reject-actions">
        <Button onClick={onCancel} data-testid={`${testIdPrefix}-cancel`}>
          {t('common.cancel')}
        </Button>
        <Button
          color={danger ? 'danger' : 'primary'}
          disabled={!reason.trim()}
          loading={busy}
          onClick={() => void submit()}
          data-testid={`${testIdPrefix}-confirm`}
        >
          {confirmText}
        </Button>
      </div>
    </div>
  );
}

/**
 * A dialog asking for the reason of an operator action (required, at most 200 characters).
 * `onSubmit` resolves true when the action succeeded, which closes the dialog. Testids:
 * `<prefix>-reason-box`, `<prefix>-confirm`, `<prefix>-cancel`.
 */
export function ReasonDialog({
  open,
  title,
  prompt,
  confirmText,
  danger = true,
  testIdPrefix,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  title: string;
  prompt?: ReactNode;
  confirmText: string;
  danger?: boolean;
  testIdPrefix: string;
  onCancel: () => void;
  onSubmit: (reason: string) => Promise<boolean>;
}) {
  return (
    <Dialog
      visible={open}
      title={title}
      onClose={onCancel}
      closeOnMaskClick
      destroyOnClose
      content={
        <ReasonForm
          prompt={prompt}
          confirmText={confirmText}
          danger={danger}
          testIdPrefix={testIdPrefix}
          onCancel={onCancel}
          onSubmit={onSubmit}
        />
      }
    />
  );
}

/** Pending / all filter, refresh and the total of a list. Testids `<kind>-filter-pending|all`, `<kind>-refresh`. */
export function QueueToolbar({
  kind,
  status,
  onStatus,
  total,
  fetching,
  onRefresh,
}: {
  kind: string;
  status: QueueStatus;
  onStatus: (s: QueueStatus) => void;
  total: number;
  fetching: boolean;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="admin-toolbar">
      <Segmented<QueueStatus>
        value={status}
        onChange={onStatus}
        options={[
          { value: 'pending', label: t('admin.pending'), testId: `${kind}-filter-pending` },
          { value: 'all', label: t('admin.all'), testId: `${kind}-filter-all` },
        ]}
      />
      <Button size="small" onClick={onRefresh} loading={fetching} data-testid={`${kind}-refresh`}>
        {t('admin.refresh')}
      </Button>
      <span className="muted">{t('admin.total', { n: total })}</span>
    </div>
  );
}

/**
 * An upload (ID photo, receipt) as an object URL fetched with the session token; the URL is
 * revoked when the id changes or the component unmounts (also when the fetch ends after that).
 */
export function useUploadUrl(id: string | null): { url: string | null; failed: boolean } {
  const { token } = useSelector(selectSession);
  const [state, setState] = useState<{ id: string | null; url: string | null; failed: boolean }>({
    id: null,
    url: null,
    failed: false,
  });
  useEffect(() => {
    if (!id || !token) return;
    let live = true;
    let created: string | null = null;
    uploadObjectUrl(token, id).then(
      (url) => {
        if (!live) {
          URL.revokeObjectURL(url);
          return;
        }
        created = url;
        setState({ id, url, failed: false });
      },
      () => {
        if (live) setState({ id, url: null, failed: true });
      },
    );
    return () => {
      live = false;
      if (created) URL.revokeObjectURL(created);
    };
  }, [id, token]);
  return state.id === id ? { url: state.url, failed: state.failed } : { url: null, failed: false };
}

/** A protected image as a thumbnail; a click shows it full size, closed by its Close button or a tap. */
export function UploadThumb({ id, label, testId }: { id: string | null; label: string; testId: string }) {
  const { t } = useTranslation();
  const { url, failed } = useUploadUrl(id);
  const [open, setOpen] = useState(false);
  if (!id) return <span className="muted">{t('admin.noImage')}</span>;
  if (failed)
    return (
      <span className="muted" data-testid={testId} data-state="failed">
        {t('admin.imageFailed')}
      </span>
    );
  if (!url)
    return (
      <span className="thumb thumb-loading" data-testid={testId} data-state="loading">
        {label}
      </span>
    );
  return (
    <>
      <button
        type="button"
        className="thumb"
        onClick={() => setOpen(true)}
        title={label}
        data-testid={testId}
        data-state="loaded"
      >
        <img src={url} alt={label} />
      </button>
      <ImageViewer
        image={url}
        visible={open}
        onClose={() => setOpen(false)}
        renderFooter={() => (
          <div className="viewer-footer">
            <Button onClick={() => setOpen(false)} data-testid={`${testId}-close`}>
              {t('admin.closeImage')}
            </Button>
          </div>
        )}
      />
    </>
  );
}

/** "NT$"-style amount: currency code and the exact grouped figure. */
export function Money({ currency, children }: { currency: string; children: string }) {
  return (
    <span className="money">
      <span className="ccy">{currency}</span> {children}
    </span>
  );
}
