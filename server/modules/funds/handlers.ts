/**
 * user/recharge (a deposit request to an operator's channel, pending review) and user/fundRecords
 * (the member's ledger postings by tab, plus the member's requests on page 1, and on the trade
 * tab the realised P&L to date by the one definition, wallet/pnl.ts). Approval and
 * rejection live in deposit-review.ts: approval is one ledger transaction bank_clearing → the
 * member's available cash, in the same DB transaction as the status change.
 *
 * Deposit rules (product-spec §5 "Deposit", §8 "Money", §9 "Deposit hours"), checked in this order:
 * frozen account → 403 accountFrozen; unknown or disabled channel → 404 notFound; amount outside
 * the channel's minimum/maximum → 400 belowMinDeposit / aboveMaxDeposit; outside deposit hours
 * (contract/deposit-hours.ts with the real TWSE calendar) → 422 notDepositTime; no receipt, or one
 * that is not the caller's own `receipt` upload or is already attached to another deposit → 422
 * uploadProofFirst; a receipt with the same picture (sha256 of the decoded pixels,
 * uploads.pixels_sha256: a byte appended or metadata stripped is the same receipt) as one of the
 * member's pending or approved deposits → 409
 * receiptAlreadyUsed (race-safe: the partial unique index deposits_member_receipt_uq; a rejected
 * deposit credited nothing, so its receipt may be sent again); a channel with a password and a
 * missing or wrong one → 422 channelPasswordWrong. The deposit's currency is the channel's. The
 * same picture in another member's deposit is accepted and flagged in the operator's queue, and a
 * near-equal one (a re-encoded copy, by perceptual hash) listed there as a near match
 * (deposit-review.ts).
 */
import { and, count, desc, eq, inArray, ne } from 'drizzle-orm';
import { FUND_TABS, type FundFlowType } from '../../../contract/funds';
import {
  bankCards,
  depositChannels,
  deposits,
  exchanges,
  ledgerAccounts,
  ledgerPostings,
  ledgerTransactions,
  uploads,
  withdrawals,
} from '../../db/schema';
import type { Db, Tx } from '../../db/client';
import { AppError, fail } from '../common/errors';
import { isUniqueViolation } from '../common/db-errors';
import { requireUser, type Handlers } from '../common/context';
import { pageOf } from '../common/paging';
import { verifyPassword } from '../auth/passwords';
import { depositWindowAt } from './channels';
import { exchangeDto } from '../fx/handlers';
import { withdrawalDto } from './withdrawals';
import { realisedTotal } from '../wallet/pnl';
import { kycStatusOf } from '../identity/kyc';

export type DepositRow = typeof deposits.$inferSelect;

/** One live deposit per member and receipt content (migration 0007). */
const SAME_RECEIPT_INDEX = 'deposits_member_receipt_uq';

/** How many of the member's requests page 1 of a tab lists (newest first). */
const REQUESTS_ON_PAGE_ONE = 50;

/** A deposits row as the API returns it (times in epoch ms, amount in minor units). */
export const depositDto = (d: DepositRow, channelName: string | null) => ({
  id: d.id,
  amountMinor: d.amountMinor,
  currency: d.currency,
  channelName,
  status: d.status as 'pending' | 'approved' | 'rejected',
  reason: d.reason,
  createdAt: d.createdAt.getTime(),
  reviewedAt: d.reviewedAt ? d.reviewedAt.getTime() : null,
});

/** A receipt's picture identity as a deposit copies it (migration 0033). */
interface ReceiptHashes {
  /** uploads.pixels_sha256, or received_sha256 for a receipt stored before pictures were hashed. */
  sha256: string;
  phash: string | null;
}

/**
 * The caller's own receipt upload not attached to any deposit yet, else uploadProofFirst (422),
 * whose picture is in none of the caller's live (pending or approved) deposits, else
 * receiptAlreadyUsed (409): the same decoded pixels, whatever bytes were appended or stripped
 * (a deposit made before pictures were hashed is matched by the bytes sent). Returns the hashes
 * the deposit keeps. Inside a transaction it locks the upload row, so two requests cannot both
 * attach it.
 */
async function requireFreeReceipt(
  db: Db | Tx,
  userId: number,
  uploadId: string,
  lock: boolean,
): Promise<ReceiptHashes> {
  const q = db
    .select({
      id: uploads.id,
      received: uploads.receivedSha256,
      pixels: uploads.pixelsSha256,
      phash: uploads.phash,
    })
    .from(uploads)
    .where(and(eq(uploads.id, uploadId), eq(uploads.userId, userId), eq(uploads.purpose, 'receipt')));
  const [upload] = lock ? await q.for('update') : await q;
  if (!upload) throw fail('uploadProofFirst');
  const [used] = await db
    .select({ id: deposits.id })
    .from(deposits)
    .where(eq(deposits.receiptUploadId, uploadId))
    .limit(1);
  if (used) throw fail('uploadProofFirst');
  const sha256 = upload.pixels ?? upload.received;
  const [sameContent] = await db
    .select({ id: deposits.id })
    .from(deposits)
    .where(
      and(
        eq(deposits.userId, userId),
        inArray(deposits.receiptSha256, [...new Set([sha256, upload.received])]),
        ne(deposits.status, 'rejected'),
      ),
    )
    .limit(1);
  if (sameContent) throw fail('receiptAlreadyUsed');
  return { sha256, phash: upload.phash };
}

