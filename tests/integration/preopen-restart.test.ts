/**
 * A restart of the trading engine during the pre-open keeps a close queued for the opening
 * match: on the exchange clock, a holding asked to close in Monday's pre-open (queued as
 * `closing`), the engine stopped and a new one started over the same database and feed before
 * 09:00, closes at Monday's opening price, not at the previous trading day's closing print the
 * feed still shows (engine.ts loadLive), and the ledger stays clean.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isClean, reconcile } from '../../server/modules/ledger/ledger';
import { createTradingEngine, type TradingEngine } from '../../server/modules/trading/engine';
import { startHarness, type Harness } from './harness';
import { exchangeAt, orderBody, orderDetail } from './trading-support';

let h: Harness;
let token: string;
let engine: TradingEngine | null = null;
beforeAll(async () => {
  h = await startHarness({ marketClock: 'exchange' });
  token = await h.fundedMember('0931000002', 1_000_000_000);
});
afterAll(async () => {
  engine?.stop();
  await h?.close();
});

const FRI = '2026-01-02';
const MON = '2026-01-05';

it('a close queued in pre-open survives an engine restart and closes at the opening price', async () => {
  await exchangeAt(h, `${FRI}T10:00`);
  const held = await h.call('trade/placeOrder', orderBody({ symbol: '2317', orderType: 'market' }), token);
  expect(held.body.data).toMatchObject({ status: 'holding', tradeDate: FRI });

  await exchangeAt(h, `${MON}T08:45`);
  const friday = h.feed.quote('2317')!; // Friday's closing print, still shown in Monday's pre-open
  const closing = await h.call('trade/closePosition', { orderId: held.body.data.id }, token);
  expect(closing.body.data.status).toBe('closing');

  // The engine restarts in the pre-open: a new one loads the live orders.
  h.trading.stop();
  engine = createTradingEngine({
    db: h.database.db,
    feed: h.feed,
    leverages: h.config.leverages,
    rules: h.config,
    openingMarginBps: h.config.openingMarginBps,
    now: () => h.wall.now,
    timer: false,
  });
  await engine.start();
  await engine.idle();
  expect((await orderDetail(h, token, held.body.data.id)).status).toBe('closing');

  h.wall.now = Date.parse(`${MON}T09:00:01+08:00`);
  h.feed.tick();
  await engine.idle();
  const open = h.feed.quote('2317')!;
  expect(open.replayDate).not.toBe(friday.replayDate);
  expect(open.openMinor).not.toBe(friday.lastMinor); // the two prices tell the matches apart
  expect(await orderDetail(h, token, held.body.data.id)).toMatchObject({
    status: 'closed',
    closeReason: 'user',
    closePriceMinor: open.openMinor,
  });
  expect(isClean(await reconcile(h.database.db))).toBe(true);
});
