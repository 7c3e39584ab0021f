/**
 * An instrument's live quote row above its order ticket: what `/market/marketBuy` and the Trade
 * tab (`/trading/trading`) show. Seeds the quote from market/quotes, then follows the stream;
 * tapping the row opens the stock's detail.
 */
import { useQuotesQuery } from '../../../api/api';
import { useQuoteStream, useSeedQuotes } from '../../../live/hooks';
import { LiveOrderPanel } from './order-panel';
import { QuoteRow } from '../../../live/components/quote-row';

export function QuickTicket({ symbol, onOpen }: { symbol: string; onOpen: (symbol: string) => void }) {
  const { data: snap } = useQuotesQuery([symbol]);
  useSeedQuotes(snap?.items);
  useQuoteStream([symbol]);
  return (
    <>
      <section className="list-card" data-testid="quick-ticket-quote">
        <QuoteRow symbol={symbol} onOpen={onOpen} />
      </section>
      <LiveOrderPanel symbol={symbol} />
    </>
  );
}
