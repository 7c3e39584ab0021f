/**
 * An account's risk now: its ledger balances and open positions read in one consistent snapshot
 * (a repeatable-read, read-only transaction, so a close committing between two reads can neither
 * double-count nor drop a position's margin), marked to the feed's live last prices and run
 * through contract/risk.ts (every definition is there). Used by the risk monitor, order entry's
 * whole-account check and `risk/summary`.
 *
 * Risk pools: a member's positions fall into pools, each judged against its own collateral. The
 * member's own positions (orders.follow_id null) are backed by the member's `available`, the funds
 * frozen for their resting orders, and `debt`; the copies of one copy-trading follow
 * (orders.follow_id = the follow) by that follow's cash only (`follows.cash_minor`). So the
 * member's own wallet never backs, nor is drained by, a copy. In every pool cash holdings (a long
 * at 1×) are outside the figures: never called, never sold.
 *
 * Two reads: loadAccountRisk reads every open position (the screens and a forced sale need each
 * one); loadAccountExposure and loadOpeningAccount read the summed rows of `position_exposures`
 * (a few rows whatever the number of positions; kept by a trigger on orders, migration 0027).
 * Units: minor units, basis points, shares.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  accountRatio,
  accountRisk,
  type AccountRatio,
  type AccountRisk,
  type OpeningAccount,
  type RiskCollateral,
  type RiskThresholds,
} from '../../../contract/risk';
import { notionalMinor } from '../../../contract/money';
import type { Db, Tx } from '../../db/client';
import { follows, ledgerAccounts, orders, positionExposures } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';

/** Order statuses that hold margin. */
export const OPEN_STATUSES = ['holding', 'closing'] as const;

export type OpenOrder = typeof orders.$inferSelect;

/** One risk pool's figures: the own pool (followId null) or one follow's copies. */
export interface PoolRisk {
  followId: number | null;
  /** The pool's collateral besides its positions (a follow: its cash, nothing frozen, no debt). */
  collateral: RiskCollateral;
  /** Ids of the pool's open positions (cash holdings included). */
  orderIds: number[];
  risk: AccountRisk;
}

/** The snapshot and its risk figures. */
export interface LoadedAccountRisk {
  availableMinor: number;
  /** The ledger `frozen` balance (resting orders, withdrawals, subscriptions…). */
  frozenMinor: number;
  /** Funds frozen for the member's own resting orders (counted in the own pool's equity). */
  frozenForOrdersMinor: number;
  /** Margin the member's own resting margined orders will use (order entry's check counts it). */
  restingMarginMinor: number;
  debtMinor: number;
  /** The ledger `margin` balance (equals Σ margin of `holdings` in a consistent ledger). */
  ledgerMarginMinor: number;
  holdings: OpenOrder[];
  /** The own pool's figures: the member's margin call and forced sales are about these. */
  risk: AccountRisk;
  /** Every pool: the own pool first, then each follow with open copies. */
  pools: PoolRisk[];
  /** False when some holding had no live last price (its average opening price was its mark). */
  marked: boolean;
}

/** The member's TWD balances by purpose. */
async function balancesOf(tx: Tx, userId: number): Promise<Record<string, number>> {
  const rows = await tx
    .select({ purpose: ledgerAccounts.purpose, balance: ledgerAccounts.balanceMinor })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.currency, 'TWD')));
  const b: Record<string, number> = {};
  for (const r of rows) b[r.purpose] = r.balance;
  return b;
}

/** Cash of the member's follows (their pools' collateral), by follow id. */
async function followCash(tx: Tx, userId: number): Promise<Map<number, number>> {
  const rows = await tx
    .select({ id: follows.id, cash: follows.cashMinor })
    .from(follows)
    .where(eq(follows.userId, userId));
  return new Map(rows.map((r) => [r.id, r.cash]));
}

const SNAPSHOT = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

