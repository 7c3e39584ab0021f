/**
 * One row of a market ranking: name, code and the replayed date; last price; then by column set
 * `change` (change, change %), `volume` (change %, volume in lots 張) or `turnover` (change %,
 * turnover in TWD, compact: 億/萬, B/M). TWD colours (up red, down green); an instrument with no
 * trade in the replayed day shows its reference price in grey and "No trade" instead of 0 %.
 * The name is the exchange's English short name in English when there is one (src/live/names-en.ts).
 * Renders on its props, the replayed date and that name only (memoized): each new quote of its symbol is
 * drawn into the rendered row by `paintRankingFigures` (`usePaintedQuote`), not by a React render,
 * so the rows on screen under the stream cost a few DOM writes per animation frame. Its words
 * come from the list (`useRankingRowText`).
 */
import { memo, useCallback, useMemo, useRef } from 'react';
import type { Quote } from '../../../../contract/market';
import { useTranslation } from 'react-i18next';
import { langOf, type Lang } from '../../../lib/format';
import { QUOTE_ROW_HEIGHT_PX } from '../../../live/components/quote-row';
import { useClock, usePaintedQuote } from '../../../live/hooks';
import { instrumentName, useNameEn } from '../../../live/names-en';
import {
  paintRankingFigures,
  rankingFigures,
  type RankingColumns,
  type RankingFigures,
} from '../ranking-figures';

export type { RankingColumns } from '../ranking-figures';

const rowStyle = { height: QUOTE_ROW_HEIGHT_PX };

/** A row not known yet (its page is on its way): same height, no figures. */
export function PlaceholderRow() {
  return <div className="quote-row ranking-row placeholder" style={rowStyle} aria-hidden />;
}

/** A row's words in the current language: one object per language for every row of a list. */
export interface RankingRowText {
  lang: Lang;
  /** The "no trade" label in place of a change. */
  notTraded: string;
  /** "Replay of {date}" for a YYYY-MM-DD date. */
  replayOf: (date: string) => string;
  /** The mark of an estimated reference price, and what it means (the mark's title). */
  refEstimated: string;
  refEstimatedHint: string;
}

/** The words of the ranking rows, the same object until the language changes. */
export function useRankingRowText(): RankingRowText {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  return useMemo(
    () => ({
      lang,
      notTraded: t('ranking.notTraded'),
      replayOf: (date) => t('market.replayOf', { date }),
      refEstimated: t('ranking.refEstimated'),
      refEstimatedHint: t('ranking.refEstimatedHint'),
    }),
    [t, lang],
  );
}

export const RankingRow = memo(function RankingRow({
  symbol,
  columns,
  text,
  onOpen,
}: {
  symbol: string;
  columns: RankingColumns;
  text: RankingRowText;
  onOpen: (symbol: string) => void;
}) {
  const rowRef = useRef<HTMLDivElement>(null);
  const shown = useRef<RankingFigures | undefined>(undefined);
  const nameEn = useNameEn(symbol);
  const paint = useCallback(
    (next: Quote | undefined, fresh: boolean) => {
      const row = rowRef.current;
      if (!row) return;
      const f = rankingFigures(next, columns, text.lang, text.notTraded);
      const title = instrumentName({ name: next?.name ?? symbol, nameEn }, text.lang);
      paintRankingFigures(row, title, f, fresh ? undefined : shown.current);
      shown.current = f;
    },
    [symbol, columns, text, nameEn],
  );
  const q = usePaintedQuote(symbol, paint);
  const clock = useClock();
  const date = clock?.replayDate ?? q?.replayDate ?? null;
  const { traded, estimated, color, last, change, pct, amount } = rankingFigures(
    q,
    columns,
    text.lang,
    text.notTraded,
  );
  return (
    <div
      ref={rowRef}
      className={`quote-row ranking-row cols-${columns}`}
      style={rowStyle}
      data-testid={`market-row-${symbol}`}
      data-traded={traded ? undefined : 'false'}
      data-ref-estimated={estimated ? 'true' : undefined}
      role="button"
      tabIndex={0}
      onClick={() => onOpen(symbol)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onOpen(symbol);
      }}
    >
      <div className="quote-name">
        <div className="quote-title">{instrumentName({ name: q?.name ?? symbol, nameEn }, text.lang)}</div>
        <div className="quote-code">
          {symbol}
          <span className="ref-est" title={text.refEstimatedHint} data-testid={`ref-est-${symbol}`}>
            {text.refEstimated}
          </span>
          {date && (
            <span className="row-date" data-testid="row-replay-date">
              {text.replayOf(date)}
            </span>
          )}
        </div>
      </div>
      <div className="quote-last num" style={{ color }} data-testid={`quote-last-${symbol}`}>
        {last}
      </div>
      {columns === 'change' && (
        <div className="quote-change num" style={{ color }}>
          {change}
        </div>
      )}
      <div className="quote-pct num">
        <span className="pct-pill" style={{ background: color }} data-testid={`quote-pct-${symbol}`}>
          {pct}
        </span>
      </div>
      {columns === 'volume' && (
        <div className="quote-volume num" data-testid={`quote-volume-${symbol}`}>
          {amount}
        </div>
      )}
      {columns === 'turnover' && (
        <div className="quote-volume num" data-testid={`quote-turnover-${symbol}`}>
          {amount}
        </div>
      )}
    </div>
  );
});
