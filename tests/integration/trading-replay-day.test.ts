/**
 * The whole TWSE day on the REPLAY clock (the default: each replayed day runs 08:30 → 14:30 market
 * time, then the next replayed day's 08:30), driven by the harness's manual wall clock at speed 1:
 * the intermission refuses orders with when each market opens, an after-hours fixed-price order
 * (14:00–14:30, at the day's close) fills once at 14:30, and a pre-open order of the next
 * replayed day fills at its opening print.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderPreview } from '../../contract/market-rules';
import { nextOpen, sessionTimes, taipeiIsoDate } from '../../contract/trading-session';
import { isTradingDay } from '../../server/market/calendar';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import type { MatchEvent } from '../../server/modules/trading/engine';
import { startHarness, type Harness } from './harness';
import { advanceMarket, balances, marketNow, orderBody, orderDetail, replayTo } from './trading-support';

let h: Harness;
let token: string;
let userId: number;
beforeAll(async () => {
  h = await startHarness(); // replay clock, speed 1, 10:00 of replayed day 0
  token = await h.fundedMember('0931200001', 1_000_000_000);
  userId = await h.userId('0931200001');
});
afterAll(async () => h?.close());

const order = orderBody;
const detail = (id: number) => orderDetail(h, token, id);

describe('a replayed day from 08:30 to 14:30', () => {
  let day0 = '';
  let afterHoursId = 0;
  let closeMinor = 0;

  it('the intermission (13:30–14:00) refuses orders with the time each market opens', async () => {
    day0 = h.feed.clock().replayDate!;
    expect(h.feed.clock()).toMatchObject({ mode: 'replay', tradingPhase: 'continuous', replayDate: day0 });
    expect(taipeiIsoDate(marketNow(h))).toBe(day0);

    await replayTo(h, 13, 45);
    expect(h.feed.clock()).toMatchObject({ tradingPhase: 'intermission', phase: 'closed', replayDate: day0 });
    const q = h.feed.quote('2330')!;
    expect(q.ts).toBe(sessionTimes(day0).regularCloseMs); // the day's closing print
    closeMinor = q.lastMinor;

    const regular = await h.call('trade/placeOrder', order({ priceMinor: closeMinor }), token);
    expect(regular.http).toBe(422);
    expect(regular.body).toMatchObject({
      msg: 'nonTradingTime',
      data: {
        fix: {
          rule: 'outsideSession',
          phase: 'intermission',
          market: 'regular',
          opensAtMs: nextOpen(marketNow(h), isTradingDay, 'regular'),
        },
      },
    });
    // The next regular entry is a later trading day's 08:30.
    expect(regular.body.data.fix.opensAtMs).toBeGreaterThan(sessionTimes(day0).afterHoursMatchMs);
    const after = await h.call(
      'trade/placeOrder',
      order({ session: 'afterHours', priceMinor: closeMinor }),
      token,
    );
    expect(after.body).toMatchObject({
      msg: 'nonTradingTime',
      data: {
        fix: { phase: 'intermission', market: 'afterHours', opensAtMs: sessionTimes(day0).afterHoursEntryMs },
      },
    });
    expect((await balances(h, userId)).frozen).toBe(0);
  });

  it('after-hours fixed-price entry 14:00–14:30 fills once at 14:30 at the close', async () => {
    await replayTo(h, 14, 5);
    expect(h.feed.clock().tradingPhase).toBe('afterHoursEntry');
    const regular = await h.call('trade/placeOrder', order({ priceMinor: closeMinor }), token);
    expect(regular.body).toMatchObject({
      msg: 'nonTradingTime',
      data: { fix: { phase: 'afterHoursEntry' } },
    });
    const wrong = await h.call(
      'trade/placeOrder',
      order({ session: 'afterHours', priceMinor: closeMinor + 500 }),
      token,
    );
    expect(wrong.body).toMatchObject({
      msg: 'afterHoursFixedPrice',
      data: { fix: { rule: 'afterHoursPrice', priceMinor: closeMinor } },
    });
    const placed = await h.call(
      'trade/placeOrder',
      order({ session: 'afterHours', priceMinor: closeMinor }),
      token,
    );
    expect(placed.body.data).toMatchObject({
      status: 'pending',
      entrySession: 'afterHours',
      tradeDate: day0,
      frozenMinor: expect.any(Number),
    });
    afterHoursId = placed.body.data.id;

    await replayTo(h, 14, 29, 30);
    await h.trading.sweep();
    expect((await detail(afterHoursId)).status).toBe('pending'); // one match, at 14:30

    const matches: MatchEvent[] = [];
    const off = h.trading.onMatch((e) => {
      matches.push(e);
    });
    await advanceMarket(h, 60_000); // 14:30:30 = 08:30:30 of the next replayed day
    await h.trading.sweep();
    off();
    const filled = await detail(afterHoursId);
    const p = orderPreview({ priceMinor: closeMinor, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
    expect(filled).toMatchObject({
      status: 'holding',
      openPriceMinor: closeMinor,
      marginMinor: p.marginMinor,
      frozenMinor: 0,
      tradeDate: day0,
    });
    expect(matches).toContainEqual({
      kind: 'afterHours',
      symbol: '2330',
      tradeDate: day0,
      priceMinor: closeMinor,
    });
  });

  it('the next replayed day starts with its pre-open; pre-open orders fill at the opening print', async () => {
    const clock = h.feed.clock();
    expect(clock.tradingPhase).toBe('preOpen');
    const day1 = clock.replayDate!;
    expect(day1 > day0).toBe(true);
    expect(taipeiIsoDate(marketNow(h))).toBe(day1);

    const q = h.feed.quote('2330')!;
    expect(q.replayDate).toBe(day1);
    const market = await h.call('trade/placeOrder', order({ orderType: 'market' }), token);
    expect(market.body).toMatchObject({
      msg: 'orderTypeNotInSession',
      data: { fix: { phase: 'preOpen', continuousAtMs: sessionTimes(day1).continuousMs } },
    });
    // A long at the limit-up crosses any opening price; a short at the limit-up only if the day
    // opens there (else it rests for continuous trading).
    const long = await h.call('trade/placeOrder', order({ priceMinor: q.limitUpMinor }), token);
    const short = await h.call(
      'trade/placeOrder',
      order({ side: 'short', priceMinor: q.limitUpMinor }),
      token,
    );
    for (const r of [long, short]) expect(r.body.data).toMatchObject({ status: 'pending', tradeDate: day1 });

    await replayTo(h, 8, 59, 50);
    expect((await detail(long.body.data.id)).status).toBe('pending'); // nothing matches before 09:00

    const matches: MatchEvent[] = [];
    const off = h.trading.onMatch((e) => {
      matches.push(e);
    });
    await replayTo(h, 9, 0, 30, 10_000);
    off();
    const open = h.feed.quote('2330')!.openMinor;
    expect(h.feed.clock().tradingPhase).toBe('continuous');
    expect(matches).toContainEqual({ kind: 'opening', symbol: '2330', tradeDate: day1, priceMinor: open });
    const p = orderPreview({ priceMinor: open, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
    expect(await detail(long.body.data.id)).toMatchObject({
      status: 'holding',
      openPriceMinor: open,
      marginMinor: p.marginMinor,
      tradeDate: day1,
    });
    const sh = await detail(short.body.data.id);
    if (open < q.limitUpMinor) expect(sh).toMatchObject({ status: 'pending' });
    else expect(sh).toMatchObject({ status: 'holding', openPriceMinor: open });
    expect(isClean(await reconcile(h.database.db))).toBe(true);
  });
});
