/**
 * The order ticket's confirm step and send (./order-panel.tsx): "are you sure?" at or above the
 * member's confirmation threshold (features/account confirm-above.tsx, ./order-confirm.ts), then the
 * order sent with the tap's idempotency key (sendTap) through trade/placeOrder or, in day-trade
 * mode, `dayTrade.place`. An accepted order navigates to the positions (or goes to
 * `dayTrade.onPlaced`); an IOC/FOK killed at once and a refusal (with its fix) are kept in the
 * ticket's state. Prices are TWD minor units.
 */
import type { TFunction } from 'i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { OrderPreview } from '../../../../contract/market-rules';
import type { Order, PlaceOrderInput } from '../../../../contract/trading';
import { usePlaceOrderMutation } from '../../../api/api';
import type { ApiError } from '../../../api/base-query';
import { sendTap } from '../../../api/idempotency';
import { useConfirmAbove } from '../../account';
import { orderConfirmRequest } from './order-confirm';
import { refusalFix, type DayTradeMode } from './order-ticket-types';
import type { OrderTicket } from './use-order-ticket';

/** What the confirm step and the send read: the same render's order. */
export interface SubmitInput {
  t: TFunction;
  symbol: string;
  /** The instrument's name for the confirm dialog ('' when unknown). */
  name: string;
  ticket: OrderTicket;
  /** The preview price (TWD minor units), null when none. */
  price: number | null;
  preview: OrderPreview | null;
  canSubmit: boolean;
  loggedIn: boolean;
  couponId: number | null;
  submitLabel: string;
  dayTrade: DayTradeMode | undefined;
}

/**
 * The ticket's send: `busy` while an order is in flight; `confirmOrder`, asked before `submit`
 * (true to send; what `submit` refuses itself — not logged in, an order it cannot send — is left
 * to it); `submit`, which sends the tapped order (or goes to the login page when logged out).
 */
export function useOrderSubmit(p: SubmitInput) {
  const navigate = useNavigate();
  const location = useLocation();
  const [placeOrder, { isLoading: busy }] = usePlaceOrderMutation();
  const confirmAbove = useConfirmAbove();
  const { ticket: k, dayTrade, preview, price } = p;

  const confirmOrder = async (): Promise<boolean> => {
    if (!p.loggedIn || !p.canSubmit || busy || !preview || price === null) return true;
    return confirmAbove(
      orderConfirmRequest(p.t, {
        symbol: p.symbol,
        name: p.name,
        side: k.side,
        orderType: k.orderType,
        afterHours: k.afterHours,
        priceMinor: price,
        lots: k.lots,
        leverage: k.leverage,
        preview,
        submitLabel: p.submitLabel,
      }),
    );
  };

  const submit = async () => {
    if (!p.loggedIn) {
      navigate(`/login/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
      return;
    }
    if (!p.canSubmit || busy) return;
    k.setRefusal(null);
    k.setKilled(null);
    // One key for this tap, resent on the automatic retries after a lost answer: at most one order.
    const res = await sendTap<PlaceOrderInput, Order>(
      {
        symbol: p.symbol,
        side: k.side,
        orderType: k.orderType,
        priceMinor: k.orderType === 'limit' && k.limitMinor !== null ? k.limitMinor : undefined,
        lots: k.lots,
        leverage: k.leverage,
        ...(!dayTrade ? { timeInForce: k.tif, session: k.session } : {}),
        ...(p.couponId !== null ? { couponId: p.couponId } : {}),
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
        k.setKilled(res.data.timeInForce);
        return;
      }
      navigate(`/position/position?tab=${res.data.status === 'pending' ? 'orders' : 'holdings'}`);
    } else if ('error' in res) {
      const err = res.error as ApiError;
      if (err.kind === 'refused') k.setRefusal({ msg: err.msg, fix: await refusalFix(err) });
    }
  };

  return { busy, confirmOrder, submit };
}
