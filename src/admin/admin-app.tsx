/**
 * Operator console (admin.html): login, then one tab per area — the review queues (deposits,
 * withdrawals, KYC), users and their flags, invitation codes, deposit channels, exchange rates, site settings, the
 * audit log and the ledger with its reconciliation. Works from 390 px (tables become cards) to a
 * desktop. The open tab is kept in the URL hash (`admin.html#withdrawals`).
 * Testids: `admin-tab-<tab>` for each tab title, `admin-logout`, login form `admin-account`,
 * `admin-password`, `admin-login`.
 */
import { Button, Form, Selector, Tabs } from 'antd-mobile';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { useLogoutMutation } from '../api/api';
import { toastError } from '../api/base-query';
import { loggedIn, loggedOut, selectSession } from '../api/session';
import { langOf, type Lang } from '../lib/format';
import { readDeviceToken, writeDeviceToken } from '../lib/storage';
import { changeLang, LANGS } from '../lib/lang';
import { TestIdInput } from '../ui/testid-input';
import { useAdminLoginMutation } from './admin-api';
import { AuditLog } from './audit-log';
import { ChannelsPanel } from './channels-panel';
import { CreditPanel } from './credit-panel';
import { DayTradingQueue } from './day-trading-queue';
import { DepositsQueue } from './deposits-queue';
import { InvitationsPanel } from './invitations-panel';
import { KycQueue } from './kyc-queue';
import { NoticesPanel } from './notices-panel';
import { SupportPanel } from './support-panel';
import { MentorsQueue } from './mentors-queue';
import { NewsPanel } from './news-panel';
import { LedgerPanel } from './ledger-panel';
import { PagesPanel, ResetsPanel } from './member-pages-panel';
import { LendingPanel } from './lending-panel';
import { OfferingsPanel } from './offerings-panel';
import { RatesPanel } from './rates-panel';
import { RewardsPanel } from './rewards-panel';
import { SettingsPanel } from './settings-panel';
import { UsersList } from './users-list';
import { WithdrawalsQueue } from './withdrawals-queue';

/** The console's tabs, in display order; the first is where a login lands. */
export const ADMIN_TABS = [
  'deposits',
  'withdrawals',
  'kyc',
  'dayTrading',
  'credit',
  'mentors',
  'offerings',
  'rewards',
  'news',
  'lending',
  'support',
  'notices',
  'users',
  'invitations',
  'channels',
  'rates',
  'config',
  'pages',
  'resets',
  'audit',
  'ledger',
] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

function tabFromHash(hash: string): AdminTab {
  const h = hash.replace(/^#/, '');
  return (ADMIN_TABS as readonly string[]).includes(h) ? (h as AdminTab) : 'deposits';
}

function LangSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Selector<Lang>
      className="admin-lang"
      value={[langOf(i18n.language)]}
      showCheckMark={false}
      onChange={(v) => v[0] && changeLang(v[0])}
      options={LANGS.map((l) => ({ value: l, label: t(`lang.${l}`) }))}
    />
  );
}

function AdminLogin() {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const [login, { isLoading }] = useAdminLoginMutation();
  const onFinish = async (v: { account: string; password: string }) => {
    const account = v.account.trim();
    const res = await login({ account, password: v.password, device: readDeviceToken(account) });
    if ('data' in res && res.data) {
      writeDeviceToken(res.data.account, res.data.device);
      if (res.data.role === 'member') {
        toastError('forbidden');
        return;
      }
      dispatch(loggedIn(res.data));
    }
  };
  return (
    <div className="admin-login admin-card">
      <h2>{t('admin.loginTitle')}</h2>
      <Form
        layout="vertical"
        onFinish={onFinish}
        footer={
          <Button block type="submit" color="primary" loading={isLoading} data-testid="admin-login">
            {t('login.submit')}
          </Button>
        }
      >
        <Form.Item
          name="account"
          label={t('auth.account')}
          rules={[{ required: true, message: t('validation.accountRequired') }]}
        >
          <TestIdInput testId="admin-account" autoComplete="username" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.password')}
          rules={[{ required: true, message: t('validation.passwordRequired') }]}
        >
          <TestIdInput testId="admin-password" type="password" autoComplete="current-password" />
        </Form.Item>
      </Form>
    </div>
  );
}

function Console() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<AdminTab>(() => tabFromHash(location.hash));
  const [ledgerUser, setLedgerUser] = useState<number | undefined>(undefined);

  useEffect(() => {
    const onHash = () => setTab(tabFromHash(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const open = (next: AdminTab) => {
    setTab(next);
    history.replaceState(null, '', `#${next}`);
  };

  const panes: Record<AdminTab, () => ReactNode> = {
    deposits: () => <DepositsQueue />,
    withdrawals: () => <WithdrawalsQueue />,
    kyc: () => <KycQueue />,
    dayTrading: () => <DayTradingQueue />,
    credit: () => <CreditPanel />,
    mentors: () => <MentorsQueue />,
    offerings: () => <OfferingsPanel />,
    rewards: () => <RewardsPanel />,
    news: () => <NewsPanel />,
    lending: () => <LendingPanel />,
    support: () => <SupportPanel />,
    notices: () => <NoticesPanel />,
    users: () => (
      <UsersList
        onShowLedger={(id) => {
          setLedgerUser(id);
          open('ledger');
        }}
      />
    ),
    invitations: () => <InvitationsPanel />,
    channels: () => <ChannelsPanel />,
    rates: () => <RatesPanel />,
    config: () => <SettingsPanel />,
    pages: () => <PagesPanel />,
    resets: () => <ResetsPanel />,
    audit: () => <AuditLog />,
    ledger: () => <LedgerPanel userId={ledgerUser} onUserId={setLedgerUser} />,
  };

  return (
    <Tabs activeKey={tab} onChange={(k) => open(k as AdminTab)} stretch={false} className="admin-tabs">
      {ADMIN_TABS.map((k) => (
        <Tabs.Tab
          key={k}
          destroyOnClose
          title={<span data-testid={`admin-tab-${k}`}>{t(`admin.tab.${k}`)}</span>}
        >
          {panes[k]()}
        </Tabs.Tab>
      ))}
    </Tabs>
  );
}

export function AdminApp() {
  const { t } = useTranslation();
  const session = useSelector(selectSession);
  const dispatch = useDispatch();
  const [logout] = useLogoutMutation();

  return (
    <div className="admin">
      <header className="admin-header">
        <h1>{t('admin.title')}</h1>
        <div className="admin-header-right">
          <LangSwitch />
          {session.token && (
            <>
              <span className="muted admin-who">{session.account}</span>
              <Button
                size="small"
                onClick={async () => {
                  await logout();
                  dispatch(loggedOut());
                }}
                data-testid="admin-logout"
              >
                {t('uc.logout')}
              </Button>
            </>
          )}
        </div>
      </header>
      <main className="admin-main">{!session.token ? <AdminLogin /> : <Console />}</main>
    </div>
  );
}
