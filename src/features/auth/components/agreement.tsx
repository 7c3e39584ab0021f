import { Checkbox } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

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
