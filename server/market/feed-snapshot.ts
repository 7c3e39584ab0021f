/**
 * The replay feed's views of its state (feed.ts): an instrument's quote, depth, print i and
 * in-progress daily row, its exchange on the replayed date, and the TAIEX of the replayed day.
 * Pure reads of FeedState/SymbolState (feed-state.ts); the tick loop and the query methods both
 * use them.
 *
 * Units: prices and turnover TWD minor (1 NT$ = 100), volumes shares (depth volumes lots),
 * times epoch ms. Errors: none; quoteAt expects a listed instrument (`st.ref` non-null).
 */
import type { Depth, Instrument, Quote, Trade } from '../../contract/market';
import { taxKindOf } from '../../contract/dated-rules';
import { SESSION_MS } from './calendar';
import type { DailyRow } from './candles';
import { inferSide } from './feed-shared';
import type { FeedState, SymbolState } from './feed-state';
import { taiexEstimate, taiexItem, type IndexItem } from './indices';
import { bookAt, depthAt, type ReplaySession } from './replay';

/** The exchange of `symbol` on the replayed date (MarketFeed.marketOf). */
export function marketOnDay(f: FeedState, symbol: string): Instrument['market'] | undefined {
  const date = f.states.get(symbol)?.date || f.replayDate;
  return (date ? f.marketOn(symbol, date) : undefined) ?? f.marketOf(symbol);
}

/**
 * The contract Quote of a listed instrument after `cursor` prints: the reference price in every
 * price field before the first print (and bid/ask 0), the phase of the last tick.
 */
export function quoteAt(f: FeedState, st: SymbolState): Quote {
  const ref = st.ref!;
  const s = st.session;
  const i = st.cursor - 1;
  const book = s && i >= 0 ? bookAt(s, i) : { bidMinor: 0, askMinor: 0 };
  const printed = s !== null && i >= 0;
  return {
    symbol: st.symbol,
    name: st.name,
    kind: st.kind,
    lastMinor: printed ? s.prices[i]! : ref.referenceMinor,
    openMinor: printed ? s.prices[0]! : ref.referenceMinor,
    highMinor: printed ? st.high : ref.referenceMinor,
    lowMinor: printed ? st.low : ref.referenceMinor,
    prevCloseMinor: ref.referenceMinor,
    limitUpMinor: ref.limitUpMinor ?? 0,
    limitDownMinor: ref.limitDownMinor ?? 0,
    bidMinor: book.bidMinor,
    askMinor: book.askMinor,
    volumeShares: st.volume,
    turnoverMinor: s ? turnoverOf(st, s) : st.turnover,
    ts: printed ? st.baseMs + s.offsets[i]! : st.baseMs,
    replayDate: st.date,
    phase: f.pos?.phase ?? 'closed',
    traded: st.day !== null,
    priceLimits: ref.limitUpMinor !== null,
    referenceEstimated: ref.referenceEstimated,
    taxKind: taxKindOf(st.kind, st.etf),
  };
}

/** Print i, its side judged against the book after print i − 1 (the first print: its own book). */
export function tradeAt(st: SymbolState, s: ReplaySession, i: number): Trade {
  const { bidMinor, askMinor } = bookAt(s, i > 0 ? i - 1 : 0);
  const priceMinor = s.prices[i]!;
  return {
    ts: st.baseMs + s.offsets[i]!,
    priceMinor,
    volumeShares: s.shares[i]!,
    side: inferSide(priceMinor, bidMinor, askMinor),
  };
}

/** The latest book: after the last print; empty before the first; undefined when not traded. */
export function depthOf(st: SymbolState): Depth | undefined {
  if (!st.day) return undefined;
  const s = st.session;
  if (!s || st.cursor === 0) return { symbol: st.symbol, bids: [], asks: [], ts: st.baseMs };
  const i = st.cursor - 1;
  const { bids, asks } = depthAt(s, i);
  return { symbol: st.symbol, bids, asks, ts: st.baseMs + s.offsets[i]! };
}

/**
 * Turnover so far (TWD minor): the simulated prints' running sum while the session runs, the
 * exchange's own figure (daily_candles) once the closing print is out (the volume is the real
 * one by construction, replay.ts); the running sum when the source has no turnover.
 */
export function turnoverOf(st: SymbolState, s: ReplaySession): number {
  return st.cursor === s.count ? (s.day.turnoverMinor ?? st.turnover) : st.turnover;
}

/** The in-progress replayed day as a daily row (after `cursor` trades; cursor ≥ 1). */
export function todayRow(st: SymbolState, s: ReplaySession): DailyRow {
  return {
    date: st.date,
    openMinor: s.prices[0]!,
    highMinor: st.high,
    lowMinor: st.low,
    closeMinor: s.prices[st.cursor - 1]!,
    volumeShares: st.volume,
    turnoverMinor: turnoverOf(st, s),
  };
}

/**
 * The TAIEX of the replayed date (indices.ts): while the session runs an estimate from the TWSE
 * instruments' moves weighted by reference × real volume, pinned to the official close once the
 * session is over; [] before start or when the index file has no row for the date.
 */
export function currentTaiex(f: FeedState): IndexItem[] {
  if (!f.replayDate) return [];
  const official = f.taiex.get(f.replayDate);
  if (!official) return [];
  const members: Array<{ lastMinor: number; referenceMinor: number; closeMinor: number; weight: number }> =
    [];
  for (const st of f.order) {
    if (!st.day || st.market !== 'TWSE') continue;
    const ref = st.day.prevCloseMinor;
    const s = st.session;
    members.push({
      lastMinor: s && st.cursor > 0 ? s.prices[st.cursor - 1]! : ref,
      referenceMinor: ref,
      closeMinor: st.day.closeMinor,
      weight: ref * st.day.volumeShares,
    });
  }
  const elapsed = (f.pos?.offsetMs ?? 0) / SESSION_MS;
  const done = elapsed >= 1;
  return [
    taiexItem(
      f.replayDate,
      done ? official.closeMinor : taiexEstimate(official, members, elapsed),
      official.prevCloseMinor,
      !done,
    ),
  ];
}
