/**
 * The form fields the register and password-reset screens share: the account as a ten-digit
 * mobile number, and a new password with its confirmation (checked against the contract's
 * patterns through ../validation).
 */
import { Form } from 'antd-mobile';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { useTranslation } from 'react-i18next';
import { keyRule } from '../../../ui/form-rule';
import { TestIdInput } from '../../../ui/testid-input';
import { confirmError, passwordError, registerAccountError } from '../validation';

/** `account`: a member's mobile number. */
export function MobileField({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="account"
      label={t('register.mobile')}
      rules={[keyRule(t, registerAccountError)]}
      validateTrigger="onBlur"
    >
      <TestIdInput
        testId={testId}
        placeholder={t('register.mobilePlaceholder')}
        inputMode="numeric"
        maxLength={10}
        autoComplete="tel"
        clearable
      />
    </Form.Item>
  );
}

/** `password` and `confirmPassword`: a new password (the strict rule) typed twice. */
export function NewPasswordFields({
  form,
  label,
  testIds,
}: {
  form: FormInstance;
  label: string;
  testIds: { password: string; confirm: string };
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={label}
        rules={[keyRule(t, (v: string | undefined) => passwordError(v, true))]}
        description={t('register.passwordHint')}
      >
        <TestIdInput
          testId={testIds.password}
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
        rules={[
          keyRule(t, (v: string | undefined) =>
            confirmError(form.getFieldValue('password') as string | undefined, v),
          ),
        ]}
      >
        <TestIdInput
          testId={testIds.confirm}
          type="password"
          placeholder={t('register.confirmPlaceholder')}
          autoComplete="new-password"
          clearable
        />
      </Form.Item>
    </>
  );
}
