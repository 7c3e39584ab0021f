/**
 * The market connection badge and the "Replay" label. The badge names every state of the
 * worker's connection machine (workers/protocol.ts ConnState) and, whenever prices are not
 * streaming live, how old the newest data is ("更新於 12 秒前" / "Updated 12 s ago"), re-read once
 * a second; while live no timer runs.
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ClockState } from '../../contract/market';
import type { ConnState } from '../../workers/protocol';
import { useNow } from './use-now';

/** Dot colours: green live, blue polling, orange while the socket is being re-established. */
const COLORS: Record<ConnState, string> = {
  live: '#12a150',
  connecting: '#8c8c8c',
  reconnecting: '#fa8c16',
  polling: '#1677ff',
  stale: '#d46b08',
  backgrounded: '#8c8c8c',
  stopped: '#8c8c8c',
};

/** States in which the data on screen may be old, so its age is shown. */
const AGED: ReadonlySet<ConnState> = new Set(['reconnecting', 'polling', 'stale', 'backgrounded']);

/** Once a second: the age is shown in whole seconds. */
export const AGE_TICK_MS = 1_000;

/** "12 秒前" / "12 s ago" (minutes from 60 s, hours from 60 min; never negative). */
export function formatAge(ageMs: number, t: TFunction): string {
  const s = Math.max(0, Math.floor(ageMs / 1000));
  if (s < 60) return t('conn.secondsAgo', { n: s });
  const m = Math.floor(s / 60);
  if (m < 60) return t('conn.minutesAgo', { n: m });
  return t('conn.hoursAgo', { n: Math.floor(m / 60) });
}

/**
 * Connection state with its translated label; off live, "Updated 12 s ago" from `lastDataAt`
 * (epoch ms of the newest market data, null before any).
 */
export function ConnBadge({ state, lastDataAt = null }: { state: ConnState; lastDataAt?: number | null }) {
  const { t } = useTranslation();
  const aged = AGED.has(state) && lastDataAt !== null;
  const now = useNow(aged ? AGE_TICK_MS : null);
  return (
    <span className={`conn-badge conn-${state}`} data-testid="conn-badge" data-state={state} role="status">
      <i className="conn-dot" style={{ background: COLORS[state] }} />
      <span className="conn-label">{t(`conn.${state}`)}</span>
      {aged && (
        <span className="conn-age" data-testid="conn-age">
          {t('conn.updatedAgo', { age: formatAge(now - lastDataAt, t) })}
        </span>
      )}
    </span>
  );
}

/**
 * Shown whenever prices are simulated (any source but the exchange's live feed), whichever the
 * clock: a simulated market is always labelled as such. A replayed market is a practice venue
 * (its gains cannot be withdrawn, server/modules/funds/practice.ts), so it reads "模擬" /
 * "Practice" with the replayed date; the stress source (benchmarks) reads "Replay".
 */
export function ReplayLabel({
  clock,
  replayDate,
}: {
  clock: Pick<ClockState, 'source'> | null;
  replayDate?: string | null;
}) {
  const { t } = useTranslation();
  if (!clock || clock.source === 'twse') return null;
  const practice = clock.source === 'replay';
  return (
    <span
      className="replay-label"
      data-testid="replay-label"
      data-practice={practice ? '' : undefined}
      title={t(practice ? 'market.practiceHint' : 'market.replayHint')}
    >
      {practice
        ? replayDate
          ? t('market.practiceOf', { date: replayDate })
          : t('market.practice')
        : replayDate
          ? t('market.replayOf', { date: replayDate })
          : t('market.replay')}
    </span>
  );
}
