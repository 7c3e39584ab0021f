/** Pieces the lending screens share: a label–value line and a lending order's state tag. */
import { useTranslation } from 'react-i18next';
import type { LendingStatus } from '../../../../contract/lending';

/** A coloured tag for a lending order's state (contract/lending.ts LENDING_STATUSES). */
export function StatusTag({ status }: { status: LendingStatus }) {
  const { t } = useTranslation();
  return (
    <span
      className="status-tag"
      style={{ background: status === 'inLoan' ? '#1677ff' : '#8c8c8c' }}
      data-testid="lending-status"
      data-status={status}
    >
      {t(`lending.status.${status}`)}
    </span>
  );
}
