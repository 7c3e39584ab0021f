/**
 * The order ticket's preview (contract/market-rules.ts orderPreview) and the engine's execution
 * agree to the cent, as a seeded property (fast-check): for random instruments (stock and ETF
 * tick tables and tax rates), prices on the tick table from NT$1 to NT$3,000, lots, leverages and
 * sides, each order's margin, fee and tax at its fill price, the amount frozen while it rests and
 * what the fill finally takes from frozen, and the closing fee and tax at the same price, are the
 * preview's figures; the member's balances move by exactly the preview's required amount.
 *
 * Three ways to fill: a market order at the best opposite price; a resting limit order triggered
 * in continuous trading (fills at its limit); a resting limit order crossed by the 13:30 closing
 * auction at a price better than its limit (a long fills lower, a short higher: the engine then
 * returns or tops up the frozen difference). The market is a stub quote source (the outside
 * edge), so every price can be chosen; everything else is the real engine, ledger and database.
 */
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Quote } from '../../contract/market';
import {
  DEFAULT_LEVERAGES,
  floorToTick,
  orderPreview,
  priceLimitsMinor,
  stepTicks,
  type InstrumentKind,
  type Side,
} from '../../contract/market-rules';
import { addIsoDays, sessionTimes } from '../../contract/trading-session';
import type { Database } from '../../server/db/client';
import { memoryDatabase } from '../support/db-template';
import { importMarketData } from '../../server/market/import';
import { orders, users } from '../../server/db/schema';
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
import { createTradingEngine, type TradingEngine } from '../../server/modules/trading/engine';
import { net, orderPostings } from './trading-support';

const SYMBOL_OF: Record<InstrumentKind, string> = { stock: '2330', etf: '0050' };
const KIND_OF: Record<string, InstrumentKind> = { '2330': 'stock', '0050': 'etf' };

let d: Database;
let user: AuthUser;
let engine: TradingEngine;
const quotes = new Map<string, Quote>();
const listeners = new Set<(q: Quote) => void>();
let clockNow = 0;

