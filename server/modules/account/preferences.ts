/**
 * The member's preferences (contract/account.ts preferencesSchema): today the confirmation
 * threshold the app asks "are you sure?" above (orders, cancels, exchanges; see
 * CONFIRM_ABOVE_DEFAULT_MINOR for what each is worth). Each member reads and saves only their own
 * row: the user comes from the session, never from the body (which is strict).
 */
import { eq, ne, sql } from 'drizzle-orm';
import { CONFIRM_ABOVE_DEFAULT_MINOR, type Preferences } from '../../../contract/account';
import type { Db } from '../../db/client';
import { memberPreferences } from '../../db/schema';
import { requireUser, type Handlers } from '../common/context';

/** The member's stored preferences, or the defaults when they never saved any. */
export async function preferencesOf(db: Db, userId: number): Promise<Preferences> {
  const [row] = await db
    .select({ confirmAboveMinor: memberPreferences.confirmAboveMinor })
    .from(memberPreferences)
    .where(eq(memberPreferences.userId, userId));
  return { confirmAboveMinor: row?.confirmAboveMinor ?? CONFIRM_ABOVE_DEFAULT_MINOR };
}

export const preferenceHandlers: Pick<Handlers, 'user/preferences' | 'user/savePreferences'> = {
  async 'user/preferences'(_body, ctx) {
    return preferencesOf(ctx.db, requireUser(ctx).id);
  },

  /**
   * Replaces the member's preferences. Idempotent: one upsert whose update only runs when a value
   * differs, so saving the same values again (a double tap, a retry after a lost answer) writes
   * nothing, not even `updated_at`, and answers the same.
   */
  async 'user/savePreferences'(body, ctx) {
    const user = requireUser(ctx);
    await ctx.db
      .insert(memberPreferences)
      .values({ userId: user.id, confirmAboveMinor: body.confirmAboveMinor })
      .onConflictDoUpdate({
        target: memberPreferences.userId,
        set: { confirmAboveMinor: body.confirmAboveMinor, updatedAt: sql`now()` },
        setWhere: ne(memberPreferences.confirmAboveMinor, body.confirmAboveMinor),
      });
    return preferencesOf(ctx.db, user.id);
  },
};
