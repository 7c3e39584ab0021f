/**
 * How a fee coupon or an offer reads: "NT$50 off fees" for a fixed amount, "20% off fees" for bps
 * (contract/rewards.ts; bps of the commission, 100 bps = 1 %).
 */
import type { TFunction } from 'i18next';
import { formatMinor } from '../../../lib/format';
import { formatBps } from '../../../../contract/money';

export function couponText(
  t: TFunction,
  c: { kind: 'amount' | 'bps'; offMinor: number; offBps: number },
): string {
  return c.kind === 'amount'
    ? t('rewards.couponAmount', { amount: formatMinor(c.offMinor) })
    : t('rewards.couponBps', { percent: formatBps(c.offBps, { trim: true }) });
}
