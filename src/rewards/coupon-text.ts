/**
 * How a fee coupon or an offer reads: "NT$50 off fees" for a fixed amount, "20% off fees" for bps
 * (contract/rewards.ts; bps of the commission, 100 bps = 1 %).
 */
import type { TFunction } from 'i18next';
import { formatMinor } from '../lib/format';

export function couponText(
  t: TFunction,
  c: { kind: 'amount' | 'bps'; offMinor: number; offBps: number },
): string {
  return c.kind === 'amount'
    ? t('rewards.couponAmount', { amount: formatMinor(c.offMinor) })
    : t('rewards.couponBps', { percent: (c.offBps / 100).toString() });
}

/** A discount in bps of the commission as a percentage text ("30%"). */
export const bpsPercent = (bps: number) => `${(bps / 100).toString()}%`;
