/**
 * The replay feed's print loop (feed.ts): applies an instrument's due prints to its state and
 * emits them — onTrade and onQuote per print, then onDepth and onCandle once per call — and
 * emits an instrument's whole current state as one snapshot (a new day, a silent rebuild).
 *
 * Units: market offsets ms since 09:00 (0 … SESSION_MS), prices minor, volumes shares.
 * Errors: none thrown (a failing listener is logged by feed-listeners.ts).
 */
import { SESSION_MS } from './calendar';
import { dailyCandle, INTRADAY_PERIODS, type IntradayPeriod } from './candles';
import { depthOf, quoteAt, todayRow, tradeAt } from './feed-snapshot';
import type { FeedState, SymbolState } from './feed-state';
import { lastTradeAt, type ReplaySession } from './replay';

/** Number of trades printed by market time `offsetMs` (prints strictly before it; the close at SESSION_MS). */
export const printedBy = (s: ReplaySession, offsetMs: number): number =>
  offsetMs >= SESSION_MS ? s.count : lastTradeAt(s, offsetMs - 1) + 1;

/** Lengths of the intraday candle series (to emit the candles a call changed or opened). */
const seriesLengths = (st: SymbolState): Record<IntradayPeriod, number> => ({
  '1m': st.agg.series['1m'].length,
  '3m': st.agg.series['3m'].length,
  '15m': st.agg.series['15m'].length,
  '30m': st.agg.series['30m'].length,
});

/**
 * Applies trades up to `offsetMs`, at most `limit` of them; when `emit`, emits per-trade prints
 * and quotes and per-call depth/candles. The tape gets every print when emitting, else only
 * the last TRADES_RING of the call. Returns false when `limit` stopped it short of `offsetMs`.
 */
export function advance(
  f: FeedState,
  st: SymbolState,
  offsetMs: number,
  emit: boolean,
  limit: number,
): boolean {
  const s = st.session;
  if (!s) return true;
  const due = printedBy(s, offsetMs);
  const end = Math.min(due, st.cursor + limit);
  if (end <= st.cursor) return true;
  const lenBefore = seriesLengths(st);
  const { quoteFns, tradeFns, emitQuote, emitTrade } = f.listeners;
  const wantQuotes = emit && quoteFns.size > 0;
  const wantTrades = emit && tradeFns.size > 0;
  const tapeFrom = emit ? st.cursor : Math.max(st.cursor, end - st.tape.cap);
  for (let i = st.cursor; i < end; i++) {
    const p = s.prices[i]!;
    const sh = s.shares[i]!;
    st.agg.add(s.offsets[i]!, p, sh);
    st.volume += sh;
    st.turnover += p * sh;
    if (i === 0 || p > st.high) st.high = p;
    if (i === 0 || p < st.low) st.low = p;
    st.cursor = i + 1;
    if (i >= tapeFrom) {
      const t = tradeAt(st, s, i);
      st.tape.push(t);
      if (wantTrades) emitTrade(st.symbol, t);
    }
    if (wantQuotes) emitQuote(quoteAt(f, st));
  }
  if (emit) emitCallEnd(f, st, s, lenBefore);
  return end === due;
}

/** After an emitting advance: the latest book, and every intraday candle changed or opened, and 1d. */
function emitCallEnd(
  f: FeedState,
  st: SymbolState,
  s: ReplaySession,
  lenBefore: Record<IntradayPeriod, number>,
): void {
  const { depthFns, candleFns, emitDepth, emitCandle } = f.listeners;
  if (depthFns.size > 0) emitDepth(depthOf(st)!);
  if (candleFns.size === 0) return;
  for (const p of INTRADAY_PERIODS) {
    const list = st.agg.series[p];
    for (let k = Math.max(0, lenBefore[p] - 1); k < list.length; k++)
      emitCandle(st.symbol, p, { ...list[k]! });
  }
  emitCandle(st.symbol, '1d', dailyCandle(todayRow(st, s)));
}

/** Emits the current state of one instrument (a new day at cursor 0, or after a silent rebuild). */
export function emitSnapshot(f: FeedState, st: SymbolState): void {
  if (!st.ref) return;
  const { depthFns, emitQuote, emitDepth, emitCandle } = f.listeners;
  emitQuote(quoteAt(f, st));
  const d = depthOf(st);
  if (d && depthFns.size > 0) emitDepth(d);
  const s = st.session;
  if (!s || st.cursor === 0) return;
  for (const p of INTRADAY_PERIODS) {
    const c = st.agg.current(p);
    if (c) emitCandle(st.symbol, p, { ...c });
  }
  emitCandle(st.symbol, '1d', dailyCandle(todayRow(st, s)));
}
