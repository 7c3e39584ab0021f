/**
 * /user/loginPassword: change the login password (old one required; the new one 8–32 English
 * letters or digits, not the old one, entered twice) → user/loginPassword. Back to the member centre on success.
 */
import { Form } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { useChangeLoginPasswordMutation } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { keyRule } from '../../../ui/form-rule';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { SubmitButton } from '../../../ui/submit-button';
import { TestIdInput } from '../../../ui/testid-input';
import { NewPasswordFields } from '../../../ui/new-password-fields';
import { newLoginPasswordError } from '../validation';

interface LoginPasswordForm {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

export function LoginPasswordPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const navigate = useNavigate();
  const [form] = Form.useForm<LoginPasswordForm>();
  const [change, { isLoading }] = useChangeLoginPasswordMutation();

  const onFinish = async (v: LoginPasswordForm) => {
    const res = await change(v);
    if ('data' in res) navigate('/user/usercenter', { replace: true });
  };

  return (
    <Page title={t('password.loginTitle')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <Form
          form={form}
          layout="vertical"
          onFinish={onFinish}
          footer={
            <SubmitButton loading={isLoading} testId="login-password-submit">
              {t('common.confirm')}
            </SubmitButton>
          }
        >
          <Form.Item
            name="oldPassword"
            label={t('password.old')}
            rules={[keyRule(t, (v: string | undefined) => (v ? null : 'validation.passwordRequired'))]}
          >
            <TestIdInput
              testId="login-password-old"
              type="password"
              placeholder={t('password.oldPlaceholder')}
              autoComplete="current-password"
              clearable
            />
          </Form.Item>
          <NewPasswordFields
            form={form}
            check={(v) => newLoginPasswordError(form.getFieldValue('oldPassword') as string | undefined, v)}
            dependsOn={['oldPassword']}
            label={t('password.new')}
            text={{
              placeholder: 'password.newPlaceholder',
              confirm: 'password.confirm',
              confirmPlaceholder: 'password.confirmPlaceholder',
            }}
            testIds={{ password: 'login-password-new', confirm: 'login-password-confirm' }}
          />
        </Form>
      )}
    </Page>
  );
}
