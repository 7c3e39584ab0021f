/**
 * Closes day trades not offset by the closing call (DAY_TRADE_AUTO_CLOSE, default on ⚠ product
 * choice): a position entered as a day trade (orders.day_trade, set by dayTrade/placeOrder) and
 * still `holding` when its session's closing call matches (TW-MARKET-RULES "Opening and closing":
 * closing call 13:25–13:30, one match at 13:30) is closed at that match's price, through the
 * engine's forced close (`forceClose`, the same ledger code as every close), with close_reason
 * `dayTradeClose` and the day-trade tax of the match's trading date. A position its member asked
 * to close during the call (`closing`) is closed by the engine's own match first.
 *
 * How it runs: the engine announces each symbol's closing match (`onMatch`, kind `closing`) after
 * writing the match's fills; the listener runs inside the engine's queue, so `trading.idle()`
 * covers these closes too. Only symbols known to have live day-trade orders are looked up (loaded
 * at start, added by dayTrade/placeOrder through `track`), so a session end costs one small query
 * per such symbol, not one per instrument. On start, a day trade whose session ended while the
 * server was down is closed at once: at its session's closing print when the feed still shows it,
 * else at the next day's reference price (the previous close).
 *
 * Not on the stress source (no sessions, no closing match). Every close locks the order row and
 * checks its status, so racing the member's own close or a liquidation closes it at most once.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders } from '../../db/schema';
import type { MarketFeed } from '../../market/feed';
import type { MatchEvent, TradingEngine } from '../trading/engine';
import { isClosingPrint, quoteDate } from '../trading/market-session';

export interface DayTradeCloser {
  /** Loads the symbols with live day trades, catches up on missed closes, listens to matches. */
  start(): Promise<void>;
  stop(): void;
  /** A day-trade order was placed for `symbol`: watch its closing match. */
  track(symbol: string): void;
}

type Engine = Pick<TradingEngine, 'onMatch' | 'forceClose' | 'tradeDate'>;

/** Creates the closer for `trading` (handlers reach it as ctx.services.dayTrades); inert when `enabled` is false (DAY_TRADE_AUTO_CLOSE=false). */
export function createDayTradeCloser(opts: {
  db: Db;
  feed: Pick<MarketFeed, 'quote'>;
  trading: Engine;
  enabled: boolean;
  log?: (msg: string, err?: unknown) => void;
}): DayTradeCloser {
  const { db, feed, trading } = opts;
  /** Symbols that may have live (pending or holding) day-trade orders → times tracked. */
  const watched = new Map<string, number>();
  let unsubscribe: (() => void) | null = null;

  /** The day-trade holdings of `symbol` (all when null). */
  function holdings(symbol: string | null) {
    return db
      .select({ id: orders.id, symbol: orders.symbol, tradeDate: orders.tradeDate })
      .from(orders)
      .where(
        and(
          eq(orders.status, 'holding'),
          eq(orders.dayTrade, true),
          symbol === null ? undefined : eq(orders.symbol, symbol),
        ),
      );
  }

  async function close(id: number, priceMinor: number, tradeDate: string): Promise<void> {
    try {
      await trading.forceClose(id, 'dayTradeClose', undefined, { priceMinor, tradeDate });
    } catch (err) {
      opts.log?.(`day-trade close of order ${id} failed`, err);
    }
  }

  async function onClosingMatch(e: MatchEvent): Promise<void> {
    if (e.kind !== 'closing' || !watched.has(e.symbol)) return;
    for (const o of await holdings(e.symbol)) {
      if (o.tradeDate === e.tradeDate) await close(o.id, e.priceMinor, e.tradeDate);
    }
    // Stop watching once nothing live is left, unless a day trade was tracked meanwhile.
    const seen = watched.get(e.symbol);
    const [left] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .where(
        and(
          eq(orders.symbol, e.symbol),
          eq(orders.dayTrade, true),
          inArray(orders.status, ['pending', 'holding', 'closing']),
        ),
      );
    if ((!left || left.n === 0) && watched.get(e.symbol) === seen) watched.delete(e.symbol);
  }

  /** Day trades whose session ended while nobody listened (see the module docstring). */
  async function catchUp(): Promise<void> {
    for (const o of await holdings(null)) {
      if (o.tradeDate === null) continue;
      const q = feed.quote(o.symbol);
      if (!q) continue;
      const shown = quoteDate(q);
      if (shown === o.tradeDate && isClosingPrint(q)) await close(o.id, q.lastMinor, o.tradeDate);
      else if (shown > o.tradeDate && trading.tradeDate(o.symbol) > o.tradeDate && q.prevCloseMinor > 0)
        await close(o.id, q.prevCloseMinor, o.tradeDate);
    }
  }

  const closer: DayTradeCloser = {
    async start() {
      if (!opts.enabled || unsubscribe) return;
      const live = await db
        .selectDistinct({ symbol: orders.symbol })
        .from(orders)
        .where(and(eq(orders.dayTrade, true), inArray(orders.status, ['pending', 'holding', 'closing'])));
      for (const r of live) watched.set(r.symbol, 0);
      unsubscribe = trading.onMatch(onClosingMatch);
      await catchUp();
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
    },
    track(symbol) {
      if (opts.enabled) watched.set(symbol, (watched.get(symbol) ?? 0) + 1);
    },
  };
  return closer;
}
