/**
 * The member's fee discount in the one fee function (contract/market-rules.ts
 * discountedCommissionMinor, docs/levels.md): level bps off the commission (truncated to whole
 * NT$), a coupon on the opening leg only, never below zero, the minimum commission before the
 * discount, and the preview's fee equal to openCosts' fee.
 */
import { describe, expect, it } from 'vitest';
import {
  commissionMinor,
  discountedCommissionMinor,
  openCosts,
  orderPreview,
} from '../../contract/market-rules';

describe('discountedCommissionMinor', () => {
  // NT$1,000,000 traded: commission 0.1425 % = NT$1,425.
  const value = 100_000_000;
  it('takes the level bps off the commission, truncated to whole NT$', () => {
    expect(commissionMinor(value)).toBe(142_500);
    // 30 % of 1,425 = 427.5 → NT$427 off → NT$998
    expect(discountedCommissionMinor(value, undefined, { levelBps: 3_000 })).toBe(99_800);
  });
  it('applies a coupon after the level on the opening leg only', () => {
    const d = { levelBps: 3_000, couponBps: 5_000 };
    // 998 − floor(499) = 499
    expect(discountedCommissionMinor(value, undefined, d, true)).toBe(49_900);
    expect(discountedCommissionMinor(value, undefined, d, false)).toBe(99_800);
    expect(discountedCommissionMinor(value, undefined, { levelBps: 0, couponOffMinor: 5_000 })).toBe(137_500);
  });
  it('never goes below zero and discounts the minimum commission too', () => {
    // NT$10,000 traded: 14.25 → minimum NT$20
    expect(discountedCommissionMinor(1_000_000, undefined, { levelBps: 0, couponOffMinor: 10_000 })).toBe(0);
    expect(discountedCommissionMinor(1_000_000, undefined, { levelBps: 5_000 })).toBe(1_000);
  });
  it('refuses out-of-range discounts', () => {
    expect(() => discountedCommissionMinor(value, undefined, { levelBps: 10_001 })).toThrow(RangeError);
    expect(() => discountedCommissionMinor(value, undefined, { levelBps: 0, couponOffMinor: -1 })).toThrow(
      RangeError,
    );
  });
  it('the preview and openCosts charge the same fee', () => {
    const args = { priceMinor: 89_500, lots: 3, leverage: 2, side: 'short' as const, kind: 'stock' as const };
    const discount = { levelBps: 2_000, couponOffMinor: 3_000 };
    const p = orderPreview({ ...args, discount });
    const c = openCosts({ ...args, discount });
    expect(p.commissionMinor + p.clearingFeeMinor).toBe(c.feeMinor);
    expect(p.totalRequiredMinor).toBe(c.requiredMinor);
    expect(p.commissionDiscountMinor).toBe(commissionMinor(c.notionalMinor) - p.commissionMinor);
  });
});
