/**
 * Customer service for operators (admin/support*): conversations with their unread counts (open
 * ones, or all), reloaded on every support event of the operator's socket (./support-socket.ts),
 * and every SUPPORT_POLL_MS only while that socket is down; one opened shows its newest messages (marked
 * read by opening), with "assign to me", "resolve" and a reply box. Members' images are shown
 * from the upload route (operators may read every upload). Testids: `support-row-<id>`,
 * `support-open-<id>`, `support-assign`, `support-resolve`, `support-reply-text`,
 * `support-reply-send`, `support-thread`.
 */
import { Button, TextArea } from 'antd-mobile';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import type { ReqOf, ResOf } from '../../contract/api';
import type { AdminConversation, SupportMessage } from '../../contract/support';
import { formatDateTime } from '../lib/format';
import { Segmented } from '../ui/segmented';
import { ADMIN_PAGE_SIZE, adminApi } from './admin-api';
import { AdminTable, Pager, UploadThumb } from './admin-ui';
import { useSupportSocket } from './support-socket';

/** How often the open panel refreshes the list and the thread while its socket is down (ms). */
const SUPPORT_POLL_MS = 5_000;

const supportApi = adminApi.enhanceEndpoints({ addTagTypes: ['AdminSupport'] }).injectEndpoints({
  endpoints: (b) => ({
    supportConversations: b.query<ResOf<'admin/supportConversations'>, ReqOf<'admin/supportConversations'>>({
      query: (body) => ({ name: 'admin/supportConversations', body }),
      providesTags: ['AdminSupport'],
    }),
    supportThread: b.query<ResOf<'admin/supportHistory'>, number>({
      query: (conversationId) => ({ name: 'admin/supportHistory', body: { conversationId, limit: 50 } }),
      providesTags: ['AdminSupport'],
    }),
    supportRead: b.mutation<ResOf<'admin/supportRead'>, number>({
      query: (conversationId) => ({ name: 'admin/supportRead', body: { conversationId } }),
      invalidatesTags: ['AdminSupport'],
    }),
    supportAssign: b.mutation<ResOf<'admin/supportAssign'>, number>({
      query: (conversationId) => ({ name: 'admin/supportAssign', body: { conversationId } }),
      invalidatesTags: ['AdminSupport', 'AdminAudit'],
    }),
    supportResolve: b.mutation<ResOf<'admin/supportResolve'>, number>({
      query: (conversationId) => ({ name: 'admin/supportResolve', body: { conversationId } }),
      invalidatesTags: ['AdminSupport', 'AdminAudit'],
    }),
    supportReply: b.mutation<ResOf<'admin/supportReply'>, ReqOf<'admin/supportReply'>>({
      query: (body) => ({ name: 'admin/supportReply', body }),
      invalidatesTags: ['AdminSupport'],
    }),
  }),
});

