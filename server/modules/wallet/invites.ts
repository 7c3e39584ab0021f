/**
 * Invite friends (user/invite; non-spec route /user/invite, docs/glossary.md): a verified member's
 * own invitation code, built on the invitation codes every registration already needs
 * (server/modules/auth/invitations.ts; registration consumes a use in its transaction).
 *
 * Policy (⚠ product choice, the spec names no limits):
 * - Only a member whose real-name verification is approved (KYC `verified`) gets a code; anyone
 *   else gets none (eligible false) and the list of invitees only.
 * - The member's code is their newest own code (owner = the member). When there is none, or it
 *   has expired, one is issued on the visit with INVITE_MEMBER_MAX_USES registrations (20) valid
 *   for INVITE_MEMBER_DAYS (180); the old one keeps its invitees.
 * - A used-up code stays the member's code (shown with uses = maxUses) until it expires: it does
 *   not renew itself, so one verified person brings in at most INVITE_MEMBER_MAX_USES accounts per
 *   INVITE_MEMBER_DAYS (an operator may issue more, admin/createInvitation with the member as owner).
 * - When an operator disabled the member's newest code, no new one is issued (eligible false):
 *   the operator's decision stands until the operator issues one (admin/createInvitation with the
 *   member as owner).
 * - Issuing runs under a lock of the member's users row, so two visits at once issue one code.
 * - Invitees: members registered with any code the member owns, newest first, at most
 *   INVITEES_MAX, their accounts masked (contract/wallet.ts maskAccount).
 */
import { desc, eq, inArray } from 'drizzle-orm';
import { inviteLinkPath, maskAccount, type InviteInfo } from '../../../contract/wallet';
import type { Db } from '../../db/client';
import { invitationCodes, users } from '../../db/schema';
import { invitationView, randomInvitationCode } from '../auth/invitations';
import { kycStatusOf } from '../identity/kyc';

const DAY_MS = 86_400_000;
/** Most invitees listed. */
export const INVITEES_MAX = 200;

/** The member's own code, issued when due (see the module docstring). `now`: epoch ms. */
export async function memberInvite(
  db: Db,
  userId: number,
  now: number,
  policy: { maxUses: number; days: number },
): Promise<InviteInfo> {
  const verified = (await kycStatusOf(db, userId)) === 'verified';
  const code = !verified
    ? null
    : await db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        const [newest] = await tx
          .select()
          .from(invitationCodes)
          .where(eq(invitationCodes.createdBy, userId))
          .orderBy(desc(invitationCodes.createdAt), desc(invitationCodes.code))
          .limit(1);
        if (newest) {
          const state = invitationView(newest, null, now).state;
          if (state === 'active' || state === 'usedUp') return newest;
          if (state === 'disabled') return null;
        }
        const [row] = await tx
          .insert(invitationCodes)
          .values({
            code: randomInvitationCode(),
            createdBy: userId,
            createdAt: new Date(now),
            maxUses: policy.maxUses,
            expiresAt: new Date(now + policy.days * DAY_MS),
          })
          .returning();
        return row!;
      });
  return {
    eligible: code !== null,
    code: code?.code ?? null,
    path: code ? inviteLinkPath(code.code) : null,
    maxUses: code?.maxUses ?? null,
    uses: code?.uses ?? null,
    expiresAt: code ? code.expiresAt.getTime() : null,
    invitees: await invitees(db, userId),
  };
}

/** Members registered with a code `userId` owns, newest first, accounts masked. */
export async function invitees(db: Db, userId: number) {
  const owned = db
    .select({ code: invitationCodes.code })
    .from(invitationCodes)
    .where(eq(invitationCodes.createdBy, userId));
  const rows = await db
    .select({ account: users.account, createdAt: users.createdAt })
    .from(users)
    .where(inArray(users.inviteCode, owned))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(INVITEES_MAX);
  return rows.map((r) => ({ account: maskAccount(r.account), joinedAt: r.createdAt.getTime() }));
}
