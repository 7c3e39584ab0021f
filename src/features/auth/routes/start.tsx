import { Button, Space } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { useConfigQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';

/** Welcome: log in, register, or browse the market without an account. */
export function StartPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const { data: config } = useConfigQuery();
  return (
    <div className="start-page">
      <div className="start-hero">
        {config?.logo ? (
          <img className="start-logo" src={config.logo} alt={t('app.name')} />
        ) : (
          <div className="start-mark" />
        )}
        <h1>{config?.title || t('app.name')}</h1>
        <p>{t('start.tagline')}</p>
      </div>
      <Space direction="vertical" block style={{ '--gap': '12px' }}>
        {loggedIn && (
          <Button
            block
            color="primary"
            size="large"
            onClick={() => navigate('/home/index')}
            data-testid="start-home"
          >
            {t('start.enter')}
          </Button>
        )}
        <Button
          block
          color={loggedIn ? 'default' : 'primary'}
          size="large"
          onClick={() => navigate('/login/login')}
          data-testid="start-login"
        >
          {t('start.login')}
        </Button>
        <Button block size="large" onClick={() => navigate('/login/register')} data-testid="start-register">
          {t('start.register')}
        </Button>
        <Button
          block
          fill="none"
          size="large"
          onClick={() => navigate('/market/market')}
          data-testid="start-market"
        >
          {t('start.browse')}
        </Button>
      </Space>
    </div>
  );
}
