/**
 * The order ticket: long/short, market/limit, time in force (ROD, IOC, FOK), the session (regular,
 * or after-hours fixed price where the market clock has one: MARKET_CLOCK=exchange), lots,
 * leverage and a live preview computed with contract/market-rules.ts `orderPreview` — built on
 * `openCosts`/`closeResult`, the functions the server charges with, so the figures agree to the
 * cent — including the expected closing fee and tax, the break-even price, the available balance
 * and what remains of it after the order.
 *
 * Rules the ticket can check itself (tick table, daily limits) show their fix before the tap; a
 * refusal by the server names its rule (the error key) and carries its fix in `data.fix`
 * (contract/trading.ts OrderFix), shown under the button with a one-tap "use this" where the fix
 * is a value (a price, limit ROD, a number of lots) and the time it opens where it is a time.
 */
import { LabeledValue } from '../../../ui/labeled-value';
import { Button } from 'antd-mobile';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Quote } from '../../../../contract/market';
import {
  DEFAULT_LEVERAGES,
  MAX_LOTS_PER_ORDER,
  orderPreview,
  priceRejection,
  SHARES_PER_LOT,
  type Side,
  type TimeInForce,
} from '../../../../contract/market-rules';
import { toMinor } from '../../../../contract/money';
import { orderFixSchema, type OrderFix } from '../../../../contract/trading';
import { parseLeverages, useConfigQuery, usePlaceOrderMutation, useUserInfoQuery } from '../../../api/api';
import type { ApiError } from '../../../api/base-query';
import { selectLoggedIn } from '../../../api/session';
import { GREEN, RED } from '../../../lib/colors';
import { afterNextPaint } from '../../../lib/after-paint';
import { formatDateTime, formatMinor, minorToInput } from '../../../lib/format';
import { selectClock } from '../../../market/selectors';
import { Segmented } from '../../../ui/segmented';
import { TestIdInput, TestIdStepper } from '../../../ui/testid-input';

type OrderType = 'market' | 'limit';
type EntrySession = 'regular' | 'afterHours';

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

/** The fix of a refused order, when the refusal carries one (`data.fix`). */
export function refusalFix(error: unknown): OrderFix | null {
  const data = (error as ApiError | undefined)?.data as { fix?: unknown } | null | undefined;
  const parsed = orderFixSchema.safeParse(data?.fix);
  return parsed.success ? parsed.data : null;
}

/** What the fix box does when tapped. */
interface FixActions {
  usePrice(priceMinor: number): void;
  useLimitRod(priceMinor: number | null): void;
  useLots(lots: number): void;
}

