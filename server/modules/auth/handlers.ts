/**
 * user/register, user/login, user/logout, admin/login.
 *
 * Login is throttled per account and per client address (./throttle.ts: growing delays, then a
 * temporary lock; `tooFrequent`). An unknown account and a wrong password get the same answer
 * (`wrongCredentials`) after the same work: the unknown one is verified against a dummy argon2id
 * hash. A right password stored in an older form (scrypt) is rehashed to argon2id.
 *
 * Registration does not tell whether an account exists: an account already registered, and an
 * invitation code that is unknown, expired, used up or disabled, all answer `registrationRefused`
 * after the same work (the password is hashed first, then the same two reads run; nothing is
 * written). Someone
 * holding a valid code still learns it by succeeding for a new account; that costs a use of the
 * code and is throttled per client address (docs/adr/0021-login-registration-and-invitations.md).
 */
import { eq } from 'drizzle-orm';
import type { Role } from '../../../contract/auth';
import { users } from '../../db/schema';
import { fail } from '../common/errors';
import type { Ctx, Handlers } from '../common/context';
import { ensureMemberAccounts } from '../ledger/ledger';
import { invitationUsable, useInvitation } from './invitations';
import { hashPassword, needsRehash, verifyDummy, verifyPassword } from './passwords';
import { createSession, deleteSession } from './sessions';
import { authThrottleFor } from './throttle';

async function login(body: { account: string; password: string }, ctx: Ctx, operatorOnly: boolean) {
  const attempt = await authThrottleFor(ctx.db, ctx.config).beginLogin(body.account, ctx.ip);
  const user = (await ctx.db.select().from(users).where(eq(users.account, body.account)).limit(1))[0];
  const ok = user ? await verifyPassword(body.password, user.passwordHash) : await verifyDummy(body.password);
  if (!user || !ok) {
    await attempt.failed();
    throw fail('wrongCredentials');
  }
  await attempt.succeeded();
  if (needsRehash(user.passwordHash)) {
    const passwordHash = await hashPassword(body.password);
    await ctx.db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
  }
  if (user.disabled) throw fail('accountDisabled');
  if (user.loginBanned || user.frozen) throw fail('accountFrozen');
  if (operatorOnly && user.role === 'member') throw fail('forbidden');
  const s = await createSession(ctx.db, user.id, ctx.config.sessionTtlMs);
  const role = user.role as Role;
  return { token: s.token, account: user.account, role, isAdmin: role !== 'member', expiresAt: s.expiresAt };
}

/** Registration (invitation code required), member and operator login, logout. */
export const authHandlers: Pick<Handlers, 'user/register' | 'user/login' | 'user/logout' | 'admin/login'> = {
  /**
   * Registers a member with an invitation code, consuming one of its uses.
   * @throws tooFrequent (429) past REGISTER_IP_MAX tries per client address; registrationRefused
   *   (400) for an existing account or a code that cannot register anyone (see the module docstring)
   */
  async 'user/register'(body, ctx) {
    await authThrottleFor(ctx.db, ctx.config).beginRegistration(ctx.ip);
    const passwordHash = await hashPassword(body.password);
    return ctx.db.transaction(async (tx) => {
      const exists = (
        await tx.select({ id: users.id }).from(users).where(eq(users.account, body.account)).limit(1)
      )[0];
      // Read even when the account exists, so both refusals cost the same two reads (no write).
      const usable = await invitationUsable(tx, body.inviteCode, ctx.now());
      if (exists || !usable || !(await useInvitation(tx, body.inviteCode, ctx.now())))
        throw fail('registrationRefused');
      const [user] = await tx
        .insert(users)
        .values({ account: body.account, passwordHash, role: 'member', inviteCode: body.inviteCode })
        .onConflictDoNothing()
        .returning();
      if (!user) throw fail('registrationRefused'); // lost a race with the same account
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
  },
  'user/login': (body, ctx) => login(body, ctx, false),
  'admin/login': (body, ctx) => login(body, ctx, true),
  async 'user/logout'(_body, ctx) {
    if (ctx.token) await deleteSession(ctx.db, ctx.token);
    return { ok: true as const };
  },
};
