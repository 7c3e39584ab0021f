/** A screen's data is on its way: the CSS spinner of the route fallback (no animation library). */
import { useTranslation } from 'react-i18next';

export function Loading() {
  const { t } = useTranslation();
  return (
    <div className="center-fill">
      <i className="spinner" role="progressbar" aria-label={t('common.loading')} />
    </div>
  );
}
