/**
 * An account's risk now: its ledger balances and open positions read in one consistent snapshot
 * (a repeatable-read, read-only transaction, so a close committing between the two reads can
 * neither double-count nor drop a position's margin), marked to the feed's live last prices and
 * run through contract/risk.ts `accountRisk`. Used by the risk monitor and `risk/summary`.
 *
 * Risk pools (what the risk monitor judges and liquidates): a member's positions fall into
 * pools, each margined against its own collateral. The member's own positions are backed by the
 * member's `available` + `debt` (the own pool, `followId` null); the copies of one follow (copy
 * trading: open `follow_copies` rows, server/modules/copy-trading/follows.ts) are backed by that
 * follow's cash only (`follows.cash_minor`, its part of the member's `follow` ledger account):
 * pool equity = cash + Σ copy margin + Σ unrealised P&L, ratio = equity ÷ Σ copy margin. So a
 * leveraged copy is not liquidated while its follow's equity covers it, and the member's own
 * wallet never backs (nor is drained by) a copy. The copies and the follow's cash are read in
 * the same snapshot as the orders (a copy opens and closes in one transaction with its row).
 * `risk/summary` shows the account-wide figures over every position (`risk`), and each position's
 * liquidation price from its pool (`pools`).
 *
 * Open positions are orders in `holding` or `closing` (a close asked for during a call auction
 * still holds its margin). Units: minor units, basis points.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  accountRatio,
  accountRisk,
  type AccountRatio,
  type AccountRisk,
  type RiskThresholds,
} from '../../../contract/risk';
import type { Db, Tx } from '../../db/client';
import { followCopies, follows, ledgerAccounts, orders } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';

/** Order statuses that hold margin. */
export const OPEN_STATUSES = ['holding', 'closing'] as const;

export type OpenOrder = typeof orders.$inferSelect;

/** One risk pool's figures (module docstring): the own pool (followId null) or one follow's copies. */
export interface PoolRisk {
  followId: number | null;
  /** The pool's collateral besides its positions: available + debt, or the follow's cash. */
  collateralMinor: number;
  /** Ids of the pool's open positions. */
  orderIds: number[];
  risk: AccountRisk;
}

/** The open copies of the member's follows in the snapshot: order id → follow, and each follow's cash. */
async function followPools(
  tx: Tx,
  userId: number,
): Promise<{ followOf: Map<number, number>; cashOf: Map<number, number> }> {
  const rows = await tx
    .select({ orderId: followCopies.orderId, followId: follows.id, cash: follows.cashMinor })
    .from(followCopies)
    .innerJoin(follows, eq(follows.id, followCopies.followId))
    .where(and(eq(follows.userId, userId), eq(followCopies.status, 'open')));
  const followOf = new Map<number, number>();
  const cashOf = new Map<number, number>();
  for (const r of rows) {
    if (r.orderId !== null) followOf.set(r.orderId, r.followId);
    cashOf.set(r.followId, r.cash);
  }
  return { followOf, cashOf };
}

/** The snapshot and its risk figures. */
export interface LoadedAccountRisk {
  availableMinor: number;
  frozenMinor: number;
  debtMinor: number;
  /** The ledger `margin` balance (equals Σ margin of `holdings` in a consistent ledger). */
  ledgerMarginMinor: number;
  holdings: OpenOrder[];
  /** Account-wide figures over every position (what `risk/summary` shows). */
  risk: AccountRisk;
  /** The risk pools (module docstring): the own pool first, then each follow with open copies. */
  pools: PoolRisk[];
  /** False when some holding had no live last price (its opening price was used as the mark). */
  marked: boolean;
}

