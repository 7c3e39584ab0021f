/**
 * Operator console: users and their flags, site settings, the audit log and the ledger.
 * Roles come from the database only (the access check ran before these handlers; `is-admin`
 * headers grant nothing). Every change writes one audit entry in the same transaction.
 */
import { and, asc, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { AuditAction } from '../../../contract/constants';
import { FUNDS_PASSWORD_MAX_TRIES } from '../../../contract/constants';
import type { Db, Tx } from '../../db/client';
import {
  auditLog,
  ledgerAccounts,
  ledgerPostings,
  ledgerTransactions,
  sessions,
  siteConfig,
  userSecurity,
  users,
} from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { isValidSetting, settingItems } from '../common/settings';
import { kycStatusesOf } from '../identity/kyc';
import { forgetSessions } from '../auth/sessions';
import { isClean, reconcile } from '../ledger/ledger';
import { audit } from '../common/audit';
import { pageOf } from '../common/paging';

type UserRow = typeof users.$inferSelect;

/** The account flags of product-spec §6. */
const FLAG_NAMES = ['disabled', 'frozen', 'loginBanned', 'withdrawBanned', 'tradeBanned'] as const;
type Flags = Record<(typeof FLAG_NAMES)[number], boolean>;
const flagsOf = (u: UserRow): Flags => Object.fromEntries(FLAG_NAMES.map((f) => [f, u[f]])) as Flags;

/** Users as the console lists them: flags, TWD available cash, funds-password lock, KYC status. */
async function adminUsers(db: Db | Tx, rows: UserRow[]) {
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const avail = await db
    .select({ userId: ledgerAccounts.userId, balance: ledgerAccounts.balanceMinor })
    .from(ledgerAccounts)
    .where(
      and(
        inArray(ledgerAccounts.userId, ids),
        eq(ledgerAccounts.purpose, 'available'),
        eq(ledgerAccounts.currency, 'TWD'),
      ),
    );
  const byUser = new Map(avail.map((a) => [a.userId, a.balance]));
  const security = await db
    .select({ userId: userSecurity.userId, fails: userSecurity.fundsPasswordFails })
    .from(userSecurity)
    .where(inArray(userSecurity.userId, ids));
  const fails = new Map(security.map((s) => [s.userId, s.fails]));
  const kyc = await kycStatusesOf(db, ids);
  return rows.map((u) => ({
    id: u.id,
    account: u.account,
    role: u.role as 'member' | 'operator' | 'admin',
    availableMinor: byUser.get(u.id) ?? 0,
    ...flagsOf(u),
    fundsPasswordLocked: (fails.get(u.id) ?? 0) >= FUNDS_PASSWORD_MAX_TRIES,
    kycStatus: kyc.get(u.id) ?? ('unverified' as const),
    createdAt: u.createdAt.getTime(),
  }));
}

/** "user 12 available TWD" or "platform bank_clearing TWD". */
const accountLabel = (a: { userId: number | null; purpose: string; currency: string }) =>
  a.userId === null ? `platform ${a.purpose} ${a.currency}` : `user ${a.userId} ${a.purpose} ${a.currency}`;

/** admin/* handlers; access (operator or admin role) is checked before they run. */
export const adminHandlers: Pick<
  Handlers,
  | 'admin/users'
  | 'admin/reconcile'
  | 'admin/setUserFlags'
  | 'admin/config'
  | 'admin/saveConfig'
  | 'admin/auditLog'
  | 'admin/ledger'
> = {
  async 'admin/reconcile'(_body, ctx) {
    const r = await reconcile(ctx.db);
    return { ...r, clean: isClean(r) };
  },

  async 'admin/users'(body, ctx) {
    const where = body.q ? ilike(users.account, `%${body.q.replace(/[%_\\]/g, '')}%`) : undefined;
    const rows = ctx.db.select().from(users).where(where).orderBy(desc(users.id));
    const page = await pageOf(ctx.db, rows, { table: users, where }, body);
    return { ...page, items: await adminUsers(ctx.db, page.items) };
  },

  /**
   * Sets account flags (omitted ones stay; at least one must be given). Nobody changes their own;
   * only an admin changes an operator's or admin's. Disabling or barring login ends the user's
   * sessions (a frozen user keeps them: reading stays possible, trading and withdrawing do not).
   * @throws parameterError (400) with no flag, forbidden (403), accountNotFound (404)
   */
  async 'admin/setUserFlags'(body, ctx) {
    const op = requireUser(ctx);
    if (body.id === op.id) throw fail('forbidden');
    if (FLAG_NAMES.every((f) => body[f] === undefined)) throw fail('parameterError');
    const result = await ctx.db.transaction(async (tx) => {
      const [target] = await tx.select().from(users).where(eq(users.id, body.id)).for('update');
      if (!target) throw fail('accountNotFound');
      if (target.role !== 'member' && op.role !== 'admin') throw fail('forbidden');
      const before = flagsOf(target);
      const after: Flags = { ...before };
      for (const f of FLAG_NAMES) if (body[f] !== undefined) after[f] = body[f];
      const [updated] = await tx.update(users).set(after).where(eq(users.id, body.id)).returning();
      const ends = (after.disabled && !before.disabled) || (after.loginBanned && !before.loginBanned);
      if (ends) await tx.delete(sessions).where(eq(sessions.userId, body.id));
      await audit(tx, {
        actorUserId: op.id,
        action: 'user.flags',
        targetType: 'user',
        targetId: body.id,
        before,
        after,
        reason: body.reason,
      });
      return { ends, user: (await adminUsers(tx, [updated!]))[0]! };
    });
    forgetSessions(body.id);
    if (result.ends) ctx.services.sessionSockets.revokeUser(body.id);
    return result.user;
  },

  async 'admin/config'(_body, ctx) {
    return settingItems(ctx.db);
  },

  /**
   * Changes one site setting after checking its value (common/settings.ts isValidSetting, against
   * the other current values); answers every setting.
   * @throws parameterError (400)
   */
  async 'admin/saveConfig'(body, ctx) {
    const op = requireUser(ctx);
    await ctx.db.transaction(async (tx) => {
      // One settings change at a time: min ≤ max and open < close hold across concurrent saves.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('site_config'))`);
      const current = new Map((await settingItems(tx)).map((i) => [i.name as string, i.value]));
      if (!isValidSetting(body.name, body.value, current)) throw fail('parameterError');
      const before = current.get(body.name)!;
      await tx
        .insert(siteConfig)
        .values({ name: body.name, value: body.value })
        .onConflictDoUpdate({ target: siteConfig.name, set: { value: body.value } });
      await audit(tx, {
        actorUserId: op.id,
        action: 'config.update',
        targetType: 'site_config',
        targetId: body.name,
        before: { name: body.name, value: before },
        after: { name: body.name, value: body.value },
      });
    });
    return settingItems(ctx.db);
  },

  async 'admin/auditLog'(body, ctx) {
    const rows = ctx.db
      .select({ a: auditLog, account: users.account })
      .from(auditLog)
      .innerJoin(users, eq(users.id, auditLog.actorUserId))
      .orderBy(desc(auditLog.id));
    const page = await pageOf(ctx.db, rows, { table: auditLog }, body);
    return {
      ...page,
      items: page.items.map(({ a, account }) => ({
        id: a.id,
        actorUserId: a.actorUserId,
        actorAccount: account,
        action: a.action as AuditAction,
        targetType: a.targetType,
        targetId: a.targetId,
        before: a.before,
        after: a.after,
        reason: a.reason,
        createdAt: a.createdAt.getTime(),
      })),
    };
  },

  /** Ledger transactions, newest first, each with its postings; `userId` keeps those touching that user. */
  async 'admin/ledger'(body, ctx) {
    const where =
      body.userId === undefined
        ? undefined
        : inArray(
            ledgerTransactions.id,
            ctx.db
              .select({ id: ledgerPostings.transactionId })
              .from(ledgerPostings)
              .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
              .where(eq(ledgerAccounts.userId, body.userId)),
          );
    const page = await pageOf(
      ctx.db,
      ctx.db.select().from(ledgerTransactions).where(where).orderBy(desc(ledgerTransactions.id)),
      { table: ledgerTransactions, where },
      body,
    );
    const txs = page.items;
    const ids = txs.map((t) => t.id);
    const postings = ids.length
      ? await ctx.db
          .select({
            transactionId: ledgerPostings.transactionId,
            accountId: ledgerPostings.accountId,
            amountMinor: ledgerPostings.amountMinor,
            currency: ledgerPostings.currency,
            userId: ledgerAccounts.userId,
            purpose: ledgerAccounts.purpose,
            accountCurrency: ledgerAccounts.currency,
          })
          .from(ledgerPostings)
          .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
          .where(inArray(ledgerPostings.transactionId, ids))
          .orderBy(asc(ledgerPostings.id))
      : [];
    const byTx = new Map<number, typeof postings>();
    for (const p of postings) {
      const list = byTx.get(p.transactionId);
      if (list) list.push(p);
      else byTx.set(p.transactionId, [p]);
    }
    return {
      ...page,
      items: txs.map((t) => ({
        id: t.id,
        type: t.type,
        ref: t.refType && t.refId ? `${t.refType}:${t.refId}` : (t.refType ?? t.refId),
        actorUserId: t.actorUserId,
        createdAt: t.createdAt.getTime(),
        postings: (byTx.get(t.id) ?? []).map((p) => ({
          accountId: p.accountId,
          account: accountLabel({ userId: p.userId, purpose: p.purpose, currency: p.accountCurrency }),
          currency: p.currency,
          amountMinor: p.amountMinor,
        })),
      })),
    };
  },
};
