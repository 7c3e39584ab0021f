import { Form } from 'antd-mobile';
import { SubmitButton } from '../../../ui/submit-button';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useLoginMutation } from '../../../api/api';
import { loggedIn } from '../../../api/session';
import { readDeviceToken, writeDeviceToken } from '../../../lib/storage';
import { Page } from '../../../ui/page';
import { TestIdInput } from '../../../ui/testid-input';
import { AgreementField, useRememberedAgreement } from '../components/agreement';
import { loginAccountError, passwordError } from '../validation';

interface LoginForm {
  account: string;
  password: string;
  agree: boolean;
}

/** Only same-app paths are accepted as a redirect target. */
export function safeRedirect(v: string | null): string {
  return v && v.startsWith('/') && !v.startsWith('//') ? v : '/home/index';
}

export function LoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginForm>();
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Accepted once on this device (for this version of the agreement): the box starts ticked.
  const rememberAgreement = useRememberedAgreement(form);

  const onFinish = async (v: LoginForm) => {
    const account = v.account.trim();
    const res = await login({ account, password: v.password, device: readDeviceToken(account) });
    if ('data' in res && res.data) {
      rememberAgreement();
      writeDeviceToken(res.data.account, res.data.device);
      dispatch(loggedIn(res.data));
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    }
  };

  const rule = (check: (v: string | undefined) => string | null) => ({
    validator: async (_: unknown, v: string | undefined) => {
      const key = check(v);
      if (key) throw new Error(t(key));
    },
  });

  return (
    <Page title={t('login.title')}>
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ agree: false }}
        footer={
          <SubmitButton loading={isLoading} testId="login-submit">
            {t('login.submit')}
          </SubmitButton>
        }
      >
        <Form.Item
          name="account"
          label={t('auth.account')}
          rules={[rule(loginAccountError)]}
          validateTrigger="onBlur"
        >
          <TestIdInput
            testId="login-account"
            placeholder={t('auth.accountPlaceholder')}
            autoComplete="username"
            clearable
          />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')} rules={[rule((v) => passwordError(v, false))]}>
          <TestIdInput
            testId="login-password"
            type="password"
            placeholder={t('auth.passwordPlaceholder')}
            autoComplete="current-password"
            clearable
          />
        </Form.Item>
        <AgreementField testId="login-agree" />
      </Form>
      <div className="form-links">
        <Link to="/login/register">{t('login.toRegister')}</Link>
        <Link to="/login/logon" data-testid="login-forgot">
          {t('login.forgot')}
        </Link>
      </div>
    </Page>
  );
}
