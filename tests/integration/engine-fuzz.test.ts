/**
 * Model-based fuzz of the order lifecycle (seeded, tldraw-style: a fresh seed each run, printed;
 * FUZZ_SEED=n replays one; pinned regression seeds below), on PGlite and PostgreSQL. The trading
 * engine runs on a real database against a stub feed on the exchange clock whose time and quotes
 * the test sets, through whole trading days: pre-open (limit ROD orders queue for the opening
 * match, closes queue as `closing`), the 09:00 opening print (queued orders crossing the opening
 * price fill at it, the others rest; queued closes close at it), continuous trading (market,
 * crossing and resting limit orders, ROD / IOC / FOK; quotes that trigger resting orders at their
 * limit; closes at the bid / ask), the closing call (entries rest, quotes match nothing), the 13:30
 * closing print (resting orders it crosses fill at it, queued closes close at it, the rest expire),
 * and the closed market (entry and closes refused). Cancels, forced closes (at market, or at a
 * given price outside continuous trading) and engine restarts (a new engine loading the live
 * orders) happen at random points; a restart also follows every close queued in pre-open.
 *
 * A model kept here (its own arithmetic, not the engine's) says every order's status, open price,
 * close price and close reason, and which refusals come when. After every step: the rows equal
 * the model; the engine's resting book equals the database's pending and closing orders
 * (TradingEngine.assertInvariants); the trigger index holds what the model says rests; the ledger
 * reconciles with no negative balance; each member's frozen balance is the sum of their pending
 * orders' frozen funds and their margin balance the sum of their open positions' margin.
 * Prices and money in minor units (1 NT$ = 100), shares.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClockState, Quote } from '../../contract/market';
import { floorToTick, priceLimitsMinor, tickSizeMinor } from '../../contract/market-rules';
import type { Db } from '../../server/db/client';
import { importMarketData } from '../../server/market/import';
import { orders, users } from '../../server/db/schema';
import type { MarketFeed } from '../../server/market/feed';
import type { AuthUser } from '../../server/modules/common/context';
import { AppError } from '../../server/modules/common/errors';
import {
  ensureMemberAccounts,
  ensurePlatformAccounts,
  isClean,
  memberBalances,
  move,
  post,
  reconcile,
} from '../../server/modules/ledger/ledger';
import { createTradingEngine, type OrderRow, type TradingEngine } from '../../server/modules/trading/engine';
import { freshDatabase } from './harness';
import { seeded } from './support/random';

const SYMBOLS = ['2330', '2317'];
const STEPS = 60;
/** The ledger reconciles (a scan of every posting) every this many steps and at the end. */
const RECONCILE_EVERY = 6;
/** 08:40 Asia/Taipei (pre-open) of the first simulated day, a Monday. */
const FIRST_PRE_OPEN = Date.parse('2026-03-02T08:40:00+08:00');
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Prices stay in 160–440 NT$ (one tick size, 0.50 NT$, within every day's ±10 % band). */
const PRICE_FLOOR = 16_000;
const PRICE_CEIL = 44_000;

type Slot = 'preOpen' | 'continuous' | 'call' | 'closed';

/** What the model expects of one order. */
interface ModelOrder {
  id: number;
  userId: number;
  symbol: string;
  side: 'long' | 'short';
  limitMinor: number | null;
  status: 'pending' | 'holding' | 'closing' | 'closed' | 'cancelled';
  /** A pending order: waiting for the opening match, or resting in the trigger index. */
  where: 'opening' | 'index' | null;
  openMinor: number | null;
  closeMinor: number | null;
  reason: string | null;
}

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  const fresh = await freshDatabase();
  db = fresh.database.db;
  drop = fresh.drop;
  await importMarketData(db, { symbols: SYMBOLS });
  await ensurePlatformAccounts(db);
}, 600_000);
afterAll(async () => {
  await drop?.();
});

