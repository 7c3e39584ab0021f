/**
 * Operator notices (admin/notices, admin/saveNotice, admin/publishNotice): the list with each
 * notice's state and reads, a form for title and body in tw and en (create or edit), and
 * publish / withdraw. Audited server-side. Testids: `notice-new`, `notice-title-tw`,
 * `notice-title-en`, `notice-body-tw`, `notice-body-en`, `notice-save`, `notice-row-<id>`,
 * `notice-publish-<id>`, `notice-withdraw-<id>`, `notice-edit-<id>`.
 */
import { Button, Form, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReqOf, ResOf } from '../../contract/api';
import { formatDateTime } from '../lib/format';
import { TestIdInput } from '../ui/testid-input';
import { ADMIN_PAGE_SIZE, adminApi } from './admin-api';
import { AdminTable, Pager } from './admin-ui';

type AdminNotice = ResOf<'admin/notices'>['items'][number];

const noticesApi = adminApi.enhanceEndpoints({ addTagTypes: ['AdminNotices'] }).injectEndpoints({
  endpoints: (b) => ({
    adminNotices: b.query<ResOf<'admin/notices'>, number>({
      query: (page) => ({ name: 'admin/notices', body: { page, pageSize: ADMIN_PAGE_SIZE } }),
      providesTags: ['AdminNotices'],
    }),
    saveNotice: b.mutation<ResOf<'admin/saveNotice'>, ReqOf<'admin/saveNotice'>>({
      query: (body) => ({ name: 'admin/saveNotice', body }),
      invalidatesTags: ['AdminNotices', 'AdminAudit'],
    }),
    publishNotice: b.mutation<ResOf<'admin/publishNotice'>, ReqOf<'admin/publishNotice'>>({
      query: (body) => ({ name: 'admin/publishNotice', body }),
      invalidatesTags: ['AdminNotices', 'AdminAudit'],
    }),
  }),
});

type Draft = { titleTw: string; titleEn: string; bodyTw: string; bodyEn: string };

function NoticeForm({ editing, onDone }: { editing: AdminNotice | null; onDone: () => void }) {
  const { t } = useTranslation();
  const [save, { isLoading }] = noticesApi.useSaveNoticeMutation();
  const initial: Draft = editing
    ? {
        titleTw: editing.title.tw,
        titleEn: editing.title.en,
        bodyTw: editing.body.tw,
        bodyEn: editing.body.en,
      }
    : { titleTw: '', titleEn: '', bodyTw: '', bodyEn: '' };
  const required = [{ required: true, whitespace: true, message: t('admin.required') }];
  return (
    <Form
      layout="vertical"
      initialValues={initial}
      onFinish={async (v: Draft) => {
        const r = await save({ ...(editing ? { id: editing.id } : {}), ...v });
        if (!('error' in r)) onDone();
      }}
      footer={
        <div className="admin-actions">
          <Button color="primary" type="submit" loading={isLoading} data-testid="notice-save">
            {t('admin.save')}
          </Button>
          <Button onClick={onDone}>{t('admin.notices.cancel')}</Button>
        </div>
      }
    >
      <Form.Item name="titleTw" label={t('admin.notices.titleTw')} rules={required}>
        <TestIdInput testId="notice-title-tw" maxLength={120} />
      </Form.Item>
      <Form.Item name="titleEn" label={t('admin.notices.titleEn')} rules={required}>
        <TestIdInput testId="notice-title-en" maxLength={120} />
      </Form.Item>
      <Form.Item name="bodyTw" label={t('admin.notices.bodyTw')} rules={required}>
        <TextArea data-testid="notice-body-tw" rows={4} maxLength={4000} />
      </Form.Item>
      <Form.Item name="bodyEn" label={t('admin.notices.bodyEn')} rules={required}>
        <TextArea data-testid="notice-body-en" rows={4} maxLength={4000} />
      </Form.Item>
    </Form>
  );
}

export function NoticesPanel() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'tw';
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminNotice | null | 'new'>(null);
  const { data } = noticesApi.useAdminNoticesQuery(page);
  const [publish] = noticesApi.usePublishNoticeMutation();
  if (editing !== null)
    return <NoticeForm editing={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />;
  return (
    <div>
      <div className="admin-actions">
        <Button color="primary" size="small" onClick={() => setEditing('new')} data-testid="notice-new">
          {t('admin.notices.new')}
        </Button>
      </div>
      <AdminTable<AdminNotice>
        rows={data?.items ?? []}
        rowKey={(n) => n.id}
        rowTestId={(n) => `notice-row-${n.id}`}
        columns={[
          { key: 'title', title: t('admin.notices.title'), render: (n) => n.title[lang] },
          {
            key: 'state',
            title: t('admin.notices.state'),
            render: (n) =>
              n.publishedAt
                ? `${t('admin.notices.published')} ${formatDateTime(n.publishedAt)}`
                : t('admin.notices.draft'),
          },
          { key: 'reads', title: t('admin.notices.reads'), num: true, render: (n) => n.reads },
          {
            key: 'actions',
            title: '',
            render: (n) => (
              <div className="admin-actions">
                <Button size="mini" onClick={() => setEditing(n)} data-testid={`notice-edit-${n.id}`}>
                  {t('admin.notices.edit')}
                </Button>
                {n.publishedAt ? (
                  <Button
                    size="mini"
                    onClick={() => void publish({ id: n.id, published: false })}
                    data-testid={`notice-withdraw-${n.id}`}
                  >
                    {t('admin.notices.withdraw')}
                  </Button>
                ) : (
                  <Button
                    size="mini"
                    color="primary"
                    onClick={() => void publish({ id: n.id, published: true })}
                    data-testid={`notice-publish-${n.id}`}
                  >
                    {t('admin.notices.publish')}
                  </Button>
                )}
              </div>
            ),
          },
        ]}
      />
      {data && <Pager page={page} pageSize={ADMIN_PAGE_SIZE} total={data.total} onChange={setPage} />}
    </div>
  );
}
