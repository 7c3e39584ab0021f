/**
 * One instrument row (name, code, last, change, change %), coloured TWD-style. Memoized on its
 * props (just the symbol) and subscribed to its own symbol only, so a batch that changes other
 * symbols never re-renders it (tests/unit/client-market-row.test.tsx).
 */
import { memo } from 'react';
import { changeColor } from '../../lib/colors';
import { formatMinor, formatPercent, formatSignedMinor } from '../../lib/format';
import { useRowView } from '../hooks';

export const QuoteRow = memo(function QuoteRow({
  symbol,
  onOpen,
}: {
  symbol: string;
  onOpen?: (symbol: string) => void;
}) {
  const row = useRowView(symbol);
  const color = changeColor(row?.changeMinor);
  return (
    <div
      className="quote-row"
      data-testid={`market-row-${symbol}`}
      role="button"
      tabIndex={0}
      onClick={() => onOpen?.(symbol)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onOpen?.(symbol);
      }}
    >
      <div className="quote-name">
        <div className="quote-title">{row?.name ?? symbol}</div>
        <div className="quote-code">{symbol}</div>
      </div>
      <div className="quote-last" style={{ color }} data-testid={`quote-last-${symbol}`}>
        {row ? formatMinor(row.lastMinor) : '--'}
      </div>
      <div className="quote-change" style={{ color }}>
        {row ? formatSignedMinor(row.changeMinor) : '--'}
      </div>
      <div className="quote-pct">
        <span className="pct-pill" style={{ background: color }}>
          {row ? formatPercent(row.changeMinor, row.prevCloseMinor) : '--'}
        </span>
      </div>
    </div>
  );
});
