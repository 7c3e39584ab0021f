/**
 * The trading engine's source of member fee discounts (engine.ts FeeTerms): the account level's
 * discount (levels.ts, cached) and the claim of a fee coupon (coupons.ts), both on the wall clock
 * `now` (epoch ms).
 */
import type { Db } from '../../db/client';
import type { FeeTerms } from '../trading/engine';
import { claimCoupon } from './coupons';
import { levelBpsCached } from './levels';

export function rewardsFeeTerms(db: Db, now: () => number): FeeTerms {
  return {
    levelBps: (userId) => levelBpsCached(db, userId, now()),
    claimCoupon: (tx, userId, couponId, orderNo) => claimCoupon(tx, userId, couponId, orderNo, now()),
  };
}
