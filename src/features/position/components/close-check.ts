/**
 * What the close button checks before it asks "close this position?": a refusal the member can
 * learn now is shown instead of the question, with its way out, rather than after they confirmed.
 * Today that is stock lending: a long with shares in loan cannot be sold until they are recalled
 * (server lending/service.ts refuseCloseInLoan, error key `lendingSharesInLoan`).
 */
import { useDispatch } from 'react-redux';
import type { LendingOrder } from '../../../../contract/lending';
import type { Order } from '../../../../contract/trading';
import { api } from '../../../api/api';
import type { AppDispatch } from '../../../app/store';

/** Why closing `order` would be refused, as the server's error key; null when nothing is known. */
export type CloseRefusal = 'lendingSharesInLoan' | null;

/**
 * The refusal of closing `order` given the member's loans (any status; only `inLoan` ones count):
 * a long with any shares in loan. Pure.
 */
export function closeRefusal(
  order: Pick<Order, 'id' | 'side'>,
  loans: readonly LendingOrder[],
): CloseRefusal {
  if (order.side !== 'long') return null;
  return loans.some((l) => l.orderId === order.id && l.status === 'inLoan' && l.shares > 0)
    ? 'lendingSharesInLoan'
    : null;
}

/**
 * A check to run on the tap: fetches the member's loans in loan now (never a cached answer) and
 * resolves to `closeRefusal`. A short needs no call; a failed call resolves to null (the server
 * still refuses, and says so).
 */
export function useCloseCheck(): (order: Pick<Order, 'id' | 'side'>) => Promise<CloseRefusal> {
  const dispatch = useDispatch<AppDispatch>();
  return async (order) => {
    if (order.side !== 'long') return null;
    const req = dispatch(
      api.endpoints.loansInLoan.initiate(undefined, { subscribe: false, forceRefetch: true }),
    );
    try {
      const res = await req.unwrap();
      return closeRefusal(order, res.items);
    } catch {
      return null;
    }
  };
}
