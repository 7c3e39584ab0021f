/**
 * One row of a market ranking: name, code and the replayed date; last price; then by column set
 * `change` (change, change %), `volume` (change %, volume in lots 張) or `turnover` (change %,
 * turnover in TWD, compact: 億/萬, B/M). TWD colours (up red, down green); an instrument with no
 * trade in the replayed day shows its reference price in grey and "No trade" instead of 0 %.
 * Subscribes to its own symbol's quote only (memoized on its props).
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { changeColor } from '../../../lib/colors';
import {
  formatCompactMinor,
  formatLots,
  formatMinor,
  formatPercent,
  formatSignedMinor,
  langOf,
} from '../../../lib/format';
import { QUOTE_ROW_HEIGHT_PX } from '../../../market/components/quote-row';
import { useClock, useQuote } from '../../../market/hooks';

/** Which figures follow the last price. */
export type RankingColumns = 'change' | 'volume' | 'turnover';

const rowStyle = { height: QUOTE_ROW_HEIGHT_PX };
const NOT_TRADED_GREY = '#6b6b6b';

/** A row not known yet (its page is on its way): same height, no figures. */
export function PlaceholderRow() {
  return <div className="quote-row ranking-row placeholder" style={rowStyle} aria-hidden />;
}

export const RankingRow = memo(function RankingRow({
  symbol,
  columns,
  onOpen,
}: {
  symbol: string;
  columns: RankingColumns;
  onOpen: (symbol: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const q = useQuote(symbol);
  const clock = useClock() as { replayDate?: string | null } | null;
  const date = clock?.replayDate ?? q?.replayDate ?? null;
  const traded = q ? q.traded : true;
  const change = q ? q.lastMinor - q.prevCloseMinor : 0;
  const color = traded ? changeColor(change) : NOT_TRADED_GREY;
  const pct = !q ? '--' : traded ? formatPercent(change, q.prevCloseMinor) : t('ranking.notTraded');
  return (
    <div
      className={`quote-row ranking-row cols-${columns}`}
      style={rowStyle}
      data-testid={`market-row-${symbol}`}
      data-traded={traded ? undefined : 'false'}
      role="button"
      tabIndex={0}
      onClick={() => onOpen(symbol)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onOpen(symbol);
      }}
    >
      <div className="quote-name">
        <div className="quote-title">{q?.name ?? symbol}</div>
        <div className="quote-code">
          {symbol}
          {date && (
            <span className="row-date" data-testid="row-replay-date">
              {t('market.replayOf', { date })}
            </span>
          )}
        </div>
      </div>
      <div className="quote-last num" style={{ color }} data-testid={`quote-last-${symbol}`}>
        {q ? formatMinor(q.lastMinor) : '--'}
      </div>
      {columns === 'change' && (
        <div className="quote-change num" style={{ color }}>
          {q && traded ? formatSignedMinor(change) : '--'}
        </div>
      )}
      <div className="quote-pct num">
        <span className="pct-pill" style={{ background: color }} data-testid={`quote-pct-${symbol}`}>
          {pct}
        </span>
      </div>
      {columns === 'volume' && (
        <div className="quote-volume num" data-testid={`quote-volume-${symbol}`}>
          {q ? formatLots(q.volumeShares, lang) : '--'}
        </div>
      )}
      {columns === 'turnover' && (
        <div className="quote-volume num" data-testid={`quote-turnover-${symbol}`}>
          {q ? formatCompactMinor(q.turnoverMinor, lang) : '--'}
        </div>
      )}
    </div>
  );
});
