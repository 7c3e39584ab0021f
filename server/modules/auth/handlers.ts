/**
 * user/register, user/login, user/logout, admin/login.
 *
 * Login is throttled per guesser (account with client address, or with a known device), per client
 * address and, slower, per account (./throttle.ts: growing delays, then a temporary lock;
 * `tooFrequent`); a successful login hands the device a token that makes it known (./devices.ts). An unknown account and a wrong password get the same answer
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
import { knownDevice, rememberDevice } from './devices';
import { createSession } from './sessions';

async function login(
  body: { account: string; password: string; device?: string },
  ctx: Ctx,
  operatorOnly: boolean,
) {
  const device = await knownDevice(ctx.db, body.account, body.device);
  const attempt = await ctx.services.authThrottle.beginLogin(body.account, ctx.ip, device);
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
  const deviceToken = await rememberDevice(
    ctx.db,
    user.id,
    device && body.device ? { hash: device, token: body.device } : null,
  );
  const role = user.role as Role;
  return {
    token: s.token,
    account: user.account,
    role,
    isAdmin: role !== 'member',
    expiresAt: s.expiresAt,
    device: deviceToken,
  };
}

/** Registration (invitation code required), member and operator login, logout. */
export const authHandlers: Pick<Handlers, 'user/register' | 'user/login' | 'user/logout' | 'admin/login'> = {
  /**
   * Registers a member with an invitation code, consuming one of its uses.
   * @throws tooFrequent (429) past REGISTER_IP_MAX tries per client address; registrationRefused
   *   (400) for an existing account or a code that cannot register anyone (see the module docstring)
   */
  async 'user/register'(body, ctx) {
    await ctx.services.authThrottle.beginRegistration(ctx.ip);
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
    if (ctx.token) await ctx.services.sessions.end(ctx.db, ctx.token);
    return { ok: true as const };
  },
};
