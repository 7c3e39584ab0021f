/**
 * The members' search history (table search_history, migration 0011) and the hot searches
 * computed from it (contract/search.ts).
 *
 * Times are wall-clock epoch ms from the request context (`ctx.now()`), so tests move them.
 * Errors: recordOpened throws AppError 'productNotFound' for a symbol not in the directory.
 */
import { desc, eq, gte, sql } from 'drizzle-orm';
import { HOT_MAX, HOT_MIN_MEMBERS, HOT_WINDOW_DAYS, SEARCH_HISTORY_MAX } from '../../../contract/search';
import type { Db } from '../../db/client';
import { instruments, searchHistory } from '../../db/schema';
import { fail } from '../common/errors';

const DAY_MS = 86_400_000;

/**
 * Records that the member opened `symbol` from search: inserts it, or moves its time to `nowMs`
 * (one row per member and instrument, so repeated opens never count twice in hot searches).
 */
export async function recordOpened(db: Db, userId: number, symbol: string, nowMs: number): Promise<void> {
  const known = await db
    .select({ s: instruments.symbol })
    .from(instruments)
    .where(eq(instruments.symbol, symbol))
    .limit(1);
  if (!known.length) throw fail('productNotFound');
  const at = new Date(nowMs);
  await db
    .insert(searchHistory)
    .values({ userId, symbol, openedAt: at })
    .onConflictDoUpdate({ target: [searchHistory.userId, searchHistory.symbol], set: { openedAt: at } });
}

/** The member's SEARCH_HISTORY_MAX most recently opened instruments, newest first. */
export async function listHistory(
  db: Db,
  userId: number,
): Promise<Array<{ symbol: string; name: string; nameEn: string | null; openedAt: number }>> {
  const rows = await db
    .select({
      symbol: searchHistory.symbol,
      name: instruments.name,
      nameEn: instruments.nameEn,
      openedAt: searchHistory.openedAt,
    })
    .from(searchHistory)
    .innerJoin(instruments, eq(instruments.symbol, searchHistory.symbol))
    .where(eq(searchHistory.userId, userId))
    .orderBy(desc(searchHistory.openedAt), searchHistory.symbol)
    .limit(SEARCH_HISTORY_MAX);
  return rows.map((r) => ({
    symbol: r.symbol,
    name: r.name,
    nameEn: r.nameEn,
    openedAt: r.openedAt.getTime(),
  }));
}

/** Deletes the member's whole history (their entries leave the hot counts too). */
export async function clearHistory(db: Db, userId: number): Promise<void> {
  await db.delete(searchHistory).where(eq(searchHistory.userId, userId));
}

/**
 * Instruments opened by at least HOT_MIN_MEMBERS members within HOT_WINDOW_DAYS before `nowMs`,
 * most members first (then code), at most HOT_MAX. The minimum keeps one member's searches from
 * being shown to everyone as "hot".
 */
export async function hotFromHistory(
  db: Db,
  nowMs: number,
): Promise<Array<{ symbol: string; name: string; nameEn: string | null; members: number }>> {
  const members = sql<number>`count(*)::int`;
  const rows = await db
    .select({ symbol: searchHistory.symbol, name: instruments.name, nameEn: instruments.nameEn, members })
    .from(searchHistory)
    .innerJoin(instruments, eq(instruments.symbol, searchHistory.symbol))
    .where(gte(searchHistory.openedAt, new Date(nowMs - HOT_WINDOW_DAYS * DAY_MS)))
    .groupBy(searchHistory.symbol, instruments.name, instruments.nameEn)
    .having(sql`count(*) >= ${HOT_MIN_MEMBERS}`)
    .orderBy(desc(members), searchHistory.symbol)
    .limit(HOT_MAX);
  return rows.map((r) => ({ ...r, members: Number(r.members) }));
}
