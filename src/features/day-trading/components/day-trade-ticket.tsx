/**
 * The day-trade order entry (the spec's "order submission" shortcut): code, long or short, market
 * or limit, lots and leverage, sent to dayTrade/placeOrder, which marks the order as a day trade.
 * The preview is contract/market-rules.ts `orderPreview`, the functions the server charges with:
 * the opening figures as charged now, and with `dayTradeOn` = today's trade date the offset's
 * closing costs at the day-trade rate, the break-even and, for a short, the opening tax refunded
 * down to the day-trade rate when offset the same day.
 * Shown to approved members only.
 */
import { Button } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_LEVERAGES,
  isOnTick,
  MAX_LOTS_PER_ORDER,
  orderPreview,
  SHARES_PER_LOT,
  type Side,
} from '../../../../contract/market-rules';
import { toMinor } from '../../../../contract/money';
import { parseLeverages, useConfigQuery, useQuotesQuery, useUserInfoQuery } from '../../../api/api';
import { GREEN, RED } from '../../../lib/colors';
import { formatMinor } from '../../../lib/format';
import { useQuote, useQuoteStream, useSeedQuotes } from '../../../market/hooks';
import { LabeledValue } from '../../../ui/labeled-value';
import { Segmented } from '../../../ui/segmented';
import { TestIdInput, TestIdStepper } from '../../../ui/testid-input';
import { showToast } from '../../../ui/toast';
import { usePlaceDayTradeOrderMutation } from '../api/day-trading-api';

type OrderType = 'market' | 'limit';
const SYMBOL_RE = /^[0-9A-Z]{4,6}$/;
const NO_SYMBOLS: string[] = [];

function parsePrice(text: string): number | null {
  try {
    const v = toMinor(text);
    return v > 0 ? v : null;
  } catch {
    return null;
  }
}

