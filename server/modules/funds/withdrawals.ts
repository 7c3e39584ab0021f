/**
 * Withdrawals (product-spec §3 "Withdrawal", §4 "pending review, passed, rejected", §5 "Withdraw",
 * §6 account flags, §8 "Money"): user/withdraw, and the operator queue admin/withdrawals with
 * admin/approveWithdrawal and admin/rejectWithdrawal.
 *
 * Money flow (TWD, minor units), each step one ledger transaction in the same DB transaction as the
 * row change:
 * - request: member available → member frozen (type `withdrawal`);
 * - approval (paid to the card): member frozen → platform bank_clearing (`withdrawalPaid`);
 * - rejection (money returned): member frozen → member available (`withdrawalRejected`).
 *
 * Request checks, in order: withdrawal banned or frozen → 403 cannotWithdrawOrTrade; amount
 * outside the site's limits (admin/saveConfig withdrawMinMinor/withdrawMaxMinor) → 400
 * belowMinWithdraw / aboveMaxWithdraw; a credit loan past its due day → 422 unpaidCreditLoan; not one of the member's live cards → 404 cardNotFound; the
 * funds password (identity/funds-password.ts, its own transaction so a wrong try counts); a
 * pending withdrawal already → 409 otherFundOperation (race-safe: the partial unique index
 * withdrawals_one_pending_uq refuses a second pending row); while the market is a replay (a
 * practice venue, practice.ts) an amount above the member's net deposits → 422 aboveNetDeposits,
 * unless REPLAY_WITHDRAWALS=all; not enough available cash → 422 insufficientBalance with nothing
 * written. user/withdrawable tells the screen how much it may ask for and under which rule.
 * Reviews update the row only while it is pending, so a second review is 409 operationFailed; an
 * operator's own withdrawal is refused 403 selfReview with nothing changed, and the attempt audited
 * (four-eyes/four-eyes.ts).
 */
