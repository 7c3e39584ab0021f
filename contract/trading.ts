/** Orders and positions (product-spec §3 "Order or position", §4 "Order"). */
import { z } from 'zod';
import { POSITION_TABS } from './constants';
import { pageQuery, paged } from './envelope';

export { POSITION_TABS } from './constants';
import { MAX_LOTS_PER_ORDER } from './market-rules';
import { symbolSchema } from './market';

const minor = z.number().int();

export const sideSchema = z.enum(['long', 'short']);
export const orderTypeSchema = z.enum(['limit', 'market']);
/** Spec order states used so far: pending (entrusted), holding, closed, cancelled. */
export const orderStatusSchema = z.enum(['pending', 'holding', 'closed', 'cancelled']);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const placeOrderReq = z
  .object({
    symbol: symbolSchema,
    side: sideSchema,
    orderType: orderTypeSchema,
    /** Limit price in minor units; required for limit orders, ignored for market orders. */
    priceMinor: z.number().int().positive().max(100_000_000).optional(),
    lots: z.number().int().min(1).max(MAX_LOTS_PER_ORDER),
    leverage: z.number().int().min(1).max(100),
  })
  .refine((v) => v.orderType === 'market' || v.priceMinor !== undefined, {
    message: 'parameterError',
    path: ['priceMinor'],
  });
export type PlaceOrderReq = z.infer<typeof placeOrderReq>;

export const orderIdReq = z.object({ orderId: z.number().int().positive().max(2_147_483_647) });

export const orderSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  symbol: z.string(),
  name: z.string(),
  side: sideSchema,
  orderType: orderTypeSchema,
  limitPriceMinor: minor.nullable(),
  lots: z.number().int(),
  shares: z.number().int(),
  leverage: z.number().int(),
  status: orderStatusSchema,
  frozenMinor: minor,
  openPriceMinor: minor.nullable(),
  openedAt: z.number().int().nullable(),
  marginMinor: minor,
  openFeeMinor: minor,
  openTaxMinor: minor,
  closePriceMinor: minor.nullable(),
  closedAt: z.number().int().nullable(),
  closeFeeMinor: minor,
  closeTaxMinor: minor,
  /** Gross realised P&L; null until closed. */
  pnlMinor: minor.nullable(),
  createdAt: z.number().int(),
});
export type Order = z.infer<typeof orderSchema>;

export const ordersReq = pageQuery.extend({ tab: z.enum(POSITION_TABS) });
export const ordersRes = paged(orderSchema);
