/**
 * Orders are retry-safe: trade/placeOrder, trade/cancelOrder and trade/closePosition need an
 * `idempotency-key` header, and a retry with the same key acts once.
 *
 * - placeOrder keeps the key in the order row (unique per member, written by the same INSERT that
 *   opens the position, also on the group-committed lane path): a retry, sequential or at the
 *   same moment as the first request, gets the same order and never opens a second position; a
 *   reused key with another body is `keyMismatch`; no key is `idempotencyKeyRequired`. Nothing
 *   is written by a refused request (orders, ledger and key tables fingerprinted).
 * - cancelOrder and closePosition keep their first answer under the key (server/http/idempotency.ts):
 *   the retry gets it again and the ledger moves once.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, where concurrent requests really run
 * in parallel transactions.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepTicks } from '../../contract/market-rules';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { idem, startHarness, type Harness } from '../integration/harness';
import { balances, orderPostings } from '../integration/trading-support';

let h: Harness;
const FUNDS = 1_000_000_000; // NT$10,000,000
let accounts = 0;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

async function member() {
  const account = `09330${String(++accounts).padStart(5, '0')}`;
  const token = await h.fundedMember(account, FUNDS);
  return { token, id: await h.userId(account) };
}

/** A market order: fills on arrival through its member's order lane (open-lanes.ts). */
const marketOrder = (lots = 1) => ({ symbol: '2330', side: 'long', orderType: 'market', lots, leverage: 10 });

/** A limit order two ticks under the bid: rests (pending, funds frozen). */
const restingOrder = () => ({
  symbol: '2330',
  side: 'long',
  orderType: 'limit',
  priceMinor: stepTicks(h.feed.quote('2330')!.bidMinor, -2),
  lots: 1,
  leverage: 10,
});

