/**
 * One instrument of the stress source (stress.ts explains the market it simulates): its state
 * (Sym), its quote, its memoized 5-level book, its one-minute and 3m/15m/30m bars and its day as
 * a daily row, and its opening state at start. Pure functions of the Sym (plus the seed); the
 * random walk and the timer stay in stress.ts.
 *
 * Units: prices minor (1 NT$ = 100), volumes shares, depth volumes lots, times epoch ms.
 * Errors: none thrown.
 */
import type { Candle, Depth, DepthLevel, Quote } from '../../contract/market';
import {
  floorToTick,
  limitDownMinor,
  limitUpMinor,
  SHARES_PER_LOT,
  stepTicks,
  type InstrumentKind,
} from '../../contract/market-rules';
import { INTRADAY_PERIOD_MS, type DailyRow } from './candles';
import { TRADES_RING, TradeRing } from './feed-shared';
import { createRng, hashSeed, mix32 } from './prng';

/** One-minute bars kept per instrument. */
export const STRESS_BARS = 300;
/** Book levels per side. */
const DEPTH_LEVELS = 5;

/** One stress instrument's running state. */
export interface Sym {
  symbol: string;
  name: string;
  kind: InstrumentKind;
  refMinor: number;
  upMinor: number;
  downMinor: number;
  /** Best bid; the ask is one tick above. */
  bidMinor: number;
  askMinor: number;
  openMinor: number;
  highMinor: number;
  lowMinor: number;
  lastMinor: number;
  volumeShares: number;
  turnoverMinor: number;
  /** Trades so far (seeds the book volumes). */
  n: number;
  salt: number;
  quote: Quote;
  /** Book memo for `n` (built on demand). */
  depth: Depth | null;
  depthN: number;
  tape: TradeRing;
  /** One-minute bars, oldest first, at most STRESS_BARS; the last is the current one. */
  bars: Candle[];
  /** True once bars were dropped from the front (aggregates may then start partial). */
  dropped: boolean;
  /** Current 3m/15m/30m bars. */
  cur: Record<'3m' | '15m' | '30m', Candle | null>;
  /** Touched in the current tick. */
  touched: boolean;
}

/** A new bar starting at `ts` with one print. */
function newBar(ts: number, price: number, shares: number): Candle {
  return {
    ts,
    openMinor: price,
    highMinor: price,
    lowMinor: price,
    closeMinor: price,
    volumeShares: shares,
    turnoverMinor: price * shares,
  };
}

/** Adds one print to a bar (high, low, close, volume, turnover). */
function addToBar(c: Candle, price: number, shares: number): void {
  if (price > c.highMinor) c.highMinor = price;
  if (price < c.lowMinor) c.lowMinor = price;
  c.closeMinor = price;
  c.volumeShares += shares;
  c.turnoverMinor = (c.turnoverMinor ?? 0) + price * shares;
}

/**
 * Aggregates ascending one-minute bars into `periodMs` bars (ts = period start), leaving out the
 * first one when `partialHead` says its start is not covered.
 */
export function aggregateMinuteBars(
  bars: readonly Candle[],
  periodMs: number,
  partialHead: boolean,
): Candle[] {
  const out: Candle[] = [];
  for (const b of bars) {
    const ts = b.ts - (b.ts % periodMs);
    const last = out[out.length - 1];
    if (last && last.ts === ts) {
      if (b.highMinor > last.highMinor) last.highMinor = b.highMinor;
      if (b.lowMinor < last.lowMinor) last.lowMinor = b.lowMinor;
      last.closeMinor = b.closeMinor;
      last.volumeShares += b.volumeShares;
      last.turnoverMinor = (last.turnoverMinor ?? 0) + (b.turnoverMinor ?? 0);
    } else out.push({ ...b, ts });
  }
  if (partialHead && out.length > 0 && bars.length > 0 && out[0]!.ts < bars[0]!.ts) out.shift();
  return out;
}

/** The instrument's contract Quote at wall time `ts` (phase open, ±10 % limits, never estimated). */
export function quoteOf(s: Sym, ts: number): Quote {
  return {
    symbol: s.symbol,
    name: s.name,
    kind: s.kind,
    lastMinor: s.lastMinor,
    openMinor: s.openMinor,
    highMinor: s.highMinor,
    lowMinor: s.lowMinor,
    prevCloseMinor: s.refMinor,
    limitUpMinor: s.upMinor,
    limitDownMinor: s.downMinor,
    bidMinor: s.bidMinor,
    askMinor: s.askMinor,
    volumeShares: s.volumeShares,
    turnoverMinor: s.turnoverMinor,
    ts,
    replayDate: null,
    phase: 'open',
    traded: true,
    // Synthetic instruments: the ±10 % rule band around a reference of their own, no bond ETFs.
    priceLimits: true,
    referenceEstimated: false,
    taxKind: s.kind,
  };
}

