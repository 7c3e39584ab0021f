/**
 * The first slice's core journey through the API on real replayed data: register → deposit →
 * operator approval → buy 2330 long at market with leverage → P&L moves with the feed → close →
 * fund records and the member centre agree with the ledger, and reconciliation is clean.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeResult, openCosts } from '../../contract/market-rules';
import { isClean, memberBalances, reconcile } from '../../server/modules/ledger/ledger';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('core journey', () => {
  it('deposits, trades 2330 with leverage, closes, and every dollar is accounted for', async () => {
    const token = await h.fundedMember('0912345678', 100_000_000); // NT$1,000,000
    let info = await h.call('user/info', {}, token);
    expect(info.body.data.availableMinor).toBe(100_000_000);

    const q0 = h.feed.quote('2330')!;
    const buy = await h.call(
      'trade/placeOrder',
      { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 5 },
      token,
    );
    expect(buy.body).toMatchObject({ status: 1, msg: 'purchase' });
    const order = buy.body.data;
    expect(order.status).toBe('holding');
    expect(order.openPriceMinor).toBe(q0.askMinor);
    const expected = openCosts({
      priceMinor: q0.askMinor,
      lots: 1,
      leverage: 5,
      side: 'long',
      kind: 'stock',
    });
    expect(order.marginMinor).toBe(expected.marginMinor);
    expect(order.openFeeMinor).toBe(expected.feeMinor);

    info = await h.call('user/info', {}, token);
    expect(info.body.data.availableMinor).toBe(100_000_000 - expected.requiredMinor);
    expect(info.body.data.marginMinor).toBe(expected.marginMinor);

    // The feed moves on: unrealised P&L follows the last price.
    const seen = new Set<number>();
    // …until a close would also realise a P&L (the bid has left the opening ask).
    for (let i = 0; i < 120 && (seen.size < 2 || h.feed.quote('2330')!.bidMinor === q0.askMinor); i++) {
      h.wall.now += 60_000;
      h.feed.tick();
      const r = await h.call('user/info', {}, token);
      seen.add(r.body.data.unrealisedPnlMinor);
    }
    expect(seen.size).toBeGreaterThan(1);

    const q1 = h.feed.quote('2330')!;
    const close = await h.call('trade/closePosition', { orderId: order.id }, token);
    expect(close.body.status).toBe(1);
    const closed = close.body.data;
    expect(closed.status).toBe('closed');
    expect(closed.closePriceMinor).toBe(q1.bidMinor);
    const r = closeResult({
      openValueMinor: q0.askMinor * 1000,
      closePriceMinor: q1.bidMinor,
      shares: 1000,
      side: 'long',
      kind: 'stock',
    });
    expect(closed.pnlMinor).toBe(r.pnlMinor);
    expect(r.pnlMinor).not.toBe(0);
    expect(closed.closeTaxMinor).toBe(r.taxMinor);

    const net = r.pnlMinor - expected.feeMinor - r.feeMinor - r.taxMinor;
    info = await h.call('user/info', {}, token);
    expect(info.body.data).toMatchObject({
      availableMinor: 100_000_000 + net,
      frozenMinor: 0,
      marginMinor: 0,
      unrealisedPnlMinor: 0,
      realisedProfitMinor: net,
      totalAssetsMinor: 100_000_000 + net,
    });

    const trade = await h.call('user/fundRecords', { tab: 'trade' }, token);
    const types = trade.body.data.items.map((i: { type: string }) => i.type);
    for (const t of ['stockPurchase', 'tradeFee', 'transactionTax', 'stockSale', 'realisedPnl'])
      expect(types).toContain(t);
    const dep = await h.call('user/fundRecords', { tab: 'deposit' }, token);
    expect(dep.body.data.items).toHaveLength(1);
    expect(dep.body.data.items[0]).toMatchObject({ type: 'deposit', amountMinor: 100_000_000 });
    expect(dep.body.data.deposits[0]).toMatchObject({ status: 'approved', amountMinor: 100_000_000 });

    // The member centre figures are the ledger's balances.
    const me = (await h.call('admin/users', { q: '0912345678' }, await h.operatorToken())).body.data.items[0];
    const bal = await memberBalances(h.database.db, me.id);
    expect(info.body.data.availableMinor).toBe(bal.available);
    expect(info.body.data.frozenMinor).toBe(bal.frozen);

    const rec = await reconcile(h.database.db);
    expect(isClean(rec)).toBe(true);
  });

  it('rests a limit order as pending, fills it when the quote crosses, and cancels another', async () => {
    const token = await h.fundedMember('0911111111', 50_000_000);
    const q = h.feed.quote('2330')!;
    // A buy limit far below the market rests; one at the limit-up crosses at once.
    const low = q.limitDownMinor;
    const pending = await h.call(
      'trade/placeOrder',
      { symbol: '2330', side: 'long', orderType: 'limit', priceMinor: low, lots: 1, leverage: 10 },
      token,
    );
    expect(pending.body.data.status).toBe('pending');
    const frozen = openCosts({
      priceMinor: low,
      lots: 1,
      leverage: 10,
      side: 'long',
      kind: 'stock',
    }).requiredMinor;
    expect(pending.body.data.frozenMinor).toBe(frozen);
    let info = await h.call('user/info', {}, token);
    expect(info.body.data.frozenMinor).toBe(frozen);

    const cancel = await h.call('trade/cancelOrder', { orderId: pending.body.data.id }, token);
    expect(cancel.body.data.status).toBe('cancelled');
    info = await h.call('user/info', {}, token);
    expect(info.body.data).toMatchObject({ frozenMinor: 0, availableMinor: 50_000_000 });
    const again = await h.call('trade/cancelOrder', { orderId: pending.body.data.id }, token);
    expect(again.http).toBe(409);
    expect(again.body.msg).toBe('orderNotPending');

    // A buy limit one tick under the ask rests, then fills at its limit once the ask reaches it.
    const start = h.feed.quote('2330')!;
    const limit = start.bidMinor;
    const resting = await h.call(
      'trade/placeOrder',
      { symbol: '2330', side: 'long', orderType: 'limit', priceMinor: limit, lots: 1, leverage: 10 },
      token,
    );
    const id = resting.body.data.id;
    expect(resting.body.data.status).toBe('pending');
    let status = resting.body.data.status;
    for (let i = 0; i < 270 && status === 'pending'; i++) {
      h.wall.now += 60_000;
      h.feed.tick();
      await h.trading.idle();
      status = (await h.call('trade/orderDetail', { orderId: id }, token)).body.data.status;
    }
    const detail = (await h.call('trade/orderDetail', { orderId: id }, token)).body.data;
    expect(detail.status).toBe('holding');
    expect(detail.openPriceMinor).toBe(limit);
    expect(detail.frozenMinor).toBe(0);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
