/**
 * Invitation codes: each has an owner (the operator or member who issued it), a use limit, a use
 * count and an expiry, and an operator may disable it. Registration consumes one use inside its
 * transaction (`useInvitation`); a code that is unknown, expired, used up or disabled refuses the
 * registration with the same answer as an account that already exists (auth/handlers.ts).
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { InvitationView } from '../../../contract/admin';
import type { Db, Tx } from '../../db/client';
import { invitationCodes, users } from '../../db/schema';

type Row = typeof invitationCodes.$inferSelect;

/** A fresh code: 8 characters of an alphabet without look-alikes (0/O, 1/I/L), 40 bits. */
export function randomInvitationCode(): string {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  const bytes = randomBytes(8);
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

/** The conditions under which `code` can still register someone at `now` (epoch ms). */
const usableAt = (code: string, now: number) =>
  and(
    eq(invitationCodes.code, code),
    isNull(invitationCodes.disabledAt),
    gt(invitationCodes.expiresAt, new Date(now)),
    lt(invitationCodes.uses, invitationCodes.maxUses),
  );

/** True when `code` can still register someone at `now` (a read only; `useInvitation` decides). */
export async function invitationUsable(tx: Tx, code: string, now: number): Promise<boolean> {
  const rows = await tx
    .select({ code: invitationCodes.code })
    .from(invitationCodes)
    .where(usableAt(code, now))
    .limit(1);
  return rows.length === 1;
}

/**
 * Consumes one use of `code` if it can still register someone at `now` (epoch ms): not disabled,
 * not expired, not used up. One atomic UPDATE, so concurrent registrations never exceed the limit.
 * @returns true when a use was taken (the caller's transaction rolls it back if it fails later)
 */
export async function useInvitation(tx: Tx, code: string, now: number): Promise<boolean> {
  const rows = await tx
    .update(invitationCodes)
    .set({ uses: sql`${invitationCodes.uses} + 1` })
    .where(usableAt(code, now))
    .returning({ code: invitationCodes.code });
  return rows.length === 1;
}

/** The console's view of codes (owner account joined in), newest first, at most `limit`. */
export async function listInvitations(db: Db | Tx, now: number, limit = 200): Promise<InvitationView[]> {
  const rows = await db
    .select({ code: invitationCodes, owner: users.account })
    .from(invitationCodes)
    .leftJoin(users, eq(users.id, invitationCodes.createdBy))
    .orderBy(desc(invitationCodes.createdAt), desc(invitationCodes.code))
    .limit(limit);
  return rows.map((r) => invitationView(r.code, r.owner, now));
}

/** One code as the console shows it; `state` says why it no longer registers anyone. */
export function invitationView(row: Row, owner: string | null, now: number): InvitationView {
  const state = row.disabledAt
    ? 'disabled'
    : row.expiresAt.getTime() <= now
      ? 'expired'
      : row.uses >= row.maxUses
        ? 'usedUp'
        : 'active';
  return {
    code: row.code,
    ownerId: row.createdBy,
    owner,
    maxUses: row.maxUses,
    uses: row.uses,
    expiresAt: row.expiresAt.getTime(),
    disabledAt: row.disabledAt ? row.disabledAt.getTime() : null,
    createdAt: row.createdAt.getTime(),
    state,
  };
}
