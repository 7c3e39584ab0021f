/**
 * The REST API registry: every `POST /api/vue/{area}/{action}` endpoint with its request and
 * response schemas and who may call it. The server registers routes from this table (so every
 * request is validated at the edge and the OpenAPI document at /api/docs is generated from it);
 * the client derives its call types from it.
 */
import type { z } from 'zod';
import * as account from './account';
import * as admin from './admin';
import * as auth from './auth';
import * as common from './common';
import * as copy from './copy-trading';
import * as credit from './credit';
import * as dayTrading from './day-trading';
import * as dividends from './dividends';
import * as funds from './funds';
import * as identity from './identity';
import * as ipo from './ipo';
import * as lending from './lending';
import * as market from './market';
import * as news from './news';
import * as notices from './notices';
import * as primary from './primary';
import * as rewards from './rewards';
import * as risk from './risk-api';
import * as search from './search';
import * as support from './support';
import * as trading from './trading';
import * as wallet from './wallet';

/**
 * Who may call an endpoint. public: anyone; member: a logged-in member only (an operator's
 * session is refused, so nobody reviews money they requested themselves); operator: role operator
 * or admin; any: any logged-in user, for what belongs to every account (log out, change the
 * login password).
 */
export type Access = 'public' | 'member' | 'operator' | 'any';

/** One REST endpoint: who may call it, its request and response schemas, a summary for OpenAPI. */
export interface Endpoint {
  access: Access;
  req: z.ZodType;
  res: z.ZodType;
  summary: string;
  /**
   * Money-moving: the request must carry an `idempotency-key` header; a retry with the same key
   * and body gets the first answer and moves nothing, a different body is refused (keyMismatch).
   * `true`: the answer is kept under the key (server/http/idempotency.ts runIdempotent, one
   * transaction per request). `'orderRow'`: order entry, whose fills are group-committed across
   * members (trading open-lanes.ts), so the key is written into the order row by the same INSERT
   * and a retry is answered with that order (trading engine.ts placeOrder).
   */
  idempotent?: Idempotency;
}

/** How an endpoint is made retry-safe (Endpoint.idempotent). */
export type Idempotency = boolean | 'orderRow';

const ep = <Req extends z.ZodType, Res extends z.ZodType>(
  access: Access,
  req: Req,
  res: Res,
  summary: string,
  idempotent: Idempotency = false,
) => ({
  access,
  req,
  res,
  summary,
  idempotent,
});

