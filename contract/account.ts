/** The member centre and watchlist (product-spec §2 "Member centre", §3 "Account", "Watchlist entry"). */
import { z } from 'zod';
import { KYC_STATUSES } from './constants';
import { symbolSchema } from './market';

const minor = z.number().int();

/**
 * Account summary in TWD minor units. available, frozen and margin are the TWD ledger balances;
 * unrealised P&L is marked to the live quote; total assets is the asset overview's TWD total
 * (contract/wallet.ts: every member ledger account in every currency plus unrealised P&L, other
 * currencies valued in TWD at the operator's exchange rates).
 * `realisedProfitMinor` is the sum of the user's realised P&L, fee and tax postings.
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
export const watchlistRes = z.array(z.object({ symbol: z.string(), name: z.string() }));
export const watchlistChangeReq = z.object({ symbol: symbolSchema });
