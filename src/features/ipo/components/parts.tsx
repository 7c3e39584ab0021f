/**
 * Pieces the subscription screens share: the application-state and phase tags and a label–value
 * line (their lists are src/ui/infinite-list.tsx).
 */
import { useTranslation } from 'react-i18next';
import type { IpoApplicationStatus, IpoPhase } from '../../../../contract/ipo';

const STATUS_COLORS: Record<IpoApplicationStatus, string> = {
  unpaid: '#fa8c16',
  waitingDraw: '#1677ff',
  won: '#e5322d',
  notWon: '#8c8c8c',
  subscribed: '#e5322d',
  waived: '#8c8c8c',
};
const PHASE_COLORS: Record<IpoPhase, string> = {
  notStarted: '#1677ff',
  inProgress: '#e5322d',
  ended: '#8c8c8c',
};

/** A coloured tag for an application's state (contract/ipo.ts IPO_APPLICATION_STATUSES). */
export function StatusTag({ status }: { status: IpoApplicationStatus }) {
  const { t } = useTranslation();
  return (
    <span
      className="status-tag"
      style={{ background: STATUS_COLORS[status] }}
      data-testid="ipo-status"
      data-status={status}
    >
      {t(`ipo.status.${status}`)}
    </span>
  );
}

/** A coloured tag for an offering's subscription phase. */
export function PhaseTag({ phase }: { phase: IpoPhase }) {
  const { t } = useTranslation();
  return (
    <span className="status-tag" style={{ background: PHASE_COLORS[phase] }} data-testid="ipo-phase">
      {t(`ipo.phase.${phase}`)}
    </span>
  );
}
