/**
 * The risk feature's public entry: the account's margin figures marked to the live quotes, for
 * the screens of other areas (lint `boundaries/imports` refuses their imports of its other
 * files). `useLiveRisk` (the account's risk pools, amounts in minor units, ratios in bps),
 * `RiskBanner` (the member's risk notices), `LiquidationPrice` (one position's liquidation price)
 * and `usePositionRiskRows` (one position's risk figures as labelled rows).
 */
export { LiquidationPrice } from './components/liquidation-price';
export { usePositionRiskRows, type RiskRow } from './components/position-risk-rows';
export { RiskBanner } from './components/risk-banner';
export { useLiveRisk, type LiveRisk } from './hooks/use-live-risk';