/** A stub feed on the exchange clock at `clock.now`; `publish` sets a quote and tells listeners. */
function stubFeed(clock: { now: number }) {
  const quotes = new Map<string, Quote>();
  const listeners = new Set<(q: Quote) => void>();
  const feed = {
    isTradable: (s: string) => quotes.has(s),
    quote: (s: string) => quotes.get(s),
    kind: () => 'stock',
    onQuote: (fn: (q: Quote) => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    clock: (): ClockState =>
      ({
        source: 'replay',
        mode: 'exchange',
        phase: 'open',
        tradingPhase: 'continuous',
        speed: 1,
        now: clock.now,
        replayDate: null,
      }) as unknown as ClockState,
  } as unknown as MarketFeed;
  /** Publishes a quote of `symbol` now: last, open, the day's reference, one tick of spread. */
  const publish = (symbol: string, p: { lastMinor: number; openMinor: number; refMinor: number }) => {
    const tick = tickSizeMinor(p.lastMinor);
    const band = priceLimitsMinor(p.refMinor, 'stock', 1);
    const q = {
      symbol,
      name: symbol,
      kind: 'stock',
      lastMinor: p.lastMinor,
      openMinor: p.openMinor,
      highMinor: p.lastMinor,
      lowMinor: p.lastMinor,
      prevCloseMinor: p.refMinor,
      limitUpMinor: band.upMinor,
      limitDownMinor: band.downMinor,
      bidMinor: p.lastMinor - tick,
      askMinor: p.lastMinor + tick,
      volumeShares: 1_000,
      turnoverMinor: p.lastMinor * 1_000,
      ts: clock.now,
      replayDate: null,
      phase: 'open',
      traded: true,
    } as Quote;
    quotes.set(symbol, q);
    for (const fn of listeners) fn(q);
    return q;
  };
  return { feed, publish, quote: (s: string) => quotes.get(s)! };
}

/** A member with a deposit far above anything the fuzz can spend (no balance refusals). */
async function member(account: string): Promise<AuthUser> {
  const [u] = await db.insert(users).values({ account, passwordHash: 'x' }).returning();
  await ensureMemberAccounts(db, u!.id);
  await db.transaction((tx) =>
    post(tx, {
      type: 'deposit',
      postings: move({ platform: 'bank_clearing' }, { userId: u!.id, purpose: 'available' }, 10_000_000_000),
    }),
  );
  return { id: u!.id, account, role: 'member', tradeBanned: false, withdrawBanned: false, frozen: false };
}

/** The key of an AppError `fn` throws, or null when it resolves. */
async function refusal(fn: () => Promise<unknown>): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (err) {
    if (err instanceof AppError) return err.key;
    throw err;
  }
}

const clampPrice = (p: number, lo: number, hi: number) =>
  floorToTick(Math.min(hi, Math.max(lo, Math.round(p))));