/** A refusal's rule (the translated error) and its fix, with a one-tap button where it has a value. */
function FixNotice({ msg, fix, act }: { msg: string; fix: OrderFix | null; act: FixActions }) {
  const { t } = useTranslation();
  const use = (label: string, onClick: () => void, testId = 'order-fix-use') => (
    <Button key={testId} size="mini" fill="outline" color="primary" onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
  let body: ReactNode = null;
  switch (fix?.rule) {
    case 'offTick':
      body = fix.nearestMinor.map((p, i) =>
        use(t('order.fix.usePrice', { price: formatMinor(p) }), () => act.usePrice(p), `order-fix-use-${i}`),
      );
      break;
    case 'aboveLimitUp':
      body = use(t('order.fix.usePrice', { price: formatMinor(fix.limitUpMinor) }), () =>
        act.usePrice(fix.limitUpMinor),
      );
      break;
    case 'belowLimitDown':
      body = use(t('order.fix.usePrice', { price: formatMinor(fix.limitDownMinor) }), () =>
        act.usePrice(fix.limitDownMinor),
      );
      break;
    case 'afterHoursPrice':
      body = use(t('order.fix.usePrice', { price: formatMinor(fix.priceMinor) }), () =>
        act.usePrice(fix.priceMinor),
      );
      break;
    case 'continuousOnly':
      body = (
        <>
          {use(
            fix.priceMinor !== null
              ? t('order.fix.useLimitRod', { price: formatMinor(fix.priceMinor) })
              : t('order.fix.useLimitRodNoPrice'),
            () => act.useLimitRod(fix.priceMinor),
          )}
          {fix.continuousAtMs !== null && (
            <span className="muted small">
              {t('order.fix.continuousAt', { time: formatDateTime(fix.continuousAtMs) })}
            </span>
          )}
        </>
      );
      break;
    case 'outsideSession':
      body = (
        <span className="muted small" data-testid="order-fix-opens">
          {fix.opensAtMs !== null
            ? t('order.fix.opensAt', { time: formatDateTime(fix.opensAtMs) })
            : t('order.fix.noSession')}
        </span>
      );
      break;
    case 'maxLots':
      body = use(t('order.fix.useLots', { n: fix.maxLots }), () => act.useLots(fix.maxLots));
      break;
    case 'lockUp':
      body = (
        <span className="muted small">
          {t('order.fix.closableAt', { time: formatDateTime(fix.closableAtMs) })}
        </span>
      );
      break;
    case 'tPlusOne':
      body = (
        <span className="muted small">
          {fix.sellableFrom
            ? t('order.fix.sellableFrom', { date: fix.sellableFrom })
            : t('order.fix.sellableNext')}
        </span>
      );
      break;
    case 'dailyLimit':
      body = <span className="muted small">{t('order.fix.dailyLimit', { n: fix.limit })}</span>;
      break;
    default:
      body = null;
  }
  return (
    <div className="field-error" data-testid="order-fix" data-rule={fix?.rule ?? msg} role="alert">
      <div>{t(`errors.${msg}`, { defaultValue: t('errors.generic') })}</div>
      {body && <div className="segmented">{body}</div>}
    </div>
  );
}

export function OrderPanel({ symbol, quote }: { symbol: string; quote: Quote | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const loggedIn = useSelector(selectLoggedIn);
  const clock = useSelector(selectClock);
  const { data: config } = useConfigQuery();
  const { data: account } = useUserInfoQuery(undefined, { skip: !loggedIn });
  const [placeOrder, { isLoading }] = usePlaceOrderMutation();

  const leverages = useMemo(() => parseLeverages(config?.leverages, DEFAULT_LEVERAGES), [config?.leverages]);
  const [side, setSide] = useState<Side>('long');
  const [orderTypeChoice, setOrderType] = useState<OrderType>('market');
  const [tifChoice, setTif] = useState<TimeInForce>('ROD');
  const [sessionChoice, setSession] = useState<EntrySession>('regular');
  const [lots, setLots] = useState(1);
  const [leverageChoice, setLeverage] = useState<number | null>(null);
  const leverage =
    leverageChoice !== null && leverages.includes(leverageChoice) ? leverageChoice : leverages[0]!;
  const [priceText, setPriceText] = useState('');
  const [refusal, setRefusal] = useState<{ msg: string; fix: OrderFix | null } | null>(null);
  const [killed, setKilled] = useState<string | null>(null);
  const busy = isLoading;

  // After hours exists only on the exchange clock; there the price is the day's close, limit ROD.
  const afterHoursOffered = clock?.mode === 'exchange';
  const session: EntrySession = afterHoursOffered ? sessionChoice : 'regular';
  const afterHours = session === 'afterHours';
  const orderType: OrderType = afterHours ? 'limit' : orderTypeChoice;
  const tif: TimeInForce = afterHours ? 'ROD' : tifChoice;

  const kind = quote?.kind ?? 'stock';
  const fixedMinor = afterHours && quote && quote.lastMinor > 0 ? quote.lastMinor : null;
  const limitMinor = afterHours ? fixedMinor : orderType === 'limit' ? parsePrice(priceText) : null;
  const rejection =
    !afterHours && limitMinor !== null
      ? priceRejection(limitMinor, {
          kind,
          referenceMinor: quote && quote.prevCloseMinor > 0 ? quote.prevCloseMinor : null,
        })
      : null;
  const offTick = rejection?.rule === 'offTick' ? rejection.nearestMinor : null;
  const limitFix =
    rejection?.rule === 'aboveLimitUp'
      ? rejection.limitUpMinor
      : rejection?.rule === 'belowLimitDown'
        ? rejection.limitDownMinor
        : null;

  const rejected = rejection !== null;
  const price = previewPrice(orderType, side, limitMinor, quote);
  const validLots = Number.isInteger(lots) && lots >= 1 && lots <= MAX_LOTS_PER_ORDER;
  const available = account?.availableMinor;
  const preview = useMemo(() => {
    if (price === null || !validLots || rejected) return null;
    try {
      return orderPreview({ priceMinor: price, lots, leverage, side, kind, availableMinor: available });
    } catch {
      return null;
    }
  }, [price, lots, leverage, side, kind, validLots, rejected, available]);

  const insufficient =
    preview !== null && preview.availableAfterMinor !== null && preview.availableAfterMinor < 0;
  const priceMissing = orderType === 'limit' && limitMinor === null;
  const canSubmit = !!quote && preview !== null && !priceMissing && !rejection && !insufficient;

  /** Any change of the order clears the last refusal. */
  const changed =
    <A extends unknown[]>(f: (...a: A) => void) =>
    (...a: A) => {
      setRefusal(null);
      setKilled(null);
      f(...a);
    };

  const chooseType = changed((v: OrderType) => {
    setOrderType(v);
    if (v === 'limit' && !priceText && quote && quote.lastMinor > 0)
      setPriceText(minorToInput(quote.lastMinor));
  });
  const act: FixActions = {
    usePrice: changed((p: number) => {
      if (!afterHours) setOrderType('limit');
      setPriceText(minorToInput(p));
    }),
    useLimitRod: changed((p: number | null) => {
      setOrderType('limit');
      setTif('ROD');
      if (p !== null) setPriceText(minorToInput(p));
    }),
    useLots: changed((n: number) => setLots(n)),
  };

  const submit = async () => {
    if (!loggedIn) {
      navigate(`/login/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
      return;
    }
    if (!canSubmit || busy) return;
    setRefusal(null);
    setKilled(null);
    const res = await placeOrder({
      symbol,
      side,
      orderType,
      priceMinor: orderType === 'limit' && limitMinor !== null ? limitMinor : undefined,
      lots,
      leverage,
      timeInForce: tif,
      session,
    });
    if ('data' in res && res.data) {
      if (res.data.status === 'cancelled') {
        // An IOC/FOK that could not fill at once: nothing moved; say so here.
        setKilled(res.data.timeInForce);
        return;
      }
      navigate(`/position/position?tab=${res.data.status === 'pending' ? 'orders' : 'holdings'}`);
    } else if ('error' in res) {
      const err = res.error as ApiError;
      if (err.kind === 'refused') setRefusal({ msg: err.msg, fix: refusalFix(err) });
    }
  };

  return (
    <section className="card order-panel" aria-label={t('order.title')}>
      <h3 className="card-title">{t('order.title')}</h3>
      <div className="order-row">
        <span className="order-label">{t('order.side')}</span>
        <Segmented<Side>
          value={side}
          onChange={changed(setSide)}
          options={[
            { value: 'long', label: t('side.long'), testId: 'order-side-long', activeColor: RED },
            { value: 'short', label: t('side.short'), testId: 'order-side-short', activeColor: GREEN },
          ]}
        />
      </div>
      {afterHoursOffered && (
        <div className="order-row">
          <span className="order-label">{t('order.session')}</span>
          <Segmented<EntrySession>
            value={session}
            onChange={changed(setSession)}
            options={[
              { value: 'regular', label: t('order.sessionRegular'), testId: 'order-session-regular' },
              {
                value: 'afterHours',
                label: t('order.sessionAfterHours'),
                testId: 'order-session-afterHours',
              },
            ]}
          />
        </div>
      )}
      {afterHours ? (
        <div className="order-row">
          <span className="order-label">{t('order.price')}</span>
          <span data-testid="order-fixed-price">{fixedMinor !== null ? formatMinor(fixedMinor) : ''}</span>
          <span className="muted small">{t('order.afterHoursNote')}</span>
        </div>
      ) : (
        <>
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
          <div className="order-row">
            <span className="order-label">{t('order.tif')}</span>
            <Segmented<TimeInForce>
              value={tif}
              onChange={changed(setTif)}
              options={(['ROD', 'IOC', 'FOK'] as const).map((v) => ({
                value: v,
                label: v,
                testId: `order-tif-${v}`,
              }))}
            />
            <span className="muted small" data-testid="order-tif-hint">
              {t(`order.tifHint.${tif}`)}
            </span>
          </div>
        </>
      )}
      {!afterHours && orderType === 'limit' && (
        <div className="order-row order-price-row">
          <span className="order-label">{t('order.price')}</span>
          <div className="order-price">
            <TestIdInput
              testId="order-price"
              value={priceText}
              onChange={changed(setPriceText)}
              inputMode="decimal"
              placeholder={t('order.pricePlaceholder')}
              clearable
            />
            {priceText !== '' && limitMinor === null && (
              <div className="field-error">{t('order.priceInvalid')}</div>
            )}
            {offTick && (
              <div className="field-error" data-testid="order-price-offtick">
                {t('order.offTick')}
                {offTick.map((p) => (
                  <Button
                    key={p}
                    size="mini"
                    fill="outline"
                    onClick={() => act.usePrice(p)}
                    data-testid={`order-price-fix-${p}`}
                  >
                    {formatMinor(p)}
                  </Button>
                ))}
              </div>
            )}
            {limitFix !== null && quote && (
              <div className="field-error" data-testid="order-price-limits">
                {t('order.outOfLimits', {
                  down: formatMinor(quote.limitDownMinor),
                  up: formatMinor(quote.limitUpMinor),
                })}
                <Button
                  size="mini"
                  fill="outline"
                  onClick={() => act.usePrice(limitFix)}
                  data-testid={`order-price-fix-${limitFix}`}
                >
                  {formatMinor(limitFix)}
                </Button>
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
          onChange={changed((v: number | null) => setLots(Number(v) || 1))}
        />
        <span className="muted small">{t('order.shares', { n: lots * SHARES_PER_LOT })}</span>
      </div>
      <div className="order-row">
        <span className="order-label">{t('order.leverage')}</span>
        <Segmented<number>
          value={leverage}
          onChange={changed(setLeverage)}
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
            ['marketValue', 'value', preview?.marketValueMinor],
            ['margin', 'margin', preview?.marginMinor],
            ['fee', 'fee', preview ? preview.commissionMinor + preview.clearingFeeMinor : undefined],
            ['tax', 'tax', preview?.openTaxMinor],
            [
              'closeCosts',
              'close-costs',
              preview
                ? preview.closeCommissionMinor + preview.closeClearingFeeMinor + preview.closeTaxMinor
                : undefined,
            ],
            ['breakEven', 'break-even', preview?.breakEvenPriceMinor],
            ['required', 'required', preview?.totalRequiredMinor],
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
        {loggedIn && (
          <LabeledValue
            layout="line"
            label={t('order.availableAfter')}
            value={preview?.availableAfterMinor != null ? formatMinor(preview.availableAfterMinor) : ''}
            testId="order-preview-available-after"
            color={insufficient ? RED : undefined}
          />
        )}
        {insufficient && <div className="field-error">{t('errors.insufficientBalance')}</div>}
      </div>

      <OrderSubmitButton
        color={side === 'long' ? RED : GREEN}
        disabled={(loggedIn && !canSubmit) || busy}
        onSubmit={submit}
        label={
          loggedIn ? t(side === 'long' ? 'order.submitLong' : 'order.submitShort') : t('order.loginToTrade')
        }
        busyLabel={t('order.submitting')}
      />
      {refusal && <FixNotice msg={refusal.msg} fix={refusal.fix} act={act} />}
      {killed && (
        <div className="field-error" data-testid="order-killed" role="status">
          {t('order.killed', { tif: killed })}
        </div>
      )}
    </section>
  );
}

/**
 * The order button. Its busy state is its own: a tap re-renders this button alone, paints, and
 * only then runs `onSubmit` (the mutation), so the tap's next paint never waits for the whole
 * ticket to re-render (input → next paint under load, npm run bench:stream). No spinner:
 * antd-mobile's animated loading icon delayed that paint by ~200 ms.
 */
function OrderSubmitButton({
  color,
  disabled,
  onSubmit,
  label,
  busyLabel,
}: {
  color: string;
  disabled: boolean;
  onSubmit: () => Promise<void>;
  label: string;
  busyLabel: string;
}) {
  const [busy, setBusy] = useState(false);
  const click = async () => {
    if (busy) return;
    setBusy(true);
    await afterNextPaint();
    try {
      await onSubmit();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      block
      size="large"
      color="primary"
      style={{ '--background-color': color, '--border-color': color }}
      disabled={disabled || busy}
      onClick={click}
      data-testid="order-submit"
    >
      {busy ? busyLabel : label}
    </Button>
  );
}
