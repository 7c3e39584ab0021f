/** Operator console: the deposit review queue and the user list. Roles come from the database only. */
import { and, count, desc, eq, ilike, inArray } from 'drizzle-orm';
import { deposits, ledgerAccounts, users } from '../../db/schema';
import { fail } from '../../http/errors';
import { requireUser, type Handlers } from '../../http/context';
import { isClean, post, reconcile } from '../ledger/ledger';
import type { Tx } from '../../db/client';

async function depositWithAccount(tx: Tx, id: number) {
  const row = (
    await tx
      .select({ d: deposits, account: users.account })
      .from(deposits)
      .innerJoin(users, eq(users.id, deposits.userId))
      .where(eq(deposits.id, id))
  )[0];
  if (!row) throw fail('notFound', 404);
  return adminDepositDto(row.d, row.account);
}

function adminDepositDto(d: typeof deposits.$inferSelect, account: string) {
  return {
    id: d.id,
    userId: d.userId,
    account,
    amountMinor: d.amountMinor,
    currency: d.currency,
    status: d.status as 'pending' | 'approved' | 'rejected',
    reason: d.reason,
    createdAt: d.createdAt.getTime(),
  };
}

/** Moves a pending deposit to `status`; the conditional update makes a double review impossible. */
async function review(
  tx: Tx,
  id: number,
  operatorId: number,
  status: 'approved' | 'rejected',
  reason: string | null,
) {
  const [d] = await tx
    .update(deposits)
    .set({ status, reason, reviewedBy: operatorId, reviewedAt: new Date() })
    .where(and(eq(deposits.id, id), eq(deposits.status, 'pending')))
    .returning();
  if (!d) {
    const exists = await tx.select({ id: deposits.id }).from(deposits).where(eq(deposits.id, id));
    throw exists.length ? fail('operationFailed', 409) : fail('notFound', 404);
  }
  return d;
}

/** admin/* handlers; access (operator or admin role) is checked before they run. */
export const adminHandlers: Pick<
  Handlers,
  'admin/deposits' | 'admin/approveDeposit' | 'admin/rejectDeposit' | 'admin/users' | 'admin/reconcile'
> = {
  async 'admin/reconcile'(_body, ctx) {
    const r = await reconcile(ctx.db);
    return { ...r, clean: isClean(r) };
  },
  async 'admin/deposits'(body, ctx) {
    const where = body.status === 'pending' ? eq(deposits.status, 'pending') : undefined;
    const rows = await ctx.db
      .select({ d: deposits, account: users.account })
      .from(deposits)
      .innerJoin(users, eq(users.id, deposits.userId))
      .where(where)
      .orderBy(desc(deposits.id))
      .limit(body.pageSize)
      .offset((body.page - 1) * body.pageSize);
    const [total] = await ctx.db.select({ n: count() }).from(deposits).where(where);
    return {
      items: rows.map((r) => adminDepositDto(r.d, r.account)),
      total: total!.n,
      page: body.page,
      pageSize: body.pageSize,
    };
  },
  async 'admin/approveDeposit'(body, ctx) {
    const op = requireUser(ctx);
    return ctx.db.transaction(async (tx) => {
      const d = await review(tx, body.id, op.id, 'approved', null);
      await post(tx, {
        type: 'deposit',
        refType: 'deposit',
        refId: d.id,
        idempotencyKey: `deposit:${d.id}`,
        actorUserId: op.id,
        postings: [
          { account: { platform: 'bank_clearing', currency: d.currency }, amountMinor: -d.amountMinor },
          {
            account: { userId: d.userId, purpose: 'available', currency: d.currency },
            amountMinor: d.amountMinor,
          },
        ],
      });
      return depositWithAccount(tx, d.id);
    });
  },
  async 'admin/rejectDeposit'(body, ctx) {
    const op = requireUser(ctx);
    return ctx.db.transaction(async (tx) => {
      const d = await review(tx, body.id, op.id, 'rejected', body.reason);
      return depositWithAccount(tx, d.id);
    });
  },
  async 'admin/users'(body, ctx) {
    const where = body.q ? ilike(users.account, `%${body.q.replace(/[%_\\]/g, '')}%`) : undefined;
    const rows = await ctx.db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.id))
      .limit(body.pageSize)
      .offset((body.page - 1) * body.pageSize);
    const [total] = await ctx.db.select({ n: count() }).from(users).where(where);
    const ids = rows.map((r) => r.id);
    const avail = ids.length
      ? await ctx.db
          .select({ userId: ledgerAccounts.userId, balance: ledgerAccounts.balanceMinor })
          .from(ledgerAccounts)
          .where(
            and(
              inArray(ledgerAccounts.userId, ids),
              eq(ledgerAccounts.purpose, 'available'),
              eq(ledgerAccounts.currency, 'TWD'),
            ),
          )
      : [];
    const byUser = new Map(avail.map((a) => [a.userId, a.balance]));
    return {
      items: rows.map((u) => ({
        id: u.id,
        account: u.account,
        role: u.role as 'member' | 'operator' | 'admin',
        availableMinor: byUser.get(u.id) ?? 0,
        disabled: u.disabled,
        frozen: u.frozen,
        createdAt: u.createdAt.getTime(),
      })),
      total: total!.n,
      page: body.page,
      pageSize: body.pageSize,
    };
  },
};
