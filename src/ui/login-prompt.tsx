/** Shown on member screens while logged out: a short note and a button to the login screen. */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';

export function LoginPrompt() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <div className="login-prompt" data-testid="login-prompt">
      <p>{t('common.loginRequired')}</p>
      <Button
        color="primary"
        onClick={() =>
          navigate(`/login/login?redirect=${encodeURIComponent(location.pathname + location.search)}`)
        }
      >
        {t('common.toLogin')}
      </Button>
    </div>
  );
}
