/** The rewards screens, one chunk for both routes (/user/accountLevel, /home/coupons). */
export { AccountLevelPage } from './account-level';
export { CouponsPage } from './coupons';