const feed = {
  isTradable: (s: string) => s in KIND_OF,
  quote: (s: string) => quotes.get(s),
  kind: (s: string) => KIND_OF[s],
  onQuote: (fn: (q: Quote) => void) => {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
  clock: () => ({
    source: 'replay',
    mode: 'replay',
    phase: 'open',
    tradingPhase: 'continuous',
    speed: 1,
    now: clockNow,
    replayDate: null,
  }),
} as unknown as MarketFeed;

/** Publishes a quote the way the feed does: stored, then every listener called. */
function emit(symbol: string, at: number, p: { bid: number; ask: number; last: number; ref: number }): void {
  const kind = KIND_OF[symbol]!;
  const q: Quote = {
    symbol,
    name: symbol,
    kind,
    lastMinor: p.last,
    openMinor: p.last,
    highMinor: p.last,
    lowMinor: p.last,
    prevCloseMinor: p.ref,
    limitUpMinor: priceLimitsMinor(p.ref, kind).upMinor,
    limitDownMinor: priceLimitsMinor(p.ref, kind).downMinor,
    bidMinor: p.bid,
    askMinor: p.ask,
    // A print has volume: the engine opens a replayed day only on a quote that traded.
    volumeShares: 1_000,
    turnoverMinor: p.last * 1_000,
    ts: at,
    replayDate: null,
    phase: 'open',
    traded: true,
  };
  quotes.set(symbol, q);
  for (const fn of listeners) fn(q);
}

beforeAll(async () => {
  d = (await memoryDatabase()).database;
  await importMarketData(d.db, { symbols: ['2330', '0050'] });
  await ensurePlatformAccounts(d.db);
  const [u] = await d.db.insert(users).values({ account: '0951000001', passwordHash: 'x' }).returning();
  await ensureMemberAccounts(d.db, u!.id);
  user = {
    id: u!.id,
    account: u!.account,
    role: 'member',
    tradeBanned: false,
    withdrawBanned: false,
    frozen: false,
  };
  await d.db.transaction((tx) =>
    post(tx, {
      type: 'deposit',
      postings: move({ platform: 'bank_clearing' }, { userId: user.id, purpose: 'available' }, 10 ** 13),
    }),
  );
  engine = createTradingEngine({ db: d.db, feed, leverages: [...DEFAULT_LEVERAGES], timer: false });
  await engine.start();
});
afterAll(async () => {
  engine?.stop();
  await d?.close();
});

const scenario = fc.record({
  kind: fc.constantFrom<InstrumentKind>('stock', 'etf'),
  rawPriceMinor: fc.integer({ min: 100, max: 300_000 }),
  lots: fc.integer({ min: 1, max: 30 }),
  leverage: fc.constantFrom(...DEFAULT_LEVERAGES),
  side: fc.constantFrom<Side>('long', 'short'),
  how: fc.constantFrom('market', 'trigger', 'auction'),
  /** Ticks the auction price is better than the limit (0: at the limit). */
  better: fc.integer({ min: 0, max: 3 }),
});

let day = 0;

it('preview = execution to the cent: margin, fee, tax, frozen at fill, closing fee and tax', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async (s) => {
      // Each run trades on a fresh replayed day, 10:00 (continuous trading).
      const date = addIsoDays('2025-01-06', day++);
      const t = sessionTimes(date);
      const at10 = t.continuousMs + 3_600_000;
      clockNow = at10;
      const symbol = SYMBOL_OF[s.kind];
      const p = floorToTick(s.rawPriceMinor, s.kind); // the limit (or market fill) price
      const up = (x: number, n = 1) => stepTicks(x, n, s.kind);
      const long = s.side === 'long';
      const req = { symbol, side: s.side, lots: s.lots, leverage: s.leverage };
      const before = await memberBalances(d.db, user.id);

      let fillPrice = p;
      let row;
      if (s.how === 'market') {
        emit(symbol, at10, { bid: long ? up(p, -1) : p, ask: long ? p : up(p), last: p, ref: p });
        row = await engine.placeOrder(user, { ...req, orderType: 'market' });
      } else {
        // Away from the limit: the order rests.
        emit(symbol, at10, {
          bid: long ? up(p, 2) : up(p, -3),
          ask: long ? up(p, 3) : up(p, -2),
          last: p,
          ref: p,
        });
        const placed = await engine.placeOrder(user, { ...req, orderType: 'limit', priceMinor: p });
        expect(placed.status).toBe('pending');
        const atLimit = orderPreview({
          priceMinor: p,
          lots: s.lots,
          leverage: s.leverage,
          side: s.side,
          kind: s.kind,
        });
        expect(placed.frozenMinor).toBe(atLimit.totalRequiredMinor);
        if (s.how === 'trigger') {
          emit(symbol, at10 + 1000, { bid: long ? up(p, -1) : p, ask: long ? p : up(p), last: p, ref: p });
        } else {
          fillPrice = up(p, long ? -s.better : s.better);
          emit(symbol, t.regularCloseMs, {
            bid: up(fillPrice, -1),
            ask: up(fillPrice),
            last: fillPrice,
            ref: p,
          });
        }
        await engine.idle();
        row = (await d.db.select().from(orders).where(eq(orders.id, placed.id)))[0]!;
      }
      const preview = orderPreview({
        priceMinor: fillPrice,
        lots: s.lots,
        leverage: s.leverage,
        side: s.side,
        kind: s.kind,
        availableMinor: before.available,
      });
      expect(row).toMatchObject({
        status: 'holding',
        openPriceMinor: fillPrice,
        marginMinor: preview.marginMinor,
        openFeeMinor: preview.commissionMinor + preview.clearingFeeMinor,
        openTaxMinor: preview.openTaxMinor,
        frozenMinor: 0,
      });
      const after = await memberBalances(d.db, user.id);
      expect(after.available).toBe(preview.availableAfterMinor);
      expect(after.frozen).toBe(before.frozen);
      expect(after.margin - before.margin).toBe(preview.marginMinor);

      const postings = await orderPostings(d.db, row.id);
      // What was frozen and not given back is exactly what the fill took.
      const frozenKept = net(postings, 'orderFreeze', 'frozen') + net(postings, 'orderUnfreeze', 'frozen');
      const charged = postings
        .filter(
          (x) => x.member && x.purpose === 'frozen' && x.type !== 'orderFreeze' && x.type !== 'orderUnfreeze',
        )
        .reduce((sum, x) => sum - x.amountMinor, 0);
      if (s.how === 'market') expect(frozenKept).toBe(0);
      else expect(frozenKept).toBe(preview.totalRequiredMinor);
      expect(charged).toBe(s.how === 'market' ? 0 : preview.totalRequiredMinor);

      // The next day, close at the fill price: the preview's closing fee and tax.
      const next = addIsoDays(date, 1);
      const at10next = sessionTimes(next).continuousMs + 3_600_000;
      clockNow = at10next;
      day++;
      emit(symbol, at10next, {
        bid: long ? fillPrice : up(fillPrice, -1),
        ask: long ? up(fillPrice) : fillPrice,
        last: fillPrice,
        ref: fillPrice,
      });
      const closed = await engine.closePosition(user, row.id);
      expect(closed).toMatchObject({
        status: 'closed',
        closePriceMinor: fillPrice,
        pnlMinor: 0,
        closeFeeMinor: preview.closeCommissionMinor + preview.closeClearingFeeMinor,
        closeTaxMinor: preview.closeTaxMinor,
      });
    }),
    { seed: 20_260_505, numRuns: 120 },
  );
  expect(isClean(await reconcile(d.db))).toBe(true);
});
