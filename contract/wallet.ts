/**
 * Asset overview (資產總覽; product-spec §2 "Home shortcuts: … asset overview", route
 * `/wallet/index`) and invite friends (邀請好友; non-spec route `/user/invite`, docs/glossary.md).
 *
 * Overview: every figure is a ledger balance, a mark from the market feed or a sum of those.
 * Per currency the member holds: available (cash, borrowed cash included), frozen (reserved for
 * pending orders and withdrawals), margin (held by open positions), debt (what the member owes,
 * ≤ 0: a loss beyond their funds and, in TWD, what their credit loans still owe, principal and
 * accrued interest) and every other member ledger account by its purpose (copy-trading `follow`
 * cash …), plus the unrealised P&L of the open positions (TWD). total = the sum of all of them,
 * i.e. net assets. Money in minor units (1/100) of the row's currency; `valueTwdMinor` is the
 * total valued in TWD (see `WALLET_VALUATION_RULE`).
 *
 * History: the equity at each trading day's close (snapshots, server/modules/wallet/snapshots.ts)
 * and the realised P&L of closed positions by calendar month (Asia/Taipei) of the close, by the
 * one definition of docs/glossary.md "Realised P&L" (server/modules/wallet/pnl.ts).
 */
import { z } from 'zod';

const minor = z.number().int();

/** One member ledger account that is not one of the four standard kinds. */
export const otherAccountSchema = z.object({ purpose: z.string(), balanceMinor: minor });

/**
 * One currency of the overview. total = available + frozen + margin + debt + others + unrealised
 * (net assets in the currency; debt ≤ 0).
 */
export const currencyAssetsSchema = z.object({
  currency: z.string(),
  availableMinor: minor,
  frozenMinor: minor,
  marginMinor: minor,
  debtMinor: minor,
  otherAccounts: z.array(otherAccountSchema),
  unrealisedMinor: minor,
  totalMinor: minor,
  /** The total in TWD minor at the rates listed in `rates`; null when the currency has no rate. */
  valueTwdMinor: minor.nullable(),
});
export type CurrencyAssets = z.infer<typeof currencyAssetsSchema>;

/**
 * A rate the valuation used (contract/funds.ts FxRate fields, ppm per USD). A non-TWD balance is
 * valued at what an exchange into TWD through USD would pay now (server/modules/fx): USD → TWD at
 * the TWD buying rate (`buy`), another currency → USD at its selling rate (`sell`), then → TWD;
 * each step rounded toward zero to the minor unit (contract/money.ts convertMinorFloor, applied to
 * the absolute amount). A currency without a rate (or any currency when TWD has none) is listed in
 * `unvalued` and left out of the TWD total.
 */
export const valuationRateSchema = z.object({
  currency: z.string(),
  ratePpm: z.number().int(),
  side: z.enum(['buy', 'sell']),
  source: z.string(),
  asOf: z.string(),
});

/** wallet/overview: the member's assets now. */
export const overviewRes = z.object({
  currencies: z.array(currencyAssetsSchema),
  /** Open positions (TWD): count, market value (shares × last price), margin held, unrealised P&L. */
  positions: z.object({
    count: z.number().int(),
    marketValueMinor: minor,
    marginMinor: minor,
    unrealisedMinor: minor,
  }),
  /** Net assets: the sum of the currencies' valueTwdMinor (those with a rate) = assets − debt. */
  totalTwdMinor: minor,
  /** Everything the member holds, valued in TWD: totalTwdMinor + debtTwdMinor. */
  assetsTwdMinor: minor,
  /** What the member owes, valued in TWD (≥ 0): −Σ of the currencies' debt. */
  debtTwdMinor: minor,
  /** The market is a replay (MARKET_SOURCE=replay): a practice account (funds/practice.ts). */
  practice: z.boolean(),
  /** Currencies held but left out of totalTwdMinor for want of a rate. */
  unvalued: z.array(z.string()),
  rates: z.array(valuationRateSchema),
  /** When the overview was computed (epoch ms). */
  asOf: z.number().int(),
});
export type AssetOverview = z.infer<typeof overviewRes>;

/** Most trading days the equity chart asks for. */
export const EQUITY_MAX_DAYS = 400;

export const historyReq = z.object({ days: z.number().int().min(1).max(EQUITY_MAX_DAYS).optional() });

/** One point of the equity chart: the TWD-valued total at a trading day's close. */
export const equityPointSchema = z.object({
  tradeDate: z.string(),
  valueTwdMinor: minor,
  /** False when some currency held that day had no rate (left out of the value). */
  complete: z.boolean(),
});

/** Realised P&L of the positions closed in one month (YYYY-MM, Asia/Taipei), TWD minor. */
export const monthlyPnlSchema = z.object({
  month: z.string(),
  closed: z.number().int(),
  /** Sum of the realisedPnl postings (gross, before fees and taxes). */
  grossMinor: minor,
  /** Sum of the fee and tax postings of those positions (≤ 0, opening and closing). */
  costsMinor: minor,
  /** Their dividends received or paid and stock-lending fees and rebates (signed). */
  incomeMinor: minor,
  /** gross + costs + income. */
  netMinor: minor,
});

/** wallet/history: equity at each close (oldest first) and realised P&L by month (newest first). */
export const historyRes = z.object({
  equity: z.array(equityPointSchema),
  months: z.array(monthlyPnlSchema),
  /** Realised P&L to date: the sum of the months (the member centre's figure). */
  realisedTotalMinor: minor,
});
export type WalletHistory = z.infer<typeof historyRes>;

/** One member who registered with the member's code: the account masked, the join time. */
export const inviteeSchema = z.object({ account: z.string(), joinedAt: z.number().int() });

/**
 * user/invite: the member's own invitation code (verified members only; null otherwise), its
 * register link (a hash path for the client to prefix with its origin), use limit and expiry,
 * and the members who registered with any code the member owns (newest first).
 */
export const inviteRes = z.object({
  eligible: z.boolean(),
  code: z.string().nullable(),
  path: z.string().nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int().nullable(),
  expiresAt: z.number().int().nullable(),
  invitees: z.array(inviteeSchema),
});
export type InviteInfo = z.infer<typeof inviteRes>;

/** The register route's link for `code` (product-spec §2 /login/register, hash routing). */
export const inviteLinkPath = (code: string) => `/#/login/register?code=${encodeURIComponent(code)}`;

/**
 * An account as another member sees it: the first 3 and last 2 characters, the rest `*`
 * (0912345678 → 091*****78); 5 characters or fewer show only the first and `*`s.
 */
export function maskAccount(account: string): string {
  if (account.length <= 5) return account.slice(0, 1) + '*'.repeat(Math.max(0, account.length - 1));
  return account.slice(0, 3) + '*'.repeat(account.length - 5) + account.slice(-2);
}
