/**
 * Deposit channels (product-spec §3 "Deposit": bank account name and number, bank, branch, limits,
 * optional channel password) and the deposit window: user/depositChannels for members,
 * admin/channels and admin/saveChannel for operators (every save is audited).
 *
 * The channel password is stored as a scrypt hash (server/modules/auth/passwords.ts) and never
 * leaves the server; members and operators only see `hasPassword`.
 */
import { asc, eq } from 'drizzle-orm';
import { depositWindow } from '../../../contract/deposit-hours';
import { tradingDayPredicate, type IsTradingDay } from '../../../contract/trading-session';
import type { Db, Tx } from '../../db/client';
import { depositChannels } from '../../db/schema';
import { fail } from '../common/errors';
import { requireUser, type Handlers } from '../common/context';
import { calendarExceptions } from '../../market/calendar';
import { audit } from '../common/audit';
import { hashPassword } from '../auth/passwords';
import { siteSettings } from '../common/settings';

export type ChannelRow = typeof depositChannels.$inferSelect;

let calendar: IsTradingDay | null = null;
/**
 * The exchange's trading-day predicate from the real TWSE calendar (server/market/calendar.ts):
 * deposits are closed on the exchange's holidays and open on its make-up working Saturdays.
 */
export function exchangeCalendar(): IsTradingDay {
  return (calendar ??= tradingDayPredicate(calendarExceptions()));
}

/** Whether deposits are open at `nowMs` under the stored settings, and when they next open. */
export async function depositWindowAt(db: Db | Tx, nowMs: number) {
  const { depositHours } = await siteSettings(db);
  return { hours: depositHours, ...depositWindow(nowMs, depositHours, exchangeCalendar()) };
}

/** A channel as members see it. */
export const channelDto = (c: ChannelRow) => ({
  id: c.id,
  name: c.name,
  accountName: c.accountName,
  accountNumber: c.accountNumber,
  bankName: c.bankName,
  branch: c.branch,
  currency: c.currency,
  minMinor: c.minMinor,
  maxMinor: c.maxMinor,
  hasPassword: c.passwordHash !== null,
});

/** A channel as operators see it (and as the audit log records it: no hash). */
export const adminChannelDto = (c: ChannelRow) => ({ ...channelDto(c), enabled: c.enabled });

/** user/depositChannels, admin/channels, admin/saveChannel. */
export const channelHandlers: Pick<
  Handlers,
  'user/depositChannels' | 'admin/channels' | 'admin/saveChannel'
> = {
  async 'user/depositChannels'(_body, ctx) {
    requireUser(ctx);
    const rows = await ctx.db
      .select()
      .from(depositChannels)
      .where(eq(depositChannels.enabled, true))
      .orderBy(asc(depositChannels.id));
    const w = await depositWindowAt(ctx.db, ctx.now());
    return { channels: rows.map(channelDto), hours: w.hours, openNow: w.openNow, nextOpenAt: w.nextOpenAt };
  },

  async 'admin/channels'(_body, ctx) {
    const rows = await ctx.db.select().from(depositChannels).orderBy(asc(depositChannels.id));
    return rows.map(adminChannelDto);
  },

  /**
   * Creates (no id) or updates a channel. `password`: a new password (hashed), '' removes it,
   * omitted keeps it. @throws notFound (404) for an unknown id.
   */
  async 'admin/saveChannel'(body, ctx) {
    const op = requireUser(ctx);
    const { id, password, ...fields } = body;
    // Hash outside the transaction: scrypt is slow and needs no lock.
    const passwordHash =
      password === undefined ? undefined : password === '' ? null : await hashPassword(password);
    return ctx.db.transaction(async (tx) => {
      if (id === undefined) {
        const [row] = await tx
          .insert(depositChannels)
          .values({ ...fields, passwordHash: passwordHash ?? null })
          .returning();
        const after = adminChannelDto(row!);
        await audit(tx, {
          actorUserId: op.id,
          action: 'channel.create',
          targetType: 'depositChannel',
          targetId: row!.id,
          after,
        });
        return after;
      }
      const [before] = await tx
        .select()
        .from(depositChannels)
        .where(eq(depositChannels.id, id))
        .for('update');
      if (!before) throw fail('notFound');
      const [row] = await tx
        .update(depositChannels)
        .set({ ...fields, ...(passwordHash === undefined ? {} : { passwordHash }) })
        .where(eq(depositChannels.id, id))
        .returning();
      const after = adminChannelDto(row!);
      await audit(tx, {
        actorUserId: op.id,
        action: 'channel.update',
        targetType: 'depositChannel',
        targetId: id,
        before: adminChannelDto(before),
        // The hash is never logged; whether the password was set, changed or removed is.
        after: { ...after, passwordChanged: passwordHash !== undefined },
      });
      return after;
    });
  },
};
