import { Form } from 'antd-mobile';
import { SubmitButton } from '../../../ui/submit-button';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useRegisterMutation } from '../../../api/api';
import { loggedIn } from '../../../api/session';
import { Page } from '../../../ui/page';
import { TestIdInput } from '../../../ui/testid-input';
import { AgreementField } from '../components/agreement';
import { confirmError, inviteError, passwordError, registerAccountError } from '../validation';

interface RegisterForm {
  account: string;
  password: string;
  confirmPassword: string;
  inviteCode: string;
  agree: boolean;
}

export function RegisterPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<RegisterForm>();
  const [register, { isLoading }] = useRegisterMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();

  const onFinish = async (v: RegisterForm) => {
    const res = await register({
      account: v.account.trim(),
      password: v.password,
      confirmPassword: v.confirmPassword,
      inviteCode: v.inviteCode.trim(),
      agree: true,
    });
    if ('data' in res && res.data) {
      dispatch(loggedIn(res.data));
      navigate('/home/index', { replace: true });
    }
  };

  const rule = (check: (v: string | undefined) => string | null) => ({
    validator: async (_: unknown, v: string | undefined) => {
      const key = check(v);
      if (key) throw new Error(t(key));
    },
  });

  return (
    <Page title={t('register.title')}>
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ agree: false, inviteCode: params.get('code') ?? params.get('invite') ?? '' }}
        footer={
          <SubmitButton loading={isLoading} testId="register-submit">
            {t('register.submit')}
          </SubmitButton>
        }
      >
        <Form.Item
          name="account"
          label={t('register.mobile')}
          rules={[rule(registerAccountError)]}
          validateTrigger="onBlur"
        >
          <TestIdInput
            testId="register-account"
            placeholder={t('register.mobilePlaceholder')}
            inputMode="numeric"
            maxLength={10}
            autoComplete="tel"
            clearable
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.password')}
          rules={[rule((v) => passwordError(v, true))]}
          description={t('register.passwordHint')}
        >
          <TestIdInput
            testId="register-password"
            type="password"
            placeholder={t('register.passwordPlaceholder')}
            autoComplete="new-password"
            clearable
          />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('register.confirm')}
          dependencies={['password']}
          rules={[rule((v) => confirmError(form.getFieldValue('password') as string | undefined, v))]}
        >
          <TestIdInput
            testId="register-confirm"
            type="password"
            placeholder={t('register.confirmPlaceholder')}
            autoComplete="new-password"
            clearable
          />
        </Form.Item>
        <Form.Item name="inviteCode" label={t('register.invite')} rules={[rule(inviteError)]}>
          <TestIdInput testId="register-invite" placeholder={t('register.invitePlaceholder')} clearable />
        </Form.Item>
        <AgreementField testId="register-agree" />
      </Form>
      <div className="form-links">
        <Link to="/login/login">{t('register.toLogin')}</Link>
      </div>
    </Page>
  );
}
