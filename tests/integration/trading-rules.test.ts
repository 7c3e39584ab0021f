/**
 * The spec's trading errors that are configuration here (server/modules/trading/config.ts; all
 * off by default), switched on for this file: the largest order (TRADE_MAX_LOTS), orders per
 * member per trading day (TRADE_DAILY_ORDER_LIMIT), lock-up minutes (TRADE_LOCKUP_MINUTES), T+1
 * (TRADE_T1_SELL), products closed to trading (TRADE_CLOSED); and delisted products. Each refusal
 * names its rule, carries its fix where there is one, and moves nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instruments } from '../../server/db/schema';
import type { AuthUser } from '../../server/modules/common/context';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { loadTradingConfig } from '../../server/modules/trading/config';
import { startHarness, type Harness } from './harness';
import { balances, replayNextDay } from './trading-support';

let h: Harness;
const FUNDS = 1_000_000_000;
beforeAll(async () => {
  h = await startHarness({
    tradeMaxLots: 5,
    tradeDailyOrderLimit: 3,
    tradeLockupMinutes: 5,
    tradeT1Sell: true,
    tradeClosed: ['0050'],
  });
});
afterAll(async () => h?.close());

const order = (o: Record<string, unknown>) => ({
  symbol: '2330',
  side: 'long',
  orderType: 'market',
  lots: 1,
  leverage: 10,
  ...o,
});

async function member(account: string) {
  const token = await h.fundedMember(account, FUNDS);
  return { token, id: await h.userId(account) };
}

describe('configurable trading rules', () => {
  it('reads its settings from the environment with everything off by default', () => {
    expect(loadTradingConfig({})).toEqual({
      tradeT1Sell: false,
      tradeLockupMinutes: 0,
      tradeDailyOrderLimit: 0,
      tradeMaxLots: 499,
      tradeClosed: [],
    });
    expect(
      loadTradingConfig({
        TRADE_T1_SELL: 'true',
        TRADE_LOCKUP_MINUTES: '3',
        TRADE_DAILY_ORDER_LIMIT: '20',
        TRADE_MAX_LOTS: '50',
        TRADE_CLOSED: 'all',
      }),
    ).toEqual({
      tradeT1Sell: true,
      tradeLockupMinutes: 3,
      tradeDailyOrderLimit: 20,
      tradeMaxLots: 50,
      tradeClosed: 'all',
    });
    expect(() => loadTradingConfig({ TRADE_MAX_LOTS: '500' })).toThrow(/TRADE_MAX_LOTS/);
    expect(() => loadTradingConfig({ TRADE_LOCKUP_MINUTES: '-1' })).toThrow(/TRADE_LOCKUP_MINUTES/);
    expect(() => loadTradingConfig({ TRADE_T1_SELL: 'maybe' })).toThrow(/TRADE_T1_SELL/);
  });

  it('refuses an order above the largest size with that size as the fix', async () => {
    const m = await member('0941000001');
    const before = await h.moneyState();
    const big = await h.call('trade/placeOrder', order({ lots: 6 }), m.token);
    expect(big.http).toBe(422);
    expect(big.body).toMatchObject({
      msg: 'exceedsOrderShares',
      data: { fix: { rule: 'maxLots', maxLots: 5 } },
    });
    const huge = await h.call('trade/placeOrder', order({ lots: 500 }), m.token);
    expect(huge.body).toMatchObject({ status: 0, msg: 'exceedsOrderShares' });
    expect(await h.moneyState()).toEqual(before);
    expect((await h.call('trade/placeOrder', order({ lots: 5 }), m.token)).body.status).toBe(1);
  });

  it('counts a member’s orders per trading day, filled or not', async () => {
    const m = await member('0941000002');
    const q = h.feed.quote('2330')!;
    expect((await h.call('trade/placeOrder', order({}), m.token)).body.status).toBe(1);
    const resting = await h.call(
      'trade/placeOrder',
      order({ orderType: 'limit', priceMinor: q.limitDownMinor }),
      m.token,
    );
    expect(resting.body.data.status).toBe('pending');
    expect((await h.call('trade/cancelOrder', { orderId: resting.body.data.id }, m.token)).body.status).toBe(
      1,
    );
    const killed = await h.call(
      'trade/placeOrder',
      order({ orderType: 'limit', priceMinor: q.limitDownMinor, timeInForce: 'FOK' }),
      m.token,
    );
    expect(killed.body.data.status).toBe('cancelled');
    const fourth = await h.call('trade/placeOrder', order({}), m.token);
    expect(fourth.http).toBe(422);
    expect(fourth.body).toMatchObject({
      msg: 'dailyPurchaseLimit',
      data: { fix: { rule: 'dailyLimit', limit: 3, tradeDate: q.replayDate } },
    });
    // Another member is not affected.
    const other = await member('0941000003');
    expect((await h.call('trade/placeOrder', order({}), other.token)).body.status).toBe(1);
  });

  it('holds the daily limit under concurrent orders (exactly the limit succeed)', async () => {
    const m = await member('0941000007');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => h.call('trade/placeOrder', order({}), m.token)),
    );
    expect(results.filter((r) => r.body.status === 1)).toHaveLength(3);
    const refused = results.filter((r) => r.body.status === 0);
    expect(refused.every((r) => r.http === 422 && r.body.msg === 'dailyPurchaseLimit')).toBe(true);
    const holdings = await h.call('trade/orders', { tab: 'holdings' }, m.token);
    expect(holdings.body.data.total).toBe(3);
  });

  it('keeps a new position for the lock-up minutes, then lets it close', async () => {
    const m = await member('0941000004');
    const short = await h.call('trade/placeOrder', order({ side: 'short' }), m.token);
    const openedAt = short.body.data.openedAt as number;
    expect(openedAt).toBe(h.wall.now);
    const early = await h.call('trade/closePosition', { orderId: short.body.data.id }, m.token);
    expect(early.http).toBe(422);
    expect(early.body).toMatchObject({
      msg: 'lockUpPeriod',
      data: { fix: { rule: 'lockUp', closableAtMs: openedAt + 5 * 60_000 } },
    });
    h.wall.now = openedAt + 5 * 60_000;
    h.feed.tick();
    const ok = await h.call('trade/closePosition', { orderId: short.body.data.id }, m.token);
    expect(ok.body.data).toMatchObject({ status: 'closed', closeReason: 'user' });
  });

  it('T+1: a long bought in this trading day cannot be sold until the next, unless entered as a day trade', async () => {
    const m = await member('0941000005');
    const long = await h.call('trade/placeOrder', order({}), m.token);
    const tradeDate = long.body.data.tradeDate;
    expect(tradeDate).toBe(h.feed.quote('2330')!.replayDate);
    h.wall.now += 6 * 60_000; // past the lock-up
    h.feed.tick();
    const before = await balances(h, m.id);
    const refused = await h.call('trade/closePosition', { orderId: long.body.data.id }, m.token);
    expect(refused.http).toBe(422);
    // The replay clock replays real dates: sellable from the next trading day after the replayed
    // one (the harness replays 2025-04-14, a Monday; the next trading day is 2025-04-15).
    expect(tradeDate).toBe('2025-04-14');
    expect(refused.body).toMatchObject({
      msg: 'tPlusOneCannotSell',
      data: { fix: { rule: 'tPlusOne', tradeDate, sellableFrom: '2025-04-15' } },
    });
    expect(await balances(h, m.id)).toEqual(before);

    // A day trade (dayTrade/placeOrder marks it) is meant to be sold the same day.
    const user: AuthUser = {
      id: m.id,
      account: '0941000005',
      role: 'member',
      tradeBanned: false,
      withdrawBanned: false,
      frozen: false,
    };
    const dt = await h.trading.placeOrder(
      user,
      { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 10 },
      { dayTrade: true },
    );
    expect(dt).toMatchObject({ status: 'holding', dayTrade: true });
    h.wall.now += 6 * 60_000;
    h.feed.tick();
    expect((await h.call('trade/closePosition', { orderId: dt.id }, m.token)).body.data.status).toBe(
      'closed',
    );

    // The next session: sellable.
    await replayNextDay(h, 9, 0, 30, 10 * 60_000);
    expect(h.feed.quote('2330')!.replayDate).not.toBe(tradeDate);
    const sold = await h.call('trade/closePosition', { orderId: long.body.data.id }, m.token);
    expect(sold.body.data).toMatchObject({ status: 'closed' });
  });

  it('refuses products closed to trading and delisted products', async () => {
    const m = await member('0941000006');
    const before = await h.moneyState();
    const closed = await h.call('trade/placeOrder', order({ symbol: '0050' }), m.token);
    expect(closed).toMatchObject({ http: 422, body: { status: 0, msg: 'tradeClosed' } });
    await h.database.db.update(instruments).set({ delisted: true }).where(eq(instruments.symbol, '2317'));
    try {
      const delisted = await h.call('trade/placeOrder', order({ symbol: '2317' }), m.token);
      expect(delisted).toMatchObject({ http: 422, body: { status: 0, msg: 'productDelisted' } });
    } finally {
      await h.database.db.update(instruments).set({ delisted: false }).where(eq(instruments.symbol, '2317'));
    }
    expect(await h.moneyState()).toEqual(before);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
