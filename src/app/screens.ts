/**
 * Every screen's chunk by route path (the spec's paths verbatim, product-spec §2), except the
 * landing screen's (src/app/router.tsx). A chunk of its own, not part of the app's first-screen
 * code: the table and each entry's list of chunks to preload grow with every screen, and the
 * landing screen needs none of it. src/app/entry.ts fetches it alongside the app when the app
 * opens on another screen, and the router after the first paint otherwise.
 */
import type { ComponentType } from 'react';

/** Areas whose screens share one chunk: one import site each (its preload list written once). */
const dividends = () => import('../features/dividends/routes');
const news = () => import('../features/news/routes');
const lendingScreens = () => import('../features/lending/routes/lending');
const creditScreens = () => import('../features/credit/routes/entry').then((m) => m.loadCreditScreens());

export const SCREENS: Record<string, () => Promise<ComponentType>> = {
  'login/login': () => import('../features/auth/routes/login').then((m) => m.LoginPage),
  'login/register': () => import('../features/auth/routes/register').then((m) => m.RegisterPage),
  'login/logon': () => import('../features/auth/routes/reset-request').then((m) => m.ResetRequestPage),
  'login/logon2': () => import('../features/auth/routes/reset-password').then((m) => m.ResetPasswordPage),
  'home/index': () => import('../features/home/routes/home').then((m) => m.HomePage),
  'home/search': () => import('../features/search/routes/search').then((m) => m.SearchPage),
  'home/searchIndex': () => import('../features/search/routes/search-index').then((m) => m.SearchIndexPage),
  'home/etf': () => import('../features/etf/routes/etf').then((m) => m.EtfPage),
  'market/market': () => import('../features/market/routes/market').then((m) => m.MarketPage),
  'market/marketDetail': () =>
    import('../features/market/routes/market-detail').then((m) => m.MarketDetailPage),
  'market/favo': () => import('../features/market/routes/favo').then((m) => m.FavoPage),
  'market/stockHot/stockList': () =>
    import('../features/market/routes/hot-stocks').then((m) => m.HotStocksPage),
  'position/position': () => import('../features/position/routes/position').then((m) => m.PositionPage),
  'position/positionDetail': () =>
    import('../features/position/routes/position-detail').then((m) => m.PositionDetailPage),
  'user/usercenter': () => import('../features/account/routes/usercenter').then((m) => m.UserCenterPage),
  'user/setting': () => import('../features/account/routes/setting').then((m) => m.SettingPage),
  'user/language': () => import('../features/account/routes/language').then((m) => m.LanguagePage),
  'user/agreement': () => import('../features/account/routes/site-page').then((m) => m.AgreementPage),
  'user/aboutUs': () => import('../features/account/routes/site-page').then((m) => m.AboutUsPage),
  'user/pj': () => import('../features/account/routes/feedback').then((m) => m.FeedbackPage),
  'user/recharge': () => import('../features/funds/routes/recharge').then((m) => m.RechargePage),
  'user/rechargeChannel': () =>
    import('../features/funds/routes/recharge-channel').then((m) => m.RechargeChannelPage),
  'user/withdraw': () => import('../features/funds/routes/withdraw').then((m) => m.WithdrawPage),
  'user/exchange': () => import('../features/funds/routes/exchange').then((m) => m.ExchangePage),
  'user/FundingDetails': () =>
    import('../features/funds/routes/funding-details').then((m) => m.FundingDetailsPage),
  'user/bandCard': () => import('../features/identity/routes/band-card').then((m) => m.BandCardPage),
  'user/loginPassword': () =>
    import('../features/identity/routes/login-password').then((m) => m.LoginPasswordPage),
  'user/setPassword': () => import('../features/identity/routes/set-password').then((m) => m.SetPasswordPage),
  'user/BankCard': () => import('../features/identity/routes/bank-card').then((m) => m.BankCardPage),
  'user/WithCard': () => import('../features/identity/routes/with-card').then((m) => m.WithCardPage),
  'market/subscribe': () => import('../features/ipo/routes/subscribe').then((m) => m.SubscribePage),
  'market/subscribeDetail': () =>
    import('../features/ipo/routes/subscribe-detail').then((m) => m.SubscribeDetailPage),
  'market/bidding': () => import('../features/primary/routes/bidding').then((m) => m.BiddingPage),
  'user/blockTradePassword': () =>
    import('../features/primary/routes/block-trade-password').then((m) => m.BlockTradePasswordPage),
  'market/subscribeRecord': () =>
    import('../features/ipo/routes/subscribe-record').then((m) => m.SubscribeRecordPage),
  'gdindex/gdindex': () => import('../features/copy-trading/routes/follow').then((m) => m.MentorListPage),
  'gdindex/gdList': () => import('../features/copy-trading/routes/follow').then((m) => m.MentorInfoPage),
  'gdindex/dsFllow': () => import('../features/copy-trading/routes/follow').then((m) => m.FollowFormPage),
  'gdindex/dsFllowInfo': () => import('../features/copy-trading/routes/follow').then((m) => m.FollowInfoPage),
  'gdindex/dsFllowRecord': () =>
    import('../features/copy-trading/routes/follow').then((m) => m.FollowRecordPage),
  'gdindex/mentorApply': () =>
    import('../features/copy-trading/routes/follow').then((m) => m.MentorApplyPage),
  'common/dayTrading': () =>
    import('../features/day-trading/routes/day-trading').then((m) => m.DayTradingPage),
  'user/accountLevel': () => import('../features/rewards/routes/rewards').then((m) => m.AccountLevelPage),
  'home/coupons': () => import('../features/rewards/routes/rewards').then((m) => m.CouponsPage),
  'common/dividend': () => dividends().then((m) => m.DividendCalendarPage),
  'common/dividend2': () => dividends().then((m) => m.DividendStocksPage),
  'common/dividend3': () => dividends().then((m) => m.DividendHistoryPage),
  'home/moreNews': () => news().then((m) => m.MoreNewsPage),
  'home/DetailsPage': () => news().then((m) => m.DetailsPage),
  'wallet/index': () => import('../features/wallet/routes/entry').then((m) => m.WalletPage),
  'user/invite': () => import('../features/wallet/routes/entry').then((m) => m.InvitePage),
  'user/credit': () => creditScreens().then((m) => m.CreditPage),
  'user/jkjl': () => creditScreens().then((m) => m.LoanRecordsPage),
  'common/lending': () => lendingScreens().then((m) => m.LendingPage),
  'common/margin': () => lendingScreens().then((m) => m.MarginPage),
  'home/notice': () => import('../features/notices/routes/notice').then((m) => m.NoticePage),
  'home/noticeDetail': () =>
    import('../features/notices/routes/notice-detail').then((m) => m.NoticeDetailPage),
  'user/service': () => import('../features/support/routes/service').then((m) => m.ServicePage),
  'market/marketBuy': () => import('../features/market/routes/market-buy').then((m) => m.MarketBuyPage),
  'trading/trading': () => import('../features/trading/routes/trading').then((m) => m.TradingPage),
};
