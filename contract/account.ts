/** The member centre and watchlist (product-spec §2 "Member centre", §3 "Account", "Watchlist entry"). */
import { z } from 'zod';
import { KYC_STATUSES } from './constants';
import { symbolSchema } from './market';
import { CONFIRM_ABOVE_MAX_MINOR } from './confirm-above';

const minor = z.number().int();

/**
 * Account summary in TWD minor units. available, frozen and margin are the TWD ledger balances;
 * unrealised P&L is marked to the live quote; total assets is the asset overview's TWD total, its
 * net assets (contract/wallet.ts: every member ledger account in every currency plus unrealised
 * P&L less credit owed, other currencies valued in TWD at the operator's exchange rates).
 * `realisedProfitMinor` is the member's realised P&L to date by the one definition of
 * docs/glossary.md "Realised P&L", the overview's realised total.
 */
export const accountSummaryRes = z.object({
  account: z.string(),
  currency: z.literal('TWD'),
  totalAssetsMinor: minor,
  availableMinor: minor,
  frozenMinor: minor,
  marginMinor: minor,
  unrealisedPnlMinor: minor,
  realisedProfitMinor: minor,
  kycStatus: z.enum(KYC_STATUSES),
  /** The member's USD available balance (product-spec §2 "Member centre": USD amount). */
  usdMinor: minor,
  /** False shows the "no funds password" warning. */
  fundsPasswordSet: z.boolean(),
});
export type AccountSummary = z.infer<typeof accountSummaryRes>;

export const watchlistReq = z.object({ type: z.string().max(16).optional() });
/** The watchlist: symbols with their Chinese short name and the exchange's English one (null when none). */
export const watchlistRes = z.array(
  z.object({ symbol: z.string(), name: z.string(), nameEn: z.string().nullable() }),
);
export const watchlistChangeReq = z.object({ symbol: symbolSchema });

/**
 * `/user/pj`: the member's rating of the app (評價, píngjià; the spec leaves the route unlabeled,
 * docs/glossary.md), one to five stars and an optional comment the operators read in the console.
 */
export const FEEDBACK_COMMENT_MAX = 1_000;
export const feedbackReq = z.object({
  rating: z.number().int().min(1).max(5),
  comment: z.string().trim().max(FEEDBACK_COMMENT_MAX).default(''),
});
export const feedbackSchema = z.object({
  id: z.number().int(),
  rating: z.number().int(),
  comment: z.string(),
  createdAt: z.string(),
});
/** The member's own ratings, newest first. */
export const myFeedbackRes = z.array(feedbackSchema);
/** Every member's ratings for the console, newest first, with the account and the average. */
export const adminFeedbackRes = z.object({
  average: z.number().nullable(),
  count: z.number().int(),
  items: z.array(feedbackSchema.extend({ account: z.string() })),
});

export { CONFIRM_ABOVE_DEFAULT_MINOR, CONFIRM_ABOVE_MAX_MINOR, confirmNeeded } from './confirm-above';

/** The member's preferences; today the confirmation threshold (see CONFIRM_ABOVE_DEFAULT_MINOR). */
export const preferencesSchema = z.object({
  confirmAboveMinor: minor.min(0).max(CONFIRM_ABOVE_MAX_MINOR),
});
export type Preferences = z.infer<typeof preferencesSchema>;

/**
 * user/savePreferences: the whole preference set, replacing the stored one (saving the same
 * values again changes nothing). Strict: a field it does not know (another member's id, say) is
 * refused with parameterError rather than ignored.
 */
export const savePreferencesReq = preferencesSchema.strict();
