/** Operator console: login, deposits queue (approve / reject with reason), users list. */
import { Button, Form, Selector, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { useAdminLoginMutation, useLogoutMutation } from '../api/api';
import { toastError } from '../api/base-query';
import { loggedIn, loggedOut, selectSession } from '../api/session';
import { langOf, type Lang } from '../lib/format';
import { changeLang, LANGS } from '../lib/lang';
import { TestIdInput } from '../ui/testid-input';
import { DepositsQueue } from './deposits-queue';
import { UsersList } from './users-list';

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
    const res = await login({ account: v.account.trim(), password: v.password });
    if ('data' in res && res.data) {
      if (res.data.role === 'member') {
        toastError('forbidden');
        return;
      }
      dispatch(loggedIn(res.data));
    }
  };
  return (
    <div className="admin-login card">
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

export function AdminApp() {
  const { t } = useTranslation();
  const session = useSelector(selectSession);
  const dispatch = useDispatch();
  const [logout] = useLogoutMutation();
  const [tab, setTab] = useState<'deposits' | 'users'>('deposits');

  return (
    <div className="admin">
      <header className="admin-header">
        <h1>{t('admin.title')}</h1>
        <div className="admin-header-right">
          <LangSwitch />
          {session.token && (
            <>
              <span className="muted">{session.account}</span>
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
      <main className="admin-main">
        {!session.token ? (
          <AdminLogin />
        ) : (
          <Tabs activeKey={tab} onChange={(k) => setTab(k as 'deposits' | 'users')}>
            <Tabs.Tab
              key="deposits"
              title={<span data-testid="admin-tab-deposits">{t('admin.deposits')}</span>}
            >
              <DepositsQueue />
            </Tabs.Tab>
            <Tabs.Tab key="users" title={<span data-testid="admin-tab-users">{t('admin.users')}</span>}>
              <UsersList />
            </Tabs.Tab>
          </Tabs>
        )}
      </main>
    </div>
  );
}
