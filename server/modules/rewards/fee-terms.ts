/**
 * The trading engine's source of member fee discounts (engine.ts FeeTerms): the account level's
 * discount (levels.ts LevelDiscounts, cached) and the claim of a fee coupon (coupons.ts), both on the wall clock
 * `now` (epoch ms).
 */
import type { FeeTerms } from '../trading/engine';
import { claimCoupon } from './coupons';
import type { LevelDiscounts } from './levels';

export function rewardsFeeTerms(levels: LevelDiscounts, now: () => number): FeeTerms {
  return {
    levelBps: (userId) => levels.bps(userId, now()),
    claimCoupon: (tx, userId, couponId, orderNo) => claimCoupon(tx, userId, couponId, orderNo, now()),
  };
}
