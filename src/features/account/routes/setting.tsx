/**
 * `/user/setting`: language (→ /user/language), how prices are coloured (TWD: up red, down
 * green; USD: up green, down red; product-spec §1), the amount above which orders, cancels and
 * exchanges are confirmed first (components/confirm-above-setting.tsx), the login, funds and
 * block-trade passwords, the privacy agreement and about us, rating the app (/user/pj), and log out.
 */
import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { selectSession } from '../../../api/session';
import { changeColor, type Currency } from '../../../lib/colors';
import { langOf } from '../../../lib/format';
import '../account.css';
import { Page } from '../../../ui/page';
import { LogoutButton } from '../logout-button';
import { ConfirmAboveSetting } from '../components/confirm-above-setting';

/** One currency's convention: a rise and a fall of 1.00 in its colours. */
function ColourRow({ currency }: { currency: Currency }) {
  const { t } = useTranslation();
  return (
    <div className="colour-row" data-testid={`colour-${currency}`}>
      <span>{t(`settings.colour.${currency}`)}</span>
      <span style={{ color: changeColor(1, currency) }}>▲ {t('settings.colour.up')}</span>
      <span style={{ color: changeColor(-1, currency) }}>▼ {t('settings.colour.down')}</span>
    </div>
  );
}

export function SettingPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectSession).token !== null;
  const item = (key: string, to: string, extra?: string) => (
    <List.Item key={to} onClick={() => navigate(to)} extra={extra} data-testid={`setting-${key}`}>
      {t(`settings.item.${key}`)}
    </List.Item>
  );

  return (
    <Page title={t('settings.title')}>
      <List header={t('settings.general')}>
        {item('language', '/user/language', t(`lang.${langOf(i18n.language)}`))}
      </List>
      <section className="card">
        <div className="card-title">{t('settings.colour.title')}</div>
        <ColourRow currency="TWD" />
        <ColourRow currency="USD" />
        <p className="muted small">{t('settings.colour.note')}</p>
      </section>
      {loggedIn && <ConfirmAboveSetting />}
      {loggedIn && (
        <List header={t('settings.security')}>
          {item('loginPassword', '/user/loginPassword')}
          {item('fundsPassword', '/user/setPassword')}
          {item('blockTradePassword', '/user/blockTradePassword')}
        </List>
      )}
      <List header={t('settings.about')}>
        {item('agreement', '/user/agreement')}
        {item('aboutUs', '/user/aboutUs')}
        {loggedIn && item('rate', '/user/pj')}
      </List>
      {loggedIn && <LogoutButton testId="setting-logout" />}
    </Page>
  );
}
