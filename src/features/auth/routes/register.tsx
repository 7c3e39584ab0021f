import { Form } from 'antd-mobile';
import { SubmitButton } from '../../../ui/submit-button';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useRegisterMutation } from '../../../api/api';
import { loggedIn } from '../../../api/session';
import { keyRule } from '../../../ui/form-rule';
import { Page } from '../../../ui/page';
import { TestIdInput } from '../../../ui/testid-input';
import { AgreementField, useRememberedAgreement } from '../components/agreement';
import { NewPasswordFields } from '../../../ui/new-password-fields';
import { MobileField } from '../components/fields';
import { inviteError, strictPasswordError } from '../validation';

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
  const rememberAgreement = useRememberedAgreement(form);

  const onFinish = async (v: RegisterForm) => {
    const res = await register({
      account: v.account.trim(),
      password: v.password,
      confirmPassword: v.confirmPassword,
      inviteCode: v.inviteCode.trim(),
      agree: true,
    });
    if ('data' in res && res.data) {
      rememberAgreement();
      dispatch(loggedIn(res.data));
      navigate('/home/index', { replace: true });
    }
  };

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
        <MobileField testId="register-account" />
        <NewPasswordFields
          form={form}
          check={strictPasswordError}
          label={t('auth.password')}
          testIds={{ password: 'register-password', confirm: 'register-confirm' }}
        />
        <Form.Item name="inviteCode" label={t('register.invite')} rules={[keyRule(t, inviteError)]}>
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
