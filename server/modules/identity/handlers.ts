/**
 * Who the member is (issue 4): real-name verification (kyc.ts), the login and funds passwords,
 * bank cards, and the operator's funds-password unlock. Rules: product-spec §5 "Bank card",
 * "Withdraw" (funds password), §8 "Identity", "Generic" (card messages).
 */
import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bankCards, sessions, userSecurity, users, withdrawals } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { audit } from '../common/audit';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { forgetSessions, hashToken } from '../auth/sessions';
import { isUniqueViolation } from '../common/db-errors';
import { bankCardDto, cardCodes, normaliseName } from './cards';
import {
  fundsPasswordState,
  replaceFundsPassword,
  setFirstFundsPassword,
  verifyFundsPassword,
} from './funds-password';
import { kycHandlers, kycStatusOf, verifiedNameOf } from './kyc';

/** The live card with this number, on whichever account holds it. */
async function liveCardOwner(db: Db, cardNumber: string): Promise<number | undefined> {
  const [row] = await db
    .select({ userId: bankCards.userId })
    .from(bankCards)
    .where(and(eq(bankCards.cardNumber, cardNumber), isNull(bankCards.deletedAt)))
    .limit(1);
  return row?.userId;
}

export const identityHandlers: Pick<
  Handlers,
  | 'user/kyc'
  | 'user/submitKyc'
  | 'user/loginPassword'
  | 'user/setPassword'
  | 'user/security'
  | 'user/bankCards'
  | 'user/addBankCard'
  | 'user/deleteBankCard'
  | 'admin/kyc'
  | 'admin/approveKyc'
  | 'admin/rejectKyc'
  | 'admin/unlockFundsPassword'
