/**
 * Password reset through the operator (`/login/logon` → `/login/logon2`; contract/auth.ts
 * PASSWORD_RESET_STATUSES). There is no SMS gateway: the member's account is their mobile number,
 * an operator calls it, and once the person on the phone is the member (the verified real name,
 * the ID number they gave at KYC) the operator issues a one-time code and reads it out. The
 * member sets a new password with it; every session of the account ends.
 *
 * - `user/resetRequest` answers `{ok: true}` whatever the account: an unknown account leaves no
 *   row and takes the same throttle step, so the form does not tell who is registered. A member's
 *   newer request replaces (expires) an older open one.
 * - `admin/issueResetCode` makes a 6-digit code (crypto random), stores its argon2id hash and an
 *   expiry of RESET_CODE_TTL_MS; the code is shown once in the console. Audited.
 * - `user/resetPassword` counts as a login attempt of the account (./throttle.ts: growing delays,
 *   then a lock), checks the code, and past RESET_MAX_FAILS wrong codes expires the request. An
 *   unknown account, a wrong code, and an expired or used request all answer `resetCodeInvalid`.
 */
import { randomInt } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { RESET_CODE_DIGITS } from '../../../contract/auth';
import type { Tx } from '../../db/client';
import { kycRecords, passwordResets, sessions, users } from '../../db/schema';
import { audit } from '../common/audit';
import { requireUser, type Handlers } from '../common/context';
import { fail } from '../common/errors';
import { hashPassword, verifyDummy, verifyPassword } from './passwords';
import { forgetSessions } from './sessions';

/** How long an issued code stays valid (ms): long enough to type it after the call. */
export const RESET_CODE_TTL_MS = 15 * 60_000;
/** Wrong codes against one request before it expires. */
export const RESET_MAX_FAILS = 5;

type ResetHandlers = Pick<
  Handlers,
  'user/resetRequest' | 'user/resetPassword' | 'admin/passwordResets' | 'admin/issueResetCode'
>;

/** Expires the member's open requests (pending or issued) in `tx`. */
async function expireOpen(tx: Tx, userId: number): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ status: 'expired' })
    .where(and(eq(passwordResets.userId, userId), inArray(passwordResets.status, ['pending', 'issued'])));
}

export const passwordResetHandlers: ResetHandlers = {
  /**
   * Step 1: asks for a call. Throttled per client address (its own counter, registration limits).
   * @throws tooFrequent (429)
   */
  async 'user/resetRequest'(body, ctx) {
    await ctx.services.authThrottle.beginResetRequest(ctx.ip);
    await ctx.db.transaction(async (tx) => {
      const [user] = await tx
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(eq(users.account, body.account))
        .for('update');
      if (!user || user.role !== 'member') return;
      await expireOpen(tx, user.id);
      await tx.insert(passwordResets).values({ userId: user.id });
    });
    return { ok: true as const };
  },

  /**
   * Step 2: a new password with the code read out on the call; ends every session of the account.
   * @throws tooFrequent (429) while the account waits or is locked; resetCodeInvalid (400)
   */
  async 'user/resetPassword'(body, ctx) {
    const attempt = await ctx.services.authThrottle.beginLogin(body.account, ctx.ip);
    const now = ctx.now();
    const [row] = await ctx.db
      .select({ id: passwordResets.id, userId: users.id, codeHash: passwordResets.codeHash })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(
        and(
          eq(users.account, body.account),
          eq(passwordResets.status, 'issued'),
          sql`${passwordResets.expiresAt} > ${new Date(now)}`,
        ),
      )
      .orderBy(desc(passwordResets.id))
      .limit(1);
    const ok = row?.codeHash ? await verifyPassword(body.code, row.codeHash) : await verifyDummy(body.code);
    if (!row || !ok) {
      if (row) {
        await ctx.db
          .update(passwordResets)
          .set({
            fails: sql`${passwordResets.fails} + 1`,
            status: sql`case when ${passwordResets.fails} + 1 >= ${RESET_MAX_FAILS} then 'expired' else ${passwordResets.status} end`,
          })
          .where(eq(passwordResets.id, row.id));
      }
      await attempt.failed();
      throw fail('resetCodeInvalid');
    }
    const passwordHash = await hashPassword(body.password);
    await ctx.db.transaction(async (tx) => {
      // Only the first of two concurrent uses of one code wins the status change.
      const used = await tx
        .update(passwordResets)
        .set({ status: 'used', usedAt: new Date(now) })
        .where(and(eq(passwordResets.id, row.id), eq(passwordResets.status, 'issued')))
        .returning({ id: passwordResets.id });
      if (used.length === 0) throw fail('resetCodeInvalid');
      await tx.update(users).set({ passwordHash }).where(eq(users.id, row.userId));
      await tx.delete(sessions).where(eq(sessions.userId, row.userId));
    });
    forgetSessions(row.userId);
    ctx.services.sessionSockets.revokeUser(row.userId);
    await attempt.succeeded();
    return { ok: true as const };
  },

  /** The open requests, oldest first, with the verified real name the operator asks for. */
  async 'admin/passwordResets'(_body, ctx) {
    const now = ctx.now();
    const rows = await ctx.db
      .select({
        id: passwordResets.id,
        account: users.account,
        status: passwordResets.status,
        createdAt: passwordResets.createdAt,
        expiresAt: passwordResets.expiresAt,
        realName: sql<string | null>`(select ${kycRecords.name} from ${kycRecords}
          where ${kycRecords.userId} = ${users.id} and ${kycRecords.status} = 'verified'
          order by ${kycRecords.id} desc limit 1)`,
      })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(inArray(passwordResets.status, ['pending', 'issued']))
      .orderBy(passwordResets.id)
      .limit(200);
    return rows
      .filter((r) => r.status === 'pending' || (r.expiresAt !== null && r.expiresAt.getTime() > now))
      .map((r) => ({
        id: r.id,
        account: r.account,
        realName: r.realName,
        status: r.status,
        createdAt: r.createdAt.toISOString(),
        expiresAt: r.expiresAt?.toISOString() ?? null,
      }));
  },

  /**
   * Issues (or re-issues) the one-time code of an open request, after the operator's call.
   * @throws notFound (404) for a request that is not open
   */
  async 'admin/issueResetCode'(body, ctx) {
    const op = requireUser(ctx);
    const code = String(randomInt(0, 10 ** RESET_CODE_DIGITS)).padStart(RESET_CODE_DIGITS, '0');
    const codeHash = await hashPassword(code);
    const expiresAt = new Date(ctx.now() + RESET_CODE_TTL_MS);
    return ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(passwordResets)
        .set({
          status: 'issued',
          codeHash,
          fails: 0,
          issuedBy: op.id,
          issuedAt: new Date(ctx.now()),
          expiresAt,
        })
        .where(and(eq(passwordResets.id, body.id), inArray(passwordResets.status, ['pending', 'issued'])))
        .returning({ id: passwordResets.id, userId: passwordResets.userId });
      if (!row) throw fail('notFound');
      await audit(tx, {
        actorUserId: op.id,
        action: 'passwordReset.issue',
        targetType: 'password_reset',
        targetId: row.id,
        after: { userId: row.userId, expiresAt: expiresAt.toISOString() },
      });
      return { id: row.id, code, expiresAt: expiresAt.toISOString() };
    });
  },
};
