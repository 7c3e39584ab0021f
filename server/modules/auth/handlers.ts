/** user/register, user/login, user/logout, admin/login. */
import { eq } from 'drizzle-orm';
import type { Role } from '../../../contract/auth';
import { invitationCodes, users } from '../../db/schema';
import { fail } from '../common/errors';
import type { Ctx, Handlers } from '../common/context';
import { ensureMemberAccounts } from '../ledger/ledger';
import { hashPassword, verifyPassword } from './passwords';
import { createSession, deleteSession } from './sessions';

async function login(body: { account: string; password: string }, ctx: Ctx, operatorOnly: boolean) {
  const user = (await ctx.db.select().from(users).where(eq(users.account, body.account)).limit(1))[0];
  // Same answer for an unknown account and a wrong password: no account enumeration.
  if (!user || !(await verifyPassword(body.password, user.passwordHash))) throw fail('wrongCredentials');
  if (user.disabled) throw fail('accountDisabled');
  if (user.loginBanned || user.frozen) throw fail('accountFrozen');
  if (operatorOnly && user.role === 'member') throw fail('forbidden');
  const s = await createSession(ctx.db, user.id, ctx.config.sessionTtlMs);
  const role = user.role as Role;
  return { token: s.token, account: user.account, role, isAdmin: role !== 'member', expiresAt: s.expiresAt };
}

/** Registration (invitation code required), member and operator login, logout. */
export const authHandlers: Pick<Handlers, 'user/register' | 'user/login' | 'user/logout' | 'admin/login'> = {
  async 'user/register'(body, ctx) {
    const passwordHash = await hashPassword(body.password);
    const created = await ctx.db.transaction(async (tx) => {
      const code = (
        await tx.select().from(invitationCodes).where(eq(invitationCodes.code, body.inviteCode)).limit(1)
      )[0];
      if (!code) throw fail('inviterNotFound');
      const exists = (
        await tx.select({ id: users.id }).from(users).where(eq(users.account, body.account)).limit(1)
      )[0];
      if (exists) throw fail('accountExists');
      const [user] = await tx
        .insert(users)
        .values({ account: body.account, passwordHash, role: 'member', inviteCode: body.inviteCode })
        .onConflictDoNothing()
        .returning();
      if (!user) throw fail('accountExists'); // lost a race with the same account
      await ensureMemberAccounts(tx, user.id);
      const s = await createSession(tx, user.id, ctx.config.sessionTtlMs);
      return {
        token: s.token,
        account: user.account,
        role: 'member' as const,
        isAdmin: false,
        expiresAt: s.expiresAt,
      };
    });
    return created;
  },
  'user/login': (body, ctx) => login(body, ctx, false),
  'admin/login': (body, ctx) => login(body, ctx, true),
  async 'user/logout'(_body, ctx) {
    if (ctx.token) await deleteSession(ctx.db, ctx.token);
    return { ok: true as const };
  },
};
