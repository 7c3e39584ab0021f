/**
 * The field the register and password-reset screens share: the account as a ten-digit mobile
 * number (checked against the contract's pattern through ../validation). The new password and its
 * confirmation are src/ui/new-password-fields.tsx.
 */
import { Form } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { keyRule } from '../../../ui/form-rule';
import { TestIdInput } from '../../../ui/testid-input';
import { registerAccountError } from '../validation';

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
