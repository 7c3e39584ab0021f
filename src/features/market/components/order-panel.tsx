/**
 * The order ticket: long/short, market/limit, lots, leverage and a live preview computed with
 * contract/market-rules.ts `orderPreview` — built on `openCosts`/`closeResult`, the functions the
 * server charges with, so the figures agree to the cent — including the expected closing fee and
 * tax and the break-even price. Limit prices are tick-checked with `isOnTick`; off-tick prices offer
 * the two nearest valid ones.
 */
import { LabeledValue } from '../../../ui/labeled-value';
import { Button } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Quote } from '../../../../contract/market';
import {
  DEFAULT_LEVERAGES,
  isOnTick,
  MAX_LOTS_PER_ORDER,
  nearestValidPrices,
  orderPreview,
  SHARES_PER_LOT,
  type Side,
} from '../../../../contract/market-rules';
import { toMinor } from '../../../../contract/money';
import { parseLeverages, useConfigQuery, usePlaceOrderMutation, useUserInfoQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { GREEN, RED } from '../../../lib/colors';
import { afterNextPaint } from '../../../lib/after-paint';
import { formatMinor, minorToInput } from '../../../lib/format';
import { Segmented } from '../../../ui/segmented';
import { TestIdInput, TestIdStepper } from '../../../ui/testid-input';

type OrderType = 'market' | 'limit';

/** Parses the limit price field; null when it is not a positive amount with ≤ 2 decimals. */
export function parsePrice(text: string): number | null {
  try {
    const v = toMinor(text);
    return v > 0 ? v : null;
  } catch {
    return null;
  }
}

/** The price the preview uses: the limit price, or the side of the book a market order fills at. */
export function previewPrice(
  orderType: OrderType,
  side: Side,
  limitMinor: number | null,
  quote: Quote | undefined,
) {
  if (orderType === 'limit') return limitMinor;
  if (!quote) return null;
  const book = side === 'long' ? quote.askMinor : quote.bidMinor;
  return book > 0 ? book : quote.lastMinor > 0 ? quote.lastMinor : null;
}

export function OrderPanel({ symbol, quote }: { symbol: string; quote: Quote | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const loggedIn = useSelector(selectLoggedIn);
  const { data: config } = useConfigQuery();
  const { data: account } = useUserInfoQuery(undefined, { skip: !loggedIn });
  const [placeOrder, { isLoading }] = usePlaceOrderMutation();

  const leverages = useMemo(() => parseLeverages(config?.leverages, DEFAULT_LEVERAGES), [config?.leverages]);
  const [side, setSide] = useState<Side>('long');
  const [orderType, setOrderType] = useState<OrderType>('market');
  const [lots, setLots] = useState(1);
  const [leverageChoice, setLeverage] = useState<number | null>(null);
  const leverage =
    leverageChoice !== null && leverages.includes(leverageChoice) ? leverageChoice : leverages[0]!;
  const [priceText, setPriceText] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const busy = submitting || isLoading;

  const kind = quote?.kind ?? 'stock';
  const limitMinor = orderType === 'limit' ? parsePrice(priceText) : null;
  const offTick = limitMinor !== null && !isOnTick(limitMinor, kind);
  const nearest = offTick && limitMinor !== null ? nearestValidPrices(limitMinor, kind) : null;
  const outOfLimits =
    limitMinor !== null &&
    !!quote &&
    quote.limitUpMinor > 0 &&
    (limitMinor > quote.limitUpMinor || limitMinor < quote.limitDownMinor);

  const price = previewPrice(orderType, side, limitMinor, quote);
  const validLots = Number.isInteger(lots) && lots >= 1 && lots <= MAX_LOTS_PER_ORDER;
  const costs = useMemo(() => {
    if (price === null || !validLots || (orderType === 'limit' && offTick)) return null;
    try {
      const p = orderPreview({ priceMinor: price, lots, leverage, side, kind });
      return {
        notionalMinor: p.marketValueMinor,
        marginMinor: p.marginMinor,
        feeMinor: p.commissionMinor + p.clearingFeeMinor,
        taxMinor: p.openTaxMinor,
        requiredMinor: p.totalRequiredMinor,
        closeCostsMinor: p.closeCommissionMinor + p.closeClearingFeeMinor + p.closeTaxMinor,
        breakEvenMinor: p.breakEvenPriceMinor,
      };
    } catch {
      return null;
    }
  }, [price, lots, leverage, side, kind, validLots, orderType, offTick]);

  const available = account?.availableMinor;
  const insufficient = costs !== null && available !== undefined && costs.requiredMinor > available;
  const priceMissing = orderType === 'limit' && limitMinor === null;
  const canSubmit = !!quote && costs !== null && !priceMissing && !offTick && !outOfLimits && !insufficient;

  const chooseType = (v: OrderType) => {
    setOrderType(v);
    if (v === 'limit' && !priceText && quote && quote.lastMinor > 0)
      setPriceText(minorToInput(quote.lastMinor));
  };

  const submit = async () => {
    if (!loggedIn) {
      navigate(`/login/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
      return;
    }
    if (!canSubmit || busy) return;
    // Paint the busy button first; the mutation's work starts one frame later (input → paint).
    setSubmitting(true);
    await afterNextPaint();
    const res = await placeOrder({
      symbol,
      side,
      orderType,
      priceMinor: orderType === 'limit' && limitMinor !== null ? limitMinor : undefined,
      lots,
      leverage,
    }).finally(() => setSubmitting(false));
    if ('data' in res && res.data) {
      navigate(`/position/position?tab=${res.data.status === 'pending' ? 'orders' : 'holdings'}`);
    }
  };

  return (
    <section className="card order-panel" aria-label={t('order.title')}>
      <h3 className="card-title">{t('order.title')}</h3>
      <div className="order-row">
        <span className="order-label">{t('order.side')}</span>
        <Segmented<Side>
          value={side}
          onChange={setSide}
          options={[
            { value: 'long', label: t('side.long'), testId: 'order-side-long', activeColor: RED },
            { value: 'short', label: t('side.short'), testId: 'order-side-short', activeColor: GREEN },
          ]}
        />
      </div>
      <div className="order-row">
        <span className="order-label">{t('order.type')}</span>
        <Segmented<OrderType>
          value={orderType}
          onChange={chooseType}
          options={[
            { value: 'market', label: t('orderType.market'), testId: 'order-type-market' },
            { value: 'limit', label: t('orderType.limit'), testId: 'order-type-limit' },
          ]}
        />
      </div>
      {orderType === 'limit' && (
        <div className="order-row order-price-row">
          <span className="order-label">{t('order.price')}</span>
          <div className="order-price">
            <TestIdInput
              testId="order-price"
              value={priceText}
              onChange={setPriceText}
              inputMode="decimal"
              placeholder={t('order.pricePlaceholder')}
              clearable
            />
            {priceText !== '' && limitMinor === null && (
              <div className="field-error">{t('order.priceInvalid')}</div>
            )}
            {nearest && (
              <div className="field-error" data-testid="order-price-offtick">
                {t('order.offTick')}
                {nearest.map((p) => (
                  <Button
                    key={p}
                    size="mini"
                    fill="outline"
                    onClick={() => setPriceText(minorToInput(p))}
                    data-testid={`order-price-fix-${p}`}
                  >
                    {formatMinor(p)}
                  </Button>
                ))}
              </div>
            )}
            {outOfLimits && quote && (
              <div className="field-error">
                {t('order.outOfLimits', {
                  down: formatMinor(quote.limitDownMinor),
                  up: formatMinor(quote.limitUpMinor),
                })}
              </div>
            )}
          </div>
        </div>
      )}
      <div className="order-row">
        <span className="order-label">{t('order.lots')}</span>
        <TestIdStepper
          testId="order-lots"
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
          options={leverages.map((n) => ({ value: n, label: `${n}×`, testId: `leverage-${n}` }))}
        />
      </div>

      <div className="preview" data-testid="order-preview">
        <LabeledValue
          layout="line"
          label={
            orderType === 'market'
              ? t(side === 'long' ? 'order.priceAtAsk' : 'order.priceAtBid')
              : t('order.price')
          }
          value={price !== null ? formatMinor(price) : ''}
        />
        {(
          [
            ['marketValue', 'value', costs?.notionalMinor],
            ['margin', 'margin', costs?.marginMinor],
            ['fee', 'fee', costs?.feeMinor],
            ['tax', 'tax', costs?.taxMinor],
            ['closeCosts', 'close-costs', costs?.closeCostsMinor],
            ['breakEven', 'break-even', costs?.breakEvenMinor],
            ['required', 'required', costs?.requiredMinor],
          ] as const
        ).map(([key, id, minor]) => (
          <LabeledValue
            key={key}
            layout="line"
            label={t(`order.${key}`)}
            value={minor != null ? formatMinor(minor) : ''}
            testId={`order-preview-${id}`}
          />
        ))}
        <LabeledValue
          layout="line"
          label={t('order.available')}
          value={loggedIn ? (available !== undefined ? formatMinor(available) : '') : t('order.loginToSee')}
          testId="order-preview-available"
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
        // No spinner: antd-mobile's animated loading icon delayed the click's next paint by
        // ~200 ms (Event Timing in npm run bench:stream); a disabled button with a label is instant.
        disabled={(loggedIn && !canSubmit) || busy}
        onClick={submit}
        data-testid="order-submit"
      >
        {busy
          ? t('order.submitting')
          : loggedIn
            ? t(side === 'long' ? 'order.submitLong' : 'order.submitShort')
            : t('order.loginToTrade')}
      </Button>
    </section>
  );
}