export const api = {
  'common/config': ep('public', common.configReq, common.configRes, 'Site configuration'),
  'common/page': ep(
    'public',
    common.pageReq,
    common.pageRes,
    'Privacy agreement or about us, both languages',
  ),

  'user/register': ep('public', auth.registerReq, auth.sessionRes, 'Register with an invitation code'),
  'user/login': ep('public', auth.loginReq, auth.sessionRes, 'Log in'),
  'user/logout': ep('any', auth.emptyReq, auth.okRes, 'Log out (ends this session)'),
  'user/resetRequest': ep('public', auth.resetRequestReq, auth.okRes, 'Ask for a password reset by phone'),
  'user/resetPassword': ep(
    'public',
    auth.resetPasswordReq,
    auth.okRes,
    'Set a new password with a reset code',
  ),
  'user/feedback': ep('member', account.feedbackReq, account.feedbackSchema, 'Rate the app'),
  'user/myFeedback': ep('member', auth.emptyReq, account.myFeedbackRes, "The member's own ratings"),
  'user/info': ep('member', auth.emptyReq, account.accountSummaryRes, 'Member centre summary'),
  'user/preferences': ep('member', auth.emptyReq, account.preferencesSchema, "The member's preferences"),
  'user/savePreferences': ep(
    'member',
    account.savePreferencesReq,
    account.preferencesSchema,
    "Save the member's preferences (replaces them; the same values again change nothing)",
  ),
  'user/Optionallist': ep('member', account.watchlistReq, account.watchlistRes, 'Watchlist'),
  'user/addOptional': ep('member', account.watchlistChangeReq, auth.okRes, 'Add to watchlist'),
  'user/delOptional': ep('member', account.watchlistChangeReq, auth.okRes, 'Remove from watchlist'),
  'user/fundRecords': ep('member', funds.fundRecordsReq, funds.fundRecordsRes, 'Fund records'),
  'user/statement': ep('member', funds.statementReq, funds.statementRes, 'CSV statement for a date range'),
  'user/balances': ep('member', auth.emptyReq, funds.balancesRes, 'Balances per currency'),

  'user/kyc': ep('member', auth.emptyReq, identity.kycRes, 'Real-name verification status'),
  'user/submitKyc': ep('member', identity.submitKycReq, identity.kycRes, 'Submit real-name verification'),
  'user/loginPassword': ep('any', identity.loginPasswordReq, auth.okRes, 'Change the login password'),
  'user/setPassword': ep(
    'member',
    identity.setFundsPasswordReq,
    identity.setFundsPasswordRes,
    'Set or change the funds password',
  ),
  'user/security': ep('member', auth.emptyReq, identity.securityRes, 'Funds password state'),
  'user/bankCards': ep('member', auth.emptyReq, identity.bankCardsRes, 'Bank cards'),
  'user/addBankCard': ep('member', identity.addBankCardReq, identity.bankCardSchema, 'Add a bank card'),
  'user/deleteBankCard': ep('member', identity.cardIdReq, auth.okRes, 'Delete a bank card'),

  'user/depositChannels': ep('member', auth.emptyReq, funds.depositChannelsRes, 'Deposit channels and hours'),
  'user/recharge': ep('member', funds.depositReq, funds.depositSchema, 'Request a deposit', true),
  'user/withdraw': ep('member', funds.withdrawReq, funds.withdrawalSchema, 'Request a withdrawal', true),
  'user/withdrawable': ep(
    'member',
    auth.emptyReq,
    funds.withdrawableRes,
    'How much may be withdrawn now, and under which rule',
  ),
  'user/rates': ep('member', auth.emptyReq, funds.ratesRes, 'Exchange rates against USD'),
  'user/exchange': ep('member', funds.exchangeReq, funds.exchangeSchema, 'Exchange currency', true),

  'market/list': ep(
    'public',
    market.marketListReq,
    market.marketListRes,
    'Market list: whole-market ranking (paged, filtered, refreshed at most once a second)',
  ),
  'market/detail': ep('public', market.symbolReq, market.instrumentDetailRes, 'Instrument detail'),
  'market/depth': ep('public', market.symbolReq, market.depthSchema, 'Five-level depth'),
  'market/candles': ep('public', market.candlesReq, market.candlesRes, 'Candles'),
  'market/quotes': ep('public', market.quotesReq, market.quotesRes, 'Quote snapshots (polling fallback)'),
  'market/trades': ep('public', market.tradesReq, market.tradesRes, 'Latest trades, oldest first (tape)'),
  'market/indices': ep('public', auth.emptyReq, market.indicesRes, 'Index figures'),
  'market/industries': ep('public', auth.emptyReq, market.industriesRes, 'Industries for the list filter'),
  'market/breadth': ep('public', auth.emptyReq, market.breadthRes, 'Advancers, decliners, turnover'),

  // ---- search (public: the directory is public data; history is the member's own) ----
  'search/query': ep('public', search.searchReq, search.searchRes, 'Search instruments by code or name'),
  'search/hot': ep('public', auth.emptyReq, search.hotSearchesRes, 'Hot searches (or the most traded)'),
  'search/history': ep('member', auth.emptyReq, search.searchHistoryRes, 'Search history'),
  'search/addHistory': ep('member', search.searchHistoryAddReq, auth.okRes, 'Record an opened result'),
  'search/clearHistory': ep('member', auth.emptyReq, auth.okRes, 'Clear the search history'),

  // ---- public IPO subscription (公開申購) ----
  'ipo/list': ep('member', ipo.ipoListReq, ipo.ipoListRes, 'Public subscriptions: open, upcoming, ended'),
  'ipo/detail': ep('member', ipo.ipoIdReq, ipo.ipoDetailRes, 'Public subscription detail with the draw'),
  'ipo/apply': ep(
    'member',
    ipo.ipoApplyReq,
    ipo.ipoApplicationSchema,
    'Apply for a public subscription',
    true,
  ),
  'ipo/pay': ep('member', ipo.ipoPayReq, ipo.ipoApplicationSchema, 'Pay an unpaid subscription', true),
  'ipo/records': ep('member', ipo.ipoRecordsReq, ipo.ipoRecordsRes, 'Subscription records'),
  'ipo/draw': ep(
    'public',
    ipo.ipoIdReq,
    ipo.ipoDrawSchema,
    'Published draw: commitment, seed, list, winners',
  ),

  // ---- rewards: points codes, daily sign-in, account levels, fee coupons ----
  'rewards/summary': ep(
    'member',
    auth.emptyReq,
    rewards.rewardsSummaryRes,
    'Points, level and sign-in state',
  ),
  'rewards/redeemCode': ep(
    'member',
    rewards.redeemCodeReq,
    rewards.redeemCodeRes,
    'Redeem a points code (points, or cash to the wallet)',
    true,
  ),
  'rewards/signIn': ep('member', auth.emptyReq, rewards.signInRes, 'Daily sign-in (points once a day)'),
  'user/accountLevel': ep(
    'member',
    auth.emptyReq,
    rewards.accountLevelRes,
    'Account level, its figures and the level table',
  ),
  'rewards/coupons': ep('member', rewards.couponsReq, rewards.couponsRes, 'Fee coupons by tab'),
  'rewards/couponOffers': ep('member', auth.emptyReq, rewards.couponOffersRes, 'Coupons for points'),
  'rewards/buyCoupon': ep(
    'member',
    rewards.buyCouponReq,
    rewards.couponSchema,
    'Buy a fee coupon with points',
    true,
  ),
  'admin/pointsCodeBatches': ep(
    'operator',
    admin.adminDepositsReq.pick({ page: true, pageSize: true }),
    rewards.pointsCodeBatchesRes,
    'Points-code batches',
  ),
  'admin/createPointsCodes': ep(
    'operator',
    rewards.createPointsCodesReq,
    rewards.createPointsCodesRes,
    'Issue a batch of points codes (the codes are shown once)',
  ),
  'admin/exportPointsCodes': ep(
    'operator',
    rewards.batchIdReq,
    rewards.exportPointsCodesRes,
    "A batch's codes (hints) and their redemptions",
  ),
  'admin/levels': ep('operator', auth.emptyReq, rewards.levelsRes, 'Account-level table'),
  'admin/saveLevel': ep('operator', rewards.saveLevelReq, rewards.levelsRes, 'Create or change a level'),
  'admin/deleteLevel': ep('operator', rewards.deleteLevelReq, rewards.levelsRes, 'Delete a level'),
  'admin/grantCoupon': ep(
    'operator',
    rewards.grantCouponReq,
    rewards.adminCouponSchema,
    'Grant a fee coupon',
  ),
  'admin/coupons': ep(
    'operator',
    rewards.adminCouponsReq,
    rewards.adminCouponsRes,
    'Fee coupons granted and bought',
  ),
  // ---- stock lending (借券) and the margin loan / short sale view (融資融券) ----
  'lending/overview': ep(
    'member',
    auth.emptyReq,
    lending.lendingOverviewRes,
    'Stock lending: the channel and my holdings eligible to lend',
  ),
  'lending/lend': ep('member', lending.lendReq, lending.lendingOrderSchema, 'Lend shares of a holding', true),
  'lending/recall': ep(
    'member',
    lending.lendingRecallReq,
    lending.lendingOrderSchema,
    'Recall a lending order',
    true,
  ),
  'lending/orders': ep('member', lending.lendingOrdersReq, lending.lendingOrdersRes, 'My lending orders'),
  'lending/margin': ep(
    'member',
    auth.emptyReq,
    lending.marginViewRes,
    'Margin loans (leveraged longs) and short sales with margin, ratio and fees',
  ),
  'admin/lending': ep('operator', auth.emptyReq, lending.adminLendingRes, 'Lending channel, quotas, orders'),
  'admin/saveLendingChannel': ep(
    'operator',
    lending.saveLendingChannelReq,
    auth.okRes,
    'Open or close lending; rate cap and longest term',
  ),
  'admin/saveLendingQuota': ep(
    'operator',
    lending.saveLendingQuotaReq,
    auth.okRes,
    "Set an instrument's lending quota",
  ),

  // ---- auctions (競價拍賣) and operator-managed offerings ----
  'auction/list': ep(
    'member',
    primary.auctionListReq,
    primary.auctionListRes,
    'Auctions: bidding, upcoming, ended',
  ),
  'auction/bid': ep(
    'member',
    primary.auctionBidReq,
    primary.auctionBidSchema,
    'Bid in an auction (freezes the deposit)',
    true,
  ),
  'auction/bids': ep('member', primary.auctionBidsReq, primary.auctionBidsRes, 'My auction bids'),
  'admin/offerings': ep(
    'operator',
    primary.adminOfferingsReq,
    primary.adminOfferingsRes,
    'Offerings: subscriptions, auctions, block trades, placements',
  ),
  'admin/saveOffering': ep(
    'operator',
    primary.saveOfferingReq,
    primary.adminOfferingSchema,
    'Create or edit an offering',
  ),
  // ---- block trades (鉅額交易) and placements (配售) ----
  'user/setBlockTradePassword': ep(
    'member',
    primary.setBlockTradePasswordReq,
    primary.setBlockTradePasswordRes,
    'Set or change the block-trade password',
  ),
  'user/blockTradePassword': ep(
    'member',
    auth.emptyReq,
    primary.blockTradePasswordStateRes,
    'Block-trade password state',
  ),
  'blockTrade/offerings': ep(
    'member',
    primary.primaryOfferingsReq,
    primary.primaryOfferingsRes,
    'Block-trade or placement offerings (stocks list)',
  ),
  'blockTrade/apply': ep(
    'member',
    primary.blockTradeApplyReq,
    primary.primaryApplicationSchema,
    'Apply for a block trade (holds the amount)',
    true,
  ),
  'placement/apply': ep(
    'member',
    primary.placementApplyReq,
    primary.primaryApplicationSchema,
    'Apply for a placement (holds the amount)',
    true,
  ),
  'primary/applications': ep(
    'member',
    primary.primaryApplicationsReq,
    primary.primaryApplicationsRes,
    'My block-trade and placement applications',
  ),
  'admin/primaryApplications': ep(
    'operator',
    primary.primaryApplicationsReq,
    primary.primaryApplicationsRes,
    'Block-trade and placement applications to review',
  ),
  'admin/approvePrimary': ep(
    'operator',
    primary.primaryReviewReq,
    primary.primaryApplicationSchema,
    'Approve (allocate) a block-trade or placement application',
  ),
  'admin/rejectPrimary': ep(
    'operator',
    primary.primaryRejectReq,
    primary.primaryApplicationSchema,
    'Reject a block-trade or placement application (releases the amount)',
  ),

  'trade/placeOrder': ep('member', trading.placeOrderReq, trading.orderSchema, 'Place an order', 'orderRow'),
  'trade/cancelOrder': ep('member', trading.orderIdReq, trading.orderSchema, 'Cancel a pending order', true),
  'trade/closePosition': ep(
    'member',
    trading.orderIdReq,
    trading.orderSchema,
    'Close a holding at market',
    true,
  ),
  'trade/orders': ep('member', trading.ordersReq, trading.ordersRes, 'Positions and orders by tab'),
  'trade/orderDetail': ep('member', trading.orderIdReq, trading.orderSchema, 'Position detail'),
  // ---- issue 5: risk (margin, margin calls, liquidation) ----
  'risk/summary': ep('member', auth.emptyReq, risk.riskSummaryRes, 'Ratio and liquidation prices'),
  'risk/events': ep('member', risk.riskEventsReq, risk.riskEventsRes, 'Margin calls and liquidations'),
  'risk/markRead': ep('member', risk.riskMarkReadReq, risk.riskMarkReadRes, 'Mark risk notices read'),
  // ---- issue 5: day trading ----
  'dayTrade/status': ep(
    'member',
    auth.emptyReq,
    dayTrading.dayTradeStatusRes,
    'Day trading: eligibility and application state',
  ),
  'dayTrade/apply': ep(
    'member',
    auth.emptyReq,
    dayTrading.dayTradeApplicationSchema,
    'Apply for day trading',
  ),
  'dayTrade/applications': ep(
    'member',
    dayTrading.dayTradeApplicationsReq,
    dayTrading.dayTradeApplicationsRes,
    'Day-trading applications (already applied)',
  ),
  'dayTrade/placeOrder': ep(
    'member',
    trading.placeOrderReq,
    trading.orderSchema,
    'Place a day-trade order',
    'orderRow',
  ),
  'dayTrade/transactions': ep(
    'member',
    dayTrading.dayTradeTransactionsReq,
    trading.ordersRes,
    "Today's day-trade orders",
  ),
  'dayTrade/details': ep(
    'member',
    dayTrading.dayTradeDetailsReq,
    dayTrading.dayTradeDetailsRes,
    'Day-trade offset pairs with the day-trade tax',
  ),
  'admin/dayTradeApplications': ep(
    'operator',
    dayTrading.adminDayTradeApplicationsReq,
    dayTrading.adminDayTradeApplicationsRes,
    'Day-trading applications to review',
  ),
  'admin/approveDayTrade': ep(
    'operator',
    dayTrading.dayTradeReviewReq,
    dayTrading.adminDayTradeApplicationSchema,
    'Grant day trading',
  ),
  'admin/rejectDayTrade': ep(
    'operator',
    dayTrading.dayTradeRejectReq,
    dayTrading.adminDayTradeApplicationSchema,
    'Reject a day-trading application',
  ),
  // ---- copy trading (follow orders) ----
  'mentor/status': ep('member', auth.emptyReq, copy.mentorStatusRes, 'Mentor application and criteria'),
  'mentor/apply': ep('member', auth.emptyReq, copy.mentorSchema, 'Apply to be a mentor'),
  'mentor/list': ep('member', copy.mentorListReq, copy.mentorListRes, 'Approved mentors by level'),
  'mentor/info': ep('member', copy.mentorIdReq, copy.mentorSchema, 'One mentor with figures'),
  'mentor/minFollow': ep(
    'member',
    copy.mentorIdReq,
    copy.minFollowRes,
    "The smallest follow amount that would have copied each of the mentor's recent orders",
  ),
  'follow/start': ep('member', copy.followReq, copy.followSchema, 'Follow a mentor with an amount', true),
  'follow/pause': ep('member', copy.followIdReq, copy.followSchema, 'Pause copying new orders'),
  'follow/resume': ep('member', copy.followIdReq, copy.followSchema, 'Resume copying'),
  // Keyed: the copies' closes and the settlement run in the request's transaction (follows.ts
  // endFollow), so a retry with the same key gets the first answer and moves nothing.
  'follow/stop': ep('member', copy.followIdReq, copy.followSchema, 'Stop: close copies, return equity', true),
  'follow/list': ep('member', copy.followListReq, copy.followListRes, 'My follows'),
  'follow/records': ep('member', copy.followRecordsReq, copy.followRecordsRes, 'Copied and skipped orders'),
  'follow/copyOrders': ep('member', copy.copyOrdersReq, copy.copyOrdersRes, 'Which of my orders are copies'),
  'admin/mentors': ep('operator', copy.adminMentorsReq, copy.adminMentorsRes, 'Mentor applications'),
  'admin/approveMentor': ep('operator', copy.mentorReviewReq, copy.adminMentorSchema, 'Approve a mentor'),
  'admin/rejectMentor': ep('operator', copy.mentorRejectReq, copy.adminMentorSchema, 'Reject a mentor'),
  'admin/follows': ep('operator', copy.adminFollowsReq, copy.adminFollowsRes, 'Every follow'),
  'admin/followRecords': ep(
    'operator',
    copy.adminFollowRecordsReq,
    copy.followRecordsRes,
    "A follow's copied and skipped orders",
  ),
  'admin/cancelFollow': ep(
    'operator',
    copy.adminCancelFollowReq,
    copy.followSchema,
    'Cancel a follow (copies closed, equity returned)',
  ),
  'admin/mentorSettings': ep(
    'operator',
    copy.mentorSettingsReq,
    copy.adminMentorSchema,
    "Set a mentor's minimum and profit share",
  ),

  // ---- dividends (the exchanges' ex-dividend events on the replay) and news ----
  'dividend/calendar': ep(
    'public',
    dividends.dividendCalendarReq,
    dividends.dividendCalendarRes,
    'Ex-dividend calendar: upcoming and recent ex-dates on the replay',
  ),
  'dividend/stocks': ep(
    'public',
    dividends.dividendStocksReq,
    dividends.dividendStocksRes,
    'Dividend stocks by yield at the replayed price',
  ),
  'dividend/history': ep(
    'member',
    dividends.dividendHistoryReq,
    dividends.dividendHistoryRes,
    "One stock's dividend events and the member's credits on it",
  ),
  'news/list': ep('public', news.newsListReq, news.newsListRes, 'Published news, newest first'),
  'news/detail': ep('public', news.newsIdReq, news.newsArticleSchema, 'One published article'),
  'admin/news': ep('operator', news.adminNewsReq, news.adminNewsRes, 'Every news item'),
  'admin/saveNews': ep(
    'operator',
    news.adminSaveNewsReq,
    news.newsArticleSchema,
    'Publish or edit an article',
  ),
  'admin/setNewsStatus': ep(
    'operator',
    news.adminNewsStatusReq,
    news.newsArticleSchema,
    'Withdraw or republish an article',
  ),

  'admin/login': ep('public', auth.loginReq, auth.sessionRes, 'Operator login'),
  'admin/invitations': ep('operator', auth.emptyReq, admin.invitationsRes, 'Invitation codes'),
  'admin/createInvitation': ep(
    'operator',
    admin.createInvitationReq,
    admin.invitationSchema,
    'Issue an invitation code',
  ),
  'admin/disableInvitation': ep(
    'operator',
    admin.disableInvitationReq,
    admin.invitationSchema,
    'Disable an invitation code',
  ),
  'admin/deposits': ep('operator', admin.adminDepositsReq, admin.adminDepositsRes, 'Deposits to review'),
  'admin/approveDeposit': ep('operator', admin.reviewReq, admin.adminDepositSchema, 'Approve a deposit'),
  'admin/rejectDeposit': ep('operator', admin.rejectReq, admin.adminDepositSchema, 'Reject a deposit'),
  'admin/users': ep('operator', admin.adminUsersReq, admin.adminUsersRes, 'Users'),
  'admin/setUserFlags': ep('operator', admin.setUserFlagsReq, admin.adminUserSchema, 'Set account flags'),
  'admin/unlockFundsPassword': ep(
    'operator',
    admin.userIdReq,
    auth.okRes,
    'Unlock withdrawals after wrong funds passwords',
  ),
  'admin/kyc': ep('operator', admin.adminKycReq, admin.adminKycRes, 'KYC submissions to review'),
  'admin/approveKyc': ep('operator', admin.reviewReq, admin.adminKycSchema, 'Approve a KYC submission'),
  'admin/rejectKyc': ep('operator', admin.rejectReq, admin.adminKycSchema, 'Reject a KYC submission'),
  'admin/withdrawals': ep(
    'operator',
    admin.adminWithdrawalsReq,
    admin.adminWithdrawalsRes,
    'Withdrawals to review',
  ),
  'admin/approveWithdrawal': ep(
    'operator',
    admin.reviewReq,
    admin.adminWithdrawalSchema,
    'Approve (pay out) a withdrawal',
  ),
  'admin/rejectWithdrawal': ep(
    'operator',
    admin.rejectReq,
    admin.adminWithdrawalSchema,
    'Reject a withdrawal (returns the money)',
  ),
  'admin/channels': ep('operator', auth.emptyReq, admin.adminChannelsRes, 'Deposit channels'),
  'admin/saveChannel': ep(
    'operator',
    admin.saveChannelReq,
    admin.adminChannelSchema,
    'Create or update a deposit channel',
  ),
  'admin/rates': ep('operator', auth.emptyReq, admin.adminRatesRes, 'Exchange rates'),
  'admin/saveRate': ep('operator', admin.saveRateReq, funds.fxRateSchema, 'Set an exchange rate'),
  'admin/config': ep('operator', auth.emptyReq, admin.adminConfigRes, 'Site settings'),
  'admin/saveConfig': ep('operator', admin.saveConfigReq, admin.adminConfigRes, 'Change a site setting'),
  'admin/passwordResets': ep(
    'operator',
    auth.emptyReq,
    auth.adminPasswordResetsRes,
    'Password resets waiting',
  ),
  'admin/issueResetCode': ep(
    'operator',
    auth.issueResetCodeReq,
    auth.issueResetCodeRes,
    'Issue a one-time reset code after calling the member',
  ),
  'admin/feedback': ep('operator', auth.emptyReq, account.adminFeedbackRes, "Members' ratings of the app"),
  'admin/pages': ep('operator', auth.emptyReq, common.adminPagesRes, 'Operator-editable pages'),
  'admin/savePage': ep('operator', common.savePageReq, common.pageRes, 'Change a page in one language'),
  'admin/auditLog': ep(
    'operator',
    admin.adminDepositsReq.pick({ page: true, pageSize: true }),
    admin.auditLogRes,
    'Audit log of operator actions',
  ),
  'admin/ledger': ep(
    'operator',
    admin.adminLedgerReq,
    admin.adminLedgerRes,
    'Ledger transactions and postings',
  ),
  // ---- credit score, limit and credit loans (docs/credit.md) ----
  'credit/summary': ep('member', auth.emptyReq, credit.creditSummaryRes, 'Credit score, factors and limit'),
  'credit/apply': ep(
    'member',
    credit.creditApplyReq,
    credit.creditLoanSchema,
    'Apply for a credit loan',
    true,
  ),
  'credit/repay': ep('member', credit.creditRepayReq, credit.creditLoanSchema, 'Repay a credit loan', true),
  'credit/loans': ep('member', credit.creditLoansReq, credit.creditLoansRes, 'Loan records'),
  'admin/creditLoans': ep('operator', credit.adminCreditLoansReq, credit.adminCreditLoansRes, 'Credit loans'),
  'admin/approveCreditLoan': ep(
    'operator',
    credit.creditReviewReq,
    credit.adminCreditLoanSchema,
    'Approve (disburse) a credit loan',
  ),
  'admin/rejectCreditLoan': ep(
    'operator',
    credit.creditRejectReq,
    credit.adminCreditLoanSchema,
    'Reject a credit loan application',
  ),
  'admin/creditSettings': ep('operator', auth.emptyReq, credit.creditSettingsSchema, 'Credit settings'),
  'admin/saveCreditSettings': ep(
    'operator',
    credit.creditSettingsSchema,
    credit.creditSettingsSchema,
    'Change the credit settings',
  ),
  'admin/reconcile': ep('operator', auth.emptyReq, admin.reconcileRes, 'Ledger reconciliation'),

  'wallet/overview': ep('member', auth.emptyReq, wallet.overviewRes, 'Asset overview by currency and kind'),
  'wallet/history': ep(
    'member',
    wallet.historyReq,
    wallet.historyRes,
    'Equity at each trading-day close; realised P&L by month',
  ),
  'user/invite': ep('member', auth.emptyReq, wallet.inviteRes, 'My invitation code, link and invitees'),
  // ---- notices (contract/notices.ts) ----
  'notice/list': ep(
    'member',
    notices.noticeListReq,
    notices.noticeListRes,
    'Notices: announcements or my account',
  ),
  'notice/detail': ep('member', notices.noticeIdReq, notices.noticeSchema, 'One notice (marks it read)'),
  'notice/unread': ep('member', auth.emptyReq, notices.noticeUnreadRes, 'Unread notices per tab'),
  'admin/notices': ep('operator', notices.adminNoticesReq, notices.adminNoticesRes, 'Operator notices'),
  'admin/saveNotice': ep(
    'operator',
    notices.saveNoticeReq,
    notices.adminNoticeSchema,
    'Create or edit a notice',
  ),
  'admin/publishNotice': ep(
    'operator',
    notices.publishNoticeReq,
    notices.adminNoticeSchema,
    'Publish or withdraw a notice',
  ),

  // ---- customer service (contract/support.ts; live events on /ws) ----
  'support/history': ep(
    'member',
    support.supportHistoryReq,
    support.supportHistoryRes,
    'My support messages',
  ),
  'support/send': ep('member', support.supportSendReq, support.supportSendRes, 'Send a support message'),
  'support/read': ep('member', auth.emptyReq, support.conversationSchema.nullable(), 'Mark replies read'),
  'admin/supportConversations': ep(
    'operator',
    support.adminSupportListReq,
    support.adminSupportListRes,
    'Support conversations with unread counts',
  ),
  'admin/supportHistory': ep(
    'operator',
    support.adminSupportHistoryReq,
    support.supportHistoryRes,
    'A support conversation',
  ),
  'admin/supportReply': ep('operator', support.adminSupportReplyReq, support.supportSendRes, 'Reply'),
  'admin/supportRead': ep('operator', support.conversationIdReq, support.conversationSchema, 'Mark read'),
  'admin/supportAssign': ep(
    'operator',
    support.conversationIdReq,
    support.conversationSchema,
    'Assign a conversation to me',
  ),
  'admin/supportResolve': ep(
    'operator',
    support.conversationIdReq,
    support.conversationSchema,
    'Mark a conversation resolved',
  ),
} as const satisfies Record<string, Endpoint>;

export type Api = typeof api;
export type EndpointName = keyof Api;
export type ReqOf<N extends EndpointName> = z.input<Api[N]['req']>;
export type ResOf<N extends EndpointName> = z.output<Api[N]['res']>;

export { API_BASE, REQUEST_TIMEOUT_MS } from './constants';