/** Reads and marks one account (see the module docstring). TWD only: positions are in TWD. */
export async function loadAccountRisk(
  db: Db,
  feed: Pick<MarketFeed, 'quote' | 'kind'>,
  userId: number,
  thresholds: RiskThresholds,
): Promise<LoadedAccountRisk> {
  const { balances, holdings, frozenForOrders, restingMargin, cashOf } = await db.transaction(async (tx) => {
    const held = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), inArray(orders.status, [...OPEN_STATUSES])))
      .orderBy(asc(orders.id));
    const [resting] = await tx
      .select({
        frozen: sql<string>`coalesce(sum(${orders.frozenMinor}), 0)`,
        margin: sql<string>`coalesce(sum(${orders.marginMinor}) filter (where not (${orders.side} = 'long' and ${orders.leverage} = 1)), 0)`,
      })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.status, 'pending'), sql`${orders.followId} is null`));
    return {
      balances: await balancesOf(tx, userId),
      holdings: held,
      frozenForOrders: Number(resting!.frozen),
      restingMargin: Number(resting!.margin),
      cashOf: await followCash(tx, userId),
    };
  }, SNAPSHOT);
  let marked = true;
  const inputs = holdings
    .filter((h) => h.openValueMinor !== null && h.marginMinor > 0)
    .map((h) => {
      const last = feed.quote(h.symbol)?.lastMinor;
      const live = last !== undefined && last > 0;
      if (!live) marked = false;
      return {
        followId: h.followId,
        input: {
          id: h.id,
          side: h.side,
          kind: feed.kind(h.symbol) ?? 'stock',
          leverage: h.leverage,
          openValueMinor: h.openValueMinor!,
          shares: h.shares,
          marginMinor: h.marginMinor,
          markMinor: live ? last : h.openPriceMinor!,
        },
      };
    });
  const availableMinor = balances.available ?? 0;
  const debtMinor = balances.debt ?? 0;
  const own: RiskCollateral = { availableMinor, frozenForOrdersMinor: frozenForOrders, debtMinor };
  const poolIds: Array<number | null> = [null];
  for (const p of inputs) if (p.followId !== null && !poolIds.includes(p.followId)) poolIds.push(p.followId);
  const pools = poolIds.map((followId): PoolRisk => {
    const members = inputs.filter((p) => p.followId === followId);
    const collateral: RiskCollateral =
      followId === null
        ? own
        : { availableMinor: cashOf.get(followId) ?? 0, frozenForOrdersMinor: 0, debtMinor: 0 };
    return {
      followId,
      collateral,
      orderIds: members.map((p) => p.input.id),
      risk: accountRisk({ ...collateral, positions: members.map((p) => p.input), thresholds }),
    };
  });
  return {
    availableMinor,
    frozenMinor: balances.frozen ?? 0,
    frozenForOrdersMinor: frozenForOrders,
    restingMarginMinor: restingMargin,
    debtMinor,
    ledgerMarginMinor: balances.margin ?? 0,
    holdings,
    risk: pools[0]!.risk,
    pools,
    marked,
  };
}

/** One account's summed exposure (position_exposures) and the ratio of each pool. */
export interface AccountExposure {
  /** Instruments the account holds open positions in (for the monitor's index). */
  symbols: string[];
  /** The own pool's ratio. */
  ratio: AccountRatio;
  /** Each follow's pool with open copies: its ratio against the follow's cash. */
  follows: Array<{ followId: number; ratio: AccountRatio }>;
  /** False when some held instrument had no live last price (the account is not judged then). */
  marked: boolean;
}

type ExposureRow = typeof positionExposures.$inferSelect;

/** The member's non-empty exposure rows. */
async function exposureRows(tx: Tx, userId: number, pool?: number): Promise<ExposureRow[]> {
  return tx
    .select()
    .from(positionExposures)
    .where(
      and(
        eq(positionExposures.userId, userId),
        pool === undefined ? undefined : eq(positionExposures.pool, pool),
        sql`(${positionExposures.openCount} > 0 or ${positionExposures.restingCount} > 0)`,
      ),
    );
}

/** A row's mark: the live last price, or null when the feed has none (no open shares: none needed). */
function markOf(feed: Pick<MarketFeed, 'quote'>, r: ExposureRow): number | null {
  if (r.openCount === 0) return 0;
  const last = feed.quote(r.symbol)?.lastMinor;
  return last !== undefined && last > 0 ? last : null;
}

