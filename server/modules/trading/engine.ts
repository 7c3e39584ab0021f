/**
 * The trading core: a simulated venue that executes members' orders against the live quote, by
 * the Taiwan market's session rules on the MARKET clock (market-session.ts says what each clock
 * has of the TWSE day).
 *
 * Order entry (placeOrder), refusals carry the fix in the envelope's `data.fix`
 * (contract/trading.ts OrderFix):
 * - regular session: pre-open 08:30–09:00 and the closing call 13:25–13:30 take limit ROD orders
 *   only (market, IOC and FOK orders exist only in continuous trading: TWSE/TPEx continuous-trading
 *   rules of 2020-03-23, "Order types" row of TW-MARKET-RULES) → `orderTypeNotInSession`;
 *   continuous trading 09:00–13:25 takes everything; any other time → `nonTradingTime` with when
 *   entry opens (trading-session.ts nextOpen).
 * - after-hours fixed price (`session: 'afterHours'`): 14:00–14:30, a limit ROD order at exactly
 *   the day's close (`afterHoursFixedPrice` otherwise), whole lots; filled once at 14:30 at that
 *   price (TW-MARKET-RULES "After-hours fixed price"). The exchange and replay clocks have this
 *   window; the stress source does not.
 * - prices: on the tick table and within the day's limits (priceRejection: the nearest valid
 *   prices, or the limit price, as the fix) — the quote's own limitUpMinor/limitDownMinor (the
 *   feed's band of the day for the instrument's class, reference.ts) and its `priceLimits` (none
 *   for a foreign-index ETF and in a first listing's first five trading days); a source that does
 *   not say falls back to the listing rule (hasPriceLimits). In pre-open before the new day shows,
 *   the reference is the last close the feed shows and the band is ±10 % of it.
 * - the sale's tax: the row in force on the quote's date for its tax kind (contract/dated-rules.ts;
 *   a bond ETF's sale untaxed through 2026-12-31), FillEnv.saleOf.
 * - configurable rules (config.ts, all off by default: the spec gives no values): most lots per
 *   order (`exceedsOrderShares`), orders per member per trading day (`dailyPurchaseLimit`),
 *   instruments closed to trading (`tradeClosed`); delisted instruments (`productDelisted`).
 *
 * Execution:
 * - market orders fill at once at the best opposite price (ask for a long, bid for a short), which
 *   must lie within the day's limits.
 * - limit orders that cross on arrival fill at once at the best opposite price; the others rest as
 *   `pending` with margin + fee (+ tax) frozen, in the TriggerIndex (by symbol and price, never a
 *   scan), and fill at their limit when a continuous-trading quote crosses it.
 * - IOC and FOK: fill at once or are cancelled (`close_reason` ioc / fok, nothing frozen). One
 *   order is one position here (no partial fills), so IOC ("fill what can be filled, cancel the
 *   rest") and FOK ("all or nothing") behave the same: the whole order fills at once or none.
 * - call auctions: at the opening print (the first print of a trading day seen once the pre-open is over;
 *   quotes without volume or seen during the pre-open never match) orders queued in pre-open
 *   fill at the opening price when it crosses their limit (long: limit ≥ price, short: limit ≤
 *   price), else rest for continuous trading; at the 13:30 closing print resting orders that the
 *   closing price crosses fill at it (TWSE Art. 58-3). Positions closed during a call wait as
 *   `closing` and close at that call's price.
 * - ROD orders still resting after the closing match expire (`cancelled`, close_reason `expired`,
 *   frozen funds released with `orderUnfreeze`); so do orders whose session ended unseen (the
 *   feed jumped or the server was down).
 * - cancellation only while pending (in any phase: withdrawing a resting order is always safe, so
 *   the engine does not keep funds frozen behind a closed market).
 * - closing a holding: at market (bid for a long, ask for a short) in continuous trading; queued
 *   as `closing` in pre-open and the closing call; `nonTradingTime` otherwise. Rules (config):
 *   T+1 (a long opened today cannot be sold today unless the member may day trade), lock-up
 *   minutes after opening.
 *
 * Every state change and its ledger transactions happen in one DB transaction (fills.ts); status
 * changes are conditional (`for update` + status checks), so a race between a trigger, a cancel and
 * a close has exactly one winner. Matches run one at a time on an internal queue in the order the
 * quotes arrived. Units: minor units (TWD), shares, lots.
 *
 * Layout (docs/adr/0050-engine-core-and-shell.md): this file is the shell that composes the parts
 * and wires them to the database and the feed (start, stop, readmit): engine-types.ts (the
 * interface and options), engine-context.ts (shared state and the serial queue), session-days.ts
 * (each instrument's trading day), book.ts (the resting book and its invariants), entry-rules.ts
 * (pure entry rules), order-entry.ts (placing orders), matching.ts (quotes, matches, expiry),
 * member-actions.ts (cancel, close, forced close), closes.ts (the one close path), dto.ts (the
 * API's order shape).
 */
