/**
 * 50 concurrent withdrawal requests against one balance never withdraw more than it holds
 * (issue 4 acceptance; product-spec §5 "Withdraw", §8 "other fund operation in progress",
 * "insufficient balance"). Meaningful on PostgreSQL (TEST_DATABASE_URL), where the requests run
 * in parallel transactions on a connection pool; on PGlite they serialise but the rules are the
 * same.
 *
 * While each burst runs, a sampler reads the member's state in single statements (one snapshot
 * each) and checks: at most one withdrawal pending, the frozen amount equals what the pending
 * withdrawal (and pending orders) hold, available never negative, available + frozen equal to
 * what the member had. After each burst: exactly one request won, every other one was refused
 * with 409 otherFundOperation or 422 insufficientBalance, and the ledger reconciles. Rounds repeat
 * (approve the winner, fire again) until the balance is exhausted; the total paid out equals the
 * deposit and never exceeds it. A second test races withdrawals against limit orders that freeze
 * the same available balance.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCosts } from '../../contract/market-rules';
import { WITHDRAW_MIN_MINOR } from '../../contract/constants';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { INVITE, startHarness, type Harness } from './harness';
import { idem, injectClient, type Answer, type ApiClient } from './support/client';
import { rowsOf } from './support/fingerprint';
import {
  FUNDS_PASSWORD,
  createChannel,
  ok,
  openDepositHours,
  readyMember,
  twdBalances,
  type ReadyMember,
} from './support/members';
import { seeded } from './support/random';

const BURST = 50;
/** Withdrawal amounts are whole multiples of this, so the balance can be withdrawn to zero. */
const STEP = WITHDRAW_MIN_MINOR;

let h: Harness;
let c: ApiClient;
let op: string;
let channelId: number;

beforeAll(async () => {
  h = await startHarness();
  c = injectClient(h.app);
  op = await h.operatorToken();
  await openDepositHours(c, op);
  channelId = await createChannel(c, op);
});
afterAll(async () => h?.close());

interface Snapshot {
  pending: number;
  pendingAmount: number;
  pendingOrdersFrozen: number;
  available: number;
  frozen: number;
  margin: number;
}

/** The member's state in one statement (one consistent snapshot). */
async function snapshot(userId: number): Promise<Snapshot> {
  const r = await h.database.db.execute(sql`
    select
      (select count(*) from withdrawals where user_id = ${userId} and status = 'pending')::int as pending,
      (select coalesce(sum(amount_minor), 0) from withdrawals
        where user_id = ${userId} and status = 'pending')::text as pending_amount,
      (select coalesce(sum(frozen_minor), 0) from orders
        where user_id = ${userId} and status = 'pending')::text as pending_orders_frozen,
      (select balance_minor from ledger_accounts
        where user_id = ${userId} and currency = 'TWD' and purpose = 'available')::text as available,
      (select balance_minor from ledger_accounts
        where user_id = ${userId} and currency = 'TWD' and purpose = 'frozen')::text as frozen,
      (select balance_minor from ledger_accounts
        where user_id = ${userId} and currency = 'TWD' and purpose = 'margin')::text as margin`);
  const row = rowsOf<Record<string, string | number | null>>(r)[0]!;
  const n = (k: string) => Number(row[k] ?? 0);
  return {
    pending: n('pending'),
    pendingAmount: n('pending_amount'),
    pendingOrdersFrozen: n('pending_orders_frozen'),
    available: n('available'),
    frozen: n('frozen'),
    margin: n('margin'),
  };
}

/** The invariants that must hold at every instant; returns what is violated. */
function violations(s: Snapshot, had: number): string[] {
  const out: string[] = [];
  if (s.pending > 1) out.push(`${s.pending} withdrawals pending at once`);
  if (s.available < 0) out.push(`available ${s.available} < 0`);
  if (s.frozen !== s.pendingAmount + s.pendingOrdersFrozen)
    out.push(
      `frozen ${s.frozen} ≠ pending withdrawal ${s.pendingAmount} + pending orders ${s.pendingOrdersFrozen}`,
    );
  if (s.frozen > had) out.push(`frozen ${s.frozen} > what the member had ${had}`);
  if (s.available + s.frozen + s.margin !== had)
    out.push(`available ${s.available} + frozen ${s.frozen} + margin ${s.margin} ≠ ${had}`);
  return out;
}

