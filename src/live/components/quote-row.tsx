/**
 * One instrument row (name, code, last, change, change %), coloured TWD-style. The name is the
 * exchange's English short name in English when one is recorded (src/live/names-en.ts). Memoized on its
 * props (just the symbol) and subscribed to its own symbol only, so a batch that changes other
 * symbols never re-renders it (tests/unit/client-market-row.test.tsx).
 */
import { memo } from 'react';
import { changeColor } from '../../lib/colors';
import { useTranslation } from 'react-i18next';
import { formatMinor, formatPercent, formatSignedMinor, langOf } from '../../lib/format';
import { instrumentName, useNameEn } from '../names-en';
import { useRowView } from '../hooks';

/**
 * A row's height (px, border included). Fixed, and the row is `contain: strict`
 * (styles.css `.quote-row`): a price change relayouts and repaints that row alone, and a
 * virtualized list passes it as `fixedItemHeight` instead of measuring every row.
 */
export const QUOTE_ROW_HEIGHT_PX = 60;
const rowStyle = { height: QUOTE_ROW_HEIGHT_PX };

export const QuoteRow = memo(function QuoteRow({
  symbol,
  onOpen,
}: {
  symbol: string;
  onOpen?: (symbol: string) => void;
}) {
  const row = useRowView(symbol);
  const nameEn = useNameEn(symbol);
  const { i18n } = useTranslation();
  const color = changeColor(row?.changeMinor);
  return (
    <div
      className="quote-row"
      style={rowStyle}
      data-testid={`market-row-${symbol}`}
      role="button"
      tabIndex={0}
      onClick={() => onOpen?.(symbol)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onOpen?.(symbol);
      }}
    >
      <div className="quote-name">
        <div className="quote-title">
          {instrumentName({ name: row?.name ?? symbol, nameEn }, langOf(i18n.language))}
        </div>
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
