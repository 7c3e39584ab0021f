/**
 * The audit log of operator actions: who did what to which record, when, with the record before
 * and after (JSON). Written inside the same DB transaction as the action, so an action that rolls
 * back leaves no audit row and an action that commits always has one.
 */
import type { AuditAction } from '../../../contract/constants';
import type { Tx } from '../../db/client';
import { auditLog } from '../../db/schema';

/** One audit entry to write. `before`/`after` are serialised with JSON.stringify (null when absent). */
export interface AuditInput {
  actorUserId: number;
  action: AuditAction;
  targetType: string;
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/** Writes one audit entry in the caller's transaction. */
export async function audit(tx: Tx, input: AuditInput): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: input.actorUserId,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId === undefined || input.targetId === null ? null : String(input.targetId),
    before: json(input.before),
    after: json(input.after),
    reason: input.reason ?? null,
  });
}
