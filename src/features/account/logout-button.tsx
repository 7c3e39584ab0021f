/**
 * The log-out button of the member centre and /user/setting: after the member confirms, ends the
 * session on the server, forgets it here and goes to /login/start.
 */
import { Button, Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { useLogoutMutation } from '../../api/api';
import { loggedOut } from '../../api/session';

function useLogout(): () => Promise<void> {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const [logout] = useLogoutMutation();
  return async () => {
    const ok = await Dialog.confirm({
      content: t('uc.logoutConfirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    await logout();
    dispatch(loggedOut());
    navigate('/login/start', { replace: true });
  };
}

export function LogoutButton({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const onLogout = useLogout();
  return (
    <div className="center-pad">
      <Button block color="danger" fill="outline" onClick={onLogout} data-testid={testId}>
        {t('uc.logout')}
      </Button>
    </div>
  );
}
