/**
 * The order ticket: long/short, market/limit, time in force (ROD, IOC, FOK), the session (regular,
 * or after-hours fixed price where the market clock has one: the exchange and replay clocks), lots,
 * leverage and a live preview computed with contract/market-rules.ts `orderPreview` — built on
 * `openCosts`/`closeResult`, the functions the server charges with, so the figures agree to the
 * cent — including the expected closing fee and tax, the break-even price, the available balance
 * and what remains of it after the order.
 *
 * Rules the ticket can check itself (tick table, daily limits) show their fix before the tap; a
 * refusal by the server names its rule (the error key) and carries its fix in `data.fix`
 * (contract/trading.ts OrderFix), shown under the button with a one-tap "use this" where the fix
 * is a value (a price, limit ROD, a number of lots) and the time it opens where it is a time
 * (./order-fix.tsx).
 *
 * Day-trade mode (`dayTrade`, the /common/dayTrading "order submission" tab through
 * features/day-trading DayTradeTicket) is the same ticket with what a day-trade order does
 * differently: it is sent through `dayTrade.place` (dayTrade/placeOrder, which marks the order as
 * a day trade) without time in force or session (the endpoint's defaults, ROD in the regular
 * session), so it has no session or time-in-force row; the preview adds `orderPreview` with
 * `dayTradeOn` = the trade date: the offset's closing costs at the day-trade rate, the break-even
 * from them and, for a short, the opening tax refunded down to that rate when offset the same day
 * (server day-trading/tax.ts); its own title, button labels and test ids (`dt-…` for `order-…`);
 * an accepted order goes to `dayTrade.onPlaced`. Its checks, one-tap fixes, refusal box and
 * available-after row are the regular ticket's (the server applies the same rules to both); it
 * prefills no price on choosing limit and has no clear button on the price.
 *
 * Both modes ask "are you sure?" before sending an order whose total required reaches the
 * member's confirmation threshold (src/account/confirm-above.tsx, ./order-confirm.ts); below it
 * the tap sends the order at once.
 */
