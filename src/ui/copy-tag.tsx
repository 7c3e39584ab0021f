/**
 * The positions' "copy" tag (copy trading): which of the listed orders are copies of a mentor's
 * (follow/copyOrders, one request per list of at most MAX ids, the newest), the context the rows
 * read it from, and the tag. Kept apart from copy-trading-api.ts so the positions screen loads only
 * this endpoint; shared (src/ui) because the positions screen shows what copy trading knows.
 */
import { createContext, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResOf } from '../../contract/api';
import { api } from '../api/api';

/** The endpoint's limit (contract/copy-trading.ts copyOrdersReq). */
const MAX = 200;

const copyApi = api.injectEndpoints({
  endpoints: (b) => ({
    copyOrders: b.query<ResOf<'follow/copyOrders'>, number[]>({
      query: (orderIds) => ({ name: 'follow/copyOrders', body: { orderIds } }),
    }),
  }),
});

/** The ids among `orders` (newest first) that are copies; empty until known. */
export function useCopyOrderIds(orders: ReadonlyArray<{ id: number; status: string }>): ReadonlySet<number> {
  // Copies open at market: a pending order is never one.
  const ids = useMemo(
    () =>
      orders
        .filter((o) => o.status !== 'pending')
        .slice(0, MAX)
        .map((o) => o.id),
    [orders],
  );
  const { data } = copyApi.useCopyOrdersQuery(ids, { skip: ids.length === 0 });
  return useMemo(() => new Set((data?.copies ?? []).map((c) => c.orderId)), [data]);
}

/** The copies among the rows on screen (useCopyOrderIds), provided by the list. */
export const CopyOrdersContext = createContext<ReadonlySet<number>>(new Set());

/** "Copy" after a position's name when it is a copy. */
export function CopyTag({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  if (!useContext(CopyOrdersContext).has(orderId)) return null;
  return (
    <span className="pos-tag" data-testid={`copy-tag-${orderId}`}>
      {t('position.copyTag')}
    </span>
  );
}
