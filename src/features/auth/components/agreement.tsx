import { Checkbox, Form } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** The privacy agreement checkbox (must be accepted to log in or register). */
export function AgreementCheckbox({
  checked,
  onChange,
  testId,
}: {
  checked?: boolean;
  onChange?: (v: boolean) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Checkbox
      checked={!!checked}
      onChange={onChange}
      data-testid={testId}
      style={{ '--icon-size': '18px', '--font-size': '13px' }}
    >
      {t('auth.agree')}
    </Checkbox>
  );
}

/** The form field holding the agreement checkbox; the form cannot submit until it is ticked. */
export function AgreementField({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="agree"
      valuePropName="checked"
      extra={
        <Link to="/user/agreement" className="small" data-testid={`${testId}-read`}>
          {t('auth.readAgreement')}
        </Link>
      }
      rules={[
        {
          validator: async (_: unknown, v: boolean) => {
            if (!v) throw new Error(t('validation.agreeRequired'));
          },
        },
      ]}
    >
      <AgreementCheckbox testId={testId} />
    </Form.Item>
  );
}
