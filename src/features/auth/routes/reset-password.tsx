/**
 * `/login/logon2`, step 2 of a password reset through the operator: the 6-digit code read out on
 * the operator's call and a new password. Every session of the account ends; the member logs in
 * with the new password.
 */
import { Form } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { RESET_CODE_DIGITS } from '../../../../contract/auth';
import { keyRule } from '../../../ui/form-rule';
import { Page } from '../../../ui/page';
import { SubmitButton } from '../../../ui/submit-button';
import { TestIdInput } from '../../../ui/testid-input';
import { showToast } from '../../../ui/toast';
import { useResetPasswordMutation } from '../api/reset-api';
import { NewPasswordFields } from '../../../ui/new-password-fields';
import { MobileField } from '../components/fields';
import { strictPasswordError } from '../validation';

interface ResetForm {
  account: string;
  code: string;
  password: string;
  confirmPassword: string;
}

const CODE_RE = new RegExp(`^\\d{${RESET_CODE_DIGITS}}$`);
const codeError = (v: string | undefined) => (CODE_RE.test((v ?? '').trim()) ? null : 'reset.codeRule');

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetForm>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [reset, { isLoading }] = useResetPasswordMutation();

  const onFinish = async (v: ResetForm) => {
    const res = await reset({ account: v.account.trim(), code: v.code.trim(), password: v.password });
    if ('data' in res) {
      showToast({ icon: 'success', content: t('reset.done') });
      navigate('/login/login', { replace: true });
    }
  };

  return (
    <Page title={t('reset.title2')}>
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ account: params.get('account') ?? '' }}
        footer={
          <SubmitButton loading={isLoading} testId="reset-submit">
            {t('reset.submit')}
          </SubmitButton>
        }
      >
        <MobileField testId="reset-account2" />
        <Form.Item
          name="code"
          label={t('reset.code')}
          rules={[keyRule(t, codeError)]}
          description={t('reset.codeHint')}
        >
          <TestIdInput
            testId="reset-code"
            inputMode="numeric"
            maxLength={RESET_CODE_DIGITS}
            autoComplete="one-time-code"
            clearable
          />
        </Form.Item>
        <NewPasswordFields
          form={form}
          check={strictPasswordError}
          label={t('reset.newPassword')}
          testIds={{ password: 'reset-password', confirm: 'reset-confirm' }}
        />
      </Form>
      <div className="form-links">
        <Link to="/login/logon">{t('reset.again')}</Link>
      </div>
    </Page>
  );
}