> = {
  ...kycHandlers,

  /**
   * Changes the login password: the old one is required and checked, each try counted like a
   * login of the account from this address (auth/throttle.ts), so a held session cannot guess it;
   * every other session of the member ends, the current one stays.
   * @throws tooFrequent (429) while those tries are throttled; wrongOriginalPassword (422)
   */
  async 'user/loginPassword'(body, ctx) {
    const user = requireUser(ctx);
    const attempt = await ctx.services.authThrottle.beginLogin(user.account, ctx.ip);
    const [row] = await ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    if (!row || !(await verifyPassword(body.oldPassword, row.hash))) {
      await attempt.failed();
      throw fail('wrongOriginalPassword');
    }
    await attempt.succeeded();
    const passwordHash = await hashPassword(body.password);
    const keep = ctx.token ? hashToken(ctx.token) : '';
    await ctx.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
      await tx.delete(sessions).where(and(eq(sessions.userId, user.id), ne(sessions.tokenHash, keep)));
    });
    forgetSessions(user.id);
    ctx.services.sessionSockets.revokeUser(user.id, keep);
    return { ok: true as const };
  },

  /**
   * Sets the funds password, or changes it: then `oldFundsPassword` is required and checked like
   * a withdrawal's (a wrong one counts as a failed try; a locked password cannot be changed).
   * Answers `outcome` 'set' the first time, 'changed' afterwards.
   * @throws fieldsEmpty (400) without the old password, fundsPasswordWrong (422),
   *   fundsPasswordLocked (403), operationFailed (409) when it was set concurrently
   */
  async 'user/setPassword'(body, ctx) {
    const user = requireUser(ctx);
    const state = await fundsPasswordState(ctx.db, user.id);
    if (!state.set) {
      await setFirstFundsPassword(ctx.db, user.id, body.fundsPassword);
      return { ok: true as const, outcome: 'set' as const };
    }
    if (!body.oldFundsPassword) throw fail('fieldsEmpty');
    await verifyFundsPassword(ctx.db, user.id, body.oldFundsPassword);
    await replaceFundsPassword(ctx.db, user.id, body.fundsPassword);
    return { ok: true as const, outcome: 'changed' as const };
  },

  async 'user/security'(_body, ctx) {
    const user = requireUser(ctx);
    const s = await fundsPasswordState(ctx.db, user.id);
    return { fundsPasswordSet: s.set, fundsPasswordLocked: s.locked, fundsPasswordTriesLeft: s.triesLeft };
  },

  async 'user/bankCards'(_body, ctx) {
    const user = requireUser(ctx);
    const rows = await ctx.db
      .select()
      .from(bankCards)
      .where(and(eq(bankCards.userId, user.id), isNull(bankCards.deletedAt)))
      .orderBy(asc(bankCards.id));
    return rows.map(bankCardDto);
  },

  /**
   * Adds a card (product-spec §5 "Bank card": real-name verification first; the card must be the
   * member's own). The holder name must equal the verified name (normaliseName on both). A Taiwan
   * account keeps its bank code and branch code (a listed bank code keeps a listed name,
   * cards.ts cardCodes); an account outside Taiwan its UPI / IFSC (contract/identity.ts
   * addBankCardReq says which fields each needs).
   * @throws kycUnderReview (409), realNameNotCompleted (422), holderNameMismatch (422),
   *   duplicateCard (409) when the number is live on the caller's account, notOwnCard (409) when
   *   it is live on another account (also when a concurrent add wins the unique index).
   */
  async 'user/addBankCard'(body, ctx) {
    const user = requireUser(ctx);
    const status = await kycStatusOf(ctx.db, user.id);
    if (status === 'review') throw fail('kycUnderReview');
    const verifiedName = status === 'verified' ? await verifiedNameOf(ctx.db, user.id) : null;
    if (verifiedName === null) throw fail('realNameNotCompleted');
    const holderName = normaliseName(body.holderName);
    if (holderName !== normaliseName(verifiedName)) throw fail('holderNameMismatch');
    const taken = async () => {
      const owner = await liveCardOwner(ctx.db, body.cardNumber);
      if (owner === undefined) return null;
      return owner === user.id ? fail('duplicateCard') : fail('notOwnCard');
    };
    const refused = await taken();
    if (refused) throw refused;
    try {
      const [card] = await ctx.db
        .insert(bankCards)
        .values({
          userId: user.id,
          holderName,
          cardNumber: body.cardNumber,
          ...cardCodes(body),
          branchName: body.branchName,
        })
        .returning();
      return bankCardDto(card!);
    } catch (err) {
      // Lost a race on bank_cards_number_live_uq: say whose card it now is.
      if (isUniqueViolation(err, 'bank_cards_number_live_uq')) throw (await taken()) ?? fail('duplicateCard');
      throw err;
    }
  },

  /**
   * Deletes (soft) one of the member's cards.
   * @throws cardNotFound (404) for a missing, deleted or another member's card;
   *   otherFundOperation (409) while a pending withdrawal pays out to it
   */
  async 'user/deleteBankCard'(body, ctx) {
    const user = requireUser(ctx);
    await ctx.db.transaction(async (tx) => {
      const [card] = await tx
        .select({ id: bankCards.id })
        .from(bankCards)
        .where(and(eq(bankCards.id, body.id), eq(bankCards.userId, user.id), isNull(bankCards.deletedAt)))
        .for('update');
      if (!card) throw fail('cardNotFound');
      const [pending] = await tx
        .select({ id: withdrawals.id })
        .from(withdrawals)
        .where(and(eq(withdrawals.cardId, card.id), eq(withdrawals.status, 'pending')))
        .limit(1);
      if (pending) throw fail('otherFundOperation');
      await tx.update(bankCards).set({ deletedAt: new Date() }).where(eq(bankCards.id, card.id));
    });
    return { ok: true as const };
  },

  /**
   * Resets a member's wrong funds-password count (unlocks withdrawals), with an audit entry.
   * @throws accountNotFound (404)
   */
  async 'admin/unlockFundsPassword'(body, ctx) {
    const op = requireUser(ctx);
    await ctx.db.transaction(async (tx) => {
      const [target] = await tx.select({ id: users.id }).from(users).where(eq(users.id, body.id));
      if (!target) throw fail('accountNotFound');
      const [before] = await tx
        .select({ fails: userSecurity.fundsPasswordFails })
        .from(userSecurity)
        .where(eq(userSecurity.userId, body.id))
        .for('update');
      if (before)
        await tx
          .update(userSecurity)
          .set({ fundsPasswordFails: 0, updatedAt: new Date() })
          .where(eq(userSecurity.userId, body.id));
      await audit(tx, {
        actorUserId: op.id,
        action: 'user.unlockFundsPassword',
        targetType: 'user',
        targetId: body.id,
        before: { fundsPasswordFails: before?.fails ?? 0 },
        after: { fundsPasswordFails: 0 },
      });
    });
    return { ok: true as const };
  },
};
