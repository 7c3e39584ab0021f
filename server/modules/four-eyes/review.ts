/**
 * The operator's decision on a pending request (deposit, withdrawal, KYC submission, day-trading
 * application, mentor application, credit loan, primary-market application), one shape for all:
 * read the request, refuse the operator's own (four-eyes.ts), then one conditional update
 * (`where id = … and status = <pending>`) recording the status, reason, operator and time, so a
 * second decision on the same request, even concurrent, finds nothing to update and is refused.
 * Runs inside the caller's transaction; the caller posts, notifies and audits around it.
 */
import { and, eq } from 'drizzle-orm';
import type { ErrorKey } from '../../../contract/errors';
import type { Tx } from '../../db/client';
import type {
  creditLoans,
  dayTradeApplications,
  deposits,
  kycRecords,
  mentors,
  primaryApplications,
  withdrawals,
} from '../../db/schema';
import { fail } from '../common/errors';
import { refuseSelfReview, type ReviewTarget } from './four-eyes';

/** The tables of reviewed requests: each has id, userId, status, reason, reviewedBy and reviewedAt. */
type Reviewed =
  | typeof deposits
  | typeof withdrawals
  | typeof kycRecords
  | typeof dayTradeApplications
  | typeof mentors
  | typeof creditLoans
  | typeof primaryApplications;

/** A row of `T`, as read or as the update returns it. */
export type ReviewedRow<T extends Reviewed> = T['$inferSelect'];

/**
 * One kind of reviewed request: its `table`, its audit target `type`, the status it waits in
 * (`pending`) and the error key refusing a decision once it has left that status (`notPending`).
 */
export interface ReviewKind<T extends Reviewed> {
  table: T;
  type: ReviewTarget['type'];
  pending: ReviewedRow<T>['status'];
  notPending: ErrorKey;
}

/** What a decision's `prepare` step answers: more `columns` to write, and whatever else it read. */
export type Prepared<T extends Reviewed> = { columns?: Partial<T['$inferInsert']> };

/**
 * One decision on request `id` by operator `operatorId`: the new `status` and `reason`, stamped
 * `reviewedAt` (default now), with other `columns` of the table it writes too. `prepare` runs after
 * the self-review refusal and before the update, on what the loader read: it may lock, check (and
 * throw) and move money; the columns it answers are written too.
 */
export interface Decision<T extends Reviewed, B, P extends Prepared<T>> {
  id: number;
  operatorId: number;
  status: ReviewedRow<T>['status'];
  reason: string | null;
  reviewedAt?: Date;
  columns?: Partial<T['$inferInsert']>;
  prepare?: (before: B) => Promise<P>;
}

/**
 * Reads request `id` of `kind`, locked for update unless `lock` is false (the default loader locks).
 * @throws AppError notFound (404)
 */
export const rowOf =
  <T extends Reviewed>(kind: ReviewKind<T>, lock = true) =>
  async (tx: Tx, id: number): Promise<ReviewedRow<T>> => {
    const t = kind.table as typeof deposits;
    const read = tx.select().from(t).where(eq(t.id, id));
    const [row] = await (lock ? read.for('update') : read);
    if (!row) throw fail('notFound');
    return row as ReviewedRow<T>;
  };

/** A review step (`reviewer`): decides one request, answering what it read, wrote and prepared. */
export type Review<T extends Reviewed, B> = <P extends Prepared<T> = Prepared<T>>(
  tx: Tx,
  d: Decision<T, B, P>,
) => Promise<{ before: B; after: ReviewedRow<T>; prepared: P }>;

/**
 * The review step for requests of `kind`: `load` reads one (with its owner's `userId`; it throws
 * 404 for an unknown id), by default the row locked for update. The returned function decides
 * request `d.id`: load, refuse the operator's own request, `d.prepare`, then move it from
 * `kind.pending` to `d.status`, recording the operator, reason and time; it returns what the
 * loader read (`before`), the updated row (`after`) and what `d.prepare` answered (`prepared`, `{}`
 * without one).
 * @throws SelfReviewError selfReview (403) when the request is the operator's own; AppError
 *   `kind.notPending` when it is no longer waiting; whatever `load` or `d.prepare` throws.
 */
export function reviewer<T extends Reviewed>(kind: ReviewKind<T>): Review<T, ReviewedRow<T>>;
export function reviewer<T extends Reviewed, B extends { userId: number }>(
  kind: ReviewKind<T>,
  load: (tx: Tx, id: number) => Promise<B>,
): Review<T, B>;
export function reviewer<T extends Reviewed>(
  kind: ReviewKind<T>,
  load: (tx: Tx, id: number) => Promise<{ userId: number }> = rowOf(kind),
): Review<T, { userId: number }> {
  return async <P extends Prepared<T>>(tx: Tx, d: Decision<T, { userId: number }, P>) => {
    const before = await load(tx, d.id);
    refuseSelfReview(d.operatorId, before.userId, { type: kind.type, id: d.id });
    const prepared = d.prepare ? await d.prepare(before) : ({} as P);
    const more = { ...d.columns, ...prepared.columns };
    // Every reviewed table names these columns alike; the deposits type only spells them for Drizzle.
    const t = kind.table as typeof deposits;
    const [after] = await tx
      .update(t)
      .set({
        ...(more as object),
        status: d.status as typeof t.$inferInsert.status,
        reason: d.reason,
        reviewedBy: d.operatorId,
        reviewedAt: d.reviewedAt ?? new Date(),
      })
      .where(and(eq(t.id, d.id), eq(t.status, kind.pending as typeof t.$inferSelect.status)))
      .returning();
    if (!after) throw fail(kind.notPending);
    return { before, after: after as ReviewedRow<T>, prepared };
  };
}
