/**
 * News (admin/news, admin/saveNews, admin/setNewsStatus): every item, operator articles and the
 * generated ones (ex-dividend notices, public subscriptions, market summaries), newest first,
 * with Edit and Withdraw / Publish; a form to publish or edit an article: title and body in tw
 * and en, the instruments it concerns (codes, comma separated) and an optional cover image
 * uploaded through the upload checks (purpose newsCover). Each action is audited (news.publish,
 * news.update, news.status). The calls are injected here so only this tab carries them.
 * Testids: `news-title-tw`, `news-title-en`, `news-body-tw`, `news-body-en`, `news-symbols`,
 * `news-cover`, `news-save`, `news-row-<id>`, `news-toggle-<id>`, `news-edit-<id>`, table `admin-news`.
 */
import { Button, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { ReqOf, ResOf } from '../../contract/api';
import type { NewsArticle } from '../../contract/news';
import { toastError } from '../api/base-query';
import { selectSession } from '../api/session';
import { uploadImage, UploadError } from '../api/upload';
import { formatDateTime, langOf } from '../lib/format';
import { TestIdInput } from '../ui/testid-input';
import { ADMIN_PAGE_SIZE, adminApi } from './admin-api';
import { AdminTable, type Column } from './admin-ui';

const newsApi = adminApi.enhanceEndpoints({ addTagTypes: ['AdminNews'] }).injectEndpoints({
  endpoints: (b) => ({
    adminNews: b.query<ResOf<'admin/news'>, void>({
      query: () => ({ name: 'admin/news', body: { page: 1, pageSize: ADMIN_PAGE_SIZE } }),
      providesTags: ['AdminNews'],
    }),
    saveNews: b.mutation<ResOf<'admin/saveNews'>, ReqOf<'admin/saveNews'>>({
      query: (body) => ({ name: 'admin/saveNews', body }),
      invalidatesTags: ['AdminNews', 'AdminAudit'],
    }),
    setNewsStatus: b.mutation<ResOf<'admin/setNewsStatus'>, ReqOf<'admin/setNewsStatus'>>({
      query: (body) => ({ name: 'admin/setNewsStatus', body }),
      invalidatesTags: ['AdminNews', 'AdminAudit'],
    }),
  }),
});

const SYMBOL = /^[0-9A-Z]{4,6}$/;

interface Draft {
  id?: number;
  titleTw: string;
  titleEn: string;
  bodyTw: string;
  bodyEn: string;
  symbols: string;
  coverUploadId: string | null;
}
const EMPTY: Draft = { titleTw: '', titleEn: '', bodyTw: '', bodyEn: '', symbols: '', coverUploadId: null };

function NewsForm({ draft, onDone }: { draft: Draft; onDone: () => void }) {
  const { t } = useTranslation();
  const { token } = useSelector(selectSession);
  const [d, setD] = useState<Draft>(draft);
  const [uploading, setUploading] = useState(false);
  const [save, { isLoading }] = newsApi.useSaveNewsMutation();
  const symbols = d.symbols
    .split(/[\s,]+/)
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  const valid =
    [d.titleTw, d.titleEn, d.bodyTw, d.bodyEn].every((s) => s.trim() !== '') &&
    symbols.every((s) => SYMBOL.test(s)) &&
    symbols.length <= 20;
  const set = (k: keyof Draft) => (v: string) => setD((x) => ({ ...x, [k]: v }));
  const pick = async (file: File | undefined) => {
    if (!file || !token) return;
    setUploading(true);
    try {
      const r = await uploadImage(token, 'newsCover', file);
      setD((x) => ({ ...x, coverUploadId: r.id }));
    } catch (err) {
      toastError(err instanceof UploadError ? err.msg : 'uploadFailed');
    } finally {
      setUploading(false);
    }
  };
  const submit = async () => {
    if (!valid) return;
    const res = await save({
      ...(d.id ? { id: d.id } : {}),
      titleTw: d.titleTw.trim(),
      titleEn: d.titleEn.trim(),
      bodyTw: d.bodyTw,
      bodyEn: d.bodyEn,
      coverUploadId: d.coverUploadId,
      symbols,
    });
    if ('data' in res && res.data) onDone();
  };
  return (
    <div className="admin-toolbar news-form" data-testid="news-form">
      <label>
        <span className="muted">{t('admin.news.titleTw')}</span>
        <TestIdInput testId="news-title-tw" value={d.titleTw} onChange={set('titleTw')} />
      </label>
      <label>
        <span className="muted">{t('admin.news.titleEn')}</span>
        <TestIdInput testId="news-title-en" value={d.titleEn} onChange={set('titleEn')} />
      </label>
      <label className="news-form-wide">
        <span className="muted">{t('admin.news.bodyTw')}</span>
        <TextArea data-testid="news-body-tw" rows={4} value={d.bodyTw} onChange={set('bodyTw')} />
      </label>
      <label className="news-form-wide">
        <span className="muted">{t('admin.news.bodyEn')}</span>
        <TextArea data-testid="news-body-en" rows={4} value={d.bodyEn} onChange={set('bodyEn')} />
      </label>
      <label>
        <span className="muted">{t('admin.news.symbols')}</span>
        <TestIdInput
          testId="news-symbols"
          value={d.symbols}
          onChange={set('symbols')}
          placeholder="2330, 2317"
        />
      </label>
      <label>
        <span className="muted">{t('admin.news.cover')}</span>
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp"
          data-testid="news-cover"
          onChange={(e) => void pick(e.target.files?.[0])}
        />
        {d.coverUploadId && <span className="muted small">{t('admin.news.coverSet')}</span>}
      </label>
      {!valid && <div className="field-error">{t('admin.news.invalid')}</div>}
      <Button
        size="small"
        color="primary"
        disabled={!valid || uploading}
        loading={isLoading}
        onClick={() => void submit()}
        data-testid="news-save"
      >
        {d.id ? t('admin.news.update') : t('admin.news.publish')}
      </Button>
      {d.id && (
        <Button size="small" onClick={onDone}>
          {t('admin.news.cancel')}
        </Button>
      )}
    </div>
  );
}

const toDraft = (a: NewsArticle): Draft => ({
  id: a.id,
  titleTw: a.titleTw,
  titleEn: a.titleEn,
  bodyTw: a.bodyTw,
  bodyEn: a.bodyEn,
  symbols: a.symbols.join(', '),
  coverUploadId: null,
});

/** The news tab. */
export function NewsPanel() {
  const { t, i18n } = useTranslation();
  const en = langOf(i18n.language) === 'en';
  const { data } = newsApi.useAdminNewsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [setStatus, { isLoading: toggling }] = newsApi.useSetNewsStatusMutation();
  const [editing, setEditing] = useState<Draft>(EMPTY);
  const [formKey, setFormKey] = useState(0);
  const reset = () => {
    setEditing(EMPTY);
    setFormKey((k) => k + 1);
  };
  const columns: Column<NewsArticle>[] = [
    { key: 'kind', title: t('admin.news.kind'), render: (r) => t(`admin.news.kinds.${r.kind}`) },
    { key: 'title', title: t('admin.news.title'), render: (r) => (en ? r.titleEn : r.titleTw), wide: true },
    { key: 'symbols', title: t('admin.news.symbols'), render: (r) => r.symbols.join(', ') || '--' },
    { key: 'status', title: t('admin.news.status'), render: (r) => t(`admin.news.statuses.${r.status}`) },
    { key: 'published', title: t('admin.news.published'), render: (r) => formatDateTime(r.publishedAt) },
    {
      key: 'actions',
      title: '',
      render: (r) => (
        <span className="admin-actions">
          <Button
            size="mini"
            data-testid={`news-edit-${r.id}`}
            onClick={() => {
              setEditing(toDraft(r));
              setFormKey((k) => k + 1);
            }}
          >
            {t('admin.news.edit')}
          </Button>
          <Button
            size="mini"
            color={r.status === 'published' ? 'danger' : 'primary'}
            loading={toggling}
            data-testid={`news-toggle-${r.id}`}
            onClick={() =>
              void setStatus({ id: r.id, status: r.status === 'published' ? 'withdrawn' : 'published' })
            }
          >
            {r.status === 'published' ? t('admin.news.withdraw') : t('admin.news.republish')}
          </Button>
        </span>
      ),
    },
  ];
  return (
    <div>
      <NewsForm key={formKey} draft={editing} onDone={reset} />
      <AdminTable
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(r) => r.id}
        rowTestId={(r) => `news-row-${r.id}`}
        testId="admin-news"
      />
    </div>
  );
}
