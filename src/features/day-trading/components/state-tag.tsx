/** A coloured tag for a day-trading application state (with who granted an approval). */
import { useTranslation } from 'react-i18next';
import type { DayTradeGrant, DayTradeState } from '../../../../contract/day-trading';

const COLORS: Record<DayTradeState, string> = {
  none: '#8c8c8c',
  pending: '#fa8c16',
  approved: '#12a150',
  rejected: '#e5322d',
};

export function StateTag({ state, grantedBy }: { state: DayTradeState; grantedBy: DayTradeGrant | null }) {
  const { t } = useTranslation();
  const label =
    state === 'approved' && grantedBy
      ? t(`dayTrading.grantedBy.${grantedBy}`)
      : t(`dayTrading.state.${state}`);
  return (
    <span
      className="status-tag"
      style={{ background: COLORS[state] }}
      data-testid="dt-state"
      data-state={state}
    >
      {label}
    </span>
  );
}
