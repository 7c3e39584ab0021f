/**
 * Operator review of deposits: the queue (with the channel's name and the receipt upload the
 * console shows), approve (one ledger transaction platform bank_clearing → the member's available
 * cash in the deposit's currency, in the same DB transaction as the status change) and reject
 * (with a reason; no money moves). Each review writes an audit entry with the row before and
 * after; the conditional status update makes a second review of the same deposit 409
 * operationFailed; an operator's own deposit is refused 403 selfReview with nothing changed, and
 * the attempt audited (four-eyes/four-eyes.ts). Each deposit lists the other deposits whose receipt
 * is the same picture (`receiptMatches`), so a receipt reused by another member is flagged, and
 * those whose receipt looks nearly the same (`receiptNearMatches`, receipt-near-matches.ts: a
 * re-encoded or retouched copy).
 */
import { desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { RECEIPT_MATCHES_MAX } from '../../../contract/admin';
import { depositChannels, deposits, users } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { audit } from '../common/audit';
import { pageOf } from '../common/paging';
import { auditSelfReview } from '../four-eyes/four-eyes';
import { reviewer } from '../four-eyes/review';
import { ensureMemberAccounts, post } from '../ledger/ledger';
import type { Db, Tx } from '../../db/client';
import { notifyMember } from '../notices/notify';
import { receiptNearMatchesOf, type ReceiptNearMatch } from './receipt-near-matches';

type DepositRow = typeof deposits.$inferSelect;
type Status = 'pending' | 'approved' | 'rejected';
type ReceiptMatch = { id: number; userId: number; account: string; status: Status };

/**
 * For each given deposit with a receipt hash, the other deposits with the same hash (any member,
 * any status), newest first, at most RECEIPT_MATCHES_MAX each. One query: rows are numbered per
 * hash so a receipt reused a thousand times still reads a bounded number of rows.
 */
async function receiptMatchesOf(db: Db | Tx, rows: DepositRow[]): Promise<Map<number, ReceiptMatch[]>> {
  const hashes = [...new Set(rows.flatMap((r) => (r.receiptSha256 ? [r.receiptSha256] : [])))];
  const out = new Map<number, ReceiptMatch[]>();
  if (!hashes.length) return out;
  const ranked = db
    .select({
      id: deposits.id,
      userId: deposits.userId,
      account: users.account,
      status: deposits.status,
      hash: deposits.receiptSha256,
      n: sql<number>`row_number() over (partition by ${deposits.receiptSha256} order by ${deposits.id} desc)`.as(
        'n',
      ),
    })
    .from(deposits)
    .innerJoin(users, eq(users.id, deposits.userId))
    .where(inArray(deposits.receiptSha256, hashes))
    .as('ranked');
  // Each deposit skips itself: a page holding several deposits of one hash needs that many more rows.
  const others = await db
    .select()
    .from(ranked)
    .where(lte(ranked.n, RECEIPT_MATCHES_MAX + rows.length))
    .orderBy(desc(ranked.id));
  for (const r of rows) {
    if (!r.receiptSha256) continue;
    const same = others
      .filter((o) => o.hash === r.receiptSha256 && o.id !== r.id)
      .slice(0, RECEIPT_MATCHES_MAX)
      .map((o) => ({ id: o.id, userId: o.userId, account: o.account, status: o.status as Status }));
    if (same.length) out.set(r.id, same);
  }
  return out;
}

function adminDepositDto(
  d: DepositRow,
  account: string,
  channelName: string | null,
  receiptMatches: ReceiptMatch[] = [],
  receiptNearMatches: ReceiptNearMatch[] = [],
) {
  return {
    id: d.id,
    userId: d.userId,
    account,
    amountMinor: d.amountMinor,
    currency: d.currency,
    status: d.status as Status,
    reason: d.reason,
    createdAt: d.createdAt.getTime(),
    channelName,
    receiptUploadId: d.receiptUploadId,
    receiptMatches,
    receiptNearMatches,
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
  const matches = await receiptMatchesOf(tx, [row.d]);
  const near = await receiptNearMatchesOf(tx, [row.d]);
  return adminDepositDto(row.d, row.account, row.channelName, matches.get(row.d.id), near.get(row.d.id));
}

const reviewDeposit = reviewer(
  { table: deposits, type: 'deposit', pending: 'pending', notPending: 'operationFailed' },
  adminDeposit,
);

/** admin/deposits, admin/approveDeposit, admin/rejectDeposit. */
export const depositReviewHandlers: Pick<
  Handlers,
  'admin/deposits' | 'admin/approveDeposit' | 'admin/rejectDeposit'
> = {
  async 'admin/deposits'(body, ctx) {
    const where = body.status === 'pending' ? eq(deposits.status, 'pending') : undefined;
    const page = await pageOf(
      ctx.db,
      selectAdminDeposit(ctx.db).where(where).orderBy(desc(deposits.id)),
      { table: deposits, where },
      body,
    );
    const requests = page.items.map((r) => r.d);
    const matches = await receiptMatchesOf(ctx.db, requests);
    const near = await receiptNearMatchesOf(ctx.db, requests);
    return {
      ...page,
      items: page.items.map((r) =>
        adminDepositDto(r.d, r.account, r.channelName, matches.get(r.d.id), near.get(r.d.id)),
      ),
    };
  },

  async 'admin/approveDeposit'(body, ctx) {
    const op = requireUser(ctx);
    const reviewed = ctx.db.transaction(async (tx) => {
      const { before, after: d } = await reviewDeposit(tx, {
        id: body.id,
        operatorId: op.id,
        status: 'approved',
        reason: null,
      });
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
      await notifyMember(tx, d.userId, 'depositApproved', {
        amountMinor: d.amountMinor,
        currency: d.currency,
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
    return reviewed.catch(auditSelfReview(ctx.db, op.id));
  },

  async 'admin/rejectDeposit'(body, ctx) {
    const op = requireUser(ctx);
    const reviewed = ctx.db.transaction(async (tx) => {
      const { before, after: d } = await reviewDeposit(tx, {
        id: body.id,
        operatorId: op.id,
        status: 'rejected',
        reason: body.reason,
      });
      await notifyMember(tx, d.userId, 'depositRejected', {
        amountMinor: d.amountMinor,
        currency: d.currency,
        reason: body.reason,
      });
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
    return reviewed.catch(auditSelfReview(ctx.db, op.id));
  },
};