import { desc, eq } from 'drizzle-orm';
import { maskCardNumber } from '../../../contract/identity-rules';
import type { Tx } from '../../db/client';
import { bankCards, users, withdrawals } from '../../db/schema';
import { AppError, fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { audit } from '../common/audit';
import { auditSelfReview } from '../four-eyes/four-eyes';
import { reviewer } from '../four-eyes/review';
import { siteSettings } from '../common/settings';
import { requireOwnCard, type BankCardRow } from '../identity/cards';
import { verifyFundsPassword } from '../identity/funds-password';
import { move, post } from '../ledger/ledger';
import { isUniqueViolation } from '../common/db-errors';
import { pageOf } from '../common/paging';
import { refuseWhenOverdue } from '../credit/loans';
import { notifyMember } from '../notices/notify';
import { refuseAboveNetDeposits, withdrawableOf } from './practice';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
type Status = 'pending' | 'approved' | 'rejected';

/** Withdrawals are paid in TWD (the withdrawal request has no currency). */
const WITHDRAW_CURRENCY = 'TWD';
const ONE_PENDING_INDEX = 'withdrawals_one_pending_uq';

/** A withdrawal as the member sees it; the card as "Bank name **** 1234". */
export const withdrawalDto = (w: WithdrawalRow, card: BankCardRow) => ({
  id: w.id,
  amountMinor: w.amountMinor,
  currency: w.currency,
  cardId: w.cardId,
  cardLabel: `${card.bankName} ${maskCardNumber(card.cardNumber)}`,
  status: w.status as Status,
  reason: w.reason,
  createdAt: w.createdAt.getTime(),
  reviewedAt: w.reviewedAt ? w.reviewedAt.getTime() : null,
});

/** A withdrawal as operators see it: the member's account and the full card details to pay to. */
const adminWithdrawalDto = (w: WithdrawalRow, card: BankCardRow, account: string) => ({
  id: w.id,
  userId: w.userId,
  account,
  amountMinor: w.amountMinor,
  currency: w.currency,
  holderName: card.holderName,
  cardNumber: card.cardNumber,
  outsideTaiwan: card.outsideTaiwan,
  bankCode: card.bankCode,
  bankName: card.bankName,
  branchName: card.branchName,
  branchCode: card.branchCode,
  upi: card.upi,
  status: w.status as Status,
  reason: w.reason,
  createdAt: w.createdAt.getTime(),
});

async function adminWithdrawal(tx: Tx, id: number) {
  const [r] = await tx
    .select({ w: withdrawals, card: bankCards, account: users.account })
    .from(withdrawals)
    .innerJoin(bankCards, eq(bankCards.id, withdrawals.cardId))
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(eq(withdrawals.id, id));
  if (!r) throw fail('notFound');
  return adminWithdrawalDto(r.w, r.card, r.account);
}

const reviewWithdrawal = reviewer(
  { table: withdrawals, type: 'withdrawal', pending: 'pending', notPending: 'operationFailed' },
  adminWithdrawal,
);

/** user/withdraw and the operator's withdrawal queue. */
export const withdrawalHandlers: Pick<
  Handlers,
  | 'user/withdraw'
  | 'user/withdrawable'
  | 'admin/withdrawals'
  | 'admin/approveWithdrawal'
  | 'admin/rejectWithdrawal'
> = {
  async 'user/withdrawable'(_body, ctx) {
    return withdrawableOf(ctx.db, ctx.config, requireUser(ctx).id);
  },

  async 'user/withdraw'(body, ctx) {
    const user = requireUser(ctx);
    if (user.withdrawBanned || user.frozen) throw fail('cannotWithdrawOrTrade');
    const limits = await siteSettings(ctx.db);
    if (body.amountMinor < limits.withdrawMinMinor) throw fail('belowMinWithdraw');
    if (body.amountMinor > limits.withdrawMaxMinor) throw fail('aboveMaxWithdraw');
    // An overdue credit loan blocks withdrawals until repaid (modules/credit/loans.ts).
    await refuseWhenOverdue(ctx.db, user.id, ctx.services.credit.today());
    const card = await requireOwnCard(ctx.db, user.id, body.cardId);
    await verifyFundsPassword(ctx.db, user.id, body.fundsPassword);
    // One pending withdrawal per member: the partial unique index withdrawals_one_pending_uq
    // refuses the insert of a second one (checked by the database, so concurrent requests are
    // covered too); the aborted transaction has written nothing.
    try {
      return await ctx.db.transaction(async (tx) => {
        // A replayed market is a practice venue: at most the member's net deposits (practice.ts).
        await refuseAboveNetDeposits(tx, ctx.config, user.id, body.amountMinor);
        const [w] = await tx
          .insert(withdrawals)
          .values({
            userId: user.id,
            cardId: card.id,
            amountMinor: body.amountMinor,
            currency: WITHDRAW_CURRENCY,
          })
          .returning();
        await post(tx, {
          type: 'withdrawal',
          refType: 'withdrawal',
          refId: w!.id,
          actorUserId: user.id,
          postings: move(
            { userId: user.id, purpose: 'available', currency: WITHDRAW_CURRENCY },
            { userId: user.id, purpose: 'frozen', currency: WITHDRAW_CURRENCY },
            body.amountMinor,
          ),
        });
        return withdrawalDto(w!, card);
      });
    } catch (err) {
      if (!(err instanceof AppError) && isUniqueViolation(err, ONE_PENDING_INDEX))
        throw fail('otherFundOperation');
      throw err;
    }
  },

  async 'admin/withdrawals'(body, ctx) {
    const where = body.status === 'pending' ? eq(withdrawals.status, 'pending') : undefined;
    const rows = ctx.db
      .select({ w: withdrawals, card: bankCards, account: users.account })
      .from(withdrawals)
      .innerJoin(bankCards, eq(bankCards.id, withdrawals.cardId))
      .innerJoin(users, eq(users.id, withdrawals.userId))
      .where(where)
      .orderBy(desc(withdrawals.id));
    const page = await pageOf(ctx.db, rows, { table: withdrawals, where }, body);
    return { ...page, items: page.items.map((r) => adminWithdrawalDto(r.w, r.card, r.account)) };
  },

  async 'admin/approveWithdrawal'(body, ctx) {
    const op = requireUser(ctx);
    const reviewed = ctx.db.transaction(async (tx) => {
      const { before, after: w } = await reviewWithdrawal(tx, {
        id: body.id,
        operatorId: op.id,
        status: 'approved',
        reason: null,
      });
      await post(tx, {
        type: 'withdrawalPaid',
        refType: 'withdrawal',
        refId: w.id,
        idempotencyKey: `withdrawalPaid:${w.id}`,
        actorUserId: op.id,
        postings: move(
          { userId: w.userId, purpose: 'frozen', currency: w.currency },
          { platform: 'bank_clearing', currency: w.currency },
          w.amountMinor,
        ),
      });
      await notifyMember(tx, w.userId, 'withdrawalApproved', {
        amountMinor: w.amountMinor,
        currency: w.currency,
      });
      const after = await adminWithdrawal(tx, w.id);
      await audit(tx, {
        actorUserId: op.id,
        action: 'withdrawal.approve',
        targetType: 'withdrawal',
        targetId: w.id,
        before,
        after,
      });
      return after;
    });
    return reviewed.catch(auditSelfReview(ctx.db, op.id));
  },

  async 'admin/rejectWithdrawal'(body, ctx) {
    const op = requireUser(ctx);
    const reviewed = ctx.db.transaction(async (tx) => {
      const { before, after: w } = await reviewWithdrawal(tx, {
        id: body.id,
        operatorId: op.id,
        status: 'rejected',
        reason: body.reason,
      });
      await post(tx, {
        type: 'withdrawalRejected',
        refType: 'withdrawal',
        refId: w.id,
        idempotencyKey: `withdrawalRejected:${w.id}`,
        actorUserId: op.id,
        postings: move(
          { userId: w.userId, purpose: 'frozen', currency: w.currency },
          { userId: w.userId, purpose: 'available', currency: w.currency },
          w.amountMinor,
        ),
      });
      await notifyMember(tx, w.userId, 'withdrawalRejected', {
        amountMinor: w.amountMinor,
        currency: w.currency,
        reason: body.reason,
      });
      const after = await adminWithdrawal(tx, w.id);
      await audit(tx, {
        actorUserId: op.id,
        action: 'withdrawal.reject',
        targetType: 'withdrawal',
        targetId: w.id,
        before,
        after,
        reason: body.reason,
      });
      return after;
    });
    return reviewed.catch(auditSelfReview(ctx.db, op.id));
  },
};