/** Reads and marks one account (see the module docstring). TWD only: positions are in TWD. */
export async function loadAccountRisk(
  db: Db,
  feed: Pick<MarketFeed, 'quote' | 'kind'>,
  userId: number,
  thresholds: RiskThresholds,
): Promise<LoadedAccountRisk> {
  const { balances, holdings, pools } = await db.transaction(
    async (tx) => {
      const rows = await tx
        .select({ purpose: ledgerAccounts.purpose, balance: ledgerAccounts.balanceMinor })
        .from(ledgerAccounts)
        .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.currency, 'TWD')));
      const held = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.userId, userId), inArray(orders.status, [...OPEN_STATUSES])))
        .orderBy(asc(orders.id));
      const b: Record<string, number> = {};
      for (const r of rows) b[r.purpose] = r.balance;
      return { balances: b, holdings: held, pools: await followPools(tx, userId) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  let marked = true;
  const positions = holdings
    .filter((h) => h.openValueMinor !== null && h.marginMinor > 0)
    .map((h) => {
      const last = feed.quote(h.symbol)?.lastMinor;
      const live = last !== undefined && last > 0;
      if (!live) marked = false;
      return {
        id: h.id,
        side: h.side as 'long' | 'short',
        kind: feed.kind(h.symbol) ?? 'stock',
        openValueMinor: h.openValueMinor!,
        shares: h.shares,
        marginMinor: h.marginMinor,
        markMinor: live ? last : h.openPriceMinor!,
      };
    });
  const availableMinor = balances.available ?? 0;
  const debtMinor = balances.debt ?? 0;
  const pooled = new Map<number | null, typeof positions>([[null, []]]);
  for (const p of positions) {
    const key = pools.followOf.get(p.id) ?? null;
    pooled.set(key, [...(pooled.get(key) ?? []), p]);
  }
  return {
    availableMinor,
    frozenMinor: balances.frozen ?? 0,
    debtMinor,
    ledgerMarginMinor: balances.margin ?? 0,
    holdings,
    risk: accountRisk({ availableMinor, debtMinor, positions, thresholds }),
    pools: [...pooled].map(([followId, ps]) => {
      const collateralMinor = followId === null ? availableMinor + debtMinor : pools.cashOf.get(followId)!;
      return {
        followId,
        collateralMinor,
        orderIds: ps.map((p) => p.id),
        risk: accountRisk({ availableMinor: collateralMinor, debtMinor: 0, positions: ps, thresholds }),
      };
    }),
    marked,
  };
}

/** One account's summed exposure per instrument and side, and the ratio it gives. */
export interface AccountExposure {
  /** Instruments the account holds (for the monitor's index). */
  symbols: string[];
  /** The own pool's ratio (the member's own positions against available + debt). */
  ratio: AccountRatio;
  /** Each follow's pool with open copies: its ratio against the follow's cash. */
  follows: Array<{ followId: number; ratio: AccountRatio }>;
  /** False when some instrument had no live last price (the account is not judged then). */
  marked: boolean;
}

/**
 * The risk monitor's cheap read: balances plus one aggregate row per (risk pool, instrument,
 * side) of the open positions, in one repeatable-read snapshot, marked to the feed and run
 * through contract/risk.ts `accountRatio` per pool (equal to `accountRisk`'s figures of the
 * pool's positions; pools: module docstring).
 */
export async function loadAccountExposure(
  db: Db,
  feed: Pick<MarketFeed, 'quote'>,
  userId: number,
  thresholds: RiskThresholds,
): Promise<AccountExposure> {
  const { balances, groups, pools } = await db.transaction(
    async (tx) => {
      const rows = await tx
        .select({ purpose: ledgerAccounts.purpose, balance: ledgerAccounts.balanceMinor })
        .from(ledgerAccounts)
        .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.currency, 'TWD')));
      const g = await tx
        .select({
          symbol: orders.symbol,
          side: orders.side,
          shares: sql<string>`sum(${orders.shares})`,
          openValue: sql<string>`sum(${orders.openValueMinor})`,
          margin: sql<string>`sum(${orders.marginMinor})`,
          followId: followCopies.followId,
        })
        .from(orders)
        .leftJoin(followCopies, and(eq(followCopies.orderId, orders.id), eq(followCopies.status, 'open')))
        .where(
          and(
            eq(orders.userId, userId),
            inArray(orders.status, [...OPEN_STATUSES]),
            sql`${orders.openValueMinor} is not null`,
            sql`${orders.marginMinor} > 0`,
          ),
        )
        .groupBy(orders.symbol, orders.side, followCopies.followId);
      const b: Record<string, number> = {};
      for (const r of rows) b[r.purpose] = r.balance;
      return { balances: b, groups: g, pools: await followPools(tx, userId) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  let marked = true;
  const exposures = groups.map((g) => {
    const last = g.symbol ? feed.quote(g.symbol)?.lastMinor : undefined;
    if (last === undefined || last <= 0) marked = false;
    return {
      side: g.side as 'long' | 'short',
      shares: Number(g.shares),
      openValueMinor: Number(g.openValue),
      marginMinor: Number(g.margin),
      markMinor: last !== undefined && last > 0 ? last : 0,
    };
  });
  const pooled = (followId: number | null) =>
    marked ? exposures.filter((_, i) => groups[i]!.followId === followId) : [];
  return {
    symbols: [...new Set(groups.map((g) => g.symbol))],
    ratio: accountRatio({
      availableMinor: balances.available ?? 0,
      debtMinor: balances.debt ?? 0,
      exposures: pooled(null),
      thresholds,
    }),
    follows: [...pools.cashOf].map(([followId, cash]) => ({
      followId,
      ratio: accountRatio({ availableMinor: cash, debtMinor: 0, exposures: pooled(followId), thresholds }),
    })),
    marked,
  };
}
