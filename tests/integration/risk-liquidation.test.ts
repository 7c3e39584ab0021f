/**
 * The risk monitor against a stub quote source (the market is the outside edge here, so prices
 * can be set exactly; tests/integration/risk-replay.test.ts runs the seeded replay):
 * - exactly at maintenance the account is called, not liquidated; one tick lower it is, at the
 *   liquidation price risk/summary showed;
 * - a gap beyond the member's funds: the forced close still moves the loss beyond the funds to
 *   `debt` (never a negative available balance), the ledger reconciles, the event records the
 *   negative ratio;
 * - with two positions, the largest loss is closed first and the other kept once the ratio is
 *   back above maintenance.
 * Amounts in minor units; 2330 and 2317 are quoted at NT$1,000 (tick NT$5 from 1,000, NT$1 below).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Quote } from '../../contract/market';
import { closeResult, openCosts } from '../../contract/market-rules';
import type { Database } from '../../server/db/client';
import { memoryDatabase } from '../support/db-template';
import { importMarketData } from '../../server/market/import';
import { orders, riskEvents, users } from '../../server/db/schema';
import type { AuthUser } from '../../server/modules/common/context';
import type { MarketFeed } from '../../server/market/feed';
import {
  ensureMemberAccounts,
  ensurePlatformAccounts,
  isClean,
  memberBalances,
  move,
  post,
  reconcile,
} from '../../server/modules/ledger/ledger';
import { loadAccountRisk } from '../../server/modules/risk/account-risk';
import { createRiskMonitor, type RiskMonitor } from '../../server/modules/risk/monitor';
import { createTradingEngine, type TradingEngine } from '../../server/modules/trading/engine';

const T = { marginCallBps: 13_000, maintenanceBps: 11_000 };
/** 10:00 Asia/Taipei on a replayed day: continuous trading. */
const MARKET_NOW = Date.UTC(2026, 6, 31, 2);

let d: Database;
let engine: TradingEngine;
let risk: RiskMonitor;
const quotes = new Map<string, Quote>();
const listeners = new Set<(q: Quote) => void>();
let wall = 0;