/**
 * The risk monitor's cheap read: balances, follow cash and the summed exposure rows in one
 * repeatable-read snapshot, marked to the feed and run through contract/risk.ts accountRatio per
 * pool (equal to accountRisk's figures of the pool's positions).
 */
export async function loadAccountExposure(
  db: Db,
  feed: Pick<MarketFeed, 'quote'>,
  userId: number,
  thresholds: RiskThresholds,
): Promise<AccountExposure> {
  const { balances, rows, cashOf } = await db.transaction(
    async (tx) => ({
      balances: await balancesOf(tx, userId),
      rows: await exposureRows(tx, userId),
      cashOf: await followCash(tx, userId),
    }),
    SNAPSHOT,
  );
  let marked = true;
  const byPool = new Map<
    number,
    { exposures: Parameters<typeof accountRatio>[0]['exposures'][number][]; frozen: number }
  >();
  for (const r of rows) {
    const mark = markOf(feed, r);
    if (mark === null) marked = false;
    let p = byPool.get(r.pool);
    if (!p) byPool.set(r.pool, (p = { exposures: [], frozen: 0 }));
    p.frozen += r.restingFrozenMinor;
    if (r.openCount > 0)
      p.exposures.push({
        side: r.side,
        cash: r.cash,
        shares: r.openShares,
        openValueMinor: r.openValueMinor,
        marginMinor: r.openMarginMinor,
        markMinor: mark ?? 0,
      });
  }
  const own = byPool.get(0);
  return {
    symbols: [...new Set(rows.filter((r) => r.openCount > 0).map((r) => r.symbol))],
    ratio: accountRatio({
      availableMinor: balances.available ?? 0,
      frozenForOrdersMinor: own?.frozen ?? 0,
      debtMinor: balances.debt ?? 0,
      exposures: marked ? (own?.exposures ?? []) : [],
      thresholds,
    }),
    follows: [...byPool]
      .filter(([pool, p]) => pool !== 0 && p.exposures.length > 0)
      .map(([followId, p]) => ({
        followId,
        ratio: accountRatio({
          availableMinor: cashOf.get(followId) ?? 0,
          frozenForOrdersMinor: 0,
          debtMinor: 0,
          exposures: marked ? p.exposures : [],
          thresholds,
        }),
      })),
    marked,
  };
}

/**
 * What order entry's whole-account check needs of one pool (contract/risk.ts OpeningAccount),
 * read inside the caller's transaction `tx`: the own pool's available and debt, or a follow's
 * cash; the margined exposure marked to the feed (an instrument without a live price is marked at
 * its average opening price: no unrealised P&L); the margin of resting margined orders.
 */
export async function loadOpeningAccount(
  tx: Tx,
  feed: Pick<MarketFeed, 'quote'>,
  userId: number,
  followId: number | null,
): Promise<OpeningAccount> {
  const rows = await exposureRows(tx, userId, followId ?? 0);
  let collateral: { availableMinor: number; debtMinor: number };
  if (followId === null) {
    const b = await balancesOf(tx, userId);
    collateral = { availableMinor: b.available ?? 0, debtMinor: b.debt ?? 0 };
  } else {
    const [f] = await tx.select({ cash: follows.cashMinor }).from(follows).where(eq(follows.id, followId));
    collateral = { availableMinor: f?.cash ?? 0, debtMinor: 0 };
  }
  const account: OpeningAccount = {
    ...collateral,
    usedMarginMinor: 0,
    unrealisedPnlMinor: 0,
    restingMarginMinor: 0,
  };
  for (const r of rows) {
    if (r.cash) continue;
    account.restingMarginMinor += r.restingMarginMinor;
    if (r.openCount === 0) continue;
    account.usedMarginMinor += r.openMarginMinor;
    const mark = markOf(feed, r);
    if (mark !== null) {
      const diff = notionalMinor(mark, r.openShares) - r.openValueMinor;
      account.unrealisedPnlMinor += r.side === 'long' ? diff : -diff;
    }
  }
  return account;
}
