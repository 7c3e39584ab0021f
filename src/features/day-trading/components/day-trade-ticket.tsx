/**
 * The day-trade order entry (the spec's "order submission" shortcut): the order ticket
 * (src/features/trading `OrderPanel`) in its day-trade mode — long or short, market or limit, lots and
 * leverage, sent to dayTrade/placeOrder, which marks the order as a day trade; its preview is
 * contract/market-rules.ts `orderPreview`, the functions the server charges with, with the offset's
 * closing costs at the day-trade rate — under a code field of its own, whose quote (snapshot, then
 * the stream) the ticket previews and sends with. Shown to approved members only.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotesQuery } from '../../../api/api';
import { formatMinor, langOf } from '../../../lib/format';
import { useQuote, useQuoteStream, useSeedQuotes } from '../../../live/hooks';
import { instrumentName, useNameEn } from '../../../live/names-en';
import { TestIdInput } from '../../../ui/testid-input';
import { showToast } from '../../../ui/toast';
import { OrderPanel } from '../../trading';
import { usePlaceDayTradeOrderMutation } from '../api/day-trading-api';

const SYMBOL_RE = /^[0-9A-Z]{4,6}$/;
const NO_SYMBOLS: string[] = [];

/**
 * The day-trade ticket.
 * - `tradeDate`: today's trade date (YYYY-MM-DD, dayTrade/status), the day the preview offsets on;
 * - `initialSymbol`: the code the field starts with (the screen's `?symbol=`);
 * - `onPlaced`: called after an order is accepted (and its success toast shown).
 */
export function DayTradeTicket({
  tradeDate,
  initialSymbol,
  onPlaced,
}: {
  tradeDate: string;
  initialSymbol: string;
  onPlaced: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [place] = usePlaceDayTradeOrderMutation();

  const [symbolText, setSymbolText] = useState(initialSymbol);
  const symbol = symbolText.trim().toUpperCase();
  const validSymbol = SYMBOL_RE.test(symbol);
  const symbols = useMemo(() => (validSymbol ? [symbol] : NO_SYMBOLS), [symbol, validSymbol]);
  const { data: snap } = useQuotesQuery(symbols, { skip: !validSymbol });
  useSeedQuotes(snap?.items);
  useQuoteStream(symbols);
  const quote = useQuote(symbol);
  const nameEn = useNameEn(symbol);

  const placed = () => {
    showToast({ icon: 'success', content: t('success.purchase') });
    onPlaced();
  };

  return (
    <OrderPanel symbol={symbol} quote={quote} dayTrade={{ tradeDate, place, onPlaced: placed }}>
      <div className="order-row">
        <span className="order-label">{t('dayTrading.symbol')}</span>
        <div className="order-price">
          <TestIdInput
            testId="dt-symbol"
            value={symbolText}
            onChange={setSymbolText}
            placeholder={t('dayTrading.symbolPlaceholder')}
            clearable
          />
          <div className="muted small" data-testid="dt-quote">
            {quote
              ? `${instrumentName({ name: quote.name, nameEn }, langOf(i18n.language))} · ${formatMinor(quote.lastMinor)}`
              : validSymbol
                ? t('common.loading')
                : ''}
          </div>
        </div>
      </div>
    </OrderPanel>
  );
}
