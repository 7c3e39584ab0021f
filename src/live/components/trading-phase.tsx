/**
 * The market clock's TWSE phase (ClockState.tradingPhase: pre-open, continuous, closing call,
 * intermission, after-hours entry, closed) as a small tag, for every screen a member trades on.
 * Colour: blue while orders are matched continuously, orange in a call or the after-hours window
 * (orders wait for one match), grey when no order is taken.
 */
import { useTranslation } from 'react-i18next';
import type { ClockState } from '../../../contract/market';
import { PHASE_RULES, type TradingPhase } from '../../../contract/trading-session';
import './trading-phase.css';

/** CSS modifier of a phase: `live` continuous, `call` call auctions and after hours, `off` no entry. */
export function phaseTone(phase: TradingPhase): 'live' | 'call' | 'off' {
  if (phase === 'continuous') return 'live';
  const r = PHASE_RULES[phase];
  return r.regularOrders || r.afterHoursOrders ? 'call' : 'off';
}

/** The phase tag; nothing before the first clock arrives or on the stress source. */
export function TradingPhaseTag({ clock }: { clock: Pick<ClockState, 'source' | 'tradingPhase'> | null }) {
  const { t } = useTranslation();
  if (!clock || clock.source === 'stress') return null;
  const phase = clock.tradingPhase;
  return (
    <span className={`phase-tag phase-${phaseTone(phase)}`} data-testid="trading-phase" data-phase={phase}>
      {t(`tradingPhase.${phase}`)}
    </span>
  );
}
