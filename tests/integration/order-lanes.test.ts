/**
 * Group commit of orders that fill on arrival (server/modules/trading/open-lanes.ts and fills.ts
 * openManyFromAvailable): a batch statement is all or none; orders that arrive together share
 * one statement; when a batch fails, each of its orders is placed again on its own and only the
 * member who cannot pay is refused. Run on PGlite and on PostgreSQL (TEST_DATABASE_URL).
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_FEES, openCosts, SHARES_PER_LOT } from '../../contract/market-rules';
import { orders } from '../../server/db/schema';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { openManyFromAvailable, type FillEnv } from '../../server/modules/trading/fills';
import { openLanes } from '../../server/modules/trading/open-lanes';
import { startHarness, type Harness } from './harness';
import { balances, net, orderPostings } from './trading-support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const env: FillEnv = { fees: DEFAULT_FEES, kindOf: () => 'stock', now: () => new Date() };

/** Registers and funds a member; returns its token and user id. */
async function member(account: string, amountMinor: number): Promise<{ token: string; id: number }> {
  const token = await h.fundedMember(account, amountMinor);
  const found = await h.call('admin/users', { q: account }, await h.operatorToken());
  return { token, id: found.body.data.items[0].id };
}

/** What one market order of ORDER costs at the current ask. */
function costNow(): { priceMinor: number; requiredMinor: number } {
  const priceMinor = h.feed.quote('2330')!.askMinor;
  const c = openCosts({ priceMinor, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
  return { priceMinor, requiredMinor: c.requiredMinor };
}

const values = (userId: number, orderNo: string): typeof orders.$inferInsert => ({
  orderNo,
  userId,
  symbol: '2330',
  side: 'long',
  orderType: 'market',
  limitPriceMinor: null,
  lots: 1,
  shares: SHARES_PER_LOT,
  leverage: 10,
  status: 'holding',
  timeInForce: 'ROD',
  entrySession: 'regular',
  tradeDate: null,
  dayTrade: false,
});

const orderCount = async () => (await h.database.db.select({ n: count() }).from(orders))[0]!.n;

it('a batch statement writes every order with its own ledger entries, or none of them', async () => {
  const { priceMinor, requiredMinor } = costNow();
  const rich = await member('0966000001', 10 * requiredMinor);
  const poor = await member('0966000002', requiredMinor - 1);
  const before = await orderCount();
  const richBefore = await balances(h, rich.id);

  // One member cannot pay: nothing of the batch is written, the others' orders included.
  await expect(
    openManyFromAvailable(h.database.db, env, [
      { values: values(rich.id, 'LANETEST000001'), priceMinor },
      { values: values(poor.id, 'LANETEST000002'), priceMinor },
    ]),
  ).rejects.toThrow();
  expect(await orderCount()).toBe(before);
  expect(await balances(h, rich.id)).toEqual(richBefore);

  // All can pay: the rows come back in input order, each with its own margin and fee entries.
  const rows = await openManyFromAvailable(h.database.db, env, [
    { values: values(rich.id, 'LANETEST000003'), priceMinor },
    { values: values(rich.id, 'LANETEST000004'), priceMinor },
  ]);
  expect(rows.map((r) => r.orderNo)).toEqual(['LANETEST000003', 'LANETEST000004']);
  const c = openCosts({ priceMinor, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
  for (const row of rows) {
    expect(row.status).toBe('holding');
    const p = await orderPostings(h.database.db, row.id);
    expect(net(p, 'stockPurchase', 'margin')).toBe(c.marginMinor);
    expect(net(p, 'tradeFee', 'available')).toBe(-c.feeMinor);
  }
  expect((await balances(h, rich.id)).available).toBe(richBefore.available - 2 * requiredMinor);
  expect(isClean(await reconcile(h.database.db))).toBe(true);
});

it('orders that arrive together share statements; a member who cannot pay is refused alone', async () => {
  const { priceMinor, requiredMinor } = costNow();
  // Members whose ids fall in one lane (userId % 2), so their orders queue behind each other;
  // the first cannot pay for one order.
  const found: Array<{ token: string; id: number }> = [];
  for (let i = 0; found.length < 3; i++) {
    const m = await member(
      `09661000${String(i).padStart(2, '0')}`,
      found.length === 0 ? requiredMinor - 1 : 20 * requiredMinor,
    );
    if (found.length === 0 || m.id % 2 === found[0]!.id % 2) found.push(m);
  }
  const [poor, a, b] = found as [(typeof found)[0], (typeof found)[0], (typeof found)[0]];
  const before = new Map(await Promise.all(found.map(async (m) => [m.id, await balances(h, m.id)] as const)));
  const lanes = openLanes(h.database.db, env);
  let n = 0;
  // All in one tick: the first order finds its lane idle and goes alone, the rest queue behind it.
  const place = (m: { id: number }) =>
    lanes.open(values(m.id, `LANEQUEUE${String(n++).padStart(5, '0')}`), priceMinor).then(
      (row) => ({ ok: true as const, row }),
      (err: unknown) => ({ ok: false as const, err }),
    );

  const first = await Promise.all([a, b, poor, a, b, poor, a, b].map(place));
  const [ra, rb, rp] = [0, 1, 2].map((k) => first.filter((_, i) => i % 3 === k));
  expect([...ra!, ...rb!].every((r) => r.ok && r.row.status === 'holding')).toBe(true);
  expect(rp!.every((r) => !r.ok && (r.err as { key?: string }).key === 'insufficientBalance')).toBe(true);
  // The batch of the seven queued orders failed on the poor member's and was placed again, one by one.
  expect(lanes.stats).toEqual({ batches: 1, batchedOrders: 7, retried: 7 });
  expect(await balances(h, poor.id)).toEqual(before.get(poor.id));

  // Without the poor member, the batch holds.
  const again = await Promise.all([a, b, a, b, a, b].map(place));
  expect(again.every((r) => r.ok)).toBe(true);
  expect(lanes.stats).toEqual({ batches: 2, batchedOrders: 12, retried: 7 });

  // Each member paid for exactly their six orders, each with its own ledger entries.
  const c = openCosts({ priceMinor, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
  for (const m of [a, b])
    expect((await balances(h, m.id)).available).toBe(before.get(m.id)!.available - 6 * c.requiredMinor);
  for (const r of [...first, ...again])
    if (r.ok)
      expect(net(await orderPostings(h.database.db, r.row.id), 'tradeFee', 'available')).toBe(-c.feeMinor);
  expect(isClean(await reconcile(h.database.db))).toBe(true);
});