import { LabeledValue } from '../../ui/labeled-value';
import { memo, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import { quoteHasLimits, quoteTaxKind, type Quote } from '../../../contract/market';
import { PHASE_RULES, taipeiIsoDate } from '../../../contract/trading-session';
import {
  DEFAULT_LEVERAGES,
  MAX_LOTS_PER_ORDER,
  orderPreview,
  priceRejection,
  SHARES_PER_LOT,
  type Side,
  type TimeInForce,
} from '../../../contract/market-rules';
import { formatBps, toMinor } from '../../../contract/money';
import type { Order, OrderFix, PlaceOrderInput } from '../../../contract/trading';
import { isCashHolding, openingCheck } from '../../../contract/risk';
import { useLiveRisk } from '../../risk/hooks/use-live-risk';
import { parseLeverages, useConfigQuery, usePlaceOrderMutation, useUserInfoQuery } from '../../api/api';
import type { ApiError } from '../../api/base-query';
import { sendTap, type CallResult, type KeyedCall } from '../../api/idempotency';
import { selectLoggedIn } from '../../api/session';
import { GREEN, RED } from '../../lib/colors';
import { formatMinor, minorToInput } from '../../lib/format';
import { TradingPhaseTag } from './trading-phase';
import { useClock, useQuote } from '../hooks';
import { Segmented } from '../../ui/segmented';
import { TestIdInput } from '../../ui/testid-input';
import { LotsField } from './lots-field';
import { CouponPicker, useFeeDiscount } from '../../rewards/fee-discount';
import { useConfirmAbove } from '../../account/confirm-above';
import { orderConfirmRequest } from './order-confirm';
import { FixNotice, PriceFixButton, type FixActions } from './order-fix';
import { OrderSubmitButton } from './order-submit-button';

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

/**
 * The fix of a refused order, when the refusal carries one (`data.fix`), checked against the
 * contract's schema. The schema module is loaded then, not with the ticket: building the
 * contract's schemas costs the detail screen's first load ~90 ms of main thread at 4x CPU.
 */
export async function refusalFix(error: unknown): Promise<OrderFix | null> {
  const data = (error as ApiError | undefined)?.data as { fix?: unknown } | null | undefined;
  if (data?.fix === undefined) return null;
  const { orderFixSchema } = await import('../../../contract/trading');
  const parsed = orderFixSchema.safeParse(data.fix);
  return parsed.success ? parsed.data : null;
}

/**
 * Sends an order: a placeOrder-shaped RTK Query mutation trigger (trade/placeOrder,
 * dayTrade/placeOrder) taking the order with the tap's idempotency key (sendTap); resolves to the
 * placed order or the error (an ApiError).
 */
export type PlaceOrderCall = (call: KeyedCall<PlaceOrderInput>) => PromiseLike<CallResult<Order>>;

/** The day-trade mode of OrderPanel (see the module docstring). */
export interface DayTradeMode {
  /** Today's trade date (YYYY-MM-DD, dayTrade/status `tradeDate`): the preview's `dayTradeOn`. */
  tradeDate: string;
  /** Sends the order: the dayTrade/placeOrder mutation's trigger. */
  place: PlaceOrderCall;
  /** Called once the server has accepted the order, with the order. */
  onPlaced: (order: Order) => void;
}

/** OrderPanel's props. Prices are TWD minor units (cents); quantities are lots of SHARES_PER_LOT. */
export interface OrderPanelProps {
  /** The instrument's code, as sent with the order (e.g. "2330"). */
  symbol: string;
  /** Its live quote: market orders preview at its ask (long) or bid (short); none, nothing to send. */
  quote: Quote | undefined;
  /** Day-trade mode; absent, the regular ticket. */
  dayTrade?: DayTradeMode;
  /** Rows shown under the title, above the side (the day-trade ticket's code field). */
  children?: ReactNode;
}

const NO_PREVIEW = { preview: null, dayTradePreview: null } as const;
/**
 * A preview line: its label's string key, its test id's suffix, the amount (TWD minor units) and
 * a note shown after it.
 */
type PreviewRow = readonly [
  labelKey: string,
  testId: string,
  minor: number | null | undefined,
  note?: string,
];

/** What OrderControls calls on a change; each clears the last refusal. Stable for a ticket. */
interface ControlHandlers {
  side(v: Side): void;
  session(v: EntrySession): void;
  type(v: OrderType): void;
  tif(v: TimeInForce): void;
  price(text: string): void;
  lots(v: number | null): void;
  leverage(v: number): void;
}

/**
 * The ticket's inputs (side, session, order type, time in force, price with its checks, lots,
 * leverage). Memoized on primitive props and stable handlers, so a quote tick, which re-renders
 * the preview, leaves these a dozen buttons and the stepper alone (at 20,000 quotes/s the whole
 * ticket re-rendering cost 12 % of a throttled phone's main thread and its long frames:
 * `npm run bench:stream`). Prices are TWD minor units.
 */
const OrderControls = memo(function OrderControls({
  regular,
  side,
  afterHoursOffered,
  afterHoursOpen,
  session,
  orderType,
  tif,
  fixedMinor,
  priceText,
  limitMinor,
  offTick,
  limitFix,
  limitDownMinor,
  limitUpMinor,
  lots,
  leverage,
  leverages,
  on,
  usePrice,
}: {
  regular: boolean;
  side: Side;
  afterHoursOffered: boolean;
  /** The after-hours fixed-price market takes orders now (its 14:00–14:30 window). */
  afterHoursOpen: boolean;
  session: EntrySession;
  orderType: OrderType;
  tif: TimeInForce;
  /** After hours: the fixed price (the close), null before there is one. */
  fixedMinor: number | null;
  priceText: string;
  /** The parsed limit price; null when empty or invalid. */
  limitMinor: number | null;
  /** Off the tick table: the nearest valid prices. */
  offTick: readonly number[] | null;
  /** Outside the daily limits: the limit to use instead. */
  limitFix: number | null;
  limitDownMinor: number | null;
  limitUpMinor: number | null;
  lots: number;
  leverage: number;
  leverages: readonly number[];
  on: ControlHandlers;
  usePrice: (priceMinor: number) => void;
}) {
  const { t } = useTranslation();
  const tid = (name: string) => `${regular ? 'order' : 'dt'}-${name}`;
  const afterHours = session === 'afterHours';
  return (
    <>
      <div className="order-row">
        <span className="order-label">{t('order.side')}</span>
        <Segmented<Side>
          value={side}
          onChange={on.side}
          options={[
            { value: 'long', label: t('side.long'), testId: tid('side-long'), activeColor: RED },
            { value: 'short', label: t('side.short'), testId: tid('side-short'), activeColor: GREEN },
          ]}
        />
      </div>
      {afterHoursOffered && (
        <div className="order-row">
          <span className="order-label">{t('order.session')}</span>
          <Segmented<EntrySession>
            value={session}
            onChange={on.session}
            options={[
              { value: 'regular', label: t('order.sessionRegular'), testId: 'order-session-regular' },
              {
                value: 'afterHours',
                label: t('order.sessionAfterHours'),
                testId: 'order-session-afterHours',
                disabled: !afterHoursOpen && !afterHours,
              },
            ]}
          />
          {!afterHoursOpen && (
            <span className="muted small" data-testid="order-afterHours-closed">
              {t('order.afterHoursClosed')}
            </span>
          )}
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
              onChange={on.type}
              options={[
                { value: 'market', label: t('orderType.market'), testId: tid('type-market') },
                { value: 'limit', label: t('orderType.limit'), testId: tid('type-limit') },
              ]}
            />
          </div>
          {regular && (
            <div className="order-row">
              <span className="order-label">{t('order.tif')}</span>
              <Segmented<TimeInForce>
                value={tif}
                onChange={on.tif}
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
          )}
        </>
      )}
      {!afterHours && orderType === 'limit' && (
        <div className={regular ? 'order-row order-price-row' : 'order-row'}>
          <span className="order-label">{t('order.price')}</span>
          <div className="order-price">
            <TestIdInput
              testId={tid('price')}
              value={priceText}
              onChange={on.price}
              inputMode="decimal"
              placeholder={t('order.pricePlaceholder')}
              clearable={regular}
            />
            {priceText !== '' && limitMinor === null && (
              <div className="field-error">{t('order.priceInvalid')}</div>
            )}
            {offTick && (
              <div className="field-error" data-testid={tid('price-offtick')}>
                {t('order.offTick')}
                {offTick.map((p) => (
                  <PriceFixButton key={p} priceMinor={p} onUse={usePrice} />
                ))}
              </div>
            )}
            {limitFix !== null && limitDownMinor !== null && limitUpMinor !== null && (
              <div className="field-error" data-testid={tid('price-limits')}>
                {t('order.outOfLimits', {
                  down: formatMinor(limitDownMinor),
                  up: formatMinor(limitUpMinor),
                })}
                <PriceFixButton priceMinor={limitFix} onUse={usePrice} />
              </div>
            )}
          </div>
        </div>
      )}
      <div className="order-row">
        <span className="order-label">{t('order.lots')}</span>
        <LotsField
          testId={tid('lots')}
          ariaLabel={t('order.lots')}
          value={lots}
          min={1}
          max={MAX_LOTS_PER_ORDER}
          onChange={on.lots}
        />
        <span className="muted small">{t('order.shares', { n: lots * SHARES_PER_LOT })}</span>
      </div>
      <div className="order-row">
        <span className="order-label">{t('order.leverage')}</span>
        <Segmented<number>
          value={leverage}
          onChange={on.leverage}
          options={leverages.map((n) => ({
            value: n,
            label: `${n}×`,
            testId: `${regular ? '' : 'dt-'}leverage-${n}`,
          }))}
        />
      </div>
    </>
  );
});

/**
 * The order ticket (see the module docstring): side, order type, session and time in force, price,
 * lots, leverage, the live preview, the submit button and a refusal's fix. Used by the detail
 * screen and, with `dayTrade`, by the day-trading screen.
 */
export function OrderPanel({ symbol, quote, dayTrade, children }: OrderPanelProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const loggedIn = useSelector(selectLoggedIn);
  const clock = useClock();
  const { data: config } = useConfigQuery();
  // Asked again each time a ticket opens: the available balance decides what may be sent, and a
  // deposit approved a moment ago must be in it (a cached answer could be up to 30 s old).
  const { data: account } = useUserInfoQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });
  const [placeOrder, { isLoading }] = usePlaceOrderMutation();
  const confirmAbove = useConfirmAbove();

  const leverages = useMemo(() => parseLeverages(config?.leverages, DEFAULT_LEVERAGES), [config?.leverages]);
  const [side, setSide] = useState<Side>('long');
  const [orderTypeChoice, setOrderType] = useState<OrderType | null>(null);
  const [tifChoice, setTif] = useState<TimeInForce>('ROD');
  const [sessionChoice, setSession] = useState<EntrySession | null>(null);
  const [lots, setLots] = useState(1);
  const [leverageChoice, setLeverage] = useState<number | null>(null);
  const leverage =
    leverageChoice !== null && leverages.includes(leverageChoice) ? leverageChoice : leverages[0]!;
  const [priceText, setPriceText] = useState('');
  const [refusal, setRefusal] = useState<{ msg: string; fix: OrderFix | null } | null>(null);
  const [killed, setKilled] = useState<string | null>(null);
  const busy = isLoading;
  /** The regular ticket; false in day-trade mode, which does without some of its parts. */
  const regular = !dayTrade;
  const tid = (name: string) => `${regular ? 'order' : 'dt'}-${name}`;

  // After hours exists on the exchange and replay clocks (not the stress source); the price is the
  // day's close, limit ROD. Until the member picks, the ticket opens on the market taking orders
  // now. A day-trade order is always entered in the regular session.
  const afterHoursOffered = regular && !!clock && clock.source !== 'stress';
  const phaseSession: EntrySession = clock?.tradingPhase === 'afterHoursEntry' ? 'afterHours' : 'regular';
  const session: EntrySession = afterHoursOffered ? (sessionChoice ?? phaseSession) : 'regular';
  const afterHours = session === 'afterHours';
  // After-hours orders are taken 14:00–14:30 only (contract/trading-session.ts PHASE_RULES):
  // outside it the choice is disabled and, if chosen before the window shut, nothing is sent.
  const afterHoursOpen = !!clock && PHASE_RULES[clock.tradingPhase].afterHoursOrders;
  const afterHoursShut = afterHours && !afterHoursOpen;
  // Until the member picks: limit in a call phase (pre-open, closing call: limit ROD only), else market.
  const callPhase = clock?.tradingPhase === 'preOpen' || clock?.tradingPhase === 'closingCall';
  const orderType: OrderType = afterHours ? 'limit' : (orderTypeChoice ?? (callPhase ? 'limit' : 'market'));
  const tif: TimeInForce = afterHours ? 'ROD' : tifChoice;

  const kind = quote?.kind ?? 'stock';
  const fixedMinor = afterHours && quote && quote.lastMinor > 0 ? quote.lastMinor : null;
  const limitMinor = afterHours ? fixedMinor : orderType === 'limit' ? parsePrice(priceText) : null;
  const referenceMinor = quote && quote.prevCloseMinor > 0 ? quote.prevCloseMinor : null;
  // The day's own band from the quote (a 2× ETF's ±20 %; none for a foreign-index ETF or a new
  // listing's first days: contract/dated-rules.ts), as the server checks it.
  const hasLimits = quote ? quoteHasLimits(quote) : true;
  const bandUp = hasLimits && quote && quote.limitUpMinor > 0 ? quote.limitUpMinor : null;
  const bandDown = hasLimits && quote && quote.limitDownMinor > 0 ? quote.limitDownMinor : null;
  // Memoized: its fix arrays go to the memoized controls, and a quote tick changes neither input.
  const rejection = useMemo(
    () =>
      !afterHours && limitMinor !== null
        ? priceRejection(limitMinor, {
            kind,
            referenceMinor,
            hasPriceLimits: hasLimits,
            limits:
              bandUp !== null && bandDown !== null ? { upMinor: bandUp, downMinor: bandDown } : undefined,
          })
        : null,
    [afterHours, limitMinor, kind, referenceMinor, hasLimits, bandUp, bandDown],
  );
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
  const tradeDate = dayTrade?.tradeDate;
  // The sale's tax row is the one in force on the quote's day (a bond ETF's suspension ends
  // 2026-12-31): the replayed date, else the date of the quote's market time.
  const taxKind = quote ? quoteTaxKind(quote) : kind;
  const saleDate = quote ? (quote.replayDate ?? taipeiIsoDate(quote.ts)) : undefined;
  // The account level's fee discount and the coupon chosen here (rewards): in the preview and the order.
  const fee = useFeeDiscount(loggedIn);
  const { discount } = fee;
  // What the order costs now (the opening trade is charged as usual) and, in day-trade mode, with
  // `dayTradeOn`: what its offset today costs (the closing leg at the day-trade rate; a short's
  // opening sale refunded down to that rate when offset the same day).
  const { preview, dayTradePreview } = useMemo(() => {
    if (price === null || !validLots || rejected) return NO_PREVIEW;
    try {
      const sale = saleDate !== undefined ? { taxKind, date: saleDate } : undefined;
      const args = {
        priceMinor: price,
        lots,
        leverage,
        side,
        kind,
        availableMinor: available,
        discount,
        sale,
      };
      return {
        preview: orderPreview(args),
        dayTradePreview: tradeDate !== undefined ? orderPreview({ ...args, dayTradeOn: tradeDate }) : null,
      };
    } catch {
      return NO_PREVIEW;
    }
  }, [
    price,
    lots,
    leverage,
    side,
    kind,
    validLots,
    rejected,
    available,
    tradeDate,
    discount,
    taxKind,
    saleDate,
  ]);
  /** The offset's figures: at the day-trade rate in day-trade mode. */
  const offset = dayTradePreview ?? preview;
  const taxRefund = preview && dayTradePreview ? preview.openTaxMinor - dayTradePreview.openTaxMinor : 0;

  // The whole account after this order and its resting orders, as order entry judges it
  // (contract/risk.ts openingCheck, the server's OPENING_MARGIN_BPS): the server refuses an order
  // that leaves it below the line, so the ticket says so before it is sent.
  const live = useLiveRisk({ skip: !loggedIn });
  const opening = useMemo(() => {
    if (!preview || !live) return null;
    const s = live.summary;
    return openingCheck(
      {
        availableMinor: s.availableMinor,
        debtMinor: s.debtMinor,
        usedMarginMinor: live.risk.usedMarginMinor,
        unrealisedPnlMinor: live.risk.unrealisedPnlMinor,
        restingMarginMinor: s.restingMarginMinor,
      },
      {
        cash: isCashHolding({ side, leverage }),
        marginMinor: preview.marginMinor,
        feeMinor: preview.totalRequiredMinor - preview.marginMinor - preview.openTaxMinor,
        taxMinor: preview.openTaxMinor,
      },
      s.openingBps,
    );
  }, [preview, live, side, leverage]);
  const belowLine = opening !== null && !opening.ok;
  const insufficient =
    preview !== null && preview.availableAfterMinor !== null && preview.availableAfterMinor < 0;
  const priceMissing = orderType === 'limit' && limitMinor === null;
  const canSubmit =
    !!quote &&
    preview !== null &&
    !priceMissing &&
    !rejection &&
    !insufficient &&
    !belowLine &&
    !afterHoursShut;

  // The latest quote for handlers that read it when tapped (a limit order's price prefill), so the
  // handlers keep their identity across ticks.
  const quoteRef = useRef(quote);
  useLayoutEffect(() => {
    quoteRef.current = quote;
  });
  // Stable handlers: the controls (OrderControls) re-render on a change of the order, never on a
  // quote tick. Any change of the order clears the last refusal.
  const { on, act } = useMemo((): { on: ControlHandlers; act: FixActions } => {
    const changed =
      <A extends unknown[]>(f: (...a: A) => void) =>
      (...a: A) => {
        setRefusal(null);
        setKilled(null);
        f(...a);
      };
    return {
      on: {
        side: changed(setSide),
        session: changed(setSession),
        type: changed((v: OrderType) => {
          setOrderType(v);
          const last = quoteRef.current?.lastMinor ?? 0;
          if (regular && v === 'limit' && last > 0) setPriceText((text) => text || minorToInput(last));
        }),
        tif: changed(setTif),
        price: changed(setPriceText),
        // null while the field is empty: 0 lots, nothing computed or sent until it has a number.
        lots: changed((v: number | null) => setLots(v ?? 0)),
        leverage: changed(setLeverage),
      },
      act: {
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
      },
    };
  }, [regular, afterHours]);

  const submitLabel = regular
    ? t(side === 'long' ? 'order.submitLong' : 'order.submitShort')
    : t(side === 'long' ? 'dayTrading.submitLong' : 'dayTrading.submitShort');

  /**
   * Asked before `submit`, with the same render's order: at or above the member's threshold
   * (valued at the total required) the dialog; true to send. What `submit` refuses itself (not
   * logged in, an order it cannot send) is left to it.
   */
  const confirmOrder = async (): Promise<boolean> => {
    if (!loggedIn || !canSubmit || busy || !preview || price === null) return true;
    return confirmAbove(
      orderConfirmRequest(t, {
        symbol,
        name: quote?.name ?? '',
        side,
        orderType,
        afterHours,
        priceMinor: price,
        lots,
        leverage,
        preview,
        submitLabel,
      }),
    );
  };

  const submit = async () => {
    if (!loggedIn) {
      navigate(`/login/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
      return;
    }
    if (!canSubmit || busy) return;
    setRefusal(null);
    setKilled(null);
    // One key for this tap, resent on the automatic retries after a lost answer: at most one order.
    const res = await sendTap<PlaceOrderInput, Order>(
      {
        symbol,
        side,
        orderType,
        priceMinor: orderType === 'limit' && limitMinor !== null ? limitMinor : undefined,
        lots,
        leverage,
        ...(regular ? { timeInForce: tif, session } : {}),
        ...(fee.couponId !== null ? { couponId: fee.couponId } : {}),
      },
      dayTrade?.place ?? placeOrder,
    );
    if ('data' in res && res.data) {
      if (dayTrade) {
        dayTrade.onPlaced(res.data);
        return;
      }
      if (res.data.status === 'cancelled') {
        // An IOC/FOK that could not fill at once: nothing moved; say so here.
        setKilled(res.data.timeInForce);
        return;
      }
      navigate(`/position/position?tab=${res.data.status === 'pending' ? 'orders' : 'holdings'}`);
    } else if ('error' in res) {
      const err = res.error as ApiError;
      if (err.kind === 'refused') setRefusal({ msg: err.msg, fix: await refusalFix(err) });
    }
  };

  const title = t(regular ? 'order.title' : 'dayTrading.ticketTitle');
  const rows: PreviewRow[] = [
    ['order.marketValue', 'value', preview?.marketValueMinor],
    ['order.margin', 'margin', preview?.marginMinor],
    // The fee is already after the level's and the coupon's discount: the discount is a note on
    // it ("1,163（已折 145）"), not a row of its own that reads as a second deduction.
    [
      'order.fee',
      'fee',
      preview ? preview.commissionMinor + preview.clearingFeeMinor : undefined,
      preview && preview.commissionDiscountMinor > 0
        ? t('order.feeDiscounted', { amount: formatMinor(preview.commissionDiscountMinor) })
        : undefined,
    ],
    ['order.tax', 'tax', preview?.openTaxMinor],
    ...(taxRefund > 0 ? [['dayTrading.taxRefund', 'tax-refund', taxRefund] as const] : []),
    [
      regular ? 'order.closeCosts' : 'dayTrading.closeCosts',
      'close-costs',
      offset ? offset.closeCommissionMinor + offset.closeClearingFeeMinor + offset.closeTaxMinor : undefined,
    ],
    ['order.breakEven', 'break-even', offset?.breakEvenPriceMinor],
    ['order.required', 'required', preview?.totalRequiredMinor],
  ];

  return (
    <section className="card order-panel" aria-label={title} data-testid={tid('ticket')}>
      <h3 className="card-title">{title}</h3>
      {children}
      {clock && clock.source !== 'stress' && (
        <div className="order-phase-note" data-testid={tid('phase-note')}>
          <TradingPhaseTag clock={clock} />
          <span>{t(`order.phaseNote.${clock.tradingPhase}`)}</span>
        </div>
      )}
      <OrderControls
        regular={regular}
        side={side}
        afterHoursOffered={afterHoursOffered}
        afterHoursOpen={afterHoursOpen}
        session={session}
        orderType={orderType}
        tif={tif}
        fixedMinor={fixedMinor}
        priceText={priceText}
        limitMinor={limitMinor}
        offTick={offTick}
        limitFix={limitFix}
        limitDownMinor={quote?.limitDownMinor ?? null}
        limitUpMinor={quote?.limitUpMinor ?? null}
        lots={lots}
        leverage={leverage}
        leverages={leverages}
        on={on}
        usePrice={act.usePrice}
      />

      <CouponPicker
        coupons={fee.available}
        value={fee.couponId}
        onChange={fee.setCouponId}
        testId={tid('coupon')}
      />

      <div className="preview" data-testid={tid('preview')}>
        {regular && (
          <LabeledValue
            layout="line"
            label={
              orderType === 'market'
                ? t(side === 'long' ? 'order.priceAtAsk' : 'order.priceAtBid')
                : t('order.price')
            }
            value={price !== null ? formatMinor(price) : ''}
          />
        )}
        {rows.map(([key, id, minor, note]) => (
          <LabeledValue
            key={key}
            layout="line"
            label={t(key)}
            value={minor != null ? formatMinor(minor) + (note ?? '') : ''}
            testId={tid(`preview-${id}`)}
          />
        ))}
        <LabeledValue
          layout="line"
          label={t('order.available')}
          value={loggedIn ? (available !== undefined ? formatMinor(available) : '') : t('order.loginToSee')}
          testId={tid('preview-available')}
          color={insufficient ? RED : undefined}
        />
        {opening !== null && opening.usedAfterMinor > 0 && (
          <LabeledValue
            layout="line"
            label={t('order.ratioAfter', { line: formatBps(live!.summary.openingBps) })}
            value={formatBps(opening.ratioAfterBps)}
            testId={tid('preview-ratio-after')}
            color={belowLine ? RED : undefined}
          />
        )}
        {loggedIn && (
          <LabeledValue
            layout="line"
            label={t('order.availableAfter')}
            value={preview?.availableAfterMinor != null ? formatMinor(preview.availableAfterMinor) : ''}
            testId={tid('preview-available-after')}
            color={insufficient ? RED : undefined}
          />
        )}
        {insufficient && <div className="field-error">{t('errors.insufficientBalance')}</div>}
        {!insufficient && belowLine && (
          <div className="field-error" data-testid={tid('below-line')}>
            {t('order.belowLine', { amount: formatMinor(opening.shortfallMinor) })}
          </div>
        )}
      </div>

      <OrderSubmitButton
        color={side === 'long' ? RED : GREEN}
        disabled={(loggedIn && !canSubmit) || busy}
        onConfirm={confirmOrder}
        onSubmit={submit}
        label={loggedIn || !regular ? submitLabel : t('order.loginToTrade')}
        busyLabel={t('order.submitting')}
        testId={tid('submit')}
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

/** The order ticket following the live quote (market orders preview at the live ask or bid). */
export function LiveOrderPanel({ symbol }: { symbol: string }) {
  const quote = useQuote(symbol);
  return <OrderPanel symbol={symbol} quote={quote} />;
}
