/**
 * Margin and risk settings from the environment (documented in README "Configuration"):
 *
 * - MARGIN_CALL_BPS (13000 = 130 %): an account whose maintenance ratio (equity ÷ used margin,
 *   contract/risk.ts) falls below it gets a margin-call notice. The number is TW-MARKET-RULES
 *   "Maintenance call" (TWSE Margin Operating Rules Art. 54: below 130 % → margin call); ⚠ the
 *   TWSE ratio is collateral value ÷ loan, this product's is equity ÷ used margin.
 * - MARGIN_CALL_GRACE_DAYS (2): trading days after a call's own to meet it; a call still open on
 *   the next trading day is met by forced sales back to the call line (TW-MARKET-RULES
 *   "Maintenance call": 2 business days). On the replay clock a trading day is a replayed day.
 * - MAINTENANCE_BPS (11000 = 110 %): below it the account's margined positions are sold at market
 *   at once. ⚠ Product choice: the rules document has no such threshold.
 * - OPENING_MARGIN_BPS (default MARGIN_CALL_BPS): an opening order must leave the account (after
 *   it and its resting orders, contract/risk.ts openingCheck) at or above it, so no order opens
 *   the account into a margin call. 10000 turns it off.
 *
 * Whole basis points, 1 … 1,000,000; MAINTENANCE_BPS must not exceed MARGIN_CALL_BPS (a call
 * always comes before a liquidation).
 */
import { DEFAULT_MARGIN_CALL_GRACE_DAYS, DEFAULT_RISK_THRESHOLDS } from '../../../contract/risk';

/** The risk part of the server's Config (server/config.ts). */
export interface RiskConfig {
  marginCallBps: number;
  maintenanceBps: number;
  openingMarginBps: number;
  marginCallGraceDays: number;
}

function bps(v: string | undefined, dflt: number, name: string): number {
  if (v === undefined || v.trim() === '') return dflt;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1 || n > 1_000_000)
    throw new Error(`${name} must be whole basis points between 1 and 1000000, got ${v}`);
  return n;
}

/** Reads the risk settings; throws naming the variable on an invalid value. */
export function loadRiskConfig(env: NodeJS.ProcessEnv): RiskConfig {
  const marginCallBps = bps(env.MARGIN_CALL_BPS, DEFAULT_RISK_THRESHOLDS.marginCallBps, 'MARGIN_CALL_BPS');
  const maintenanceBps = bps(env.MAINTENANCE_BPS, DEFAULT_RISK_THRESHOLDS.maintenanceBps, 'MAINTENANCE_BPS');
  if (maintenanceBps > marginCallBps)
    throw new Error(`MAINTENANCE_BPS (${maintenanceBps}) must not exceed MARGIN_CALL_BPS (${marginCallBps})`);
  const openingMarginBps = bps(env.OPENING_MARGIN_BPS, marginCallBps, 'OPENING_MARGIN_BPS');
  const grace = env.MARGIN_CALL_GRACE_DAYS?.trim()
    ? Number(env.MARGIN_CALL_GRACE_DAYS)
    : DEFAULT_MARGIN_CALL_GRACE_DAYS;
  if (!Number.isSafeInteger(grace) || grace < 0 || grace > 30)
    throw new Error(
      `MARGIN_CALL_GRACE_DAYS must be whole days between 0 and 30, got ${env.MARGIN_CALL_GRACE_DAYS}`,
    );
  return { marginCallBps, maintenanceBps, openingMarginBps, marginCallGraceDays: grace };
}
