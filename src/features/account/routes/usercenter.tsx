/**
 * /user/usercenter (product-spec §2 "Member centre"): total assets, frozen, available, margin,
 * unrealised P&L, realised profit and the USD amount (user/info), the KYC status (links to
 * /user/bandCard), a warning when no funds password is set, deposit / withdraw / exchange
 * buttons, the credit score, credit limit and loan debt (credit/summary; opens /user/credit), the
 * rewards card (account level, points, sign-in, links to /user/accountLevel and /home/coupons),
 * links to bank cards, fund records, the asset overview, invitations, loan records, both
 * passwords and settings, language switch, log out.
 */
import { Button, List, NoticeBar, Selector } from 'antd-mobile';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { useUserInfoQuery } from '../../../api/api';
import { LabeledValue } from '../../../ui/labeled-value';
import { useLiveAccountSummary } from '../live-account';
import { selectSession } from '../../../api/session';
import { LogoutButton } from '../logout-button';
import { changeLang, LANGS } from '../../../lib/lang';
import { changeColor } from '../../../lib/colors';
import { formatMinor, formatSignedMinor, langOf, shortenMiddle, type Lang } from '../../../lib/format';
import { KycTag } from '../../../ui/kyc-tag';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { PullRefresh } from '../../../ui/pull-refresh';
import { RiskBanner } from '../../risk';
import { RewardsCard } from '../../rewards';

const CreditLine = lazy(() => import('../components/credit-line').then((m) => ({ default: m.CreditLine })));

/** The member centre's links: label key, route, testid. */
const LINKS: [string, string, string][] = [
  ['uc.kyc', '/user/bandCard', 'uc-link-kyc'],
  ['uc.bankCards', '/user/WithCard', 'uc-link-cards'],
  ['uc.records', '/user/FundingDetails', 'uc-records'],
  ['uc.assets', '/wallet/index', 'uc-link-assets'],
  ['uc.invite', '/user/invite', 'uc-link-invite'],
  ['credit.records', '/user/jkjl', 'uc-link-credit'],
  ['uc.loginPassword', '/user/loginPassword', 'uc-link-login-password'],
  ['uc.fundsPassword', '/user/setPassword', 'uc-link-funds-password'],
  ['settings.title', '/user/setting', 'uc-link-settings'],
];

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  return (
    <Selector<Lang>
      columns={2}
      value={[lang]}
      showCheckMark={false}
      onChange={(v) => {
        if (v[0]) changeLang(v[0]);
      }}
      options={LANGS.map((l) => ({
        value: l,
        label: <span data-testid={`lang-${l}`}>{t(`lang.${l}`)}</span>,
      }))}
    />
  );
}

export function UserCenterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSelector(selectSession);
  const loggedIn = session.token !== null;
  const { data, refetch } = useLiveAccountSummary({ skip: !loggedIn });
  // Operators approve deposits, withdrawals and KYC elsewhere: re-read on every visit.
  useUserInfoQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });

  return (
    <Page title={t('uc.title')} back={false}>
      {!loggedIn ? (
        <>
          <LoginPrompt />
          <List header={t('uc.language')}>
            <List.Item>
              <LanguageSwitch />
            </List.Item>
          </List>
        </>
      ) : (
        <PullRefresh onRefresh={() => refetch()}>
          <section className="card uc-head">
            <div className="uc-account">
              <span className="uc-avatar">{(session.account ?? '?').slice(-2)}</span>
              <div>
                <div className="uc-name">{shortenMiddle(session.account ?? '')}</div>
                {data && (
                  <span className="uc-kyc-link" onClick={() => navigate('/user/bandCard')}>
                    <KycTag status={data.kycStatus} testId="uc-kyc" />
                  </span>
                )}
              </div>
            </div>
            <div className="uc-total-label">{t('uc.total')}</div>
            <div className={`uc-total ${data ? '' : 'dash'}`} data-testid="uc-total">
              {data ? formatMinor(data.totalAssetsMinor) : ''}
            </div>
            <div className="uc-actions">
              <Button color="primary" onClick={() => navigate('/user/recharge')} data-testid="uc-deposit">
                {t('uc.deposit')}
              </Button>
              <Button onClick={() => navigate('/user/withdraw')} data-testid="uc-withdraw">
                {t('uc.withdraw')}
              </Button>
              <Button onClick={() => navigate('/user/exchange')} data-testid="uc-exchange">
                {t('uc.exchange')}
              </Button>
            </div>
          </section>
          <RiskBanner />
          <RewardsCard />
          {data && !data.fundsPasswordSet && (
            <NoticeBar
              color="alert"
              wrap
              data-testid="uc-no-funds-password"
              content={t('uc.noFundsPassword')}
              extra={
                <span className="nav-link" onClick={() => navigate('/user/setPassword')}>
                  {t('withdraw.setFundsPassword')}
                </span>
              }
            />
          )}
          <section className="card">
            <div className="uc-grid">
              <LabeledValue
                layout="figure"
                label={t('uc.available')}
                value={data ? formatMinor(data.availableMinor) : ''}
                testId="uc-available"
              />
              <LabeledValue
                layout="figure"
                label={t('uc.frozen')}
                value={data ? formatMinor(data.frozenMinor) : ''}
                testId="uc-frozen"
              />
              <LabeledValue
                layout="figure"
                label={t('uc.margin')}
                value={data ? formatMinor(data.marginMinor) : ''}
                testId="uc-margin"
              />
              <LabeledValue
                layout="figure"
                label={t('uc.unrealised')}
                value={data ? formatSignedMinor(data.unrealisedPnlMinor) : ''}
                color={data ? changeColor(data.unrealisedPnlMinor) : undefined}
                testId="uc-unrealised"
              />
              <LabeledValue
                layout="figure"
                label={t('uc.profit')}
                value={data ? formatSignedMinor(data.realisedProfitMinor) : ''}
                color={data ? changeColor(data.realisedProfitMinor) : undefined}
                testId="uc-profit"
              />
              <LabeledValue
                layout="figure"
                label={t('uc.usd')}
                value={data ? formatMinor(data.usdMinor) : ''}
                testId="uc-usd"
              />
            </div>
          </section>
          <Suspense fallback={null}>
            <CreditLine />
          </Suspense>
          <List>
            {LINKS.map(([key, to, testId]) => (
              <List.Item key={to} onClick={() => navigate(to)} data-testid={testId}>
                {t(key)}
              </List.Item>
            ))}
          </List>
          <List>
            <List.Item onClick={() => navigate('/position/position')}>
              {t('home.shortcut.holdings')}
            </List.Item>
            <List.Item onClick={() => navigate('/market/favo')}>{t('home.shortcut.watchlist')}</List.Item>
          </List>
          <List header={t('uc.language')}>
            <List.Item>
              <LanguageSwitch />
            </List.Item>
          </List>
          <LogoutButton testId="uc-logout" />
        </PullRefresh>
      )}
    </Page>
  );
}
