/**
 * Twenty orders at once from one member whose margins together exceed the balance: exactly as
 * many succeed as the balance covers, the rest are refused with insufficientBalance, and no
 * balance goes negative. Meaningful against PostgreSQL (TEST_DATABASE_URL), where the requests
 * really run in parallel transactions; on PGlite they serialise.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCosts } from '../../contract/market-rules';
import { openingCheck } from '../../contract/risk';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

it('20 concurrent orders: exactly those that fit succeed, no balance goes negative', async () => {
  const balance = 100_000_000; // NT$1,000,000
  const token = await h.fundedMember('0955555555', balance);
  const q = h.feed.quote('2330')!;
  const c = openCosts({
    priceMinor: q.askMinor,
    lots: 1,
    leverage: 10,
    side: 'long',
    kind: 'stock',
  });
  const each = c.requiredMinor;
  // Order k is accepted when the account with k − 1 positions (each marked at the last price, the
  // fill at the ask) and this one stays at the opening line (contract/risk.ts openingCheck).
  const fee = c.requiredMinor - c.marginMinor - c.taxMinor;
  const pnlEach = (q.lastMinor - q.askMinor) * 1000;
  let fit = 0;
  for (let k = 1; k <= 20; k++) {
    const held = k - 1;
    const r = openingCheck(
      {
        availableMinor: balance - held * each,
        debtMinor: 0,
        usedMarginMinor: held * c.marginMinor,
        unrealisedPnlMinor: held * pnlEach,
        restingMarginMinor: 0,
      },
      { cash: false, marginMinor: c.marginMinor, feeMinor: fee, taxMinor: c.taxMinor },
      h.config.openingMarginBps,
    );
    if (!r.ok || balance - k * each < 0) break;
    fit = k;
  }
  expect(fit).toBeGreaterThan(0);
  expect(fit).toBeLessThan(20);

  // The member's level (fee discount) rises with 30-day volume; the order path caches it
  // (server/modules/rewards/levels.ts). Read it once first so all twenty orders charge the same
  // fee; otherwise an order that computes the level after others filled may get VIP1's discount.
  const level = await h.call('user/accountLevel', {}, token);
  expect(level.body.data.current.feeDiscountBps).toBe(0);

  const results = await Promise.all(
    Array.from({ length: 20 }, () =>
      h.call(
        'trade/placeOrder',
        { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 10 },
        token,
      ),
    ),
  );
  const ok = results.filter((r) => r.body.status === 1);
  const refused = results.filter((r) => r.body.status === 0);
  expect(ok).toHaveLength(fit);
  expect(refused.every((r) => r.http === 422 && r.body.msg === 'belowOpeningLine')).toBe(true);

  const me = (await h.call('admin/users', { q: '0955555555' }, await h.operatorToken())).body.data.items[0];
  const bal = await memberBalances(h.database.db, me.id);
  expect(bal.available).toBe(balance - fit * each);
  expect(bal.available).toBeGreaterThanOrEqual(0);
  const holdings = await h.call('trade/orders', { tab: 'holdings' }, token);
  expect(holdings.body.data.total).toBe(fit);
  expect(isClean(await reconcile(h.database.db))).toBe(true);
});
