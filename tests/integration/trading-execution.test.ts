/**
 * Execution on the seeded replay feed (replay clock: one 09:00–13:30 session after another):
 * limit orders rest and fill at their limit when the quote crosses; IOC and FOK fill at once or
 * are cancelled without moving money; in the closing call (13:25–13:30) only limit ROD orders
 * are taken and they match once at the 13:30 closing print, a close asked for then waits as
 * `closing` and closes at that price; ROD orders still resting after it expire and their frozen
 * funds come back (`orderUnfreeze`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCosts, orderPreview, stepTicks } from '../../contract/market-rules';
import { requiredEquityMinor } from '../../contract/risk';
import { sessionTimes, taipeiIsoDate } from '../../contract/trading-session';
import type { Quote } from '../../contract/market';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import type { MatchEvent } from '../../server/modules/trading/engine';
import { startHarness, type Harness } from './harness';
import {
  balances,
  marketNow,
  orderBody,
  net,
  orderPostings,
  recordQuotes,
  replayNextDay,
  replayTo,
} from './trading-support';

let h: Harness;
const FUNDS = 1_000_000_000; // NT$10,000,000
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const order = orderBody;

async function member(account: string) {
  const token = await h.fundedMember(account, FUNDS);
  return { token, id: await h.userId(account) };
}

describe('continuous trading', () => {
  it('rests a limit order with the preview frozen, then fills it at its limit when the quote crosses', async () => {
    const m = await member('0921000001');
    const q = h.feed.quote('2330')!;
    const limit = stepTicks(q.bidMinor, -2); // two ticks under the bid: waits
    const preview = orderPreview({ priceMinor: limit, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
    const placed = await h.call('trade/placeOrder', order({ priceMinor: limit }), m.token);
    expect(placed.body).toMatchObject({ status: 1, data: { status: 'pending', timeInForce: 'ROD' } });
    expect(placed.body.data.frozenMinor).toBe(preview.totalRequiredMinor);
    expect(await balances(h, m.id)).toMatchObject({
      available: FUNDS - preview.totalRequiredMinor,
      frozen: preview.totalRequiredMinor,
    });
    const id = placed.body.data.id;
    let detail = placed.body.data;
    for (let i = 0; i < 240 && detail.status === 'pending'; i++) {
      h.wall.now += 30_000;
      h.feed.tick();
      await h.trading.idle();
      detail = (await h.call('trade/orderDetail', { orderId: id }, m.token)).body.data;
    }
    expect(detail).toMatchObject({
      symbol: '2330',
      name: '台積電',
      nameEn: 'TSMC',
      status: 'holding',
      openPriceMinor: limit,
      marginMinor: preview.marginMinor,
      openFeeMinor: preview.commissionMinor + preview.clearingFeeMinor,
      openTaxMinor: preview.openTaxMinor,
      frozenMinor: 0,
    });
    expect(await balances(h, m.id)).toMatchObject({
      available: FUNDS - preview.totalRequiredMinor,
      frozen: 0,
      margin: preview.marginMinor,
    });
    const postings = await orderPostings(h.database.db, id);
    expect(net(postings, 'orderFreeze', 'frozen')).toBe(preview.totalRequiredMinor);
    expect(net(postings, 'stockPurchase', 'frozen')).toBe(-preview.marginMinor);
    expect(postings.some((p) => p.type === 'orderUnfreeze')).toBe(false);
  });

  it('IOC and FOK fill at once when the book allows, else are cancelled and move no money', async () => {
    const m = await member('0921000002');
    const q = h.feed.quote('2330')!;
    for (const tif of ['IOC', 'FOK'] as const) {
      const now = h.feed.quote('2330')!;
      const filled = await h.call(
        'trade/placeOrder',
        order({ priceMinor: now.askMinor, timeInForce: tif }),
        m.token,
      );
      expect(filled.body).toMatchObject({ status: 1, data: { status: 'holding', timeInForce: tif } });
      expect(filled.body.data.openPriceMinor).toBe(now.askMinor);

      const before = await balances(h, m.id);
      const killed = await h.call(
        'trade/placeOrder',
        order({ side: 'short', priceMinor: q.limitUpMinor, timeInForce: tif }),
        m.token,
      );
      expect(killed.body, JSON.stringify(killed.body)).toMatchObject({
        status: 1,
        data: { status: 'cancelled', closeReason: tif.toLowerCase(), frozenMinor: 0, openPriceMinor: null },
      });
      expect(await orderPostings(h.database.db, killed.body.data.id)).toEqual([]);
      expect(await balances(h, m.id)).toEqual(before);

      const market = await h.call(
        'trade/placeOrder',
        order({ orderType: 'market', timeInForce: tif }),
        m.token,
      );
      expect(market.body.data.status).toBe('holding');
    }
    const terminated = await h.call('trade/orders', { tab: 'terminated' }, m.token);
    expect(terminated.body.data.items.map((o: { closeReason: string }) => o.closeReason).sort()).toEqual([
      'fok',
      'ioc',
    ]);
  });

  it('refuses prices off the tick table or outside the limits with the fix', async () => {
    const m = await member('0921000003');
    const q = h.feed.quote('2330')!;
    const off = await h.call('trade/placeOrder', order({ priceMinor: q.lastMinor + 1 }), m.token);
    expect(off.http).toBe(400);
    expect(off.body).toMatchObject({
      msg: 'priceOffTick',
      data: { fix: { rule: 'offTick', nearestMinor: [q.lastMinor, stepTicks(q.lastMinor, 1)] } },
    });
    const up = await h.call('trade/placeOrder', order({ priceMinor: stepTicks(q.limitUpMinor, 1) }), m.token);
    expect(up.body).toMatchObject({
      msg: 'exceedsPriceLimit',
      data: { fix: { rule: 'aboveLimitUp', limitUpMinor: q.limitUpMinor } },
    });
    const down = await h.call(
      'trade/placeOrder',
      order({ priceMinor: stepTicks(q.limitDownMinor, -1) }),
      m.token,
    );
    expect(down.body).toMatchObject({
      msg: 'exceedsPriceLimit',
      data: { fix: { rule: 'belowLimitDown', limitDownMinor: q.limitDownMinor } },
    });
    // The fix is accepted as it is.
    const fixed = await h.call(
      'trade/placeOrder',
      order({ priceMinor: up.body.data.fix.limitUpMinor }),
      m.token,
    );
    expect(fixed.body.status).toBe(1);
    // After-hours orders wait for the replayed day's 14:00 window: refused, with when it opens.
    const ah = await h.call(
      'trade/placeOrder',
      order({ session: 'afterHours', priceMinor: q.lastMinor }),
      m.token,
    );
    expect(ah.http).toBe(422);
    expect(ah.body).toMatchObject({
      msg: 'nonTradingTime',
      data: {
        fix: {
          rule: 'outsideSession',
          phase: 'continuous',
          market: 'afterHours',
          opensAtMs: sessionTimes(taipeiIsoDate(marketNow(h))).afterHoursEntryMs,
        },
      },
    });
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});

describe('closing call and the end of the trading day', () => {
  it('takes limit ROD only, matches once at the 13:30 print, closes queued closes there, expires the rest', async () => {
    const m = await member('0921000004');
    const held = await h.call('trade/placeOrder', order({ orderType: 'market', symbol: '2317' }), m.token);
    expect(held.body.data.status).toBe('holding');
    const date = h.feed.quote('2330')!.replayDate;
    const date2317 = h.feed.quote('2317')!.replayDate;

    await replayTo(h, 13, 26);
    const q = h.feed.quote('2330')!;
    expect(q.replayDate).toBe(date);
    const t = new Date(marketNow(h)).toISOString();
    expect(t.slice(11, 16)).toBe('05:26'); // 13:26 Asia/Taipei

    const market = await h.call('trade/placeOrder', order({ orderType: 'market' }), m.token);
    expect(market.http).toBe(422);
    expect(market.body).toMatchObject({
      msg: 'orderTypeNotInSession',
      data: {
        fix: {
          rule: 'continuousOnly',
          phase: 'closingCall',
          orderType: 'limit',
          timeInForce: 'ROD',
          priceMinor: q.lastMinor,
        },
      },
    });
    const ioc = await h.call(
      'trade/placeOrder',
      order({ priceMinor: q.lastMinor, timeInForce: 'IOC' }),
      m.token,
    );
    expect(ioc.body.msg).toBe('orderTypeNotInSession');

    // A long at the limit-up crosses any closing price but waits for the match; one at the
    // limit-down does not cross (unless the day closes there) and expires.
    const high = await h.call('trade/placeOrder', order({ priceMinor: q.limitUpMinor }), m.token);
    const low = await h.call('trade/placeOrder', order({ priceMinor: q.limitDownMinor }), m.token);
    expect(high.body.data.status).toBe('pending');
    expect(low.body.data.status).toBe('pending');
    const closing = await h.call('trade/closePosition', { orderId: held.body.data.id }, m.token);
    expect(closing.body).toMatchObject({ status: 1, data: { status: 'closing' } });
    const holdings = await h.call('trade/orders', { tab: 'holdings' }, m.token);
    expect(holdings.body.data.items.map((o: { id: number }) => o.id)).toContain(held.body.data.id);
    // Quotes of the call do not trigger anything.
    await replayTo(h, 13, 29, 30, 10_000);
    expect(
      (await h.call('trade/orderDetail', { orderId: high.body.data.id }, m.token)).body.data.status,
    ).toBe('pending');

    const matches: MatchEvent[] = [];
    const off = h.trading.onMatch((e) => {
      matches.push(e);
    });
    const rec = recordQuotes(h, '2330');
    const rec2317 = recordQuotes(h, '2317');
    await replayTo(h, 13, 30, 30, 10_000); // the 13:30 closing prints: the call's single match
    off();
    rec.stop();
    rec2317.stop();
    const closePrint = (qs: Quote[], d: string | null) =>
      qs.find((x) => x.replayDate === d && x.ts === sessionTimes(d!).regularCloseMs)!;
    const close2330 = closePrint(rec.quotes, date);
    const close2317 = closePrint(rec2317.quotes, date2317);
    expect(close2330).toBeDefined();
    expect(matches).toContainEqual({
      kind: 'closing',
      symbol: '2330',
      tradeDate: date,
      priceMinor: close2330.lastMinor,
    });

    const hi = (await h.call('trade/orderDetail', { orderId: high.body.data.id }, m.token)).body.data;
    const preview = orderPreview({
      priceMinor: close2330.lastMinor,
      lots: 1,
      leverage: 10,
      side: 'long',
      kind: 'stock',
    });
    expect(hi).toMatchObject({
      status: 'holding',
      openPriceMinor: close2330.lastMinor,
      marginMinor: preview.marginMinor,
    });
    // Frozen at the limit-up, filled at the close: the difference came back.
    const hiPostings = await orderPostings(h.database.db, hi.id);
    expect(net(hiPostings, 'orderFreeze', 'frozen') + net(hiPostings, 'orderUnfreeze', 'frozen')).toBe(
      preview.totalRequiredMinor,
    );

    const lo = (await h.call('trade/orderDetail', { orderId: low.body.data.id }, m.token)).body.data;
    expect(close2330.lastMinor).toBeGreaterThan(q.limitDownMinor);
    expect(lo).toMatchObject({ status: 'cancelled', closeReason: 'expired', frozenMinor: 0 });
    const loPostings = await orderPostings(h.database.db, lo.id);
    expect(net(loPostings, 'orderUnfreeze', 'available')).toBe(low.body.data.frozenMinor);

    const closed = (await h.call('trade/orderDetail', { orderId: held.body.data.id }, m.token)).body.data;
    expect(closed).toMatchObject({
      status: 'closed',
      closeReason: 'user',
      closePriceMinor: close2317.lastMinor,
    });

    const b = await balances(h, m.id);
    expect(b.frozen).toBe(0);
    expect(b.margin).toBe(hi.marginMinor);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});

describe('opening line (OPENING_MARGIN_BPS, default the 130 % margin-call threshold)', () => {
  it('an order must leave the account at 130 % after it: refused one minor unit short, accepted at it', async () => {
    await replayNextDay(h, 9, 30); // continuous trading of the next replayed day
    const q = h.feed.quote('2330')!;
    const c = openCosts({ priceMinor: q.askMinor, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
    expect(h.config.openingMarginBps).toBe(13_000);
    // Alone in the account: equity after = deposit − fee − tax must reach ⌈1.3 × margin⌉.
    const need = c.feeMinor + c.taxMinor + requiredEquityMinor(c.marginMinor, 13_000);

    // One minor unit short: refused with the fix (the missing equity), nothing written.
    const short = await h.fundedMember('0977100001', need - 1);
    const market = { symbol: '2330', side: 'long', orderType: 'market', lots: 1, leverage: 10 };
    const refused = await h.call('trade/placeOrder', market, short);
    expect(refused.http).toBe(422);
    expect(refused.body.msg).toBe('belowOpeningLine');
    expect(refused.body.data.fix).toEqual({
      rule: 'openingLine',
      ratioAfterBps: 12_999,
      lineBps: 13_000,
      shortfallMinor: 1,
    });
    const shortId = await h.userId('0977100001');
    expect((await balances(h, shortId)).available).toBe(need - 1);
    expect((await h.call('trade/orders', { tab: 'holdings' }, short)).body.data.total).toBe(0);

    // Exactly enough: filled; at the entry price the account's ratio is the line (130 %); marked at
    // the bid it is lower by the spread, far from a liquidation.
    const exact = await h.fundedMember('0977100002', need);
    const ok = await h.call('trade/placeOrder', market, exact);
    expect(ok.body.status, JSON.stringify(ok.body)).toBe(1);
    expect((await balances(h, await h.userId('0977100002'))).available).toBe(need - c.requiredMinor);
    const risk = (await h.call('risk/summary', {}, exact)).body.data;
    expect(risk.level).not.toBe('liquidation');
    expect(risk.ratioBps).toBeGreaterThan(h.config.maintenanceBps);

    // A resting limit order is judged as if filled at its limit.
    const limit = q.limitDownMinor;
    const cl = openCosts({ priceMinor: limit, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
    const lim = await h.fundedMember(
      '0977100003',
      cl.feeMinor + cl.taxMinor + requiredEquityMinor(cl.marginMinor, 13_000) - 1,
    );
    const r = await h.call('trade/placeOrder', order({ priceMinor: limit }), lim);
    expect(r.body.msg).toBe('belowOpeningLine');

    // A cash purchase (1× long) has no line of its own: it needs its price and fee, nothing more.
    const cash = openCosts({ priceMinor: q.askMinor, lots: 1, leverage: 1, side: 'long', kind: 'stock' });
    const buyer = await h.fundedMember('0977100004', cash.requiredMinor);
    const bought = await h.call('trade/placeOrder', { ...market, leverage: 1 }, buyer);
    expect(bought.body.status, JSON.stringify(bought.body)).toBe(1);
    expect((await balances(h, await h.userId('0977100004'))).available).toBe(0);
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