const feed = {
  isTradable: (s: string) => quotes.has(s),
  quote: (s: string) => quotes.get(s),
  kind: () => 'stock',
  onQuote: (fn: (q: Quote) => void) => {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
  clock: () => ({ source: 'replay', mode: 'replay', phase: 'open', speed: 1, now: MARKET_NOW }),
} as unknown as MarketFeed;

/** Publishes a quote at one price (bid = ask = last) and waits for the monitor. */
async function quote(symbol: string, priceMinor: number) {
  const q: Quote = {
    symbol,
    name: symbol,
    kind: 'stock',
    lastMinor: priceMinor,
    openMinor: priceMinor,
    highMinor: priceMinor,
    lowMinor: priceMinor,
    prevCloseMinor: 100_000,
    limitUpMinor: 110_000,
    limitDownMinor: 90_000,
    bidMinor: priceMinor,
    askMinor: priceMinor,
    volumeShares: 0,
    turnoverMinor: 0,
    ts: MARKET_NOW,
    replayDate: '2026-07-31',
    phase: 'open',
    traded: true,
  };
  quotes.set(symbol, q);
  wall += 1_000; // past the per-account throttle
  for (const fn of listeners) fn(q);
  await engine.idle();
  await risk.idle();
}

let n = 0;
/** A member with `availableAfterMinor` left after opening one 1-lot 10× long per symbol at NT$1,000. */
async function member(symbols: string[], availableAfterMinor: number) {
  const [u] = await d.db
    .insert(users)
    .values({ account: `09777${String(++n).padStart(5, '0')}`, passwordHash: 'x' })
    .returning();
  await ensureMemberAccounts(d.db, u!.id);
  const user: AuthUser = {
    id: u!.id,
    account: u!.account,
    role: 'member',
    tradeBanned: false,
    withdrawBanned: false,
    frozen: false,
  };
  const cost = openCosts({ priceMinor: 100_000, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
  await d.db.transaction((tx) =>
    post(tx, {
      type: 'deposit',
      postings: move(
        { platform: 'bank_clearing' },
        { userId: user.id, purpose: 'available' },
        cost.requiredMinor * symbols.length + availableAfterMinor,
      ),
    }),
  );
  const ids: number[] = [];
  for (const symbol of symbols) {
    const o = await engine.placeOrder(user, {
      symbol,
      side: 'long',
      orderType: 'market',
      lots: 1,
      leverage: 10,
    });
    expect(o.status).toBe('holding');
    ids.push(o.id);
  }
  expect((await memberBalances(d.db, user.id)).available).toBe(availableAfterMinor);
  await risk.sync();
  return { user, ids, margin: cost.marginMinor };
}

const kindsOf = async (userId: number) =>
  (await d.db.select().from(riskEvents).where(eq(riskEvents.userId, userId)).orderBy(riskEvents.id)).map(
    (e) => e.kind,
  );
const order = async (id: number) => (await d.db.select().from(orders).where(eq(orders.id, id)))[0]!;

beforeAll(async () => {
  d = (await memoryDatabase()).database;
  await importMarketData(d.db, { symbols: ['2330', '2317'] });
  await ensurePlatformAccounts(d.db);
  engine = createTradingEngine({ db: d.db, feed, leverages: [10], timer: false });
  await engine.start();
  risk = createRiskMonitor({ db: d.db, feed, closer: engine, thresholds: T, now: () => wall });
  await risk.start();
  await quote('2330', 100_000);
  await quote('2317', 100_000);
}, 120_000);
afterAll(async () => {
  risk?.stop();
  engine?.stop();
  await d?.close();
});

it('exactly at maintenance: called, not liquidated; one tick lower: liquidated at the price shown', async () => {
  // margin 10,000,000; free 2,000,000 → at NT$990 equity = 2M + 10M − 1M = 11M = exactly 110 %.
  const m = await member(['2330'], 2_000_000);
  const shown = (await loadAccountRisk(d.db, feed, m.user.id, T)).risk.positions[0]!.liquidationPriceMinor;
  expect(shown).toBe(98_900);
  await quote('2330', 99_000);
  const at = await loadAccountRisk(d.db, feed, m.user.id, T);
  expect(at.risk).toMatchObject({ ratioBps: 11_000, level: 'marginCall' });
  expect((await order(m.ids[0]!)).status).toBe('holding');
  expect(await kindsOf(m.user.id)).toEqual(['marginCall']);

  await quote('2330', 98_900);
  expect(await order(m.ids[0]!)).toMatchObject({
    status: 'closed',
    closeReason: 'liquidation',
    closePriceMinor: 98_900,
  });
  expect(await kindsOf(m.user.id)).toEqual(['marginCall', 'liquidation', 'marginCallCleared']);
  const [ev] = await d.db
    .select()
    .from(riskEvents)
    .where(and(eq(riskEvents.userId, m.user.id), eq(riskEvents.kind, 'liquidation')));
  // equity 11M − 100,000 = 10,900,000 → 10,900 bps
  expect(ev).toMatchObject({ orderId: m.ids[0], ratioBps: 10_900, priceMinor: 98_900 });
  expect(JSON.parse(ev!.detail!)).toMatchObject({ thresholdBps: 11_000, markMinor: 98_900, symbol: '2330' });
  expect(isClean(await reconcile(d.db))).toBe(true);
  await quote('2330', 100_000);
});

it('a gap beyond the funds: the forced close moves the excess loss to debt', async () => {
  const m = await member(['2330'], 2_000_000); // 120 %
  await quote('2330', 85_000); // −15 %: a loss of 15,000,000 against equity of 12,000,000
  const closed = await order(m.ids[0]!);
  expect(closed).toMatchObject({ status: 'closed', closeReason: 'liquidation', closePriceMinor: 85_000 });
  const r = closeResult({
    openValueMinor: 100_000 * 1000,
    closePriceMinor: 85_000,
    shares: 1000,
    side: 'long',
    kind: 'stock',
  });
  const owed = -(2_000_000 + m.margin + r.pnlMinor - r.feeMinor - r.taxMinor);
  expect(owed).toBeGreaterThan(0);
  expect(await memberBalances(d.db, m.user.id)).toEqual({ available: 0, frozen: 0, margin: 0, debt: -owed });
  const [ev] = await d.db
    .select()
    .from(riskEvents)
    .where(and(eq(riskEvents.userId, m.user.id), eq(riskEvents.kind, 'liquidation')));
  expect(ev!.ratioBps).toBe(-3_000); // (12M − 15M) ÷ 10M
  expect(await kindsOf(m.user.id)).toEqual(['marginCall', 'liquidation', 'marginCallCleared']);
  expect(isClean(await reconcile(d.db))).toBe(true);
  await quote('2330', 100_000);
});

it('closes the largest loss first and keeps the rest once the ratio is back', async () => {
  // Two 10× longs, margin 20,000,000, free 6,000,000: exactly 130 % (not called).
  const m = await member(['2330', '2317'], 6_000_000);
  await quote('2330', 100_000);
  expect(await kindsOf(m.user.id)).toEqual([]);
  // 2317 −5 %: equity 21M ÷ 20M = 105 % → liquidate 2317 (−5M) first; then 2330 alone is far above.
  await quote('2317', 95_000);
  expect(await order(m.ids[1]!)).toMatchObject({ status: 'closed', closeReason: 'liquidation' });
  expect((await order(m.ids[0]!)).status).toBe('holding');
  expect(await kindsOf(m.user.id)).toEqual(['marginCall', 'liquidation', 'marginCallCleared']);
  const after = await loadAccountRisk(d.db, feed, m.user.id, T);
  expect(after.risk.level).toBe('ok');
  expect(after.risk.ratioBps!).toBeGreaterThanOrEqual(13_500);
  expect(isClean(await reconcile(d.db))).toBe(true);
});
