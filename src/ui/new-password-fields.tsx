/**
 * A new login password typed twice, as registration, the password reset and the password change
 * ask for it: `password` checked by `check` (a translation key or null; the contract's pattern,
 * and for a change also "not the old one"), `confirmPassword` by src/lib/password-checks.ts
 * `confirmError` against it. The words default to the registration screen's.
 */
import { Form } from 'antd-mobile';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { useTranslation } from 'react-i18next';
import { confirmError } from '../lib/password-checks';
import { keyRule } from './form-rule';
import { TestIdInput } from './testid-input';

export function NewPasswordFields({
  form,
  check,
  label,
  text = {},
  testIds,
  dependsOn = [],
}: {
  form: FormInstance;
  /** The new password's rule: a translation key for what is wrong, or null. */
  check: (v: string | undefined) => string | null;
  label: string;
  /** Translation keys overriding the placeholders and the confirmation's label. */
  text?: { placeholder?: string; confirm?: string; confirmPlaceholder?: string };
  testIds: { password: string; confirm: string };
  /** Other fields `check` reads (re-checked when they change), e.g. the old password. */
  dependsOn?: string[];
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={label}
        dependencies={dependsOn}
        rules={[keyRule(t, check)]}
        description={t('register.passwordHint')}
      >
        <TestIdInput
          testId={testIds.password}
          type="password"
          placeholder={t(text.placeholder ?? 'register.passwordPlaceholder')}
          autoComplete="new-password"
          clearable
        />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t(text.confirm ?? 'register.confirm')}
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
          placeholder={t(text.confirmPlaceholder ?? 'register.confirmPlaceholder')}
          autoComplete="new-password"
          clearable
        />
      </Form.Item>
    </>
  );
}
