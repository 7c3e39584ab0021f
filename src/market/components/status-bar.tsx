/** Connection badge and the "Replay" label, from the store (worker status and REST clock). */
import { ConnBadge, ReplayLabel } from '../../ui/conn-badge';
import { useClock, useConn } from '../hooks';

export function MarketStatusBar({ replayDate }: { replayDate?: string | null }) {
  const conn = useConn();
  const clock = useClock();
  return (
    <div className="market-status">
      <ReplayLabel clock={clock} replayDate={replayDate} />
      <ConnBadge state={conn} />
    </div>
  );
}
