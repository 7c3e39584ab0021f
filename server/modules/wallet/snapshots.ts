/**
 * Daily equity snapshots for the asset overview's chart (table equity_snapshots, migration 0020).
 *
 * When: at each trading day's close on the market clock. The trading engine announces every
 * symbol's closing-call match (`onMatch`, kind `closing`, TW-MARKET-RULES "Opening and closing":
 * one match at 13:30) after writing its fills; the first announcement of a new trading date
 * schedules one snapshot of that date, taken once the engine's queue is idle (so every symbol's
 * closing match and the day-trade closes are written and the feed shows the closing prints).
 * A replay that starts its window over reaches a date again: its snapshot replaces the older one.
 * Not on the stress source (no sessions, no closing match); a close missed while the server was
 * down has no snapshot (the chart shows the days it has).
 *
 * What: for every member, one row per currency they hold — the overview's kinds (overview.ts
 * `summarise`, the same function as the screen, credit owed in the debt) and the TWD value at the
 * rates of that moment.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { AssetOverview } from '../../../contract/wallet';
import type { Db } from '../../db/client';
import { equitySnapshots } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';
import type { TradingEngine } from '../trading/engine';
import { balanceRows, creditOwed, feedMark, holdingRows, summarise, valuationRates } from './overview';

const CHUNK = 500;

/** The snapshot rows of one member's overview at `tradeDate`. */
export function snapshotRows(userId: number, tradeDate: string, ov: AssetOverview, takenAt: Date) {
  return ov.currencies.map((c) => ({
    userId,
    tradeDate,
    currency: c.currency,
    availableMinor: c.availableMinor,
    frozenMinor: c.frozenMinor,
    marginMinor: c.marginMinor,
    debtMinor: c.debtMinor,
    otherMinor: c.otherAccounts.reduce((s, a) => s + a.balanceMinor, 0),
    unrealisedMinor: c.unrealisedMinor,
    totalMinor: c.totalMinor,
    valueTwdMinor: c.valueTwdMinor,
    takenAt,
  }));
}

/**
 * Snapshots every member's overview as of `tradeDate`'s close (marks from `feed` now, rates from
 * the fx table, `now` epoch ms); replaces rows of the same date. Returns the rows written.
 */
export async function takeSnapshots(
  db: Db,
  feed: Pick<MarketFeed, 'quote'>,
  tradeDate: string,
  now: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const balances = await balanceRows(tx, null);
    const holdings = await holdingRows(tx, null);
    const rates = await valuationRates(tx);
    const owed = await creditOwed(tx, null);
    const mark = feedMark(feed);
    const byUser = new Map<number, typeof balances>();
    for (const b of balances) byUser.set(b.userId, [...(byUser.get(b.userId) ?? []), b]);
    const rows = [...byUser].flatMap(([userId, own]) =>
      snapshotRows(
        userId,
        tradeDate,
        summarise(
          own,
          holdings.filter((h) => h.userId === userId),
          mark,
          rates,
          now,
          { creditOwedMinor: owed.get(userId) ?? 0 },
        ),
        new Date(now),
      ),
    );
    for (let i = 0; i < rows.length; i += CHUNK)
      await tx
        .insert(equitySnapshots)
        .values(rows.slice(i, i + CHUNK))
        .onConflictDoUpdate({
          target: [equitySnapshots.userId, equitySnapshots.tradeDate, equitySnapshots.currency],
          set: {
            availableMinor: sql`excluded.available_minor`,
            frozenMinor: sql`excluded.frozen_minor`,
            marginMinor: sql`excluded.margin_minor`,
            debtMinor: sql`excluded.debt_minor`,
            otherMinor: sql`excluded.other_minor`,
            unrealisedMinor: sql`excluded.unrealised_minor`,
            totalMinor: sql`excluded.total_minor`,
            valueTwdMinor: sql`excluded.value_twd_minor`,
            takenAt: sql`excluded.taken_at`,
          },
        });
    return rows.length;
  });
}

/**
 * The member's equity at each snapshotted close, oldest first, at most `days` dates: the sum of
 * the currencies' TWD values; `complete` false when a currency had no rate that day.
 */
export async function equitySeries(db: Db, userId: number, days: number) {
  const rows = await db
    .select({
      tradeDate: equitySnapshots.tradeDate,
      value: sql<string>`coalesce(sum(${equitySnapshots.valueTwdMinor}), 0)`,
      complete: sql<boolean>`bool_and(${equitySnapshots.valueTwdMinor} is not null)`,
    })
    .from(equitySnapshots)
    .where(eq(equitySnapshots.userId, userId))
    .groupBy(equitySnapshots.tradeDate)
    .orderBy(desc(equitySnapshots.tradeDate))
    .limit(days);
  return rows
    .map((r) => ({ tradeDate: r.tradeDate, valueTwdMinor: Number(r.value), complete: Boolean(r.complete) }))
    .reverse();
}

/** The snapshot rows of one member and date (tests and the reconciliation read them). */
export async function snapshotsOf(db: Db, userId: number, tradeDate: string) {
  return db
    .select()
    .from(equitySnapshots)
    .where(and(eq(equitySnapshots.userId, userId), eq(equitySnapshots.tradeDate, tradeDate)));
}

export interface EquitySnapshotter {
  /** Listens to the engine's closing matches. */
  start(): void;
  stop(): void;
  /** Resolves when the snapshots scheduled so far are written. */
  idle(): Promise<void>;
}

/** Creates the snapshotter for `trading` (see the module docstring). `now`: wall epoch ms. */
export function createEquitySnapshotter(opts: {
  db: Db;
  feed: Pick<MarketFeed, 'quote'>;
  trading: Pick<TradingEngine, 'onMatch' | 'idle'>;
  now: () => number;
  log?: (msg: string, err?: unknown) => void;
}): EquitySnapshotter {
  const { db, feed, trading } = opts;
  let lastDate: string | null = null;
  let running: Promise<void> = Promise.resolve();
  let unsubscribe: (() => void) | null = null;

  const self: EquitySnapshotter = {
    start() {
      unsubscribe ??= trading.onMatch((e) => {
        if (e.kind !== 'closing' || e.tradeDate === lastDate) return;
        const date = (lastDate = e.tradeDate);
        // Not awaited here: the listener runs inside the engine's queue, which idle() waits for.
        running = running
          .then(() => trading.idle())
          .then(() => takeSnapshots(db, feed, date, opts.now()))
          .then(
            () => undefined,
            (err) => opts.log?.(`equity snapshot of ${date} failed`, err),
          );
      });
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
    },
    idle: () => running,
  };
  return self;
}
