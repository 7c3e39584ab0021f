/**
 * /home/notice: the notice inbox in two tabs, operator announcements and the member's own account
 * notices (contract/notices.ts), unread ones marked; a row opens /home/noticeDetail?id=.
 */
import { Badge, InfiniteScroll, Tabs } from 'antd-mobile';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { NOTICE_TABS, type Notice, type NoticeTab } from '../../../../contract/notices';
import { selectLoggedIn } from '../../../api/session';
import { formatDateTime } from '../../../lib/format';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { PullRefresh } from '../../../ui/pull-refresh';
import { useNoticeListInfiniteQuery, useNoticeUnreadQuery } from '../api/notices-api';
import { noticeText } from '../components/notice-text';
import '../notices.css';

function NoticeRow({ n, onOpen }: { n: Notice; onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const { title, body } = noticeText(n, t, i18n.language);
  return (
    <div className="notice-row" role="button" data-testid={`notice-row-${n.id}`} onClick={() => onOpen(n.id)}>
      <div className="notice-row-head">
        <span className={n.read ? 'notice-title' : 'notice-title notice-unread'}>
          {!n.read && <Badge content={Badge.dot} className="notice-dot" />}
          {title}
        </span>
        <span className="muted small">{formatDateTime(n.createdAt)}</span>
      </div>
      <div className="notice-preview muted small">{body}</div>
    </div>
  );
}

function NoticeList({ tab, onOpen }: { tab: NoticeTab; onOpen: (id: string) => void }) {
  const q = useNoticeListInfiniteQuery(tab);
  const items = (q.data?.pages ?? []).flatMap((p) => p.items);
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      {!q.isLoading && items.length === 0 ? (
        <NoData testId={`notice-list-${tab}-empty`} />
      ) : (
        <div className="list-card" data-testid={`notice-list-${tab}`}>
          {items.map((n) => (
            <NoticeRow key={n.id} n={n} onOpen={onOpen} />
          ))}
        </div>
      )}
      {items.length > 0 && (
        <InfiniteScroll loadMore={async () => void (await q.fetchNextPage())} hasMore={q.hasNextPage} />
      )}
    </PullRefresh>
  );
}

export function NoticePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: NoticeTab = (NOTICE_TABS as readonly string[]).includes(tabParam ?? '')
    ? (tabParam as NoticeTab)
    : 'announcements';
  const { data: unread } = useNoticeUnreadQuery(undefined, { skip: !loggedIn });
  const show = useCallback((k: string) => setParams({ tab: k }, { replace: true }), [setParams]);
  const open = useCallback((id: string) => navigate(`/home/noticeDetail?id=${id}`), [navigate]);
  return (
    <Page title={t('notices.title')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <Tabs activeKey={tab} onChange={show} className="notice-tabs">
          {NOTICE_TABS.map((k) => (
            <Tabs.Tab
              key={k}
              title={
                <Badge content={unread?.[k] ? unread[k] : null} data-testid={`notice-tab-${k}`}>
                  <span className="notice-tab-title">{t(`notices.tab.${k}`)}</span>
                </Badge>
              }
            >
              {tab === k && <NoticeList tab={k} onOpen={open} />}
            </Tabs.Tab>
          ))}
        </Tabs>
      )}
    </Page>
  );
}