export function DayTradeTicket({
  tradeDate,
  initialSymbol,
  onPlaced,
}: {
  tradeDate: string;
  initialSymbol: string;
  onPlaced: () => void;
}) {
  const { t } = useTranslation();
  const { data: config } = useConfigQuery();
  const { data: account } = useUserInfoQuery();
  const [place, { isLoading }] = usePlaceDayTradeOrderMutation();
  const leverages = useMemo(() => parseLeverages(config?.leverages, DEFAULT_LEVERAGES), [config?.leverages]);

  const [symbolText, setSymbolText] = useState(initialSymbol);
  const symbol = symbolText.trim().toUpperCase();
  const validSymbol = SYMBOL_RE.test(symbol);
  const symbols = useMemo(() => (validSymbol ? [symbol] : NO_SYMBOLS), [symbol, validSymbol]);
  const { data: snap } = useQuotesQuery(symbols, { skip: !validSymbol });
  useSeedQuotes(snap?.items);
  useQuoteStream(symbols);
  const quote = useQuote(symbol);

  const [side, setSide] = useState<Side>('long');
  const [orderType, setOrderType] = useState<OrderType>('market');
  const [priceText, setPriceText] = useState('');
  const [lots, setLots] = useState(1);
  const [leverageChoice, setLeverage] = useState<number | null>(null);
  const leverage =
    leverageChoice !== null && leverages.includes(leverageChoice) ? leverageChoice : leverages[0]!;

  const kind = quote?.kind ?? 'stock';
  const limitMinor = orderType === 'limit' ? parsePrice(priceText) : null;
  const price =
    orderType === 'limit'
      ? limitMinor
      : quote
        ? (side === 'long' ? quote.askMinor : quote.bidMinor) || quote.lastMinor || null
        : null;
  const offTick = limitMinor !== null && !isOnTick(limitMinor, kind);
  // What the order costs now (the opening trade is charged as usual) and, with `dayTradeOn`, what
  // its offset today costs: the closing leg at the day-trade rate; a short's opening sale is
  // refunded down to that rate when offset the same day (server day-trading/tax.ts).
  const { preview, dayTrade } = useMemo(() => {
    if (price === null || offTick || !Number.isInteger(lots) || lots < 1 || lots > MAX_LOTS_PER_ORDER)
      return { preview: null, dayTrade: null };
    try {
      const args = { priceMinor: price, lots, leverage, side, kind };
      return { preview: orderPreview(args), dayTrade: orderPreview({ ...args, dayTradeOn: tradeDate }) };
    } catch {
      return { preview: null, dayTrade: null };
    }
  }, [price, offTick, lots, leverage, side, kind, tradeDate]);
  const available = account?.availableMinor;
  const insufficient = !!preview && available !== undefined && preview.totalRequiredMinor > available;
  const canSubmit = !!quote && !!preview && !insufficient && !isLoading;

  const submit = async () => {
    if (!canSubmit) return;
    const res = await place({
      symbol,
      side,
      orderType,
      priceMinor: orderType === 'limit' && limitMinor !== null ? limitMinor : undefined,
      lots,
      leverage,
    });
    if ('data' in res && res.data) {
      showToast({ icon: 'success', content: t('success.purchase') });
      onPlaced();
    }
  };

  const closeCosts = dayTrade
    ? dayTrade.closeCommissionMinor + dayTrade.closeClearingFeeMinor + dayTrade.closeTaxMinor
    : null;
  const refund = preview && dayTrade ? preview.openTaxMinor - dayTrade.openTaxMinor : 0;
  const rows: Array<[string, string, number | null | undefined]> = [
    ['order.marketValue', 'value', preview?.marketValueMinor],
    ['order.margin', 'margin', preview?.marginMinor],
    ['order.fee', 'fee', preview ? preview.commissionMinor + preview.clearingFeeMinor : null],
    ['order.tax', 'tax', preview?.openTaxMinor],
    ...(refund > 0 ? [['dayTrading.taxRefund', 'tax-refund', refund] as [string, string, number]] : []),
    ['dayTrading.closeCosts', 'close-costs', closeCosts],
    ['order.breakEven', 'break-even', dayTrade?.breakEvenPriceMinor],
    ['order.required', 'required', preview?.totalRequiredMinor],
  ];

  return (
    <section className="card order-panel" data-testid="dt-ticket">
      <h3 className="card-title">{t('dayTrading.ticketTitle')}</h3>
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
              ? `${quote.name} · ${formatMinor(quote.lastMinor)}`
              : validSymbol
                ? t('common.loading')
                : ''}
          </div>
        </div>
      </div>
      <div className="order-row">
        <span className="order-label">{t('order.side')}</span>
        <Segmented<Side>
          value={side}
          onChange={setSide}
          options={[
            { value: 'long', label: t('side.long'), testId: 'dt-side-long', activeColor: RED },
            { value: 'short', label: t('side.short'), testId: 'dt-side-short', activeColor: GREEN },
          ]}
        />
      </div>
      <div className="order-row">
        <span className="order-label">{t('order.type')}</span>
        <Segmented<OrderType>
          value={orderType}
          onChange={setOrderType}
          options={[
            { value: 'market', label: t('orderType.market'), testId: 'dt-type-market' },
            { value: 'limit', label: t('orderType.limit'), testId: 'dt-type-limit' },
          ]}
        />
      </div>
      {orderType === 'limit' && (
        <div className="order-row">
          <span className="order-label">{t('order.price')}</span>
          <div className="order-price">
            <TestIdInput
              testId="dt-price"
              value={priceText}
              onChange={setPriceText}
              inputMode="decimal"
              placeholder={t('order.pricePlaceholder')}
            />
            {(offTick || (priceText !== '' && limitMinor === null)) && (
              <div className="field-error">{t(offTick ? 'order.offTick' : 'order.priceInvalid')}</div>
            )}
          </div>
        </div>
      )}
      <div className="order-row">
        <span className="order-label">{t('order.lots')}</span>
        <TestIdStepper
          testId="dt-lots"
          value={lots}
          min={1}
          max={MAX_LOTS_PER_ORDER}
          step={1}
          digits={0}
          onChange={(v) => setLots(Number(v) || 1)}
        />
        <span className="muted small">{t('order.shares', { n: lots * SHARES_PER_LOT })}</span>
      </div>
      <div className="order-row">
        <span className="order-label">{t('order.leverage')}</span>
        <Segmented<number>
          value={leverage}
          onChange={setLeverage}
          options={leverages.map((n) => ({ value: n, label: `${n}×`, testId: `dt-leverage-${n}` }))}
        />
      </div>
      <div className="preview" data-testid="dt-preview">
        {rows.map(([key, id, minor]) => (
          <LabeledValue
            key={key}
            layout="line"
            label={t(key)}
            value={minor != null ? formatMinor(minor) : ''}
            testId={`dt-preview-${id}`}
          />
        ))}
        <LabeledValue
          layout="line"
          label={t('order.available')}
          value={available !== undefined ? formatMinor(available) : ''}
          color={insufficient ? RED : undefined}
        />
        {insufficient && <div className="field-error">{t('errors.insufficientBalance')}</div>}
      </div>
      <Button
        block
        size="large"
        color="primary"
        style={{
          '--background-color': side === 'long' ? RED : GREEN,
          '--border-color': side === 'long' ? RED : GREEN,
        }}
        disabled={!canSubmit}
        loading={isLoading}
        onClick={submit}
        data-testid="dt-submit"
      >
        {t(side === 'long' ? 'dayTrading.submitLong' : 'dayTrading.submitShort')}
      </Button>
    </section>
  );
}
