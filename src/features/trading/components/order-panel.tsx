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
 * member's confirmation threshold (features/account confirm-above.tsx, ./order-confirm.ts); below it
 * the tap sends the order at once.
 */
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { Quote } from '../../../../contract/market';
import { DEFAULT_LEVERAGES, MAX_LOTS_PER_ORDER } from '../../../../contract/market-rules';
import { parseLeverages, useConfigQuery, useUserInfoQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { GREEN, RED } from '../../../lib/colors';
import { CouponPicker, useFeeDiscount } from '../../rewards';
import { langOf } from '../../../lib/format';
import { useClock, useQuote } from '../../../live/hooks';
import { instrumentName, useNameEn } from '../../../live/names-en';
import type { ClockView } from '../../../live/selectors';
import { FixNotice } from './order-fix';
import { OrderControls, type OrderControlsProps } from './order-controls';
import { OrderPreviewBlock } from './order-preview-block';
import { OrderSubmitButton } from './order-submit-button';
import type { DayTradeMode } from './order-ticket-types';
import { TradingPhaseTag } from '../../../live/components/trading-phase';
import { useOrderPreview } from './use-order-preview';
import { useOrderSubmit } from './use-order-submit';
import { previewPrice, ticketTestId, useOrderTicket, type OrderTicket } from './use-order-ticket';

export { parsePrice, previewPrice } from './use-order-ticket';
export { refusalFix, type DayTradeMode, type PlaceOrderCall } from './order-ticket-types';

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

/** The trading phase and what it means for an order; none on the stress source's clock. */
function PhaseNote({ clock, regular }: { clock: ClockView | null; regular: boolean }) {
  const { t } = useTranslation();
  if (!clock || clock.source === 'stress') return null;
  return (
    <div className="order-phase-note" data-testid={ticketTestId(regular)('phase-note')}>
      <TradingPhaseTag clock={clock} />
      <span>{t(`order.phaseNote.${clock.tradingPhase}`)}</span>
    </div>
  );
}

/** OrderControls' props from the ticket's state: primitives and stable handlers (it is memoized). */
function controlsProps(
  k: OrderTicket,
  quote: Quote | undefined,
  leverages: readonly number[],
  regular: boolean,
): OrderControlsProps {
  return {
    regular,
    side: k.side,
    afterHoursOffered: k.afterHoursOffered,
    afterHoursOpen: k.afterHoursOpen,
    session: k.session,
    orderType: k.orderType,
    tif: k.tif,
    fixedMinor: k.fixedMinor,
    priceText: k.priceText,
    limitMinor: k.limitMinor,
    offTick: k.offTick,
    limitFix: k.limitFix,
    limitDownMinor: quote?.limitDownMinor ?? null,
    limitUpMinor: quote?.limitUpMinor ?? null,
    lots: k.lots,
    leverage: k.leverage,
    leverages,
    on: k.on,
    usePrice: k.act.usePrice,
  };
}

/**
 * The order ticket (see the module docstring): side, order type, session and time in force, price,
 * lots, leverage, the live preview, the submit button and a refusal's fix. Used by the detail
 * screen and, with `dayTrade`, by the day-trading screen.
 */
export function OrderPanel({ symbol, quote, dayTrade, children }: OrderPanelProps) {
  const { t, i18n } = useTranslation();
  const nameEn = useNameEn(symbol);
  const name = quote ? instrumentName({ name: quote.name, nameEn }, langOf(i18n.language)) : '';
  const loggedIn = useSelector(selectLoggedIn);
  const clock = useClock();
  const { data: config } = useConfigQuery();
  // Asked again each time a ticket opens: the available balance decides what may be sent, and a
  // deposit approved a moment ago must be in it (a cached answer could be up to 30 s old).
  const { data: account } = useUserInfoQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });
  const leverages = useMemo(() => parseLeverages(config?.leverages, DEFAULT_LEVERAGES), [config?.leverages]);
  /** The regular ticket; false in day-trade mode, which does without some of its parts. */
  const regular = !dayTrade;
  const tid = ticketTestId(regular);
  const k = useOrderTicket(regular, quote, clock, leverages);
  const { side, orderType, lots } = k;
  const price = previewPrice(orderType, side, k.limitMinor, quote);
  const validLots = Number.isInteger(lots) && lots >= 1 && lots <= MAX_LOTS_PER_ORDER;
  const available = account?.availableMinor;
  // The account level's fee discount and the coupon chosen here (rewards): in the preview and the order.
  const fee = useFeeDiscount(loggedIn);
  const pv = useOrderPreview({
    ...{ price, lots, leverage: k.leverage, side, quote, available, loggedIn },
    ...{ valid: validLots && k.rejection === null, tradeDate: dayTrade?.tradeDate, discount: fee.discount },
  });
  const priceMissing = orderType === 'limit' && k.limitMinor === null;
  const canSubmit =
    !!quote &&
    pv.preview !== null &&
    !priceMissing &&
    !k.rejection &&
    !pv.insufficient &&
    !pv.belowLine &&
    !k.afterHoursShut;
  const submitLabel = regular
    ? t(side === 'long' ? 'order.submitLong' : 'order.submitShort')
    : t(side === 'long' ? 'dayTrading.submitLong' : 'dayTrading.submitShort');
  const { busy, confirmOrder, submit } = useOrderSubmit({
    ...{ t, symbol, name, ticket: k, price, preview: pv.preview, canSubmit },
    ...{ loggedIn, couponId: fee.couponId, submitLabel, dayTrade },
  });
  const title = t(regular ? 'order.title' : 'dayTrading.ticketTitle');
  return (
    <section className="card order-panel" aria-label={title} data-testid={tid('ticket')}>
      <h3 className="card-title">{title}</h3>
      {children}
      <PhaseNote clock={clock} regular={regular} />
      <OrderControls {...controlsProps(k, quote, leverages, regular)} />

      <CouponPicker
        coupons={fee.available}
        value={fee.couponId}
        onChange={fee.setCouponId}
        testId={tid('coupon')}
      />

      <OrderPreviewBlock {...{ regular, orderType, side, price, pv, loggedIn, available }} />

      <OrderSubmitButton
        color={side === 'long' ? RED : GREEN}
        disabled={(loggedIn && !canSubmit) || busy}
        onConfirm={confirmOrder}
        onSubmit={submit}
        label={loggedIn || !regular ? submitLabel : t('order.loginToTrade')}
        busyLabel={t('order.submitting')}
        testId={tid('submit')}
      />
      {k.refusal && <FixNotice msg={k.refusal.msg} fix={k.refusal.fix} act={k.act} />}
      {k.killed && (
        <div className="field-error" data-testid="order-killed" role="status">
          {t('order.killed', { tif: k.killed })}
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