/** Runs `work` while sampling the member's state; returns its result and every violation seen. */
async function sampled<T>(userId: number, had: number, work: () => Promise<T>) {
  const seen: string[] = [];
  let done = false;
  let samples = 0;
  const sampler = (async () => {
    while (!done) {
      seen.push(...violations(await snapshot(userId), had));
      samples++;
      await new Promise((r) => setImmediate(r));
    }
  })();
  try {
    return { result: await work(), violations: seen, samples };
  } finally {
    done = true;
    await sampler;
    seen.push(...violations(await snapshot(userId), had));
  }
}

const withdraw = (m: ReadyMember, amountMinor: number) =>
  c.call('user/withdraw', { amountMinor, fundsPassword: FUNDS_PASSWORD, cardId: m.cardId }, m.token, idem());

/** A refusal by one of `keys`, with no data (belowOpeningLine carries its fix). */
const isRefusal = (a: Answer, keys: string[]) =>
  a.body.status === 0 &&
  (a.body.data === null || (a.body.msg === 'belowOpeningLine' && a.body.data.fix?.rule === 'openingLine')) &&
  keys.includes(a.body.msg) &&
  [409, 422].includes(a.http);

async function expectClean() {
  const r = await reconcile(h.database.db);
  expect(isClean(r), JSON.stringify(r)).toBe(true);
  const viaApi = ok(await c.call('admin/reconcile', {}, op), 'reconcile');
  expect(viaApi.clean).toBe(true);
}

