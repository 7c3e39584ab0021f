/** Operator console calls (admin.html). Every call requires an operator or admin session. */
import { z } from 'zod';
import { pageQuery, paged } from './envelope';
import { depositStatusSchema } from './funds';
import { roleSchema } from './auth';

export const adminDepositsReq = pageQuery.extend({ status: z.enum(['pending', 'all']).default('pending') });
export const adminDepositSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  status: depositStatusSchema,
  reason: z.string().nullable(),
  createdAt: z.number().int(),
});
export const adminDepositsRes = paged(adminDepositSchema);

export const reviewReq = z.object({ id: z.number().int().positive().max(2_147_483_647) });
export const rejectReq = reviewReq.extend({ reason: z.string().trim().min(1).max(200) });

export const adminUsersReq = pageQuery.extend({ q: z.string().trim().max(32).optional() });
export const adminUserSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  role: roleSchema,
  availableMinor: z.number().int(),
  disabled: z.boolean(),
  frozen: z.boolean(),
  createdAt: z.number().int(),
});
export const adminUsersRes = paged(adminUserSchema);

/** Ledger reconciliation: every cached balance recomputed from postings; empty lists = clean. */
export const reconcileRes = z.object({
  accounts: z.number().int(),
  transactions: z.number().int(),
  balanceDifferences: z.array(
    z.object({ accountId: z.number().int(), cached: z.number().int(), fromPostings: z.number().int() }),
  ),
  unbalancedTransactions: z.array(
    z.object({ transactionId: z.number().int(), currency: z.string(), sum: z.number().int() }),
  ),
  negativeBalances: z.array(z.object({ accountId: z.number().int(), balance: z.number().int() })),
  clean: z.boolean(),
});
