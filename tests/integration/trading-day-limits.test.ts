/**
 * The engine checks order prices against the day's own limits from the replay feed
 * (quote.limitUpMinor/limitDownMinor, server/market/reference.ts), not ±10 % of the reference:
 * 00631L (a 2× leveraged ETF on a Taiwan index, band ±20 %: TW-MARKET-RULES "Daily price limit,
 * ETFs and ETNs") on 2025-04-07 (replay clock session 0) closed at 160.25, 20 % under its 200.30
 * reference — a real price the ±10 % band (180.30 … 220.30) would refuse. 00646 (元大S&P500, a
 * foreign-index ETF) has no daily limit that day. The sale's tax is the row in force on the
 * replayed date for the instrument's tax kind: 00679B, a bond ETF, sells untaxed in 2025
 * ("Securities transaction tax, bond ETFs"), 0050 pays 0.1 %. PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorToTick, limitDownMinor, limitUpMinor, stepTicks } from '../../contract/market-rules';
import { startHarness, TEST_SYMBOLS, type Harness } from './harness';
import { orderBody } from './trading-support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ importSymbols: [...TEST_SYMBOLS, '00631L', '00646', '00679B'] });
  // back to 10:00 of session 0 (2025-04-07) at speed 1; builds are budgeted per tick
  h.wall.now = Date.UTC(2025, 11, 31, 16, 0, 0) + 60 * 60_000;
  for (let i = 0; i < 20 && h.feed.quote('00631L')?.replayDate !== '2025-04-07'; i++) h.feed.tick();
  for (let i = 0; i < 20; i++) h.feed.tick();
});
afterAll(async () => h?.close());

describe('price limits of the replayed day', () => {
  it('a leveraged ETF takes orders across its ±20 % band and refuses beyond it with the band as the fix', async () => {
    const q = h.feed.quote('00631L')!;
    expect(q).toMatchObject({ replayDate: '2025-04-07', prevCloseMinor: 20_030, traded: true });
    // the day's band is wider than ±10 % of the reference
    expect(q.limitDownMinor).toBe(16_025);
    expect(q.limitDownMinor).toBeLessThan(limitDownMinor(q.prevCloseMinor, 'etf'));
    expect(q.limitUpMinor).toBeGreaterThan(limitUpMinor(q.prevCloseMinor, 'etf'));

    const token = await h.fundedMember('0921500001', 1_000_000_000);
    const body = (priceMinor: number) => orderBody({ symbol: '00631L', priceMinor, lots: 1 });
    // the real price of the day (its limit down), below the ±10 % band: accepted
    const atReal = await h.call('trade/placeOrder', body(16_025), token);
    expect(atReal.body, JSON.stringify(atReal.body)).toMatchObject({ status: 1 });
    // one tick beyond the day's band: refused, the day's limit as the fix
    const below = await h.call('trade/placeOrder', body(stepTicks(q.limitDownMinor, -1, 'etf')), token);
    expect(below.body).toMatchObject({
      msg: 'exceedsPriceLimit',
      data: { fix: { rule: 'belowLimitDown', limitDownMinor: q.limitDownMinor } },
    });
    const above = await h.call('trade/placeOrder', body(stepTicks(q.limitUpMinor, 1, 'etf')), token);
    expect(above.body).toMatchObject({
      msg: 'exceedsPriceLimit',
      data: { fix: { rule: 'aboveLimitUp', limitUpMinor: q.limitUpMinor } },
    });
  });

  it('a foreign-index ETF has no daily limit: a limit order 30 % under its reference rests', async () => {
    const q = h.feed.quote('00646')!;
    expect(q).toMatchObject({ replayDate: '2025-04-07', traded: true, priceLimits: false });
    expect([q.limitUpMinor, q.limitDownMinor]).toEqual([0, 0]);
    const token = await h.fundedMember('0921500002', 1_000_000_000);
    const far = floorToTick(Math.floor((q.prevCloseMinor * 70) / 100), 'etf');
    const r = await h.call(
      'trade/placeOrder',
      orderBody({ symbol: '00646', priceMinor: far, lots: 1 }),
      token,
    );
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ status: 1, data: { status: 'pending' } });
  });

  it('a bond ETF sells untaxed in 2025 (Art. 2-1 §2); an equity ETF pays 0.1 % of the sale', async () => {
    expect(h.feed.quote('00679B')).toMatchObject({ replayDate: '2025-04-07', taxKind: 'bondEtf' });
    expect(h.feed.quote('0050')).toMatchObject({ taxKind: 'etf' });
    const token = await h.fundedMember('0921500003', 1_000_000_000);
    const roundTrip = async (symbol: string) => {
      const open = await h.call(
        'trade/placeOrder',
        orderBody({ symbol, orderType: 'market', timeInForce: 'IOC', lots: 1, leverage: 1 }),
        token,
      );
      expect(open.body, JSON.stringify(open.body)).toMatchObject({ status: 1, data: { status: 'holding' } });
      const closed = await h.call('trade/closePosition', { orderId: open.body.data.id }, token);
      expect(closed.body, JSON.stringify(closed.body)).toMatchObject({
        status: 1,
        data: { status: 'closed' },
      });
      return closed.body.data as { closePriceMinor: number; shares: number; closeTaxMinor: number };
    };
    const bond = await roundTrip('00679B');
    expect(bond.closeTaxMinor).toBe(0);
    const etf = await roundTrip('0050');
    // 0.1 % of the sale's value, truncated to whole NT$ (contract/money.ts ppmFloorToMajor).
    const value = etf.closePriceMinor * etf.shares;
    expect(etf.closeTaxMinor).toBe(Math.floor(value / 1_000 / 100) * 100);
    expect(etf.closeTaxMinor).toBeGreaterThan(0);
  });
});
