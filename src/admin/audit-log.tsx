/**
 * The audit log of operator actions (admin/auditLog), newest first, loaded page by page as the
 * list scrolls: who, what, on which record, when, why, and the record before and after (pretty
 * JSON, collapsed). Testids: `audit-row-<id>`, `audit-change-<id>` (the <details>).
 */
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format';
import { useAuditLogInfiniteQuery, type AuditEntry } from './admin-api';
import { InfiniteTable, type Column } from './admin-ui';

/** A stored JSON snapshot, indented; the raw text when it is not JSON. */
export function prettyJson(text: string | null): string | null {
  if (text === null || text === '') return null;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function parseObject(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The top-level fields whose value differs between two JSON snapshots, as "field: before → after"
 * (a field missing on one side shows as "--"); empty when either side is not a JSON object.
 */
export function changedFields(before: string | null, after: string | null): string[] {
  const b = parseObject(before);
  const a = parseObject(after);
  if (!b && !a) return [];
  const keys = Array.from(new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})]));
  const show = (o: Record<string, unknown> | null, k: string) => (o && k in o ? JSON.stringify(o[k]) : '--');
  return keys.filter((k) => show(b, k) !== show(a, k)).map((k) => `${k}: ${show(b, k)} → ${show(a, k)}`);
}

function Change({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const before = prettyJson(entry.before);
  const after = prettyJson(entry.after);
  if (before === null && after === null) return <span className="muted">--</span>;
  const changed = changedFields(entry.before, entry.after);
  return (
    <details className="audit-change" data-testid={`audit-change-${entry.id}`}>
      <summary>
        {changed.length > 0 ? (
          <span className="changed-fields mono">{changed.slice(0, 4).join('; ')}</span>
        ) : (
          t('admin.showChange')
        )}
      </summary>
      <div className="audit-diff">
        <div>
          <div className="muted small">{t('admin.before')}</div>
          <pre>{before ?? '--'}</pre>
        </div>
        <div>
          <div className="muted small">{t('admin.after')}</div>
          <pre>{after ?? '--'}</pre>
        </div>
      </div>
    </details>
  );
}

/** The audit log's table, newest first, with Refresh and the total (testids above). */
export function AuditLog() {
  const { t } = useTranslation();
  const list = useAuditLogInfiniteQuery(undefined, { refetchOnMountOrArgChange: true });

  const columns: Column<AuditEntry>[] = [
    { key: 'time', title: t('admin.col.time'), render: (e) => formatDateTime(e.createdAt) },
    {
      key: 'actor',
      title: t('admin.col.actor'),
      render: (e) => (
        <span>
          {e.actorAccount} <span className="muted">#{e.actorUserId}</span>
        </span>
      ),
    },
    {
      key: 'action',
      title: t('admin.col.action'),
      render: (e) => (
        <span className="audit-action" data-action={e.action}>
          {t(`admin.action.${e.action}`)}
        </span>
      ),
    },
    {
      key: 'target',
      title: t('admin.col.target'),
      render: (e) => (
        <span className="mono">
          {e.targetType}
          {e.targetId !== null ? ` #${e.targetId}` : ''}
        </span>
      ),
    },
    { key: 'reason', title: t('admin.col.reason'), render: (e) => e.reason ?? '' },
    { key: 'change', wide: true, title: t('admin.col.change'), render: (e) => <Change entry={e} /> },
  ];

  return (
    <section className="admin-section">
      <InfiniteTable kind="audit" list={list} columns={columns} rowTestId={(e) => `audit-row-${e.id}`} />
    </section>
  );
}
