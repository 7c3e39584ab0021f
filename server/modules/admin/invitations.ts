/**
 * Operator console: invitation codes (list, issue, disable). Each change writes one audit entry
 * in the same transaction. A code is issued for an owner (the calling operator, or the member or
 * operator named), with a use limit and an expiry (INVITE_DEFAULT_MAX_USES and
 * INVITE_DEFAULT_DAYS when not given, server/modules/auth/config.ts).
 */
import { eq } from 'drizzle-orm';
import { invitationCodes, users } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { invitationView, listInvitations, randomInvitationCode } from '../auth/invitations';
import { audit } from '../common/audit';

const DAY_MS = 86_400_000;

/** admin/invitations, admin/createInvitation, admin/disableInvitation. */
export const invitationHandlers: Pick<
  Handlers,
  'admin/invitations' | 'admin/createInvitation' | 'admin/disableInvitation'
> = {
  async 'admin/invitations'(_body, ctx) {
    return { items: await listInvitations(ctx.db, ctx.now()) };
  },

  /**
   * Issues a code (random when none is given).
   * @throws accountNotFound (404) for an unknown ownerAccount, invitationExists (409) for a taken code
   */
  async 'admin/createInvitation'(body, ctx) {
    const op = requireUser(ctx);
    const now = ctx.now();
    return ctx.db.transaction(async (tx) => {
      let owner = { id: op.id, account: op.account };
      if (body.ownerAccount !== undefined) {
        const [found] = await tx
          .select({ id: users.id, account: users.account })
          .from(users)
          .where(eq(users.account, body.ownerAccount));
        if (!found) throw fail('accountNotFound');
        owner = found;
      }
      const [row] = await tx
        .insert(invitationCodes)
        .values({
          code: body.code ?? randomInvitationCode(),
          createdBy: owner.id,
          maxUses: body.maxUses ?? ctx.config.inviteDefaultMaxUses,
          expiresAt: new Date(now + (body.validDays ?? ctx.config.inviteDefaultDays) * DAY_MS),
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw fail('invitationExists');
      const view = invitationView(row, owner.account, now);
      await audit(tx, {
        actorUserId: op.id,
        action: 'invitation.create',
        targetType: 'invitation',
        targetId: row.code,
        after: view,
      });
      return view;
    });
  },

  /**
   * Disables a code: it registers nobody from now on (members it registered keep their accounts).
   * Disabling a disabled code changes nothing and writes no audit entry.
   * @throws invitationNotFound (404)
   */
  async 'admin/disableInvitation'(body, ctx) {
    const op = requireUser(ctx);
    const now = ctx.now();
    return ctx.db.transaction(async (tx) => {
      const [found] = await tx
        .select({ code: invitationCodes, owner: users.account })
        .from(invitationCodes)
        .leftJoin(users, eq(users.id, invitationCodes.createdBy))
        .where(eq(invitationCodes.code, body.code))
        .for('update', { of: invitationCodes });
      if (!found) throw fail('invitationNotFound');
      const before = invitationView(found.code, found.owner, now);
      if (found.code.disabledAt) return before;
      const [row] = await tx
        .update(invitationCodes)
        .set({ disabledAt: new Date(now) })
        .where(eq(invitationCodes.code, found.code.code))
        .returning();
      const after = invitationView(row!, found.owner, now);
      await audit(tx, {
        actorUserId: op.id,
        action: 'invitation.disable',
        targetType: 'invitation',
        targetId: row!.code,
        before,
        after,
      });
      return after;
    });
  },
};
