/**
 * user/recharge (deposit request, pending operator review) and user/fundRecords (the member's
 * ledger postings by tab). Approval and rejection live in the admin module: approval is one
 * ledger transaction bank_clearing → member available, in the same DB transaction as the status.
 */
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { DEPOSIT_MAX_MINOR, DEPOSIT_MIN_MINOR, FUND_TABS, type FundFlowType } from '../../../contract/funds';
import { deposits, ledgerAccounts, ledgerPostings, ledgerTransactions } from '../../db/schema';
import { fail } from '../../http/errors';
import { requireUser, type Handlers } from '../../http/context';

export type DepositRow = typeof deposits.$inferSelect;

/** A deposits row as the API returns it (times in epoch ms, amount in minor units). */
export const depositDto = (d: DepositRow) => ({
  id: d.id,
  amountMinor: d.amountMinor,
  currency: d.currency,
  status: d.status as 'pending' | 'approved' | 'rejected',
  reason: d.reason,
  createdAt: d.createdAt.getTime(),
  reviewedAt: d.reviewedAt ? d.reviewedAt.getTime() : null,
});

/** user/recharge and user/fundRecords handlers. */
export const fundsHandlers: Pick<Handlers, 'user/recharge' | 'user/fundRecords'> = {
  async 'user/recharge'(body, ctx) {
    const user = requireUser(ctx);
    if (user.frozen) throw fail('accountFrozen', 403);
    if (body.amountMinor < DEPOSIT_MIN_MINOR) throw fail('belowMinDeposit', 400);
    if (body.amountMinor > DEPOSIT_MAX_MINOR) throw fail('aboveMaxDeposit', 400);
    const [row] = await ctx.db
      .insert(deposits)
      .values({ userId: user.id, amountMinor: body.amountMinor })
      .returning();
    return depositDto(row!);
  },
  async 'user/fundRecords'(body, ctx) {
    const user = requireUser(ctx);
    const types = FUND_TABS[body.tab] as readonly FundFlowType[];
    const where = and(eq(ledgerAccounts.userId, user.id), inArray(ledgerTransactions.type, [...types]));
    const base = ctx.db
      .select({
        id: ledgerPostings.id,
        transactionId: ledgerPostings.transactionId,
        type: ledgerTransactions.type,
        account: ledgerAccounts.purpose,
        amountMinor: ledgerPostings.amountMinor,
        currency: ledgerPostings.currency,
        refType: ledgerTransactions.refType,
        refId: ledgerTransactions.refId,
        createdAt: ledgerTransactions.createdAt,
      })
      .from(ledgerPostings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerPostings.transactionId));
    const rows = await base
      .where(where)
      .orderBy(desc(ledgerPostings.id))
      .limit(body.pageSize)
      .offset((body.page - 1) * body.pageSize);
    const [total] = await ctx.db
      .select({ n: count() })
      .from(ledgerPostings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerPostings.transactionId))
      .where(where);
    const depositRows =
      body.tab === 'deposit' && body.page === 1
        ? await ctx.db
            .select()
            .from(deposits)
            .where(eq(deposits.userId, user.id))
            .orderBy(desc(deposits.id))
            .limit(50)
        : [];
    return {
      items: rows.map((r) => ({
        id: r.id,
        transactionId: r.transactionId,
        type: r.type as FundFlowType,
        account: r.account,
        amountMinor: r.amountMinor,
        currency: r.currency,
        ref: r.refType && r.refId ? `${r.refType}:${r.refId}` : null,
        createdAt: r.createdAt.getTime(),
      })),
      total: total!.n,
      page: body.page,
      pageSize: body.pageSize,
      deposits: depositRows.map(depositDto),
    };
  },
};
