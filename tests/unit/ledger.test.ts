/** Ledger invariants: balanced postings, the non-negative rule, idempotency, reconciliation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { memoryDatabase } from '../support/db-template';
import { users } from '../../server/db/schema';
import {
  ensureMemberAccounts,
  ensurePlatformAccounts,
  isClean,
  memberBalances,
  move,
  post,
  reconcile,
} from '../../server/modules/ledger/ledger';
import { AppError } from '../../server/modules/common/errors';

let d: Database;
let userId: number;
beforeAll(async () => {
  d = (await memoryDatabase()).database;
  await ensurePlatformAccounts(d.db);
  const [u] = await d.db.insert(users).values({ account: '0900000001', passwordHash: 'x' }).returning();
  userId = u!.id;
  await ensureMemberAccounts(d.db, userId);
});
afterAll(async () => d?.close());

const me = (purpose: 'available' | 'frozen') => ({ userId, purpose }) as const;

describe('ledger', () => {
  it('posts a balanced transaction and updates cached balances', async () => {
    await d.db.transaction((tx) =>
      post(tx, { type: 'deposit', postings: move({ platform: 'bank_clearing' }, me('available'), 5_000) }),
    );
    expect((await memberBalances(d.db, userId)).available).toBe(5_000);
  });

  it('refuses an unbalanced transaction', async () => {
    await expect(
      d.db.transaction((tx) =>
        post(tx, { type: 'deposit', postings: [{ account: me('available'), amountMinor: 10 }] }),
      ),
    ).rejects.toThrow(/unbalanced/);
  });

  it('refuses to take an available balance below zero and rolls the whole transaction back', async () => {
    const err = await d.db
      .transaction(async (tx) => {
        await post(tx, { type: 'orderFreeze', postings: move(me('available'), me('frozen'), 1_000) });
        await post(tx, { type: 'orderFreeze', postings: move(me('available'), me('frozen'), 10_000) });
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).key).toBe('insufficientBalance');
    expect(await memberBalances(d.db, userId)).toMatchObject({ available: 5_000, frozen: 0 });
  });

  it('the database itself forbids a negative member balance', async () => {
    await expect(
      d.db.execute(
        sql`update ledger_accounts set balance_minor = -1 where user_id = ${userId} and purpose = 'available'`,
      ),
    ).rejects.toThrow();
  });

  it('an idempotency key posts once', async () => {
    const once = () =>
      d.db.transaction((tx) =>
        post(tx, {
          type: 'deposit',
          idempotencyKey: 'dep-42',
          postings: move({ platform: 'bank_clearing' }, me('available'), 700),
        }),
      );
    const a = await once();
    const b = await once();
    expect(a).toBe(b);
    expect((await memberBalances(d.db, userId)).available).toBe(5_700);
  });

  it('reconciliation finds a tampered cached balance', async () => {
    expect(isClean(await reconcile(d.db))).toBe(true);
    await d.db.execute(
      sql`update ledger_accounts set balance_minor = balance_minor + 1 where user_id = ${userId} and purpose = 'available'`,
    );
    const r = await reconcile(d.db);
    expect(r.balanceDifferences).toHaveLength(1);
    expect(r.balanceDifferences[0]).toMatchObject({ cached: 5_701, fromPostings: 5_700 });
  });
});
