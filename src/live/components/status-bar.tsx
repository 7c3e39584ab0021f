/**
 * Connection badge, the "Replay" label and the market phase, from the store (worker status and
 * the server's clock). The label names the clock's one replayed date (ClockState.replayDate), the
 * same on every screen; `replayDate` is only a fallback before the first clock arrives.
 */
import { ConnBadge, ReplayLabel } from '../../ui/conn-badge';
import { useClock, useConn } from '../hooks';
import { TradingPhaseTag } from './trading-phase';

/** The strip above market screens: Replay label and phase on the left, connection badge on the right. */
export function MarketStatusBar({ replayDate }: { replayDate?: string | null }) {
  const conn = useConn();
  const clock = useClock();
  return (
    <div className="market-status">
      <span className="market-status-left">
        <ReplayLabel clock={clock} replayDate={clock?.replayDate ?? replayDate} />
        <TradingPhaseTag clock={clock} />
      </span>
      <ConnBadge state={conn.state} lastDataAt={conn.lastDataAt} />
    </div>
  );
}
