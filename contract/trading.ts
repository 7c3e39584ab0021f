/**
 * Orders and positions (product-spec §3 "Order or position", §4 "Order"), and the order ticket's
 * refusals with their fixes (issue 5: "a rejected order names the rule and offers the fix").
 */
import { z } from 'zod';
import { idSchema } from './ids';
import { POSITION_TABS } from './constants';
import { pageQuery, paged } from './envelope';

export { POSITION_TABS } from './constants';
import { MAX_LOTS_PER_ORDER, TIME_IN_FORCE } from './market-rules';
import { symbolSchema } from './market';
// Types only: trading-session.ts uses luxon, which the phone bundle must not load through here.
import type { EntryMarket, TradingPhase } from './trading-session';

const minor = z.number().int();

/** An order's direction (orders.side). */
export const ORDER_SIDES = ['long', 'short'] as const;
export const sideSchema = z.enum(ORDER_SIDES);
/** An order's price kind (orders.order_type). */
export const ORDER_TYPES = ['limit', 'market'] as const;
export const orderTypeSchema = z.enum(ORDER_TYPES);
/** ROD (rest of day), IOC (immediate or cancel), FOK (fill or kill): market-rules.ts TIME_IN_FORCE. */
export const timeInForceSchema = z.enum(TIME_IN_FORCE);
/**
 * Where an order is entered: the regular session (pre-open, continuous, closing call) or the
 * after-hours fixed-price session (14:00–14:30, one match at 14:30 at the day's close, whole lots;
 * TW-MARKET-RULES "After-hours fixed price").
 */
export const ENTRY_SESSIONS = ['regular', 'afterHours'] as const;
export const entrySessionSchema = z.enum(ENTRY_SESSIONS) satisfies z.ZodType<EntryMarket>;

/**
 * The spec's order states (§4 "Order"):
 * - `pending` (entrusted): resting or queued for the next match, funds frozen; the only state
 *   that can be cancelled;
 * - `holding`: an open position;
 * - `closing` ("ready to close"): a close was asked for while the market matches by call auction
 *   (pre-open, closing call); it closes at that auction's price;
 * - `closed`: the position was closed (by the member, a forced liquidation or the day-trade close;
 *   see `closeReason`);
 * - `cancelled`: never filled (cancelled by the member, an IOC/FOK that could not fill at once, an
 *   ROD that expired at the end of its trading day);
 * - `sold`: in the spec's list for allocations sold (IPO and placement shares, which come with
 *   those products); the trading engine never produces it.
 */
