/**
 * Two console tabs for the member-facing pages:
 * - `PagesPanel` (admin/pages, admin/savePage, admin/feedback): edit the privacy agreement and
 *   about us per language (plain text; paragraphs separated by a blank line; each save audited),
 *   and read the members' ratings of the app (`/user/pj`) with their average.
 * - `ResetsPanel` (admin/passwordResets, admin/issueResetCode): members who asked for a password
 *   reset; after calling the account's mobile number and hearing the verified real name, the
 *   operator issues a one-time code, shown once here, and reads it out.
 * Testids: `page-edit-<name>-<lang>`, `page-title-…`, `page-body-…`, `page-save-…`,
 * `admin-feedback`, `reset-row-<id>`, `reset-issue-<id>`, `reset-code-<id>`.
 */
import { Button, Input, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReqOf, ResOf } from '../../contract/api';
import { PAGE_BODY_MAX, PAGE_LANGS, PAGE_NAMES, type PageLang, type PageName } from '../../contract/common';
import { formatDateTime } from '../lib/format';
import { adminApi } from './admin-api';
import { AdminTable, type Column } from './admin-ui';

const pagesApi = adminApi
  .enhanceEndpoints({ addTagTypes: ['AdminPages', 'AdminResets', 'AdminFeedback'] })
  .injectEndpoints({
    endpoints: (b) => ({
      adminPages: b.query<ResOf<'admin/pages'>, void>({
        query: () => ({ name: 'admin/pages', body: {} }),
        providesTags: ['AdminPages'],
      }),
      savePage: b.mutation<ResOf<'admin/savePage'>, ReqOf<'admin/savePage'>>({
        query: (body) => ({ name: 'admin/savePage', body }),
        invalidatesTags: ['AdminPages', 'AdminAudit'],
      }),
      adminFeedback: b.query<ResOf<'admin/feedback'>, void>({
        query: () => ({ name: 'admin/feedback', body: {} }),
        providesTags: ['AdminFeedback'],
      }),
      passwordResets: b.query<ResOf<'admin/passwordResets'>, void>({
        query: () => ({ name: 'admin/passwordResets', body: {} }),
        providesTags: ['AdminResets'],
      }),
      issueResetCode: b.mutation<ResOf<'admin/issueResetCode'>, ReqOf<'admin/issueResetCode'>>({
        query: (body) => ({ name: 'admin/issueResetCode', body }),
        invalidatesTags: ['AdminResets', 'AdminAudit'],
      }),
    }),
  });

type PageText = ResOf<'admin/pages'>[number]['texts'][number];

function PageEditor({ name, lang, text }: { name: PageName; lang: PageLang; text: PageText }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(text.title);
  const [body, setBody] = useState(text.body);
  const [save, { isLoading }] = pagesApi.useSavePageMutation();
  const id = `${name}-${lang}`;
  const changed = title.trim() !== text.title || body.trim() !== text.body;
  return (
    <div className="admin-card" data-testid={`page-edit-${id}`}>
      <div className="muted small">
        {t(`admin.pages.name.${name}`)} · {t(`lang.${lang}`)} ·{' '}
        {text.updatedAt ? formatDateTime(Date.parse(text.updatedAt)) : t('admin.pages.shipped')}
      </div>
      <Input value={title} onChange={setTitle} maxLength={100} data-testid={`page-title-${id}`} />
      <TextArea
        value={body}
        onChange={setBody}
        maxLength={PAGE_BODY_MAX}
        autoSize={{ minRows: 6, maxRows: 16 }}
        data-testid={`page-body-${id}`}
      />
      <Button
        size="small"
        color="primary"
        disabled={!changed || !title.trim() || !body.trim()}
        loading={isLoading}
        onClick={() => void save({ name, lang, title: title.trim(), body: body.trim() })}
        data-testid={`page-save-${id}`}
      >
        {t('admin.save')}
      </Button>
    </div>
  );
}

function FeedbackList() {
  const { t } = useTranslation();
  const { data } = pagesApi.useAdminFeedbackQuery(undefined, { refetchOnMountOrArgChange: true });
  type Row = ResOf<'admin/feedback'>['items'][number];
  const columns: Column<Row>[] = [
    { key: 'account', title: t('admin.col.account'), render: (r) => r.account },
    { key: 'rating', title: t('admin.pages.rating'), render: (r) => '★'.repeat(r.rating) },
    { key: 'comment', title: t('admin.pages.comment'), render: (r) => r.comment, wide: true },
    { key: 'time', title: t('admin.col.time'), render: (r) => formatDateTime(Date.parse(r.createdAt)) },
  ];
  return (
    <>
      <h3>
        {t('admin.pages.feedback', {
          count: data?.count ?? 0,
          average: data?.average === null || data?.average === undefined ? '--' : data.average.toFixed(2),
        })}
      </h3>
      <AdminTable columns={columns} rows={data?.items ?? []} rowKey={(r) => r.id} testId="admin-feedback" />
    </>
  );
}

export function PagesPanel() {
  const { data } = pagesApi.useAdminPagesQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <section className="admin-section">
      {data &&
        PAGE_NAMES.map((name) =>
          PAGE_LANGS.map((lang) => {
            const text = data.find((p) => p.name === name)?.texts.find((x) => x.lang === lang);
            return text ? (
              <PageEditor key={`${name}-${lang}-${text.updatedAt}`} name={name} lang={lang} text={text} />
            ) : null;
          }),
        )}
      <FeedbackList />
    </section>
  );
}

export function ResetsPanel() {
  const { t } = useTranslation();
  const { data, refetch, isFetching } = pagesApi.usePasswordResetsQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const [issue] = pagesApi.useIssueResetCodeMutation();
  const [codes, setCodes] = useState<Record<number, string>>({});
  type Row = ResOf<'admin/passwordResets'>[number];
  const columns: Column<Row>[] = [
    { key: 'account', title: t('admin.col.account'), render: (r) => r.account },
    { key: 'name', title: t('admin.resets.realName'), render: (r) => r.realName ?? t('admin.resets.noName') },
    { key: 'asked', title: t('admin.col.time'), render: (r) => formatDateTime(Date.parse(r.createdAt)) },
    {
      key: 'state',
      title: t('admin.col.status'),
      render: (r) => t(`admin.resets.status.${r.status}`),
    },
    {
      key: 'code',
      title: t('admin.resets.code'),
      wide: true,
      render: (r) =>
        codes[r.id] ? (
          <strong data-testid={`reset-code-${r.id}`}>{codes[r.id]}</strong>
        ) : (
          <Button
            size="small"
            color="primary"
            onClick={async () => {
              const res = await issue({ id: r.id });
              if ('data' in res && res.data) setCodes((c) => ({ ...c, [r.id]: res.data.code }));
            }}
            data-testid={`reset-issue-${r.id}`}
          >
            {t('admin.resets.issue')}
          </Button>
        ),
    },
  ];
  return (
    <section className="admin-section">
      <p className="muted small">{t('admin.resets.how')}</p>
      <div className="admin-toolbar">
        <Button size="small" onClick={() => void refetch()} loading={isFetching}>
          {t('admin.refresh')}
        </Button>
      </div>
      <AdminTable
        columns={columns}
        rows={data ?? []}
        rowKey={(r) => r.id}
        rowTestId={(r) => `reset-row-${r.id}`}
        testId="admin-resets"
      />
    </section>
  );
}
