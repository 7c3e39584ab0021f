import { Empty } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

/** The spec's no-data placeholder: the translated "no data yet". */
export function NoData({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  return <Empty description={t('common.noData')} data-testid={testId ?? 'no-data'} />;
}