export const ORDER_STATUSES = ['pending', 'holding', 'closing', 'closed', 'cancelled', 'sold'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/**
 * Why an order ended: `user` (the member closed or cancelled it), `liquidation` (forced close
 * below maintenance), `dayTradeClose` (a day trade not offset by the close), `ioc` / `fok` (could
 * not fill at once), `expired` (an ROD order unfilled at the end of its trading day),
 * `insufficientFunds` (an auction fill at a price that needed more margin than the member had).
 * A copy (copy trading, contract/copy-trading.ts) closed by copy trading itself: `copyMentorClosed`
 * (the mentor closed the order it copies), `copyStopLoss` (the follow's copy stop-loss),
 * `copyFollowEnded` (the follow was stopped, reached its deadline or was cancelled).
 */
export const CLOSE_REASONS = [
  'user',
  'liquidation',
  'dayTradeClose',
  'ioc',
  'fok',
  'expired',
  'insufficientFunds',
  'copyMentorClosed',
  'copyStopLoss',
  'copyFollowEnded',
  /**
   * A corporate action: a resting order it could not adjust exactly (cancelled, funds released),
   * or a position smaller than one new share (paid in cash): contract/corporate-actions.ts.
   */
  'corporateAction',
] as const;
export const closeReasonSchema = z.enum(CLOSE_REASONS);
export type CloseReason = z.infer<typeof closeReasonSchema>;

export const placeOrderReq = z
  .object({
    symbol: symbolSchema,
    side: sideSchema,
    orderType: orderTypeSchema,
    /** Limit price in minor units; required for limit orders, ignored for market orders. */
    priceMinor: z.number().int().positive().max(100_000_000).optional(),
    lots: z.number().int().min(1).max(MAX_LOTS_PER_ORDER, 'exceedsOrderShares'),
    leverage: z.number().int().min(1).max(100),
    /** Default ROD. IOC and FOK are accepted in continuous trading only. */
    timeInForce: timeInForceSchema.default('ROD'),
    /**
     * Default `regular`. `afterHours`: a limit order at exactly the day's close (the fixed price),
     * ROD, entered 14:00–14:30.
     */
    session: entrySessionSchema.default('regular'),
    /**
     * A fee coupon of the member's (contract/rewards.ts) to take off this order's opening
     * commission; used by this order only (returned if the order is cancelled unfilled).
     */
    couponId: idSchema.optional(),
  })
  .refine((v) => v.orderType === 'market' || v.priceMinor !== undefined, {
    message: 'parameterError',
    path: ['priceMinor'],
  });
export type PlaceOrderReq = z.infer<typeof placeOrderReq>;
/** What a caller may send (timeInForce and session optional). */
export type PlaceOrderInput = z.input<typeof placeOrderReq>;

export const orderIdReq = z.object({ orderId: idSchema });

export const orderSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name (null when it publishes none, e.g. for ETFs). */
  nameEn: z.string().nullable(),
  side: sideSchema,
  orderType: orderTypeSchema,
  limitPriceMinor: minor.nullable(),
  lots: z.number().int(),
  shares: z.number().int(),
  leverage: z.number().int(),
  status: orderStatusSchema,
  timeInForce: timeInForceSchema,
  entrySession: entrySessionSchema,
  /** Trading date (YYYY-MM-DD, the market's date) the order was entered for; null for old rows. */
  tradeDate: z.string().nullable(),
  /** Opened and closed on the same trading day as a day trade (sale taxed at the day-trade rate). */
  dayTrade: z.boolean(),
  /** Why it was closed or cancelled (CLOSE_REASONS); null while live. */
  closeReason: z.string().nullable(),
  frozenMinor: minor,
  /** Average fill price (minor), rounded once a corporate action changed the shares. */
  openPriceMinor: minor.nullable(),
  /** The position's cost: Σ fill price × shares (minor), every P&L's base; null until filled. */
  openValueMinor: minor.nullable(),
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
  /**
   * Realised P&L of a closed position by the one definition (docs/glossary.md "Realised P&L":
   * gross + fees and taxes + dividends and lending fees), set by trade/orders and
   * trade/orderDetail (server/modules/wallet/pnl.ts); null while not closed, absent elsewhere.
   */
  realisedMinor: minor.nullable().optional(),
  createdAt: z.number().int(),
  /**
   * Market time (epoch ms) of `openedAt`, else `createdAt`: on the replay clock the replayed
   * date's time of day (contract/trading-session.ts marketTimeOfWall), else the wall time. Set by
   * dayTrade/transactions; absent elsewhere.
   */
  marketAt: z.number().int().optional(),
});
export type Order = z.infer<typeof orderSchema>;

/**
 * The price result of a closed order net of its own fees and taxes, TWD minor: the gross
 * `pnlMinor` (price difference × shares) less the opening and closing fees and taxes; null until
 * it is closed. Not the member's realised P&L, which also counts dividends and lending fees
 * (`realisedMinor`, docs/glossary.md "Realised P&L").
 */
export function netPnlMinor(
  o: Pick<Order, 'pnlMinor' | 'openFeeMinor' | 'openTaxMinor' | 'closeFeeMinor' | 'closeTaxMinor'>,
): number | null {
  if (o.pnlMinor === null) return null;
  return o.pnlMinor - o.openFeeMinor - o.openTaxMinor - o.closeFeeMinor - o.closeTaxMinor;
}