/** user/recharge and user/fundRecords handlers. */
export const fundsHandlers: Pick<Handlers, 'user/recharge' | 'user/fundRecords'> = {
  async 'user/recharge'(body, ctx) {
    const user = requireUser(ctx);
    if (user.frozen) throw fail('accountFrozen');
    // Money comes in only under a verified identity (the name the bank transfer must match).
    if ((await kycStatusOf(ctx.db, user.id)) !== 'verified') throw fail('depositNeedsVerification');
    const [channel] = await ctx.db
      .select()
      .from(depositChannels)
      .where(eq(depositChannels.id, body.channelId));
    if (!channel || !channel.enabled) throw fail('notFound');
    if (body.amountMinor < channel.minMinor) throw fail('belowMinDeposit');
    if (body.amountMinor > channel.maxMinor) throw fail('aboveMaxDeposit');
    if (!(await depositWindowAt(ctx.db, ctx.now())).openNow) throw fail('notDepositTime');
    const receiptId = body.receiptUploadId;
    if (!receiptId) throw fail('uploadProofFirst');
    await requireFreeReceipt(ctx.db, user.id, receiptId, false);
    if (channel.passwordHash !== null) {
      const given = body.channelPassword ?? '';
      if (!given || !(await verifyPassword(given, channel.passwordHash))) throw fail('channelPasswordWrong');
    }
    return ctx.db
      .transaction(async (tx) => {
        const receipt = await requireFreeReceipt(tx, user.id, receiptId, true);
        const [row] = await tx
          .insert(deposits)
          .values({
            userId: user.id,
            amountMinor: body.amountMinor,
            currency: channel.currency,
            channelId: channel.id,
            receiptUploadId: receiptId,
            receiptSha256: receipt.sha256,
            receiptPhash: receipt.phash,
          })
          .returning();
        return depositDto(row!, channel.name);
      })
      .catch((err: unknown) => {
        // Two uploads of one file raced past the check: the unique index refused the second.
        if (!(err instanceof AppError) && isUniqueViolation(err, SAME_RECEIPT_INDEX))
          throw fail('receiptAlreadyUsed');
        throw err;
      });
  },

  async 'user/fundRecords'(body, ctx) {
    const user = requireUser(ctx);
    const types = FUND_TABS[body.tab] as readonly FundFlowType[];
    const where = and(eq(ledgerAccounts.userId, user.id), inArray(ledgerTransactions.type, [...types]));
    const postings = ctx.db
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
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerPostings.transactionId))
      .where(where)
      .orderBy(desc(ledgerPostings.id));
    const total = ctx.db
      .select({ n: count() })
      .from(ledgerPostings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerPostings.transactionId))
      .where(where);
    const page = await pageOf(ctx.db, postings, { query: total }, body);
    const firstPage = body.page === 1;
    const depositRows =
      firstPage && body.tab === 'deposit'
        ? await ctx.db
            .select({ d: deposits, channelName: depositChannels.name })
            .from(deposits)
            .leftJoin(depositChannels, eq(depositChannels.id, deposits.channelId))
            .where(eq(deposits.userId, user.id))
            .orderBy(desc(deposits.id))
            .limit(REQUESTS_ON_PAGE_ONE)
        : [];
    const withdrawalRows =
      firstPage && body.tab === 'withdrawal'
        ? await ctx.db
            .select({ w: withdrawals, card: bankCards })
            .from(withdrawals)
            .innerJoin(bankCards, eq(bankCards.id, withdrawals.cardId))
            .where(eq(withdrawals.userId, user.id))
            .orderBy(desc(withdrawals.id))
            .limit(REQUESTS_ON_PAGE_ONE)
        : [];
    const exchangeRows =
      firstPage && body.tab === 'exchange'
        ? await ctx.db
            .select()
            .from(exchanges)
            .where(eq(exchanges.userId, user.id))
            .orderBy(desc(exchanges.id))
            .limit(REQUESTS_ON_PAGE_ONE)
        : [];
    return {
      ...page,
      items: page.items.map((r) => ({
        id: r.id,
        transactionId: r.transactionId,
        type: r.type as FundFlowType,
        account: r.account,
        amountMinor: r.amountMinor,
        currency: r.currency,
        ref: r.refType && r.refId ? `${r.refType}:${r.refId}` : null,
        createdAt: r.createdAt.getTime(),
      })),
      deposits: depositRows.map((r) => depositDto(r.d, r.channelName)),
      withdrawals: withdrawalRows.map((r) => withdrawalDto(r.w, r.card)),
      exchanges: exchangeRows.map(exchangeDto),
      realisedMinor: body.tab === 'trade' ? await realisedTotal(ctx.db, user.id) : null,
    };
  },
};
