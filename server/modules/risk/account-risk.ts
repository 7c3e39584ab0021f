/**
 * An account's risk now: its ledger balances and open positions read in one consistent snapshot
 * (a repeatable-read, read-only transaction, so a close committing between the two reads can
 * neither double-count nor drop a position's margin), marked to the feed's live last prices and
 * run through contract/risk.ts `accountRisk`. Used by the risk monitor and `risk/summary`.
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
import type { Db } from '../../db/client';
import { ledgerAccounts, orders } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';

/** Order statuses that hold margin. */
export const OPEN_STATUSES = ['holding', 'closing'] as const;

export type OpenOrder = typeof orders.$inferSelect;

/** The snapshot and its risk figures. */
export interface LoadedAccountRisk {
  availableMinor: number;
  frozenMinor: number;
  debtMinor: number;
  /** The ledger `margin` balance (equals Σ margin of `holdings` in a consistent ledger). */
  ledgerMarginMinor: number;
  holdings: OpenOrder[];
  risk: AccountRisk;
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
  const { balances, holdings } = await db.transaction(
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
      return { balances: b, holdings: held };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  let marked = true;
  const positions = holdings
    .filter((h) => h.openPriceMinor !== null && h.marginMinor > 0)
    .map((h) => {
      const last = feed.quote(h.symbol)?.lastMinor;
      const live = last !== undefined && last > 0;
      if (!live) marked = false;
      return {
        id: h.id,
        side: h.side as 'long' | 'short',
        kind: feed.kind(h.symbol) ?? 'stock',
        openPriceMinor: h.openPriceMinor!,
        shares: h.shares,
        marginMinor: h.marginMinor,
        markMinor: live ? last : h.openPriceMinor!,
      };
    });
  const availableMinor = balances.available ?? 0;
  const debtMinor = balances.debt ?? 0;
  return {
    availableMinor,
    frozenMinor: balances.frozen ?? 0,
    debtMinor,
    ledgerMarginMinor: balances.margin ?? 0,
    holdings,
    risk: accountRisk({ availableMinor, debtMinor, positions, thresholds }),
    marked,
  };
}

/** One account's summed exposure per instrument and side, and the ratio it gives. */
export interface AccountExposure {
  /** Instruments the account holds (for the monitor's index). */
  symbols: string[];
  ratio: AccountRatio;
  /** False when some instrument had no live last price (the account is not judged then). */
  marked: boolean;
}

/**
 * The risk monitor's cheap read: balances plus one aggregate row per (instrument, side) of the
 * open positions, in one repeatable-read snapshot, marked to the feed and run through
 * contract/risk.ts `accountRatio` (equal to `accountRisk`'s account figures).
 */
export async function loadAccountExposure(
  db: Db,
  feed: Pick<MarketFeed, 'quote'>,
  userId: number,
  thresholds: RiskThresholds,
): Promise<AccountExposure> {
  const { balances, groups } = await db.transaction(
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
          openValue: sql<string>`sum(${orders.openPriceMinor} * ${orders.shares})`,
          margin: sql<string>`sum(${orders.marginMinor})`,
        })
        .from(orders)
        .where(
          and(
            eq(orders.userId, userId),
            inArray(orders.status, [...OPEN_STATUSES]),
            sql`${orders.openPriceMinor} is not null`,
            sql`${orders.marginMinor} > 0`,
          ),
        )
        .groupBy(orders.symbol, orders.side);
      const b: Record<string, number> = {};
      for (const r of rows) b[r.purpose] = r.balance;
      return { balances: b, groups: g };
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
  return {
    symbols: [...new Set(groups.map((g) => g.symbol))],
    ratio: accountRatio({
      availableMinor: balances.available ?? 0,
      debtMinor: balances.debt ?? 0,
      exposures: marked ? exposures : [],
      thresholds,
    }),
    marked,
  };
}
