/**
 * The rewards feature's public entry (lint `boundaries/imports` refuses other features' imports of
 * its other files): the order ticket's fee discount (`useFeeDiscount`, the account level's
 * discount and the chosen fee coupon; `CouponPicker`, the coupon choice) and the member centre's
 * `RewardsCard` (level, points, coupons, the daily sign-in).
 */
export { CouponPicker, useFeeDiscount } from './components/fee-discount';
export { RewardsCard } from './components/rewards-card';