function Thread({ id, onClose, pollMs }: { id: number; onClose: () => void; pollMs: number }) {
  const { t } = useTranslation();
  const { data } = supportApi.useSupportThreadQuery(id, { pollingInterval: pollMs });
  const [read] = supportApi.useSupportReadMutation();
  const [assign] = supportApi.useSupportAssignMutation();
  const [resolve] = supportApi.useSupportResolveMutation();
  const [reply, { isLoading }] = supportApi.useSupportReplyMutation();
  const [text, setText] = useState('');
  const unread = data?.conversation?.operatorUnread ?? 0;
  useEffect(() => {
    if (unread > 0) void read(id);
  }, [id, unread, read]);
  const c = data?.conversation;
  const messages: SupportMessage[] = [...(data?.items ?? [])].reverse();
  return (
    <div className="admin-support-thread" data-testid="support-thread">
      <div className="admin-actions">
        <Button size="small" onClick={onClose}>
          {t('admin.support.back')}
        </Button>
        <Button size="small" onClick={() => void assign(id)} data-testid="support-assign">
          {t('admin.support.assign')}
        </Button>
        <Button
          size="small"
          disabled={c?.status === 'resolved'}
          onClick={() => void resolve(id)}
          data-testid="support-resolve"
        >
          {t('admin.support.resolve')}
        </Button>
        {c && (
          <span className="muted small">
            {t(`admin.support.status.${c.status}`)} · {c.assignedTo ?? t('admin.support.unassigned')}
          </span>
        )}
      </div>
      {messages.map((m) => (
        <div key={m.id} className={m.from === 'operator' ? 'admin-msg admin-msg-op' : 'admin-msg'}>
          <div className="muted small">
            {t(`admin.support.from.${m.from}`)} · {formatDateTime(m.createdAt)}
          </div>
          {m.uploadId && (
            <UploadThumb id={m.uploadId} label={t('admin.support.image')} testId={`support-image-${m.id}`} />
          )}
          {m.text && <div className="admin-msg-text">{m.text}</div>}
        </div>
      ))}
      <div className="admin-actions">
        <TextArea
          value={text}
          onChange={setText}
          rows={2}
          maxLength={2000}
          className="admin-reply"
          placeholder={t('admin.support.replyPlaceholder')}
          data-testid="support-reply-text"
        />
        <Button
          color="primary"
          size="small"
          loading={isLoading}
          disabled={!text.trim()}
          data-testid="support-reply-send"
          onClick={async () => {
            const r = await reply({ conversationId: id, text: text.trim() });
            if (!('error' in r)) setText('');
          }}
        >
          {t('admin.support.send')}
        </Button>
      </div>
    </div>
  );
}

export function SupportPanel() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<'open' | 'all'>('open');
  const [page, setPage] = useState(1);
  const [opened, setOpened] = useState<number | null>(null);
  const dispatch = useDispatch();
  const reload = useCallback(() => dispatch(supportApi.util.invalidateTags(['AdminSupport'])), [dispatch]);
  const live = useSupportSocket(reload);
  const pollMs = live ? 0 : SUPPORT_POLL_MS;
  const { data } = supportApi.useSupportConversationsQuery(
    { status, page, pageSize: ADMIN_PAGE_SIZE },
    { pollingInterval: pollMs },
  );
  const badge = (
    <div
      className={`support-live muted small${live ? ' is-live' : ''}`}
      data-testid="support-live"
      data-live={live}
    >
      {live ? t('admin.support.live') : t('admin.support.polling')}
    </div>
  );
  if (opened !== null)
    return (
      <>
        {badge}
        <Thread id={opened} onClose={() => setOpened(null)} pollMs={pollMs} />
      </>
    );
  return (
    <div>
      {badge}
      <Segmented
        value={status}
        onChange={(v) => {
          setStatus(v);
          setPage(1);
        }}
        options={[
          { value: 'open', label: t('admin.support.status.open'), testId: 'support-filter-open' },
          { value: 'all', label: t('admin.all'), testId: 'support-filter-all' },
        ]}
      />
      <AdminTable<AdminConversation>
        rows={data?.items ?? []}
        rowKey={(c) => c.id}
        rowTestId={(c) => `support-row-${c.id}`}
        columns={[
          { key: 'account', title: t('admin.support.member'), render: (c) => c.account },
          {
            key: 'last',
            title: t('admin.support.last'),
            render: (c) => c.lastText ?? t('admin.support.image'),
          },
          { key: 'unread', title: t('admin.support.unread'), num: true, render: (c) => c.operatorUnread },
          {
            key: 'status',
            title: t('admin.support.state'),
            render: (c) => t(`admin.support.status.${c.status}`),
          },
          { key: 'assigned', title: t('admin.support.assigned'), render: (c) => c.assignedTo ?? '—' },
          { key: 'at', title: t('admin.support.at'), render: (c) => formatDateTime(c.lastMessageAt) },
          {
            key: 'open',
            title: '',
            render: (c) => (
              <Button
                size="mini"
                color="primary"
                onClick={() => setOpened(c.id)}
                data-testid={`support-open-${c.id}`}
              >
                {t('admin.support.open')}
              </Button>
            ),
          },
        ]}
      />
      {data && <Pager page={page} pageSize={ADMIN_PAGE_SIZE} total={data.total} onChange={setPage} />}
    </div>
  );
}