/** The book: DEPTH_LEVELS levels a tick apart from bid/ask within the limits, seeded volumes (memoized per `n`). */
export function depthOf(s: Sym): Depth {
  if (s.depth && s.depthN === s.n) return s.depth;
  const bids: DepthLevel[] = [];
  const asks: DepthLevel[] = [];
  let p = s.bidMinor;
  for (let k = 0; k < DEPTH_LEVELS && p >= s.downMinor && p > 0; k++) {
    bids.push({ priceMinor: p, volumeLots: 1 + (mix32(s.salt, s.n * 16 + k) % (20 + 10 * k)) });
    p = stepTicks(p, -1, s.kind);
  }
  p = s.askMinor;
  for (let k = 0; k < DEPTH_LEVELS && p <= s.upMinor; k++) {
    asks.push({ priceMinor: p, volumeLots: 1 + (mix32(s.salt, s.n * 16 + 8 + k) % (20 + 10 * k)) });
    p = stepTicks(p, 1, s.kind);
  }
  s.depth = { symbol: s.symbol, bids, asks, ts: s.quote.ts };
  s.depthN = s.n;
  return s.depth;
}

/**
 * Records a print into the bars; a bar it closes is passed to `closed` (its final state, a
 * copy) when given.
 */
export function addToBars(
  s: Sym,
  ts: number,
  price: number,
  shares: number,
  closed: ((symbol: string, period: '1m' | '3m' | '15m' | '30m', c: Candle) => void) | null,
): void {
  const minute = ts - (ts % 60_000);
  const last = s.bars[s.bars.length - 1];
  if (last && last.ts === minute) addToBar(last, price, shares);
  else {
    if (last && closed) closed(s.symbol, '1m', { ...last });
    s.bars.push(newBar(minute, price, shares));
    if (s.bars.length > STRESS_BARS) {
      s.bars.shift();
      s.dropped = true;
    }
  }
  for (const p of ['3m', '15m', '30m'] as const) {
    const periodMs = INTRADAY_PERIOD_MS[p];
    const start = ts - (ts % periodMs);
    const c = s.cur[p];
    if (c && c.ts === start) addToBar(c, price, shares);
    else {
      if (c && closed) closed(s.symbol, p, { ...c });
      s.cur[p] = newBar(start, price, shares);
    }
  }
}

/** The stress day `today` (YYYY-MM-DD) as a daily row. */
export function todayRow(s: Sym, today: string): DailyRow {
  return {
    date: today,
    openMinor: s.openMinor,
    highMinor: s.highMinor,
    lowMinor: s.lowMinor,
    closeMinor: s.lastMinor,
    volumeShares: s.volumeShares,
    turnoverMinor: s.turnoverMinor,
  };
}

/** Seeded reference price on the tick table (log-uniform NT$10–1,000, ETFs NT$10–150). */
export function seededRef(seed: number, symbol: string, kind: InstrumentKind): number {
  const r = createRng(seed, 'stress-ref', symbol);
  const hi = kind === 'etf' ? 15_000 : 100_000;
  return floorToTick(Math.round(1_000 * Math.exp(r.next() * Math.log(hi / 1_000))), kind);
}

/**
 * An instrument's state at start (wall time `t0`) around `refMinor`: a one-tick spread inside
 * the limits and a silent seeded opening print, so every instrument has a quote from the start.
 */
export function openSym(
  seed: number,
  u: { symbol: string; name: string; kind: InstrumentKind },
  refMinor: number,
  t0: number,
): Sym {
  const kind = u.kind;
  const opening = createRng(seed, 'stress-open', u.symbol);
  const shares = (1 + opening.int(50)) * SHARES_PER_LOT;
  const s: Sym = {
    symbol: u.symbol,
    name: u.name,
    kind,
    refMinor,
    upMinor: limitUpMinor(refMinor, kind),
    downMinor: limitDownMinor(refMinor, kind),
    bidMinor: refMinor,
    askMinor: stepTicks(refMinor, 1, kind),
    openMinor: refMinor,
    highMinor: refMinor,
    lowMinor: refMinor,
    lastMinor: refMinor,
    volumeShares: shares,
    turnoverMinor: refMinor * shares,
    n: 1,
    salt: hashSeed(seed, 'stress-book', u.symbol)[0],
    quote: undefined as unknown as Quote, // set below
    depth: null,
    depthN: -1,
    tape: new TradeRing(TRADES_RING),
    bars: [],
    dropped: false,
    cur: { '3m': null, '15m': null, '30m': null },
    touched: false,
  };
  if (s.askMinor > s.upMinor) {
    s.askMinor = s.upMinor;
    s.bidMinor = stepTicks(s.upMinor, -1, kind);
  }
  // The opening print, silent: every instrument has a quote from the start.
  s.quote = quoteOf(s, t0);
  s.tape.push({ ts: t0, priceMinor: refMinor, volumeShares: shares, side: null });
  addToBars(s, t0, refMinor, shares, null);
  return s;
}
