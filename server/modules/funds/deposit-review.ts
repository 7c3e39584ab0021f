/**
 * Operator review of deposits: the queue (with the channel's name and the receipt upload the
 * console shows), approve (one ledger transaction platform bank_clearing → the member's available
 * cash in the deposit's currency, in the same DB transaction as the status change) and reject
 * (with a reason; no money moves). Each review writes an audit entry with the row before and
 * after; the conditional status update makes a second review of the same deposit 409
 * operationFailed.
 */
import { count, desc, eq } from 'drizzle-orm';
import { depositChannels, deposits, users } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { audit } from '../admin/audit';
import { reviewer } from './review';
import { ensureMemberAccounts, post } from '../ledger/ledger';
import type { Db, Tx } from '../../db/client';

type DepositRow = typeof deposits.$inferSelect;

function adminDepositDto(d: DepositRow, account: string, channelName: string | null) {
  return {
    id: d.id,
    userId: d.userId,
    account,
    amountMinor: d.amountMinor,
    currency: d.currency,
    status: d.status as 'pending' | 'approved' | 'rejected',
    reason: d.reason,
    createdAt: d.createdAt.getTime(),
    channelName,
    receiptUploadId: d.receiptUploadId,
  };
}

const selectAdminDeposit = (db: Db | Tx) =>
  db
    .select({ d: deposits, account: users.account, channelName: depositChannels.name })
    .from(deposits)
    .innerJoin(users, eq(users.id, deposits.userId))
    .leftJoin(depositChannels, eq(depositChannels.id, deposits.channelId));

async function adminDeposit(tx: Tx, id: number) {
  const [row] = await selectAdminDeposit(tx).where(eq(deposits.id, id));
  if (!row) throw fail('notFound');
  return adminDepositDto(row.d, row.account, row.channelName);
}

const reviewDeposit = reviewer(deposits, adminDeposit);

/** admin/deposits, admin/approveDeposit, admin/rejectDeposit. */
export const depositReviewHandlers: Pick<
  Handlers,
  'admin/deposits' | 'admin/approveDeposit' | 'admin/rejectDeposit'
> = {
  async 'admin/deposits'(body, ctx) {
    const where = body.status === 'pending' ? eq(deposits.status, 'pending') : undefined;
    const rows = await selectAdminDeposit(ctx.db)
      .where(where)
      .orderBy(desc(deposits.id))
      .limit(body.pageSize)
      .offset((body.page - 1) * body.pageSize);
    const [total] = await ctx.db.select({ n: count() }).from(deposits).where(where);
    return {
      items: rows.map((r) => adminDepositDto(r.d, r.account, r.channelName)),
      total: total!.n,
      page: body.page,
      pageSize: body.pageSize,
    };
  },

  async 'admin/approveDeposit'(body, ctx) {
    const op = requireUser(ctx);
    return ctx.db.transaction(async (tx) => {
      const { before, row: d } = await reviewDeposit(tx, body.id, op.id, 'approved', null);
      await ensureMemberAccounts(tx, d.userId, d.currency);
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
      const after = await adminDeposit(tx, d.id);
      await audit(tx, {
        actorUserId: op.id,
        action: 'deposit.approve',
        targetType: 'deposit',
        targetId: d.id,
        before,
        after,
      });
      return after;
    });
  },

  async 'admin/rejectDeposit'(body, ctx) {
    const op = requireUser(ctx);
    return ctx.db.transaction(async (tx) => {
      const { before, row: d } = await reviewDeposit(tx, body.id, op.id, 'rejected', body.reason);
      const after = await adminDeposit(tx, d.id);
      await audit(tx, {
        actorUserId: op.id,
        action: 'deposit.reject',
        targetType: 'deposit',
        targetId: d.id,
        before,
        after,
        reason: body.reason,
      });
      return after;
    });
  },
};
