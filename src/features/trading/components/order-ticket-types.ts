/**
 * The order ticket's (./order-panel.tsx) day-trade mode and order sending types, and the reading
 * of a refusal's fix. Re-exported by ./order-panel.tsx, their public home.
 */
import type { Order, OrderFix, PlaceOrderInput } from '../../../../contract/trading';
import type { ApiError } from '../../../api/base-query';
import type { CallResult, KeyedCall } from '../../../api/idempotency';

/**
 * The fix of a refused order, when the refusal carries one (`data.fix`), checked against the
 * contract's schema. The schema module is loaded then, not with the ticket: building the
 * contract's schemas costs the detail screen's first load ~90 ms of main thread at 4x CPU.
 */
export async function refusalFix(error: unknown): Promise<OrderFix | null> {
  const data = (error as ApiError | undefined)?.data as { fix?: unknown } | null | undefined;
  if (data?.fix === undefined) return null;
  const { orderFixSchema } = await import('../../../../contract/trading');
  const parsed = orderFixSchema.safeParse(data.fix);
  return parsed.success ? parsed.data : null;
}

/**
 * Sends an order: a placeOrder-shaped RTK Query mutation trigger (trade/placeOrder,
 * dayTrade/placeOrder) taking the order with the tap's idempotency key (sendTap); resolves to the
 * placed order or the error (an ApiError).
 */
export type PlaceOrderCall = (call: KeyedCall<PlaceOrderInput>) => PromiseLike<CallResult<Order>>;

/** The day-trade mode of OrderPanel (see ./order-panel.tsx's module docstring). */
export interface DayTradeMode {
  /** Today's trade date (YYYY-MM-DD, dayTrade/status `tradeDate`): the preview's `dayTradeOn`. */
  tradeDate: string;
  /** Sends the order: the dayTrade/placeOrder mutation's trigger. */
  place: PlaceOrderCall;
  /** Called once the server has accepted the order, with the order. */
  onPlaced: (order: Order) => void;
}
