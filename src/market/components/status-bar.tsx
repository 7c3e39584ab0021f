/** Connection badge and the "Replay" label, from the store (worker status and REST clock). */
import { ConnBadge, ReplayLabel } from '../../ui/conn-badge';
import { useClock, useConn } from '../hooks';

/** The strip above market screens: Replay label on the left, connection badge on the right. */
export function MarketStatusBar({ replayDate }: { replayDate?: string | null }) {
  const conn = useConn();
  const clock = useClock();
  return (
    <div className="market-status">
      <ReplayLabel clock={clock} replayDate={replayDate} />
      <ConnBadge state={conn.state} lastDataAt={conn.lastDataAt} />
    </div>
  );
}
