/** Watchlist star: state from user/Optionallist; asks for login when logged out. */
import { Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAddOptionalMutation, useDelOptionalMutation, useWatchlistQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { StarIcon } from '../../../ui/icons';
import { showToast } from '../../../ui/toast';

export function WatchToggle({ symbol }: { symbol: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const loggedIn = useSelector(selectLoggedIn);
  const { data } = useWatchlistQuery(undefined, { skip: !loggedIn });
  const [add, addState] = useAddOptionalMutation();
  const [del, delState] = useDelOptionalMutation();
  const inList = !!data?.some((e) => e.symbol === symbol);
  const busy = addState.isLoading || delState.isLoading;

  const toggle = async () => {
    if (!loggedIn) {
      const ok = await Dialog.confirm({
        content: t('common.loginRequired'),
        confirmText: t('common.toLogin'),
        cancelText: t('common.cancel'),
      });
      if (ok) navigate(`/login/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
      return;
    }
    if (busy) return;
    const res = inList ? await del({ symbol }) : await add({ symbol });
    // Say what changed (a refusal has its own toast from the base query).
    if (!('error' in res)) showToast({ content: t(inList ? 'detail.unwatched' : 'detail.watched') });
  };

  return (
    <button
      type="button"
      className="icon-button"
      onClick={toggle}
      data-testid="watch-toggle"
      data-active={inList}
      aria-pressed={inList}
      aria-label={t(inList ? 'detail.unwatch' : 'detail.watch')}
    >
      <StarIcon filled={inList} />
    </button>
  );
}
