/**
 * Four eyes on money and identity: an operator never reviews their own deposit, withdrawal, KYC
 * submission, day-trading application, mentor application or credit loan (an account that was a member and was later promoted keeps its requests, and only
 * another operator may decide them).
 *
 * The check runs inside the review's transaction, on the row the review reads, before anything is
 * written (`refuseSelfReview`, called by every review through review.ts `reviewer`); the refusal rolls that transaction back, so the attempt is
 * recorded right after it in an audit entry of its own (`auditSelfReview`): action
 * `review.selfRefused`, the target's type and id, actor the operator.
 */
import type { Db } from '../../db/client';
import { AppError } from '../common/errors';
import { audit } from '../common/audit';

/** What an operator reviews. */
export type ReviewTarget = {
  type:
    | 'deposit'
    | 'withdrawal'
    | 'kyc'
    | 'dayTradeApplication'
    | 'mentorApplication'
    | 'primaryApplication'
    | 'creditLoan';
  id: number;
};

/** The refusal of a self-review: key `selfReview` (403, contract/errors.ts); names its target for the audit. */
export class SelfReviewError extends AppError {
  constructor(readonly target: ReviewTarget) {
    super('selfReview');
  }
}

/**
 * Throws SelfReviewError when the operator reviewing is the request's owner.
 * @param operatorId the reviewing operator's user id
 * @param ownerId the user id the request under review belongs to
 */
export function refuseSelfReview(operatorId: number, ownerId: number, target: ReviewTarget): void {
  if (operatorId === ownerId) throw new SelfReviewError(target);
}

/**
 * The rejection handler of a review's promise (`db.transaction(...).catch(auditSelfReview(db, op))`):
 * when the review was refused as a self-review, writes the audit entry of the attempt (in its own
 * transaction, the review's having rolled back); rethrows every error as it came.
 */
export const auditSelfReview =
  (db: Db, operatorId: number) =>
  async (err: unknown): Promise<never> => {
    if (err instanceof SelfReviewError) {
      await db.transaction((tx) =>
        audit(tx, {
          actorUserId: operatorId,
          action: 'review.selfRefused',
          targetType: err.target.type,
          targetId: err.target.id,
        }),
      );
    }
    throw err;
  };
