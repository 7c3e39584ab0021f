/**
 * The rewards calls (rewards/* and user/accountLevel of contract/api.ts), injected into the app's
 * one RTK Query API from this shared module: the member centre's card, the order ticket's coupon
 * choice and the rewards screens use them. `Rewards` tags points, level and coupons; redeeming
 * a cash code also refreshes the account and fund records (money is credited); placing or
 * cancelling an order refreshes the coupons (a coupon is used or given back).
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import type { CouponTab } from '../../../../contract/rewards';
import { api } from '../../../api/api';

/** A money-moving call (a cash code credits the wallet): its body and this submission's key. */
export interface RewardsCall<N extends 'rewards/redeemCode' | 'rewards/buyCoupon'> {
  body: ReqOf<N>;
  idempotencyKey: string;
}

export const rewardsApi = api.enhanceEndpoints({ addTagTypes: ['Rewards'] }).injectEndpoints({
  endpoints: (b) => ({
    rewardsSummary: b.query<ResOf<'rewards/summary'>, void>({
      query: () => ({ name: 'rewards/summary', body: {}, silent: true }),
      providesTags: ['Rewards', 'Orders'],
    }),
    accountLevel: b.query<ResOf<'user/accountLevel'>, void>({
      query: () => ({ name: 'user/accountLevel', body: {} }),
      providesTags: ['Rewards', 'Orders', 'Account'],
    }),
    coupons: b.query<ResOf<'rewards/coupons'>, CouponTab>({
      query: (tab) => ({ name: 'rewards/coupons', body: { tab, page: 1, pageSize: 50 } }),
      providesTags: ['Rewards', 'Orders'],
    }),
    couponOffers: b.query<ResOf<'rewards/couponOffers'>, void>({
      query: () => ({ name: 'rewards/couponOffers', body: {} }),
      providesTags: ['Rewards'],
    }),
    redeemCode: b.mutation<ResOf<'rewards/redeemCode'>, RewardsCall<'rewards/redeemCode'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'rewards/redeemCode', body, idempotencyKey }),
      invalidatesTags: ['Rewards', 'Account', 'Funds'],
    }),
    buyCoupon: b.mutation<ResOf<'rewards/buyCoupon'>, RewardsCall<'rewards/buyCoupon'>>({
      query: ({ body, idempotencyKey }) => ({ name: 'rewards/buyCoupon', body, idempotencyKey }),
      invalidatesTags: ['Rewards'],
    }),
    signIn: b.mutation<ResOf<'rewards/signIn'>, void>({
      query: () => ({ name: 'rewards/signIn', body: {} }),
      invalidatesTags: ['Rewards'],
    }),
  }),
});

export const {
  useRewardsSummaryQuery,
  useAccountLevelQuery,
  useCouponsQuery,
  useCouponOffersQuery,
  useRedeemCodeMutation,
  useBuyCouponMutation,
  useSignInMutation,
} = rewardsApi;
