/**
 * A search result: the live quote row (name, code, last, change, change %; TWD colours) and the
 * watchlist star beside it. Fixed RESULT_ROW_HEIGHT_PX for the virtualized list.
 */
import { memo } from 'react';
import { QUOTE_ROW_HEIGHT_PX, QuoteRow } from '../../../live/components/quote-row';
import { WatchToggle } from '../../market';

export const RESULT_ROW_HEIGHT_PX = QUOTE_ROW_HEIGHT_PX;

export const ResultRow = memo(function ResultRow({
  symbol,
  onOpen,
}: {
  symbol: string;
  onOpen: (symbol: string) => void;
}) {
  return (
    <div className="search-row" data-testid={`search-result-${symbol}`}>
      <QuoteRow symbol={symbol} onOpen={onOpen} />
      <WatchToggle symbol={symbol} />
    </div>
  );
});
