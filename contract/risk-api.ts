/**
 * Margin and risk endpoints (issue 5 "Margin and risk"): the account's maintenance ratio and each
 * holding's liquidation price (`risk/summary`), the member's risk notices (`risk/events`) and
 * marking them read (`risk/markRead`). Definitions of every figure: contract/risk.ts. Money in
 * TWD minor units, ratios and thresholds in basis points (13,000 = 130 %), times epoch ms.
 */
import { z } from 'zod';
import { bigIdSchema, idSchema as id } from './ids';
import { pageQuery, paged } from './envelope';
import { INSTRUMENT_KINDS } from './market';
import { ORDER_SIDES } from './trading';

const minor = z.number().int();

export const RISK_EVENT_KINDS = ['marginCall', 'marginCallCleared', 'liquidation'] as const;
export const riskEventKindSchema = z.enum(RISK_EVENT_KINDS);
export type RiskEventKind = z.infer<typeof riskEventKindSchema>;

export const riskLevelSchema = z.enum(['none', 'ok', 'marginCall', 'liquidation']);

/** One open position's risk (contract/risk.ts PositionRisk) with what the screens show next to it. */
export const positionRiskSchema = z.object({
  orderId: z.number().int(),
  symbol: z.string(),
  side: z.enum(ORDER_SIDES),
  kind: z.enum(INSTRUMENT_KINDS),
  leverage: z.number().int(),
  /** A cash holding (a long at 1×, contract/risk.ts isCashHolding): no liquidation price, never sold. */
  cash: z.boolean(),
  /** The copy-trading follow whose pool it is in; null: the member's own. */
  followId: z.number().int().nullable(),
  /** Average fill price (rounded once a corporate action changed the shares). */
  openPriceMinor: minor,
  /** Σ fill price × shares: the base of the unrealised P&L and the liquidation price. */
  openValueMinor: minor,
  shares: z.number().int(),
  marginMinor: minor,
  /** The mark used: the live quote's last price (the opening price when no quote is known). */
  markMinor: minor,
  unrealisedPnlMinor: minor,
  /** margin + unrealised P&L. */
  equityMinor: minor,
  /** The position alone: ⌊equity × 10,000 ÷ margin⌋ (10,000 at the opening price). */
  ratioBps: z.number().int(),
  /** Price at which its pool falls below maintenance; null: none (always for a cash holding). */
  liquidationPriceMinor: minor.nullable(),
});
export type PositionRiskDto = z.infer<typeof positionRiskSchema>;

/** A follow's pool collateral (its cash), for the client to re-mark that pool. */
export const riskPoolSchema = z.object({ followId: z.number().int(), cashMinor: minor });

/**
 * risk/summary: the inputs (ledger balances, thresholds) and the result at the server's marks, for
 * the member's own pool (contract/risk.ts; copies are judged in their follow's pool). The client
 * re-marks the same inputs to its live quotes with contract/risk.ts `accountRisk`.
 */
export const riskSummaryRes = z.object({
  marginCallBps: z.number().int(),
  maintenanceBps: z.number().int(),
  /** The opening line (OPENING_MARGIN_BPS) the order ticket judges an order against. */
  openingBps: z.number().int(),
  /** Ledger balances: available (≥ 0), frozen (every kind), debt (≤ 0). */
  availableMinor: minor,
  frozenMinor: minor,
  /** Frozen for the member's own resting orders (part of `frozenMinor`; counted in equity). */
  frozenForOrdersMinor: minor,
  /** Margin the member's resting margined orders will use when they fill. */
  restingMarginMinor: minor,
  debtMinor: minor,
  usedMarginMinor: minor,
  unrealisedPnlMinor: minor,
  /** available + frozen for orders + debt + used margin + unrealised P&L (margined positions). */
  equityMinor: minor,
  /** ⌊equity × 10,000 ÷ used margin⌋; null with no open position. */
  ratioBps: z.number().int().nullable(),
  level: riskLevelSchema,
  marginCallEquityMinor: minor,
  maintenanceEquityMinor: minor,
  /** A margin call was raised and has not been cleared yet. */
  marginCallActive: z.boolean(),
  /** The open call's deadline: the trading date its forced sales start (null: none or unknown). */
  marginCallSaleDate: z.string().nullable(),
  /** The open call's order of sales (symbols), as its notice named it. */
  marginCallSaleOrder: z.array(z.string()),
  /** Risk notices not yet marked read. */
  unreadEvents: z.number().int(),
  /** Id of the newest risk notice (null: none); a client refreshes its positions when it grows. */
  lastEventId: z.number().int().nullable(),
  positions: z.array(positionRiskSchema),
  pools: z.array(riskPoolSchema),
});
export type RiskSummary = z.infer<typeof riskSummaryRes>;

/**
 * A risk notice. marginCall / marginCallCleared: the account crossed the call threshold (down /
 * back up), `orderId` null; a call names its deadline and the order of sales. liquidation: one
 * margined position closed at market, because the account was below maintenance or a call was
 * unmet by its deadline (`cause`); `orderId` the position, `priceMinor` its closing price,
 * `markMinor` the last price that triggered it, `ratioBps` the account ratio then,
 * `thresholdBps` the threshold it was sold back to.
 */
export const riskEventSchema = z.object({
  id: z.number().int(),
  kind: riskEventKindSchema,
  orderId: z.number().int().nullable(),
  symbol: z.string().nullable(),
  ratioBps: z.number().int().nullable(),
  thresholdBps: z.number().int().nullable(),
  /** liquidation: the closing price; calls: null. */
  priceMinor: minor.nullable(),
  /** The last price of the instrument that triggered the event (calls: null). */
  markMinor: minor.nullable(),
  equityMinor: minor.nullable(),
  usedMarginMinor: minor.nullable(),
  /** marginCall: the trading date from which an unmet call is met by forced sales (null: none). */
  saleDate: z.string().nullable(),
  /** marginCall: the symbols of the margined positions in the order they would be sold. */
  saleOrder: z.array(z.string()),
  /** marginCall: raised by a fall straight below maintenance, sold at once. */
  immediate: z.boolean(),
  /** liquidation: below maintenance, or a call unmet by its deadline. */
  cause: z.enum(['maintenance', 'deadline']).nullable(),
  createdAt: z.number().int(),
  readAt: z.number().int().nullable(),
});
export type RiskEvent = z.infer<typeof riskEventSchema>;

/** risk/events: newest first; `orderId` narrows to one position's (it must be the caller's). */
export const riskEventsReq = pageQuery.extend({
  orderId: id.optional(),
  unreadOnly: z.boolean().default(false),
});
export const riskEventsRes = paged(riskEventSchema).extend({ unread: z.number().int() });

/** risk/markRead: the given notices (ignored when not the caller's), or every unread one. */
export const riskMarkReadReq = z.object({
  eventIds: z.array(bigIdSchema).max(200).optional(),
});
export const riskMarkReadRes = z.object({ ok: z.literal(true), unread: z.number().int() });