const count = async (table: string, where = sql`true`): Promise<number> => {
  const r = (await h.database.db.execute(
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`,
  )) as unknown as { rows?: Array<{ n: number }> } & Array<{ n: number }>;
  return Number((r.rows ?? r)[0]!.n);
};
const memberOrders = (userId: number) => count('orders', sql`user_id = ${userId}`);

/** Everything a refused order request must leave as it was. */
async function state() {
  return {
    money: await h.moneyState(),
    orders: await count('orders'),
    keys: await count('idempotency_keys'),
  };
}

describe('trade/placeOrder with an idempotency key', () => {
  it('a sequential retry with the same key returns the first answer and opens one position', async () => {
    const m = await member();
    const key = randomUUID();
    const first = await h.call('trade/placeOrder', marketOrder(), m.token, idem(key));
    expect(first.body).toMatchObject({ status: 1, data: { status: 'holding' } });
    const after = await balances(h, m.id);
    const postings = await orderPostings(h.database.db, first.body.data.id);
    expect(postings.length).toBeGreaterThan(0);

    for (let i = 0; i < 3; i++) {
      const retry = await h.call('trade/placeOrder', marketOrder(), m.token, idem(key));
      expect(retry.http).toBe(200);
      expect(retry.body).toEqual(first.body);
    }
    expect(await memberOrders(m.id)).toBe(1);
    expect(await balances(h, m.id)).toEqual(after);
    expect(await orderPostings(h.database.db, first.body.data.id)).toEqual(postings);

    // A new key is a new order.
    const second = await h.call('trade/placeOrder', marketOrder(), m.token, idem());
    expect(second.body.status).toBe(1);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(await memberOrders(m.id)).toBe(2);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('a resting limit order retried with the same key stays one order with one freeze', async () => {
    const m = await member();
    const key = randomUUID();
    const body = restingOrder();
    const resting = h.trading.restingCount();
    const first = await h.call('trade/placeOrder', body, m.token, idem(key));
    expect(first.body).toMatchObject({ status: 1, data: { status: 'pending' } });
    const retry = await h.call('trade/placeOrder', body, m.token, idem(key));
    expect(retry.body).toEqual(first.body);
    expect(await memberOrders(m.id)).toBe(1);
    expect((await balances(h, m.id)).frozen).toBe(first.body.data.frozenMinor);
    // Admitted to the trigger index once.
    expect(h.trading.restingCount()).toBe(resting + 1);
  });

  it('two concurrent requests with the same key open exactly one position and get the same order', async () => {
    const m = await member();
    const key = randomUUID();
    const [a, b] = await Promise.all([
      h.call('trade/placeOrder', marketOrder(), m.token, idem(key)),
      h.call('trade/placeOrder', marketOrder(), m.token, idem(key)),
    ]);
    expect(a.body.status).toBe(1);
    expect(b.body).toEqual(a.body);
    expect(await memberOrders(m.id)).toBe(1);
    const margin = a.body.data.marginMinor as number;
    expect((await balances(h, m.id)).margin).toBe(margin);

    // The same on the resting path (one transaction per order instead of the lane).
    const key2 = randomUUID();
    const body = restingOrder();
    const [c, d] = await Promise.all([
      h.call('trade/placeOrder', body, m.token, idem(key2)),
      h.call('trade/placeOrder', body, m.token, idem(key2)),
    ]);
    expect(c.body).toMatchObject({ status: 1, data: { status: 'pending' } });
    expect(d.body).toEqual(c.body);
    expect(await memberOrders(m.id)).toBe(2);
    expect((await balances(h, m.id)).frozen).toBe(c.body.data.frozenMinor);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('duplicates among many members’ concurrent orders (batched in the lanes) each place one order', async () => {
    const ms = [await member(), await member(), await member()];
    const keys = ms.flatMap((m) => [0, 1].map(() => ({ m, key: randomUUID() })));
    // Every key sent three times, all at once, interleaved.
    const sends = [0, 1, 2].flatMap(() =>
      keys.map(({ m, key }) =>
        h.call('trade/placeOrder', marketOrder(), m.token, idem(key)).then((r) => ({ key, r })),
      ),
    );
    const answers = await Promise.all(sends);
    const idByKey = new Map<string, number>();
    for (const { key, r } of answers) {
      expect(r.body.status).toBe(1);
      const id = r.body.data.id as number;
      if (!idByKey.has(key)) idByKey.set(key, id);
      expect(id).toBe(idByKey.get(key));
    }
    expect(new Set(idByKey.values()).size).toBe(keys.length);
    for (const m of ms) expect(await memberOrders(m.id)).toBe(2);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('a retry after the position was closed answers with that order and opens nothing', async () => {
    const m = await member();
    const key = randomUUID();
    const first = await h.call('trade/placeOrder', marketOrder(), m.token, idem(key));
    expect(first.body.status).toBe(1);
    const closed = await h.call('trade/closePosition', { orderId: first.body.data.id }, m.token, idem());
    expect(closed.body).toMatchObject({ status: 1, data: { status: 'closed' } });
    const before = await balances(h, m.id);
    const retry = await h.call('trade/placeOrder', marketOrder(), m.token, idem(key));
    expect(retry.body).toMatchObject({ status: 1, data: { id: first.body.data.id, status: 'closed' } });
    expect(await memberOrders(m.id)).toBe(1);
    expect(await balances(h, m.id)).toEqual(before);
  });

  it('without a key (or with a malformed one): idempotencyKeyRequired and nothing written', async () => {
    const m = await member();
    const before = await state();
    const variants: Array<Record<string, string>> = [
      {},
      { 'idempotency-key': 'short' },
      { 'idempotency-key': 'has space in it' },
    ];
    for (const headers of variants) {
      const r = await h.raw('trade/placeOrder', JSON.stringify(marketOrder()), {
        token: m.token,
        ...headers,
      });
      expect(r.http).toBe(400);
      expect(r.body).toEqual({ status: 0, msg: 'idempotencyKeyRequired', data: null });
    }
    for (const name of ['trade/cancelOrder', 'trade/closePosition']) {
      const r = await h.raw(name, JSON.stringify({ orderId: 1 }), { token: m.token });
      expect(r.body).toMatchObject({ status: 0, msg: 'idempotencyKeyRequired' });
    }
    expect(await state()).toEqual(before);
    expect(await memberOrders(m.id)).toBe(0);
  });

  it('the same key with a different body is keyMismatch and writes nothing', async () => {
    const m = await member();
    const key = randomUUID();
    const first = await h.call('trade/placeOrder', marketOrder(1), m.token, idem(key));
    expect(first.body.status).toBe(1);
    const before = await state();
    const other = await h.call('trade/placeOrder', marketOrder(2), m.token, idem(key));
    expect(other.http).toBe(422);
    expect(other.body).toEqual({ status: 0, msg: 'keyMismatch', data: null });
    // The same body on the day-trade endpoint is another request too.
    const elsewhere = await h.call('dayTrade/placeOrder', marketOrder(1), m.token, idem(key));
    expect(elsewhere.body.status).toBe(0);
    expect(await state()).toEqual(before);
    // The first request's retry still gets its order.
    expect((await h.call('trade/placeOrder', marketOrder(1), m.token, idem(key))).body).toEqual(first.body);
  });

  it('one member’s key does not answer for another member', async () => {
    const [m1, m2] = [await member(), await member()];
    const key = randomUUID();
    const a = await h.call('trade/placeOrder', marketOrder(), m1.token, idem(key));
    const b = await h.call('trade/placeOrder', marketOrder(), m2.token, idem(key));
    expect(a.body.status).toBe(1);
    expect(b.body.status).toBe(1);
    expect(b.body.data.id).not.toBe(a.body.data.id);
    expect(await memberOrders(m1.id)).toBe(1);
    expect(await memberOrders(m2.id)).toBe(1);
  });
});

describe('trade/cancelOrder and trade/closePosition retries act once', () => {
  it('a retried cancel returns the first answer and releases the frozen funds once', async () => {
    const m = await member();
    const placed = await h.call('trade/placeOrder', restingOrder(), m.token, idem());
    expect(placed.body.data.status).toBe('pending');
    const orderId = placed.body.data.id as number;
    const resting = h.trading.restingCount();
    const key = randomUUID();
    const [first, concurrent] = await Promise.all([
      h.call('trade/cancelOrder', { orderId }, m.token, idem(key)),
      h.call('trade/cancelOrder', { orderId }, m.token, idem(key)),
    ]);
    expect(first.body).toMatchObject({ status: 1, data: { id: orderId, status: 'cancelled' } });
    expect(concurrent.body).toEqual(first.body);
    const retry = await h.call('trade/cancelOrder', { orderId }, m.token, idem(key));
    expect(retry.body).toEqual(first.body);
    const unfreezes = (await orderPostings(h.database.db, orderId)).filter(
      (p) => p.type === 'orderUnfreeze' && p.member && p.purpose === 'available',
    );
    expect(unfreezes).toHaveLength(1);
    expect(await balances(h, m.id)).toMatchObject({ available: FUNDS, frozen: 0 });
    // A new key is a new request: the order is no longer pending.
    const again = await h.call('trade/cancelOrder', { orderId }, m.token, idem());
    expect(again.body).toMatchObject({ status: 0, msg: 'orderNotPending' });
    expect(h.trading.restingCount()).toBe(resting - 1);
  });

  it('a retried close returns the first answer and closes once; the key with another order is keyMismatch', async () => {
    const m = await member();
    const a = await h.call('trade/placeOrder', marketOrder(), m.token, idem());
    const b = await h.call('trade/placeOrder', marketOrder(), m.token, idem());
    const orderId = a.body.data.id as number;
    const key = randomUUID();
    const [first, concurrent] = await Promise.all([
      h.call('trade/closePosition', { orderId }, m.token, idem(key)),
      h.call('trade/closePosition', { orderId }, m.token, idem(key)),
    ]);
    expect(first.body).toMatchObject({ status: 1, data: { id: orderId, status: 'closed' } });
    expect(concurrent.body).toEqual(first.body);
    const afterClose = await balances(h, m.id);
    const retry = await h.call('trade/closePosition', { orderId }, m.token, idem(key));
    expect(retry.body).toEqual(first.body);
    const sales = (await orderPostings(h.database.db, orderId)).filter(
      (p) => p.type === 'stockSale' && p.member && p.purpose === 'available',
    );
    expect(sales).toHaveLength(1);
    expect(await balances(h, m.id)).toEqual(afterClose);

    const other = await h.call('trade/closePosition', { orderId: b.body.data.id }, m.token, idem(key));
    expect(other.body).toMatchObject({ status: 0, msg: 'keyMismatch' });
    const stillHolding = await h.call('trade/orderDetail', { orderId: b.body.data.id }, m.token);
    expect(stillHolding.body.data.status).toBe('holding');
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
