/**
 * The operator's review of a pending deposit or withdrawal: one conditional update
 * (`where status = 'pending'`), so a second review of the same request, even concurrent, finds
 * nothing to update and is refused. Runs inside the caller's transaction, before its ledger posting.
 */
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { deposits, withdrawals } from '../../db/schema';
import { fail } from '../common/errors';

/** A table of requests an operator reviews: id, status, reason, reviewedBy, reviewedAt. */
type Reviewed = typeof deposits | typeof withdrawals;

/**
 * The review step for requests of `table`: `load` reads one as the console shows it (and throws
 * 404 for an unknown id). The returned function reviews request `id`: load, then move it from
 * pending to `status`, recording the operator and reason; it returns the console's view before
 * the review and the updated row.
 * @throws AppError operationFailed (409) when the request is no longer pending.
 */
export const reviewer =
  <T extends Reviewed, B>(table: T, load: (tx: Tx, id: number) => Promise<B>) =>
  async (
    tx: Tx,
    id: number,
    operatorId: number,
    status: 'approved' | 'rejected',
    reason: string | null,
  ): Promise<{ before: B; row: T['$inferSelect'] }> => {
    const before = await load(tx, id);
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
