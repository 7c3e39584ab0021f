/**
 * A live position's liquidation price (contract/risk.ts: the price of its instrument at which the
 * account falls below maintenance, everything else as now), re-marked to the live quotes; '--'
 * when no price liquidates it or the figures are not loaded yet. For a position row's cell.
 */
import { formatMinorOrDash } from '../../../lib/format';
import { useLiveRisk } from '../hooks/use-live-risk';

export function LiquidationPrice({ orderId }: { orderId: number }) {
  const live = useLiveRisk();
  const p = live?.byOrder.get(orderId);
  return (
    <span data-liq={p?.liquidationPriceMinor ?? ''}>
      {formatMinorOrDash(p?.liquidationPriceMinor ?? null)}
    </span>
  );
}
