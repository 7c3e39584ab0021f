/**
 * Error message keys: the spec's error catalogue (product-spec §8) as stable keys.
 * The server answers `{status: 0, msg: <key>, data: null}` (trading-rule refusals put the fix in
 * `data`: contract/trading.ts `orderRefusalData`); the client translates the key
 * (locales/*.json under `errors.<key>`) and falls back to `errors.generic` for unknown text.
 */
export const ERROR_KEYS = [
  // account and login
  'tooFrequent',
  'accountNotFound',
  'accountDisabled',
  'accountExists',
  'inviterNotFound',
  'fieldsEmpty',
  'passwordsDiffer',
  'wrongCredentials',
  'accountFrozen',
  'cannotWithdrawOrTrade',
  'notLoggedIn',
  'sessionExpired',
  'forbidden',
  // money
  'insufficientBalance',
  'belowMinDeposit',
  'aboveMaxDeposit',
  'otherFundOperation',
  'belowMinWithdraw',
  'aboveMaxWithdraw',
  'notDepositTime',
  'uploadProofFirst',
  'channelPasswordWrong',
  'fundsPasswordNotSet',
  'fundsPasswordWrong',
  'fundsPasswordLocked',
  'wrongOriginalPassword',
  'sameCurrency',
  'rateUnavailable',
  // identity
  'realNameNotCompleted',
  'alreadyVerified',
  'kycUnderReview',
  'kycNotPassed',
  'idImagesMissing',
  'invalidIdNumber',
  'holderNameMismatch',
  // cards and uploads
  'duplicateCard',
  'cardNotFound',
  'notOwnCard',
  'uploadFailed',
  'unsupportedFileType',
  'fileTooLarge',
  'keyMismatch',
  'idempotencyKeyRequired',
  // trading
  'productNotFound',
  'nonTradingTime',
  'priceUnavailable',
  'exceedsPriceLimit',
  'priceOffTick',
  'invalidLots',
  'invalidLeverage',
  'orderNotPending',
  'orderNotHolding',
  'orderNotFound',
  // trading rules (issue 5): a refusal's `data.fix` says how to get the order accepted
  'orderTypeNotInSession',
  'afterHoursFixedPrice',
  'tPlusOneCannotSell',
  'lockUpPeriod',
  'dailyPurchaseLimit',
  'exceedsOrderShares',
  'tradeClosed',
  'productDelisted',
  // day trading
  'dayTradeAlreadyApplied',
  'dayTradeNotPending',
  'dayTradeNotApproved',
  // generic
  'parameterError',
  'operationFailed',
  'systemBusy',
  'notFound',
  'generic',
] as const;

export type ErrorKey = (typeof ERROR_KEYS)[number];

/** Success toast keys (product-spec §8 "Success toasts"). Translated under `success.<key>`. */
export const SUCCESS_KEYS = [
  'login',
  'register',
  'deposit',
  'purchase',
  'cancel',
  'close',
  'logout',
  'withdrawal',
  'exchange',
  'cardAdd',
  'unbind',
  'kycSubmitted',
  'passwordChanged',
  'saved',
] as const;
export type SuccessKey = (typeof SUCCESS_KEYS)[number];
