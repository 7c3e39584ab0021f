import { useTranslation } from 'react-i18next';
import type { ClockState } from '../../contract/market';
import type { ConnState } from '../../workers/protocol';

const COLORS: Record<ConnState, string> = {
  live: '#12a150',
  connecting: '#8c8c8c',
  reconnecting: '#fa8c16',
  polling: '#1677ff',
  stopped: '#8c8c8c',
};

/** Market connection state: live, reconnecting, or polling (the REST fallback). */
export function ConnBadge({ state }: { state: ConnState }) {
  const { t } = useTranslation();
  return (
    <span className="conn-badge" data-testid="conn-badge" data-state={state} role="status">
      <i className="conn-dot" style={{ background: COLORS[state] }} />
      {t(`conn.${state}`)}
    </span>
  );
}

/**
 * Shown whenever prices are simulated (any source but the exchange's live feed), whichever the
 * clock: a simulated market is always labelled as such.
 */
export function ReplayLabel({ clock, replayDate }: { clock: ClockState | null; replayDate?: string | null }) {
  const { t } = useTranslation();
  if (!clock || clock.source === 'twse') return null;
  return (
    <span className="replay-label" data-testid="replay-label" title={t('market.replayHint')}>
      {replayDate ? t('market.replayOf', { date: replayDate }) : t('market.replay')}
    </span>
  );
}