describe('withdrawals under concurrency', () => {
  it('50 at once, in rounds until the balance is exhausted: never more than it holds', async () => {
    const DEPOSIT = 100 * STEP; // NT$100,000
    const rng = seeded(4242);
    const m = await readyMember(c, op, INVITE, '0911111111', { idSeed: 1, channelId, depositMinor: DEPOSIT });
    let paid = 0;
    let rounds = 0;
    for (; rounds < 40; rounds++) {
      const had = DEPOSIT - paid;
      const start = await snapshot(m.userId);
      expect(start).toMatchObject({ available: had, frozen: 0, pending: 0 });
      if (had === 0) break;
      // Together far more than the balance. The first round asks at most half the balance each
      // (so it cannot empty it at once); later rounds ask up to 1.5× the balance, one of them
      // exactly the balance (at a random place), so at least one always fits.
      const steps = had / STEP;
      const cap = rounds === 0 ? Math.floor(steps / 2) : Math.ceil(steps * 1.5);
      const amounts = Array.from({ length: BURST }, () => (1 + rng.int(Math.max(1, cap))) * STEP);
      if (rounds > 0) amounts[rng.int(BURST)] = had;
      expect(amounts.reduce((a, b) => a + b, 0)).toBeGreaterThan(had);

      const {
        result,
        violations: seen,
        samples,
      } = await sampled(m.userId, had, () => Promise.all(amounts.map((amt) => withdraw(m, amt))));
      expect(seen, `round ${rounds}`).toEqual([]);
      expect(samples).toBeGreaterThan(0);

      const won = result.flatMap((a, i) => (a.body.status === 1 ? [{ a, amount: amounts[i]! }] : []));
      const refusedOther = result.filter((a) => a.body.status !== 1);
      expect(won, `round ${rounds}: one withdrawal in progress at a time`).toHaveLength(1);
      const bad = refusedOther.filter((a) => !isRefusal(a, ['otherFundOperation', 'insufficientBalance']));
      expect(bad.map((a) => `${a.http} ${JSON.stringify(a.body)}`)).toEqual([]);
      // A refusal for the balance only where the amount really exceeded it.
      result.forEach((a, i) => {
        if (a.body.msg === 'insufficientBalance') expect(amounts[i]!).toBeGreaterThan(had);
      });

      const w = won[0]!;
      expect(w.a.body.data).toMatchObject({ amountMinor: w.amount, status: 'pending', cardId: m.cardId });
      expect(await snapshot(m.userId)).toMatchObject({
        pending: 1,
        pendingAmount: w.amount,
        frozen: w.amount,
        available: had - w.amount,
      });
      expect(await twdBalances(c, m.token)).toMatchObject({
        availableMinor: had - w.amount,
        frozenMinor: w.amount,
      });
      await expectClean();

      ok(await c.call('admin/approveWithdrawal', { id: w.a.body.data.id }, op), 'approve');
      paid += w.amount;
      expect(paid).toBeLessThanOrEqual(DEPOSIT);
    }
    expect(rounds).toBeGreaterThan(1);
    expect(paid).toBe(DEPOSIT);

    const all = rowsOf<{ status: string; n: number; total: string }>(
      await h.database.db.execute(sql`
        select status, count(*)::int as n, coalesce(sum(amount_minor), 0)::text as total
        from withdrawals where user_id = ${m.userId} group by status`),
    );
    expect(all.map((r) => ({ status: r.status, n: Number(r.n), total: Number(r.total) }))).toEqual([
      { status: 'approved', n: rounds, total: DEPOSIT },
    ]);
    expect(await snapshot(m.userId)).toMatchObject({ available: 0, frozen: 0, pending: 0 });
    await expectClean();
  });

  it('withdrawals racing limit orders that freeze the same balance: nothing is spent twice', async () => {
    const q = h.feed.quote('2330')!;
    const price = q.limitDownMinor;
    const orderCost = openCosts({
      priceMinor: price,
      lots: 1,
      leverage: 10,
      side: 'long',
      kind: 'stock',
    }).requiredMinor;
    const DEPOSIT = Math.ceil((orderCost * 6) / STEP) * STEP;
    const m = await readyMember(c, op, INVITE, '0922222222', { idSeed: 2, channelId, depositMinor: DEPOSIT });
    const rng = seeded(777);
    let ordersWon = 0;
    let withdrawalsWon = 0;

    for (let round = 0; round < 3; round++) {
      const had = DEPOSIT; // every round ends by cancelling the orders and rejecting the withdrawal
      const requests: Array<{ kind: 'withdraw' | 'order'; amount: number; run: () => Promise<Answer> }> = [];
      // Rounds weigh the mix differently (few orders, even, few withdrawals), in a random order.
      const orders = [5, 25, 45][round]!;
      for (let i = 0; i < BURST; i++) {
        if (i >= orders) {
          const amount = (1 + rng.int(DEPOSIT / STEP)) * STEP;
          requests.push({ kind: 'withdraw', amount, run: () => withdraw(m, amount) });
        } else {
          requests.push({
            kind: 'order',
            amount: orderCost,
            run: () =>
              c.call(
                'trade/placeOrder',
                {
                  symbol: '2330',
                  side: 'long',
                  orderType: 'limit',
                  priceMinor: price,
                  lots: 1,
                  leverage: 10,
                },
                m.token,
                idem(),
              ),
          });
        }
      }
      for (let i = requests.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [requests[i], requests[j]] = [requests[j]!, requests[i]!];
      }
      const { result, violations: seen } = await sampled(m.userId, had, () =>
        Promise.all(requests.map((r) => r.run())),
      );
      expect(seen, `round ${round}`).toEqual([]);

      const wonW = result.flatMap((a, i) =>
        a.body.status === 1 && requests[i]!.kind === 'withdraw' ? [a] : [],
      );
      const wonO = result.flatMap((a, i) =>
        a.body.status === 1 && requests[i]!.kind === 'order' ? [a] : [],
      );
      expect(wonW.length).toBeLessThanOrEqual(1);
      ordersWon += wonO.length;
      withdrawalsWon += wonW.length;
      const bad = result.filter(
        (a, i) =>
          a.body.status !== 1 &&
          !isRefusal(
            a,
            requests[i]!.kind === 'withdraw'
              ? ['otherFundOperation', 'insufficientBalance']
              : // An order that, with the others resting, would leave the account below its line.
                ['insufficientBalance', 'belowOpeningLine'],
          ),
      );
      expect(bad.map((a) => `${a.http} ${JSON.stringify(a.body)}`)).toEqual([]);
      for (const o of wonO) expect(o.body.data).toMatchObject({ status: 'pending', frozenMinor: orderCost });

      const committed =
        wonO.length * orderCost + wonW.reduce((s, a) => s + (a.body.data.amountMinor as number), 0);
      expect(committed).toBeLessThanOrEqual(had);
      expect(await snapshot(m.userId)).toMatchObject({
        available: had - committed,
        frozen: committed,
        pending: wonW.length,
      });
      await expectClean();

      // Put everything back for the next round: cancel the orders, reject the withdrawal.
      for (const o of wonO)
        ok(await c.call('trade/cancelOrder', { orderId: o.body.data.id }, m.token, idem()), 'cancel');
      for (const w of wonW)
        ok(await c.call('admin/rejectWithdrawal', { id: w.body.data.id, reason: 'race test' }, op), 'reject');
      expect(await snapshot(m.userId)).toMatchObject({ available: had, frozen: 0, pending: 0 });
    }
    // Both kinds of request really competed for the balance.
    expect(ordersWon).toBeGreaterThan(0);
    expect(withdrawalsWon).toBeGreaterThan(0);
    await expectClean();
  });
});
