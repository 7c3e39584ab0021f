/**
 * The home header's notices bell with the unread count (announcements + account notices); opens
 * /home/notice. Loaded lazily by the home screen, so its strings and calls stay off the first
 * screen (src/features/notices has the screens); nothing shows for a visitor who is not logged in.
 */
import { Badge } from 'antd-mobile';
import type { ResOf } from '../../contract/api';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { api } from '../api/api';
import { selectLoggedIn } from '../api/session';
import './notice-bell.css';

/** notice/unread, shared by the bell and the notices screen (tag `Notices`). */
const unreadApi = api.enhanceEndpoints({ addTagTypes: ['Notices'] }).injectEndpoints({
  endpoints: (b) => ({
    noticeUnread: b.query<ResOf<'notice/unread'>, void>({
      query: () => ({ name: 'notice/unread', body: {} }),
      providesTags: ['Notices'],
    }),
  }),
});
export const { useNoticeUnreadQuery } = unreadApi;

/** Unread counts are refreshed at most this often while the home screen is open (ms). */
const UNREAD_POLL_MS = 60_000;

export default function NoticeBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const { data } = useNoticeUnreadQuery(undefined, { skip: !loggedIn, pollingInterval: UNREAD_POLL_MS });
  if (!loggedIn) return null;
  const count = data?.total ?? 0;
  return (
    <button
      type="button"
      className="notice-bell"
      data-testid="home-notices"
      aria-label={t('notices.bell', { count })}
      onClick={() => navigate('/home/notice')}
    >
      <Badge content={count > 0 ? (count > 99 ? '99+' : count) : null}>
        <svg
          width="22"
          height="22"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          aria-hidden="true"
        >
          <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" />
          <path d="M10 20a2 2 0 0 0 4 0" />
        </svg>
      </Badge>
    </button>
  );
}