import { eq, inArray } from 'drizzle-orm';
import { instruments, orders } from '../../db/schema';
import { createCloser } from './closes';
import { createEngineContext, type EngineContext } from './engine-context';
import type { TradingEngine, TradingEngineOptions } from './engine-types';
import type { OrderRow } from './fills';
import { marketDate } from './market-session';
import { createMatcher, type Matcher } from './matching';
import { createMemberActions } from './member-actions';
import { createOrderEntry } from './order-entry';

export type { OrderRow } from './fills';
export type { EngineContext } from './engine-context';
export type { FeeTerms, MatchEvent, OrderKey, TradingEngine, TradingEngineOptions } from './engine-types';
export { orderWithName, toOrderDto, type InstrumentNames } from './dto';

/** Wall ms between sweeps (the after-hours match is due at one instant a day). */
export const SWEEP_INTERVAL_MS = 1_000;

/**
 * Loads the live orders (pending, closing) into the book: an after-hours order waits for its
 * 14:30 match, a regular one where its day says (matching.ts admit); orders from before trading
 * dates were recorded get today's. Then catches up on a closing print already shown (the server
 * started after a close). Closing orders come last, so that catch-up never takes a close asked
 * for on a later day (a restart in the next pre-open): each waits for its symbol's next match
 * on the date it is asked for now, or closes at a match of that date already run (matching.ts
 * admitClosing).
 */
async function loadLive(ctx: EngineContext, matcher: Matcher): Promise<void> {
  const { db, days, book, feed } = ctx;
  for (const r of await db
    .select({ symbol: instruments.symbol, listingDate: instruments.listingDate })
    .from(instruments))
    if (r.listingDate) days.listingDates.set(r.symbol, r.listingDate);
  const v = ctx.view();
  matcher.shaped = v.shaped;
  const live = await db
    .select()
    .from(orders)
    .where(inArray(orders.status, ['pending', 'closing']));
  for (const found of live) {
    let row = found;
    if (row.status === 'closing') continue;
    if (row.entrySession === 'afterHours') {
      book.afterHours.set(row.id, row.tradeDate ?? marketDate(v.nowMs));
    } else {
      if (!row.tradeDate) {
        const [dated] = await db
          .update(orders)
          .set({ tradeDate: days.tradeDateFor(v, row.symbol) })
          .where(eq(orders.id, row.id))
          .returning();
        row = dated!;
      }
      matcher.admit(row, v.shaped);
    }
  }
  if (v.shaped)
    for (const symbol of new Set(live.map((r) => r.symbol))) {
      const q = feed.quote(symbol);
      const st = days.dayOf(symbol);
      if (q && st && !st.closeDone && q.ts >= st.closeMs) matcher.closeDay(q, st);
    }
  // When the close was asked for is not stored: it counts as asked for on today's trading date.
  for (const row of live)
    if (row.status === 'closing') matcher.admitClosing(row, days.tradeDateFor(v, row.symbol), v.shaped);
}

/** Creates the engine over the database and the live feed; call start() before use. */
export function createTradingEngine(opts: TradingEngineOptions): TradingEngine {
  const ctx = createEngineContext(opts);
  const closer = createCloser(ctx);
  const matcher = createMatcher(ctx, closer);
  const entry = createOrderEntry(ctx, matcher);
  const actions = createMemberActions(ctx, closer, matcher);
  let unsubscribe: (() => void) | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  return {
    laneStats: ctx.lanes.stats,
    async start() {
      await loadLive(ctx, matcher);
      unsubscribe = ctx.feed.onQuote(matcher.onQuote);
      if (opts.timer !== false) {
        timer = setInterval(() => {
          matcher.sweep().catch((err) => ctx.log('sweep failed', err));
        }, SWEEP_INTERVAL_MS);
        timer.unref?.();
      }
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
      if (timer) clearInterval(timer);
      timer = null;
    },
    ...entry,
    ...actions,
    closeAt: (tx, order, priceMinor, reason) => closer.closeAt(tx, order, priceMinor, reason),
    tradeDate: closer.tradeDate,
    sweep: matcher.sweep,
    onMatch: matcher.onMatch,
    idle: ctx.idle,
    restingCount: () => ctx.book.index.size,
    async assertInvariants() {
      await ctx.idle();
      await ctx.book.assertInvariants(ctx.db);
    },
    readmit(row: OrderRow) {
      ctx.book.forget(row.id);
      if (row.status !== 'pending') return;
      if (row.entrySession === 'afterHours')
        ctx.book.afterHours.set(row.id, row.tradeDate ?? marketDate(ctx.view().nowMs));
      else matcher.admit(row, ctx.view().shaped);
    },
  };
}
