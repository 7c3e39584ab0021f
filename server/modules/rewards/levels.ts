/**
 * Account levels (product-spec account "account level", route `/user/accountLevel`;
 * docs/levels.md). A member's level is computed, never typed in: the highest level of the table
 * (account_levels, operator-configurable) whose BOTH thresholds the member meets:
 * - total assets: the member's TWD ledger balances available + frozen + margin + debt (debt is
 *   negative), TWD minor. Unrealised P&L is left out, so the level does not move with every quote;
 * - 30-day trading volume: the value of the member's fills in the last 30 days (wall clock),
 *   opening (open price × shares, by opened_at) plus closing (close price × shares, by closed_at),
 *   TWD minor.
 * The level's fee discount (bps of the commission) is what the trading engine records on each new
 * order (engine.ts FeeTerms.levelBps), so the ticket's preview and the fill charge the same.
 *
 * The engine asks for the discount on every order; the app's LevelDiscounts (buildApp's Services
 * `levels`) answers from its cache, refreshed after LEVEL_CACHE_MS (or when the member's level is
 * computed for a screen), so the order path pays a query at most once a minute per member.
 */
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { AccountLevel, Level } from '../../../contract/rewards';
import type { Db, Tx } from '../../db/client';
import { accountLevels, orders } from '../../db/schema';
import { audit } from '../common/audit';
import { fail } from '../common/errors';
import { memberBalances } from '../ledger/ledger';

/** The volume window. */
export const VOLUME_WINDOW_MS = 30 * 86_400_000;
/** How long a member's cached level discount is used by the order path. */
export const LEVEL_CACHE_MS = 60_000;

const asSafe = (v: unknown, what: string): number => {
  const n = Number(v ?? 0);
  if (!Number.isSafeInteger(n)) throw new Error(`${what} not a safe integer: ${String(v)}`);
  return n;
};

/** The level table, lowest first. */
export async function levelTable(db: Db | Tx): Promise<Level[]> {
  return db.select().from(accountLevels).orderBy(asc(accountLevels.level));
}

/** The member's 30-day trading volume at `nowMs` (TWD minor; see the module docstring). */
export async function volume30dMinor(db: Db | Tx, userId: number, nowMs: number): Promise<number> {
  const since = new Date(nowMs - VOLUME_WINDOW_MS);
  const [open] = await db
    .select({ v: sql<string>`coalesce(sum(${orders.openValueMinor}), 0)` })
    .from(orders)
    .where(and(eq(orders.userId, userId), gte(orders.openedAt, since)));
  const [close] = await db
    .select({ v: sql<string>`coalesce(sum(${orders.closePriceMinor} * ${orders.shares}), 0)` })
    .from(orders)
    .where(
      and(eq(orders.userId, userId), gte(orders.closedAt, since), sql`${orders.closePriceMinor} is not null`),
    );
  return asSafe(open!.v, 'volume') + asSafe(close!.v, 'volume');
}

/**
 * The level reached with `assetsMinor` and `volumeMinor` in `table` (lowest first; the first row
 * is reached by everyone) and the next one, or null at the top.
 */
export function levelFor(
  table: readonly Level[],
  assetsMinor: number,
  volumeMinor: number,
): { current: Level; next: Level | null } {
  const fallback: Level = {
    level: 0,
    name: 'VIP0',
    minAssetsMinor: 0,
    minVolume30dMinor: 0,
    feeDiscountBps: 0,
  };
  let current = table[0] ?? fallback;
  for (const l of table)
    if (assetsMinor >= l.minAssetsMinor && volumeMinor >= l.minVolume30dMinor) current = l;
  const next = table.find((l) => l.level > current.level) ?? null;
  return { current, next };
}

/** The member's figures and level at `nowMs` (user/accountLevel), uncached. */
export async function accountLevel(db: Db, userId: number, nowMs: number): Promise<AccountLevel> {
  const bal = await memberBalances(db, userId);
  const totalAssetsMinor = bal.available + bal.frozen + bal.margin + bal.debt;
  const volume = await volume30dMinor(db, userId, nowMs);
  const levels = await levelTable(db);
  const { current, next } = levelFor(levels, totalAssetsMinor, volume);
  return { totalAssetsMinor, volume30dMinor: volume, current, next, levels };
}

/** The level discounts of one app's database, cached per member. */
export interface LevelDiscounts {
  /** The member's figures and level at `nowMs` (user/accountLevel); refreshes the cached discount. */
  level(userId: number, nowMs: number): Promise<AccountLevel>;
  /** The member's level discount (bps) for the order path: cached up to LEVEL_CACHE_MS. */
  bps(userId: number, nowMs: number): Promise<number>;
  /** Forgets every cached discount (after the operator changes the table). */
  clear(): void;
}

/** The LevelDiscounts of `db` (one per app). */
export function createLevelDiscounts(db: Db): LevelDiscounts {
  const cache = new Map<number, { bps: number; at: number }>();
  const level = async (userId: number, nowMs: number) => {
    const out = await accountLevel(db, userId, nowMs);
    cache.set(userId, { bps: out.current.feeDiscountBps, at: nowMs });
    return out;
  };
  return {
    level,
    async bps(userId, nowMs) {
      const hit = cache.get(userId);
      if (hit && nowMs - hit.at < LEVEL_CACHE_MS) return hit.bps;
      return (await level(userId, nowMs)).current.feeDiscountBps;
    },
    clear: () => cache.clear(),
  };
}

/**
 * Creates or replaces a level row (operator); the caller clears the app's LevelDiscounts after. Thresholds must rise with the level (no lower level
 * may need more), so the table stays a ladder.
 * @throws AppError parameterError when the row would break the ladder
 */
export async function saveLevel(db: Db, operatorId: number, row: Level): Promise<Level[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table account_levels in exclusive mode`);
    const table = (await levelTable(tx)).filter((l) => l.level !== row.level);
    const merged = [...table, row].sort((a, b) => a.level - b.level);
    if (merged[0]!.minAssetsMinor !== 0 || merged[0]!.minVolume30dMinor !== 0) throw fail('parameterError');
    for (let i = 1; i < merged.length; i++) {
      const [a, b] = [merged[i - 1]!, merged[i]!];
      if (b.minAssetsMinor < a.minAssetsMinor || b.minVolume30dMinor < a.minVolume30dMinor)
        throw fail('parameterError');
    }
    const before = (await levelTable(tx)).find((l) => l.level === row.level) ?? null;
    await tx
      .insert(accountLevels)
      .values(row)
      .onConflictDoUpdate({
        target: accountLevels.level,
        set: {
          name: row.name,
          minAssetsMinor: row.minAssetsMinor,
          minVolume30dMinor: row.minVolume30dMinor,
          feeDiscountBps: row.feeDiscountBps,
        },
      });
    await audit(tx, {
      actorUserId: operatorId,
      action: 'level.save',
      targetType: 'accountLevel',
      targetId: row.level,
      before,
      after: row,
    });
    return levelTable(tx);
  });
}

/** Deletes a level above 0 (operator; the caller clears LevelDiscounts after). @throws AppError notFound */
export async function deleteLevel(db: Db, operatorId: number, level: number): Promise<Level[]> {
  return db.transaction(async (tx) => {
    const [gone] = await tx.delete(accountLevels).where(eq(accountLevels.level, level)).returning();
    if (!gone) throw fail('notFound');
    await audit(tx, {
      actorUserId: operatorId,
      action: 'level.delete',
      targetType: 'accountLevel',
      targetId: level,
      before: gone,
    });
    return levelTable(tx);
  });
}
