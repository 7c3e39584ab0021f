/**
 * The TWSE day on the exchange clock (MARKET_CLOCK=exchange: real Asia/Taipei hours and holidays,
 * the seeded replay feed printing each trading day 09:00–13:30), driven by the harness's manual
 * wall clock: pre-open orders queue and fill at the opening price when it crosses their limit
 * (else rest), a close asked for in pre-open closes at the opening price, ROD orders expire after
 * the close, after-hours fixed-price orders (14:00–14:30, at the day's close) fill once at 14:30,
 * and every refusal outside a session says when it opens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderPreview, priceLimitsMinor, stepTicks } from '../../contract/market-rules';
import { sessionTimes } from '../../contract/trading-session';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { startHarness, type Harness } from './harness';
import { balances, exchangeAt, net, orderBody, orderDetail, orderPostings } from './trading-support';

let h: Harness;
const FUNDS = 1_000_000_000; // NT$10,000,000
let token: string;
let userId: number;
beforeAll(async () => {
  h = await startHarness({ marketClock: 'exchange' });
  token = await h.fundedMember('0931000001', FUNDS);
  userId = await h.userId('0931000001');
});
afterAll(async () => h?.close());

const order = orderBody;
const detail = (id: number) => orderDetail(h, token, id);
const MON = '2026-01-05';

describe('pre-open and the opening match', () => {
  let restingId: number;

  it('queues pre-open limit orders and fills those the opening price crosses, at that price', async () => {
    // Friday 2026-01-02, continuous trading: a holding to close before Monday's open.
    await exchangeAt(h, '2026-01-02T10:00');
    const held = await h.call('trade/placeOrder', order({ symbol: '2317', orderType: 'market' }), token);
    expect(held.body.data).toMatchObject({ status: 'holding', tradeDate: '2026-01-02' });

    await exchangeAt(h, `${MON}T08:45`);
    const q = h.feed.quote('2330')!; // Friday's finished session
    const market = await h.call('trade/placeOrder', order({ orderType: 'market' }), token);
    expect(market.http).toBe(422);
    expect(market.body).toMatchObject({
      msg: 'orderTypeNotInSession',
      data: {
        fix: { rule: 'continuousOnly', phase: 'preOpen', continuousAtMs: sessionTimes(MON).continuousMs },
      },
    });
    // Pre-open limits come from the last close the feed shows.
    const limits = priceLimitsMinor(q.lastMinor, 'stock');
    const above = await h.call(
      'trade/placeOrder',
      order({ priceMinor: stepTicks(limits.upMinor, 1) }),
      token,
    );
    expect(above.body).toMatchObject({
      msg: 'exceedsPriceLimit',
      data: { fix: { rule: 'aboveLimitUp', limitUpMinor: limits.upMinor } },
    });

    const high = await h.call('trade/placeOrder', order({ priceMinor: limits.upMinor }), token);
    const low = await h.call('trade/placeOrder', order({ priceMinor: limits.downMinor }), token);
    const short = await h.call(
      'trade/placeOrder',
      order({ side: 'short', priceMinor: limits.downMinor }),
      token,
    );
    for (const r of [high, low, short])
      expect(r.body.data).toMatchObject({
        status: 'pending',
        tradeDate: MON,
        frozenMinor: expect.any(Number),
      });
    const closing = await h.call('trade/closePosition', { orderId: held.body.data.id }, token);
    expect(closing.body.data.status).toBe('closing');

    // Nothing matches before 09:00.
    await exchangeAt(h, `${MON}T08:59:59`);
    expect((await detail(high.body.data.id)).status).toBe('pending');

    await exchangeAt(h, `${MON}T09:00:01`);
    const open = h.feed.quote('2330')!.openMinor;
    const open2317 = h.feed.quote('2317')!.openMinor;
    expect(h.feed.quote('2330')!.replayDate).not.toBe(q.replayDate);
    expect(limits.upMinor).toBeGreaterThanOrEqual(open);
    expect(limits.downMinor).toBeLessThan(open);

    const hi = await detail(high.body.data.id);
    const pOpen = orderPreview({ priceMinor: open, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
    expect(hi).toMatchObject({
      status: 'holding',
      openPriceMinor: open,
      marginMinor: pOpen.marginMinor,
      frozenMinor: 0,
    });
    // Frozen at its limit, filled lower at the open: the rest went back.
    const hiPost = await orderPostings(h.database.db, hi.id);
    expect(net(hiPost, 'orderFreeze', 'frozen')).toBe(high.body.data.frozenMinor);
    expect(-net(hiPost, 'orderUnfreeze', 'frozen')).toBe(
      high.body.data.frozenMinor - pOpen.totalRequiredMinor,
    );

    // The short's limit is under the open: it sells at the open, dearer in margin than frozen.
    const sh = await detail(short.body.data.id);
    const sOpen = orderPreview({ priceMinor: open, lots: 1, leverage: 10, side: 'short', kind: 'stock' });
    expect(sh).toMatchObject({
      status: 'holding',
      openPriceMinor: open,
      marginMinor: sOpen.marginMinor,
      openTaxMinor: sOpen.openTaxMinor,
    });
    const shPost = await orderPostings(h.database.db, sh.id);
    expect(net(shPost, 'orderFreeze', 'frozen')).toBe(sOpen.totalRequiredMinor);
    expect(sOpen.totalRequiredMinor).toBeGreaterThan(short.body.data.frozenMinor);

    // Not crossed: rests for continuous trading.
    const lo = await detail(low.body.data.id);
    expect(lo.status).toBe('pending');
    restingId = lo.id;

    const closed = await detail(held.body.data.id);
    expect(closed).toMatchObject({ status: 'closed', closeReason: 'user', closePriceMinor: open2317 });
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });

  it('expires ROD orders after the closing match and releases their frozen funds', async () => {
    const before = await balances(h, userId);
    const frozen = (await detail(restingId)).frozenMinor;
    expect(before.frozen).toBe(frozen);
    await exchangeAt(h, `${MON}T12:00`);
    await exchangeAt(h, `${MON}T13:31`);
    const lo = await detail(restingId);
    expect(lo).toMatchObject({ status: 'cancelled', closeReason: 'expired', frozenMinor: 0 });
    const after = await balances(h, userId);
    expect(after.frozen).toBe(0);
    expect(after.available).toBe(before.available + frozen);
    expect(net(await orderPostings(h.database.db, restingId), 'orderUnfreeze', 'available')).toBe(frozen);
  });
});

describe('after-hours fixed price', () => {
  it('refuses outside 14:00–14:30 with when it opens, takes only the close, fills once at 14:30', async () => {
    // 13:31, the intermission.
    const early = await h.call(
      'trade/placeOrder',
      order({ session: 'afterHours', priceMinor: 100_000 }),
      token,
    );
    expect(early.http).toBe(422);
    expect(early.body).toMatchObject({
      msg: 'nonTradingTime',
      data: {
        fix: {
          rule: 'outsideSession',
          phase: 'intermission',
          market: 'afterHours',
          opensAtMs: sessionTimes(MON).afterHoursEntryMs,
        },
      },
    });
    const regular = await h.call('trade/placeOrder', order({ orderType: 'market' }), token);
    expect(regular.body).toMatchObject({
      msg: 'nonTradingTime',
      data: { fix: { market: 'regular', opensAtMs: sessionTimes('2026-01-06').preOpenMs } },
    });

    await exchangeAt(h, `${MON}T14:10`);
    const close = h.feed.quote('2330')!.lastMinor;
    const off = await h.call(
      'trade/placeOrder',
      order({ session: 'afterHours', priceMinor: stepTicks(close, 1) }),
      token,
    );
    expect(off.body).toMatchObject({
      msg: 'afterHoursFixedPrice',
      data: { fix: { rule: 'afterHoursPrice', priceMinor: close, orderType: 'limit', timeInForce: 'ROD' } },
    });
    const market = await h.call(
      'trade/placeOrder',
      order({ session: 'afterHours', orderType: 'market' }),
      token,
    );
    expect(market.body.msg).toBe('afterHoursFixedPrice');

    // The member's account level (earlier trades in this file) discounts the commission.
    const levelBps: number = (await h.call('user/accountLevel', {}, token)).body.data.current.feeDiscountBps;
    const ah = await h.call(
      'trade/placeOrder',
      order({ session: 'afterHours', priceMinor: close, lots: 2 }),
      token,
    );
    const preview = orderPreview({
      priceMinor: close,
      lots: 2,
      leverage: 10,
      side: 'long',
      kind: 'stock',
      discount: { levelBps },
    });
    expect(ah.body.data).toMatchObject({
      status: 'pending',
      entrySession: 'afterHours',
      limitPriceMinor: close,
      frozenMinor: preview.totalRequiredMinor,
    });
    await h.trading.sweep();
    expect((await detail(ah.body.data.id)).status).toBe('pending');

    await exchangeAt(h, `${MON}T14:29:59`);
    await h.trading.sweep();
    expect((await detail(ah.body.data.id)).status).toBe('pending');
    await exchangeAt(h, `${MON}T14:30`);
    await h.trading.sweep();
    const filled = await detail(ah.body.data.id);
    expect(filled).toMatchObject({
      status: 'holding',
      openPriceMinor: close,
      marginMinor: preview.marginMinor,
      openFeeMinor: preview.commissionMinor + preview.clearingFeeMinor,
      frozenMinor: 0,
    });

    // The regular market is closed until tomorrow's pre-open: closing waits.
    await exchangeAt(h, `${MON}T14:40`);
    const closing = await h.call('trade/closePosition', { orderId: filled.id }, token);
    expect(closing.body).toMatchObject({
      msg: 'nonTradingTime',
      data: { fix: { opensAtMs: sessionTimes('2026-01-06').preOpenMs } },
    });
    expect((await balances(h, userId)).frozen).toBe(0);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
