/**
 * The operator's review of a pending deposit or withdrawal: one conditional update
 * (`where status = 'pending'`), so a second review of the same request, even concurrent, finds
 * nothing to update and is refused; an operator's own request is refused before anything is
 * written (four-eyes/four-eyes.ts). Runs inside the caller's transaction, before its ledger posting.
 */
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { deposits, withdrawals } from '../../db/schema';
import { fail } from '../common/errors';
import { refuseSelfReview, type ReviewTarget } from '../four-eyes/four-eyes';

/** A table of requests an operator reviews: id, status, reason, reviewedBy, reviewedAt. */
type Reviewed = typeof deposits | typeof withdrawals;

/**
 * The review step for requests of `table` (audit target type `type`): `load` reads one as the
 * console shows it, with its owner's `userId` (and throws 404 for an unknown id). The returned
 * function reviews request `id`: load, refuse the operator's own request, then move it from
 * pending to `status`, recording the operator and reason; it returns the console's view before
 * the review and the updated row.
 * @throws SelfReviewError selfReview (403) when the request is the operator's own; AppError
 *   operationFailed (409) when the request is no longer pending.
 */
export const reviewer =
  <T extends Reviewed, B extends { userId: number }>(
    table: T,
    type: ReviewTarget['type'],
    load: (tx: Tx, id: number) => Promise<B>,
  ) =>
  async (
    tx: Tx,
    id: number,
    operatorId: number,
    status: 'approved' | 'rejected',
    reason: string | null,
  ): Promise<{ before: B; row: T['$inferSelect'] }> => {
    const before = await load(tx, id);
    refuseSelfReview(operatorId, before.userId, { type, id });
    // Both tables have the same review columns; the deposits type only names them for Drizzle.
    const t = table as typeof deposits;
    const [row] = await tx
      .update(t)
      .set({ status, reason, reviewedBy: operatorId, reviewedAt: new Date() })
      .where(and(eq(t.id, id), eq(t.status, 'pending')))
      .returning();
    if (!row) throw fail('operationFailed');
    return { before, row: row as T['$inferSelect'] };
  };