/** Runs one seed: two members, STEPS random steps through whole trading days, checked after each. */
async function runSeed(seed: number): Promise<Record<string, number>> {
  const rnd = seeded(seed);
  const clock = { now: FIRST_PRE_OPEN };
  const { feed, publish, quote } = stubFeed(clock);
  const stats: Record<string, number> = {};
  const count = (k: string) => (stats[k] = (stats[k] ?? 0) + 1);
  const model = new Map<number, ModelOrder>();
  const members = [await member(`fz${seed}a`), await member(`fz${seed}b`)];
  /** Per symbol: the day's reference (the previous close) and the last price. */
  const px = new Map(SYMBOLS.map((s) => [s, { ref: 20_000 + rnd.int(200) * 100, last: 0, open: 0 }]));
  const newEngine = () =>
    createTradingEngine({
      db,
      feed,
      leverages: [1, 2, 5, 10],
      timer: false,
      now: () => clock.now,
      isTradingDay: () => true,
    });
  // The previous day's closing print: what the feed shows in the first pre-open.
  clock.now = FIRST_PRE_OPEN - 19 * HOUR - 10 * MINUTE; // 13:30 the day before
  for (const [s, p] of px) {
    p.last = p.open = p.ref;
    publish(s, { lastMinor: p.ref, openMinor: p.ref, refMinor: p.ref });
  }
  clock.now = FIRST_PRE_OPEN;
  let slot = 'preOpen' as Slot;
  let engine: TradingEngine = newEngine();
  await engine.start();

  const mine = (status: ModelOrder['status'], userId?: number) =>
    [...model.values()].filter((o) => o.status === status && (userId === undefined || o.userId === userId));
  const inBand = (s: string) => {
    const ref = px.get(s)!.ref;
    return { lo: Math.ceil(ref * 0.92), hi: Math.floor(ref * 1.08) };
  };

  /** The continuous trigger of the current quote of `symbol` (model side). */
  const trigger = (symbol: string) => {
    const q = quote(symbol);
    for (const o of mine('pending'))
      if (o.symbol === symbol && o.where === 'index') {
        const hit = o.side === 'long' ? q.askMinor <= o.limitMinor! : q.bidMinor >= o.limitMinor!;
        if (hit) Object.assign(o, { status: 'holding', where: null, openMinor: o.limitMinor });
      }
  };

  const place = async (at: string) => {
    const user = rnd.pick(members);
    const symbol = rnd.pick(SYMBOLS);
    const side: 'long' | 'short' = rnd.next() < 0.6 ? 'long' : 'short';
    const q = quote(symbol);
    const market = slot === 'continuous' && rnd.next() < 0.3;
    const tif: 'ROD' | 'IOC' | 'FOK' = rnd.next() < 0.75 ? 'ROD' : rnd.pick(['IOC', 'FOK'] as const);
    const ref = slot === 'preOpen' ? q.lastMinor : px.get(symbol)!.ref;
    const band = priceLimitsMinor(ref, 'stock', 1);
    const base = slot === 'preOpen' ? ref : q.lastMinor;
    const limit = clampPrice(base * (0.95 + rnd.next() * 0.1), band.downMinor + 50, band.upMinor - 50);
    const req = {
      symbol,
      side,
      lots: 1 + rnd.int(3),
      leverage: rnd.pick([1, 2, 5, 10]),
      timeInForce: tif,
      ...(market ? { orderType: 'market' as const } : { orderType: 'limit' as const, priceMinor: limit }),
    };
    let row: OrderRow | null = null;
    const key = await refusal(async () => {
      row = await engine.placeOrder(user, req);
    });
    if (slot === 'closed') return expect(key, at).toBe('nonTradingTime');
    if (slot !== 'continuous' && (market || tif !== 'ROD'))
      return expect(key, at).toBe('orderTypeNotInSession');
    expect(key, at).toBeNull();
    const r = row! as OrderRow;
    const o: ModelOrder = {
      id: r.id,
      userId: user.id,
      symbol,
      side,
      limitMinor: market ? null : limit,
      status: 'pending',
      where: slot === 'preOpen' ? 'opening' : 'index',
      openMinor: null,
      closeMinor: null,
      reason: null,
    };
    model.set(r.id, o);
    count(market ? 'market' : `limit${tif}`);
    if (slot !== 'continuous') return;
    const best = side === 'long' ? q.askMinor : q.bidMinor;
    const crosses = market || (side === 'long' ? best <= limit : best >= limit);
    if (crosses) Object.assign(o, { status: 'holding', where: null, openMinor: best });
    else if (tif !== 'ROD')
      Object.assign(o, { status: 'cancelled', where: null, reason: tif === 'IOC' ? 'ioc' : 'fok' });
  };

  const cancel = async (at: string) => {
    const pending = mine('pending');
    if (!pending.length) return;
    const o = rnd.pick(pending);
    const user = members.find((m) => m.id === o.userId)!;
    expect(await refusal(() => engine.cancelOrder(user, o.id)), at).toBeNull();
    Object.assign(o, { status: 'cancelled', where: null, reason: 'user' });
    count('cancel');
  };

  const close = async (at: string) => {
    const held = mine('holding');
    if (!held.length) return;
    const o = rnd.pick(held);
    const user = members.find((m) => m.id === o.userId)!;
    const key = await refusal(() => engine.closePosition(user, o.id));
    if (slot === 'closed') return expect(key, at).toBe('nonTradingTime');
    expect(key, at).toBeNull();
    count('close');
    if (slot !== 'continuous') {
      o.status = 'closing';
      // A restart before the opening keeps the close queued for it (engine.ts loadLive). No
      // random draw: every seed's sequence stays the same.
      if (slot === 'preOpen') await restart('restart with a close queued in pre-open');
      return;
    }
    const q = quote(o.symbol);
    Object.assign(o, {
      status: 'closed',
      reason: 'user',
      closeMinor: o.side === 'long' ? q.bidMinor : q.askMinor,
    });
  };

  const forceClose = async (at: string) => {
    const open = [...mine('holding'), ...mine('closing')];
    if (!open.length) return;
    const o = rnd.pick(open);
    const q = quote(o.symbol);
    if (slot === 'continuous' && rnd.next() < 0.7) {
      const closed = await engine.forceClose(o.id, 'liquidation');
      expect(closed?.status, at).toBe('closed');
      Object.assign(o, {
        status: 'closed',
        reason: 'liquidation',
        closeMinor: o.side === 'long' ? q.bidMinor : q.askMinor,
      });
    } else {
      if (slot !== 'continuous')
        expect(await refusal(() => engine.forceClose(o.id, 'liquidation')), at).toBe('nonTradingTime');
      const closed = await engine.forceClose(o.id, 'dayTradeClose', undefined, { priceMinor: q.lastMinor });
      expect(closed?.status, at).toBe('closed');
      Object.assign(o, { status: 'closed', reason: 'dayTradeClose', closeMinor: q.lastMinor });
    }
    count('forceClose');
  };

  /** A continuous-trading quote: the price moves a little (within the day's band). */
  const move1 = async () => {
    const symbol = rnd.pick(SYMBOLS);
    const p = px.get(symbol)!;
    const { lo, hi } = inBand(symbol);
    p.last = clampPrice(p.last * (0.985 + rnd.next() * 0.03), lo, hi);
    clock.now += 7_000;
    publish(symbol, { lastMinor: p.last, openMinor: p.open, refMinor: p.ref });
    trigger(symbol);
    count('quote');
  };

  /** Moves to the next phase of the day, publishing its prints, and applies its matches to the model. */
  const nextSlot = async () => {
    const day0 = clock.now - ((clock.now + 8 * HOUR) % (24 * HOUR)); // Taipei midnight (UTC+8)
    if (slot === 'preOpen') {
      clock.now = day0 + 9 * HOUR;
      slot = 'continuous';
      for (const [s, p] of px) {
        const { lo, hi } = inBand(s);
        p.open = p.last = clampPrice(p.ref * (0.96 + rnd.next() * 0.08), lo, hi);
        publish(s, { lastMinor: p.open, openMinor: p.open, refMinor: p.ref });
        for (const o of model.values()) {
          if (o.symbol !== s) continue;
          if (o.status === 'closing')
            Object.assign(o, { status: 'closed', reason: 'user', closeMinor: p.open });
          if (o.status !== 'pending' || o.where !== 'opening') continue;
          const crosses = o.side === 'long' ? o.limitMinor! >= p.open : o.limitMinor! <= p.open;
          if (crosses) Object.assign(o, { status: 'holding', where: null, openMinor: p.open });
          else o.where = 'index';
        }
        trigger(s);
      }
    } else if (slot === 'continuous') {
      clock.now = day0 + 13 * HOUR + 26 * MINUTE;
      slot = 'call';
      // Indicative prices of the closing call: nothing matches.
      for (const [s, p] of px) {
        const { lo, hi } = inBand(s);
        p.last = clampPrice(p.last * (0.98 + rnd.next() * 0.04), lo, hi);
        publish(s, { lastMinor: p.last, openMinor: p.open, refMinor: p.ref });
      }
    } else if (slot === 'call') {
      clock.now = day0 + 13 * HOUR + 30 * MINUTE;
      slot = 'closed';
      for (const [s, p] of px) {
        const { lo, hi } = inBand(s);
        const price = clampPrice(
          p.last * (0.98 + rnd.next() * 0.04),
          Math.max(lo, PRICE_FLOOR),
          Math.min(hi, PRICE_CEIL),
        );
        publish(s, { lastMinor: price, openMinor: p.open, refMinor: p.ref });
        for (const o of model.values()) {
          if (o.symbol !== s) continue;
          if (o.status === 'closing')
            Object.assign(o, { status: 'closed', reason: 'user', closeMinor: price });
          if (o.status !== 'pending') continue;
          const crosses = o.side === 'long' ? o.limitMinor! >= price : o.limitMinor! <= price;
          if (crosses) Object.assign(o, { status: 'holding', where: null, openMinor: price });
          else Object.assign(o, { status: 'cancelled', where: null, reason: 'expired' });
        }
        p.ref = p.last = price;
      }
    } else {
      clock.now = day0 + 24 * HOUR + 8 * HOUR + 40 * MINUTE;
      slot = 'preOpen';
    }
    await engine.idle();
    count(`to ${slot}`);
  };

  const restart = async (what = 'restart') => {
    engine.stop();
    engine = newEngine();
    await engine.start();
    count(what);
  };

  const reconciles = async (at: string) => {
    const rec = await reconcile(db);
    expect(isClean(rec), `${at}: ${JSON.stringify(rec)}`).toBe(true);
  };

  const check = async (at: string) => {
    await engine.assertInvariants();
    const rows = await db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.userId,
          members.map((m) => m.id),
        ),
      );
    expect(rows.length, at).toBe(model.size);
    for (const r of rows) {
      const o = model.get(r.id)!;
      const got = {
        status: r.status,
        open: r.openPriceMinor,
        close: r.closePriceMinor,
        reason: r.closeReason,
      };
      const want = { status: o.status, open: o.openMinor, close: o.closeMinor, reason: o.reason };
      expect(got, `${at}: order ${r.id} (${o.side} ${o.symbol} limit ${o.limitMinor})`).toEqual(want);
    }
    expect(engine.restingCount(), at).toBe(mine('pending').filter((o) => o.where === 'index').length);
    for (const m of members) {
      const b = await memberBalances(db, m.id);
      const live = await db
        .select()
        .from(orders)
        .where(and(eq(orders.userId, m.id), inArray(orders.status, ['pending', 'holding', 'closing'])));
      const frozen = live.filter((r) => r.status === 'pending').reduce((s, r) => s + r.frozenMinor, 0);
      const margin = live.filter((r) => r.status !== 'pending').reduce((s, r) => s + r.marginMinor, 0);
      expect({ frozen: b.frozen, margin: b.margin }, at).toEqual({ frozen, margin });
    }
  };

  for (let step = 0; step < STEPS; step++) {
    const at = `seed ${seed}, step ${step} (${slot})`;
    const k = rnd.int(100);
    if (k < 35) await place(at);
    else if (k < 45) await cancel(at);
    else if (k < 55) await close(at);
    else if (k < 61) await forceClose(at);
    else if (k < 64) await restart();
    else if (k < 82 && slot === 'continuous') await move1();
    else if (k < 82 || rnd.next() < 0.5) await nextSlot();
    await engine.idle();
    await check(at);
    if (step % RECONCILE_EVERY === RECONCILE_EVERY - 1) await reconciles(at);
  }
  // Leaves nothing live for the next seed (its engine loads every live order at start).
  for (const o of mine('pending'))
    await engine.cancelOrder(
      members.find((m) => m.id === o.userId)!,
      o.id,
    );
  for (const o of [...mine('holding'), ...mine('closing')])
    await engine.forceClose(o.id, 'liquidation', undefined, { priceMinor: quote(o.symbol).lastMinor });
  await engine.assertInvariants();
  await reconciles(`seed ${seed}, end`);
  engine.stop();
  console.log(`engine fuzz seed ${seed}: ${JSON.stringify(stats)}`);
  return stats;
}

describe('the order lifecycle against a model (seeded fuzz)', () => {
  // Pinned seeds, each asserting what it was chosen for.
  // Pinned seeds (regressions; each step's checks are the assertions), with what they cover.
  it(
    'pinned seed 1: whole days, fills at the opening and closing prints, restarts',
    { timeout: 600_000 },
    async () => {
      const s = await runSeed(1);
      expect(s['to closed']).toBeGreaterThan(0);
    },
  );
  it('pinned seed 1353238884: IOC / FOK kills, forced closes, restarts', { timeout: 600_000 }, async () => {
    const s = await runSeed(1_353_238_884);
    expect(s.forceClose).toBeGreaterThan(0);
    expect(s['restart with a close queued in pre-open']).toBeGreaterThan(0);
  });

  it('a fresh random seed', { timeout: 600_000 }, async () => {
    // FUZZ_SEED=n replays one seed (a failing seed's message names it).
    const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
    console.log(`engine fuzz seed: ${seed} (replay with FUZZ_SEED=${seed}; pin a failing one above)`);
    await runSeed(seed);
  });
});
