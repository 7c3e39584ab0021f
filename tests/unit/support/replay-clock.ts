/**
 * A market clock for tests: a replayed session in continuous trading at 1× speed, replaying
 * `replayDate` (null: none), `now` market epoch ms.
 */
import type { ClockState } from '../../../contract/market';

export const replayClock = (replayDate: string | null, now = 0): ClockState => ({
  source: 'replay',
  mode: 'replay',
  phase: 'open',
  tradingPhase: 'continuous',
  speed: 1,
  now,
  replayDate,
});