export const ordersReq = pageQuery.extend({ tab: z.enum(POSITION_TABS) });
export const ordersRes = paged(orderSchema);

// ---- refusals with their fix ----

/** contract/trading-session.ts TRADING_PHASES, repeated as data so this module needs no luxon. */
const tradingPhaseSchema = z.enum([
  'closed',
  'preOpen',
  'continuous',
  'closingCall',
  'intermission',
  'afterHoursEntry',
]) satisfies z.ZodType<TradingPhase>;

/**
 * The fix a refused order comes with, by rule (the envelope's `data.fix`):
 * - `offTick` (priceOffTick): the two nearest valid prices;
 * - `aboveLimitUp` / `belowLimitDown` (exceedsPriceLimit): the limit price to use;
 * - `outsideSession` (nonTradingTime): the phase now and when order entry opens
 *   (`opensAtMs` epoch ms; null when this market clock never opens that market, e.g. the
 *   after-hours session on the replay clock);
 * - `continuousOnly` (orderTypeNotInSession): send a limit ROD order (at `priceMinor`, the last
 *   price, when known), or wait for continuous trading at `continuousAtMs`;
 * - `afterHoursPrice` (afterHoursFixedPrice): the fixed price (the day's close) and ROD;
 * - `maxLots` (exceedsOrderShares): the largest order accepted;
 * - `lockUp` (lockUpPeriod): when the position may be closed (epoch ms, wall clock);
 * - `tPlusOne` (tPlusOneCannotSell): the trading date from which it may be sold;
 * - `dailyLimit` (dailyPurchaseLimit): the limit and the trading date it applies to;
 * - `openingLine` (belowOpeningLine): the account after the order and its resting orders
 *   (contract/risk.ts openingCheck): its ratio (null: nothing margined), the line in bps and the
 *   equity missing to reach it (minor): add that much, or order less.
 */
export const orderFixSchema = z.discriminatedUnion('rule', [
  z.object({ rule: z.literal('offTick'), nearestMinor: z.tuple([minor, minor]) }),
  z.object({ rule: z.literal('aboveLimitUp'), limitUpMinor: minor }),
  z.object({ rule: z.literal('belowLimitDown'), limitDownMinor: minor }),
  z.object({
    rule: z.literal('outsideSession'),
    phase: tradingPhaseSchema,
    market: entrySessionSchema,
    opensAtMs: z.number().int().nullable(),
  }),
  z.object({
    rule: z.literal('continuousOnly'),
    phase: tradingPhaseSchema,
    orderType: z.literal('limit'),
    timeInForce: z.literal('ROD'),
    priceMinor: minor.nullable(),
    continuousAtMs: z.number().int().nullable(),
  }),
  z.object({
    rule: z.literal('afterHoursPrice'),
    priceMinor: minor,
    orderType: z.literal('limit'),
    timeInForce: z.literal('ROD'),
  }),
  z.object({ rule: z.literal('maxLots'), maxLots: z.number().int() }),
  z.object({ rule: z.literal('lockUp'), closableAtMs: z.number().int() }),
  z.object({ rule: z.literal('tPlusOne'), tradeDate: z.string(), sellableFrom: z.string().nullable() }),
  z.object({ rule: z.literal('dailyLimit'), limit: z.number().int(), tradeDate: z.string() }),
  z.object({
    rule: z.literal('openingLine'),
    ratioAfterBps: z.number().int().nullable(),
    lineBps: z.number().int(),
    shortfallMinor: minor,
  }),
]);
export type OrderFix = z.infer<typeof orderFixSchema>;

/** `data` of a refused trade/placeOrder or trade/closePosition that has a fix. */
export const orderRefusalData = z.object({ fix: orderFixSchema });
export type OrderRefusalData = z.infer<typeof orderRefusalData>;
