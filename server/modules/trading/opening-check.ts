/**
 * Order entry's whole-account check (contract/risk.ts openingCheck; docs/adr/0001-account-risk-model.md):
 * an opening order is accepted only when the member's risk pool, after it and after every resting
 * order filled at its limit, stays at or above the opening line (OPENING_MARGIN_BPS), at the price
 * of acceptance. A cash purchase (a long at 1×) is judged too: its price leaves the collateral of
 * the member's margined positions.
 *
 * Concurrency: the check reads the pool (risk/account-risk.ts loadOpeningAccount) and returns the
 * least `available` balance the order's own postings must leave, which the ledger enforces in the
 * same statement as the order (fills.ts openPostings floorMinor). That floor catches any later fall
 * of `available` (a withdrawal, an IPO application, another close); what it cannot see is another
 * opening of the same member adding margin between the read and the write, so `serial` runs one
 * member's openings one at a time in this process (the engine is their only writer).
 *
 * Units: minor (TWD), basis points.
 */
import { BPS, isCashHolding, openingCheck } from '../../../contract/risk';
import type { Db, Tx } from '../../db/client';
import type { orders } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';
import { fail } from '../common/errors';
import { loadOpeningAccount } from '../risk/account-risk';
import { costsAt, type FillEnv } from './fills';

/** The order judged: its row values (side, leverage, lots, discounts) and its price of acceptance. */
export interface OpeningInput {
  userId: number;
  /** The copy-trading follow whose cash backs it; null: the member's own pool. */
  followId: number | null;
  values: Pick<
    typeof orders.$inferInsert,
    'symbol' | 'side' | 'lots' | 'leverage' | 'feeDiscountBps' | 'couponBps' | 'couponOffMinor'
  >;
  priceMinor: number;
}

export interface OpeningChecker {
  /** Runs `work` after the member's earlier openings in this process have settled. */
  serial<T>(userId: number, work: () => Promise<T>): Promise<T>;
  /**
   * Judges the opening in `q` (a transaction, or the database for a read of its own).
   * @returns the available floor for the order's postings (0: none; always 0 for a follow's pool,
   *   whose cash is not the member's available balance)
   * @throws AppError insufficientBalance when the pool cannot pay the order's costs;
   *   belowOpeningLine with its fix (contract/trading.ts `openingLine`)
   */
  check(q: Db | Tx, input: OpeningInput): Promise<number>;
}

/**
 * @param lineBps the opening line (OPENING_MARGIN_BPS); at or below 10,000 there is none and
 *   nothing is read
 */
export function createOpeningChecker(
  env: FillEnv,
  feed: Pick<MarketFeed, 'quote'>,
  lineBps: number,
): OpeningChecker {
  const tails = new Map<number, Promise<unknown>>();
  return {
    serial(userId, work) {
      const run = (tails.get(userId) ?? Promise.resolve()).then(work, work);
      const tail = run.then(
        () => undefined,
        () => undefined,
      );
      tails.set(userId, tail);
      void tail.then(() => {
        if (tails.get(userId) === tail) tails.delete(userId);
      });
      return run;
    },
    async check(q, input) {
      if (lineBps <= BPS) return 0;
      const side = input.values.side as 'long' | 'short';
      const c = costsAt(env, { ...input.values, side }, input.priceMinor);
      const account = await loadOpeningAccount(q as Tx, feed, input.userId, input.followId);
      // An order its pool cannot pay is refused as such, before any line is judged.
      if (account.availableMinor < c.requiredMinor) throw fail('insufficientBalance');
      const r = openingCheck(
        account,
        {
          cash: isCashHolding({ side, leverage: input.values.leverage }),
          marginMinor: c.marginMinor,
          feeMinor: c.feeMinor,
          taxMinor: c.taxMinor,
        },
        lineBps,
      );
      if (!r.ok)
        throw fail('belowOpeningLine', {
          fix: {
            rule: 'openingLine',
            ratioAfterBps: r.ratioAfterBps,
            lineBps,
            shortfallMinor: r.shortfallMinor,
          },
        });
      return input.followId === null ? r.availableFloorMinor : 0;
    },
  };
}
