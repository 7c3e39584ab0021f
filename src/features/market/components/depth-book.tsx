/**
 * Five-level book: bids (best highest first) beside asks (best lowest first), volumes in lots,
 * each level with a bar proportional to its volume (the largest level of either side = full
 * width). Subscribed to its own symbol's book only.
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepthLevel } from '../../../../contract/market';
import { changeColor } from '../../../lib/colors';
import { formatMinor } from '../../../lib/format';
import { useDepth } from '../../../live/hooks';

const LEVELS = 5;

function pad(levels: readonly DepthLevel[]): (DepthLevel | null)[] {
  const out: (DepthLevel | null)[] = levels.slice(0, LEVELS);
  while (out.length < LEVELS) out.push(null);
  return out;
}

/** The book of `symbol`; prices coloured against the previous close (TWD: up red, down green). */
export const DepthBook = memo(function DepthBook({
  symbol,
  prevCloseMinor,
}: {
  symbol: string;
  prevCloseMinor: number;
}) {
  const { t } = useTranslation();
  const depth = useDepth(symbol);
  const bids = pad(depth?.bids ?? []);
  const asks = pad(depth?.asks ?? []);
  const maxVol = Math.max(1, ...[...bids, ...asks].map((l) => l?.volumeLots ?? 0));
  const cell = (l: DepthLevel | null, i: number, kind: 'bid' | 'ask') => (
    <div className={`depth-cell ${kind}`} key={`${kind}${i}`} data-testid={`depth-${kind}-${i + 1}`}>
      <span className="depth-level">{t(kind === 'bid' ? 'detail.bidN' : 'detail.askN', { n: i + 1 })}</span>
      <span
        className="depth-price"
        style={{ color: l ? changeColor(l.priceMinor - prevCloseMinor) : undefined }}
      >
        {l ? formatMinor(l.priceMinor) : '--'}
      </span>
      <span className="depth-vol">{l ? l.volumeLots : '--'}</span>
      {/* Scaled, not sized: a bar that changes width would count as a layout shift every tick. */}
      <i className="depth-bar" style={{ transform: `scaleX(${(l?.volumeLots ?? 0) / maxVol})` }} />
    </div>
  );
  return (
    <div data-testid="depth" aria-label={t('detail.depth')}>
      <div className="muted small depth-unit">{t('detail.depthUnit')}</div>
      <div className="depth-grid">
        <div className="depth-col">{bids.map((l, i) => cell(l, i, 'bid'))}</div>
        <div className="depth-col">{asks.map((l, i) => cell(l, i, 'ask'))}</div>
      </div>
    </div>
  );
});
