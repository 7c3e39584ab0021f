/**
 * Replay source: a simulated continuous session that replays one real historical trading day of
 * one instrument, trade by trade.
 *
 * Inputs are real daily bars (daily_candles: open/high/low/close in TWD minor units, volume in
 * shares). The intraday path is *simulated* (no real tick data exists in the data set,
 * PROVENANCE §4 "Not found"), but pinned so the session's O/H/L/C and volume equal the real day's
 * exactly once it ends:
 *
 * - trade 0 at 09:00:00.000 (offset 0) at the real open: the opening call's print; the last
 *   trade at 13:30:00.000 (offset SESSION_MS) at the real close: the closing call's single print
 *   (no continuous prints in the closing call 13:25–13:30, TW-MARKET-RULES "Opening and
 *   closing"); one trade at the real high and one at the real low, at seeded random times
 *   (uniform over the continuous session); every other trade on a piecewise Brownian bridge through those four
 *   anchors, reflected into [low, high] ∩ [limitDown, limitUp]; each trade prints at the valid
 *   price just above the path (a buyer lifting the ask) or just below it (a seller hitting the
 *   bid), seeded 50/50, on the instrument's tick table (contract/market-rules.ts,
 *   TW-MARKET-RULES "Tick size"): the bid-ask bounce of a real tape.
 *   Floats exist only inside this generator, before snapping; prices leave it as integers.
 * - trade times: an inhomogeneous Poisson process over 09:00–13:25 (U-shaped intensity, busier
 *   near the open and the close) with an expected count of one trade per lot (real tape: 0.6–2.1 lots a trade in
 *   TWSE STOCK_DAY 2025) clamped to 200…60,000 (and never more trades than lots).
 * - sizes: whole lots (TW-MARKET-RULES "Trading unit": 1 lot = 1,000 shares), at least 1 lot per
 *   trade, the opening and closing prints larger (auction-like); they sum exactly to the real
 *   volume_shares, the last trade taking the odd-share remainder when the volume is not a
 *   multiple of 1,000 (official volumes include odd-lot trades, PROVENANCE §2.1). A thin day
 *   with fewer lots than the four anchor prints (4,628 of the window's 163,942 rows; the smallest
 *   volume is 100 shares) prints four trades that split the volume in shares.
 * - memory: 12 bytes a trade (Int32 offsets, prices, shares); running totals (volume, turnover,
 *   high, low) are the consumer's (the feed keeps them at its cursor; sessionStats recomputes).
 *
 * Everything is a pure function of (seed, symbol, date) and the day's bar: same seed → same
 * trades, prices and book.
 *
 * Units: prices minor (1 NT$ = 100), sizes shares, offsets ms of market time after 09:00.
 */
import {
  ceilToTick,
  floorToTick,
  stepTicks,
  SHARES_PER_LOT,
  type InstrumentKind,
} from '../../contract/market-rules';
import type { DepthLevel } from '../../contract/market';
import { SESSION_MS } from './calendar';
import { createRng, hashSeed, mix32, type Rng } from './prng';

/** Lower bound of the expected number of trades per session (fewer only when volume has fewer lots). */
export const MIN_TRADES = 200;
/**
 * Upper bound of the expected number of trades per session (Poisson: the actual count varies
 * ~±1 %): bounds memory (12 bytes a trade) and the session build time.
 */
export const MAX_TRADES = 60_000;
/**
 * Lots per expected trade before clamping to MIN_TRADES…MAX_TRADES. Real tape is about one lot
 * a trade: TWSE STOCK_DAY 2025 medians are 0.6 (2330) to 2.1 (2412) lots per trade, odd lots
 * included. A sparser tape would leave the last price still for long stretches.
 */
const LOTS_PER_TRADE = 1;
/** Book depth published (TW-MARKET-RULES "MIS realtime quotes": 5-level book). */
export const DEPTH_LEVELS = 5;

/** A real daily bar (one row of daily_candles). Prices minor, volume shares. */
export interface DailyBar {
  date: string;
  openMinor: number;
  highMinor: number;
  lowMinor: number;
  closeMinor: number;
  volumeShares: number;
}

/**
 * A bar chosen for replay, with its reference price (`prevCloseMinor`: reference.ts dayReference,
 * the previous close or the exchange's adjusted reference) and the published limits (a day
 * without daily limits: reference.ts NO_LIMIT_BAND).
 */
export interface ReplayDay extends DailyBar {
  /** The day's real turnover (TWD minor; daily_candles), null where the source has none. */
  turnoverMinor: number | null;
  prevCloseMinor: number;
  limitUpMinor: number;
  limitDownMinor: number;
}

/** The trades of one replayed session, as parallel arrays indexed by trade number. */
export interface ReplaySession {
  seed: number;
  symbol: string;
  kind: InstrumentKind;
  day: ReplayDay;
  /** Number of trades. */
  count: number;
  /** ms of market time after 09:00, non-decreasing; [0] = 0, [count-1] = SESSION_MS. */
  offsets: Int32Array;
  /** Trade price, minor, on the tick table (Int32: up to NT$21,474,836.47). */
  prices: Int32Array;
  /** Trade size, shares (whole lots except the last trade's odd remainder and thin days). */
  shares: Int32Array;
  /** Indices of the trades pinned at the real high and low. */
  highIndex: number;
  lowIndex: number;
  /** Average trade size in lots (for book volumes). */
  avgLots: number;
  /** 32-bit word derived from (seed, symbol, date) for per-trade decisions. */
  salt: number;
}

/** The tick above (buyer) or below (seller) a continuous price x, inside [lo, hi]. */
function bounce(x: number, lo: number, hi: number, kind: InstrumentKind, buyer: boolean): number {
  if (x <= lo) return lo;
  if (x >= hi) return hi;
  const p = buyer ? ceilToTick(Math.ceil(x), kind) : floorToTick(Math.floor(x), kind);
  return p < lo ? lo : p > hi ? hi : p;
}

/** Folds x into [lo, hi] by reflection at the edges (period 2·(hi − lo)). */
function reflect(x: number, lo: number, hi: number): number {
  const w = hi - lo;
  if (w <= 0) return lo;
  let y = (x - lo) % (2 * w);
  if (y < 0) y += 2 * w;
  return lo + (y <= w ? y : 2 * w - y);
}

/** Market ms after 09:00 when the closing call starts (13:25): no continuous prints from here. */
export const CLOSING_CALL_MS = SESSION_MS - 5 * 60_000;

/** Interior trade times (ms in (0, CLOSING_CALL_MS)), ascending, by thinning a Poisson process. */
function arrivalTimes(rng: Rng, expected: number): number[] {
  // intensity λ(t) = base · (1 + 2u²), u = 2t/T − 1: 3× busier at the edges than at midday.
  const T = CLOSING_CALL_MS;
  const base = expected / (T * (5 / 3));
  const lambdaMax = 3 * base;
  const out: number[] = [];
  let t = 0;
  for (;;) {
    t += rng.exp() / lambdaMax;
    if (t >= T) break;
    const u = (2 * t) / T - 1;
    if (rng.next() * 3 < 1 + 2 * u * u) {
      const ms = Math.min(T - 1, Math.max(1, Math.round(t)));
      out.push(ms);
    }
  }
  return out;
}

/**
 * Expected number of trades of a day's session (the Poisson mean the build aims at: one per lot,
 * clamped to MIN_TRADES…MAX_TRADES and never more than the lots). The built session's count is
 * within about ±1 % of it; the feed uses it to budget session builds per tick before building.
 */
export function expectedTradeCount(day: Pick<DailyBar, 'volumeShares'>): number {
  const lots = Math.floor(day.volumeShares / SHARES_PER_LOT);
  return Math.min(lots, Math.max(MIN_TRADES, Math.min(MAX_TRADES, Math.round(lots / LOTS_PER_TRADE))));
}

/**
 * Builds the deterministic session for (seed, symbol, day). O(trades); MAX_TRADES at most.
 * Throws RangeError when the real OHLC lies outside the day's published limits (reference.ts
 * never publishes such a day), when a price exceeds Int32, or when the volume is under 4 shares.
 */
export function buildSession(args: {
  seed: number;
  symbol: string;
  kind: InstrumentKind;
  day: ReplayDay;
}): ReplaySession {
  const { seed, symbol, kind, day } = args;
  const O = day.openMinor;
  const H = day.highMinor;
  const L = day.lowMinor;
  const C = day.closeMinor;
  const lo = Math.max(L, day.limitDownMinor);
  const hi = Math.min(H, day.limitUpMinor);
  if (!(lo <= O && O <= hi && lo <= C && C <= hi && lo === L && hi === H)) {
    throw new RangeError(`${symbol} ${day.date}: OHLC outside the daily limits`);
  }
  if (H > 0x7fffffff) throw new RangeError(`${symbol} ${day.date}: price exceeds the Int32 price arrays`);
  const volume = day.volumeShares;
  const lots = Math.floor(volume / SHARES_PER_LOT);
  if (!Number.isSafeInteger(volume) || volume < 4)
    throw new RangeError(`${symbol} ${day.date}: volume below 4 shares`);

  const rng = createRng(seed, symbol, day.date, 'trades');

  // ---- times ----
  const expected = expectedTradeCount(day);
  const interior = arrivalTimes(rng, Math.max(2, expected - 2));
  const maxInterior = Math.max(2, lots - 2);
  if (interior.length > maxInterior) {
    // Thin to maxInterior by a seeded partial shuffle (one splice each would be O(n²)).
    for (let i = 0; i < maxInterior; i++) {
      const j = i + rng.int(interior.length - i);
      const t = interior[i]!;
      interior[i] = interior[j]!;
      interior[j] = t;
    }
    interior.length = maxInterior;
  }
  while (interior.length < 2) interior.push(1 + rng.int(CLOSING_CALL_MS - 1));
  interior.sort((a, b) => a - b);
  const n = interior.length + 2;
  const offsets = new Int32Array(n);
  offsets[0] = 0;
  for (let i = 0; i < interior.length; i++) offsets[i + 1] = interior[i]!;
  offsets[n - 1] = SESSION_MS;

  // ---- anchors: open at 0, high and low at the first trades after two uniform random times
  // (30 s … 264.5 min, so a spike does not land in the opening seconds by construction), close at n-1 ----
  const interiorAt = (t: number): number => {
    let lo = 1;
    let hi = n - 2;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (offsets[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const pickTime = () => 30_000 + rng.next() * (CLOSING_CALL_MS - 60_000);
  const a = interiorAt(pickTime());
  let b = interiorAt(pickTime());
  if (b === a) b = a < n - 2 ? a + 1 : a - 1;
  const highFirst = rng.next() < 0.5;
  const [i1, i2] = a < b ? [a, b] : [b, a];
  const highIndex = highFirst ? i1 : i2;
  const lowIndex = highFirst ? i2 : i1;
  const anchors: Array<[number, number]> = [
    [0, O],
    [i1, highFirst ? H : L],
    [i2, highFirst ? L : H],
    [n - 1, C],
  ];

  // ---- path: Brownian bridges between consecutive anchors, reflected, snapped ----
  const prices = new Int32Array(n);
  const sigma = (0.6 * (H - L)) / Math.sqrt(SESSION_MS); // minor per √ms
  for (let s = 0; s < anchors.length - 1; s++) {
    const [ja, xa] = anchors[s]!;
    const [jb, xb] = anchors[s + 1]!;
    prices[ja] = xa;
    prices[jb] = xb;
    const tb = offsets[jb]!;
    let tPrev = offsets[ja]!;
    let x = xa;
    for (let j = ja + 1; j < jb; j++) {
      const t = offsets[j]!;
      const rem = tb - tPrev;
      if (rem <= 0) {
        x = xb;
      } else {
        const dt = t - tPrev;
        const mean = x + ((xb - x) * dt) / rem;
        const sd = sigma * Math.sqrt((dt * (tb - t)) / rem);
        x = mean + sd * rng.normal();
      }
      tPrev = t;
      // Bid-ask bounce: a buyer lifts the ask (the tick above the path), a seller hits the bid
      // (the tick below), so the last price flickers between the two as on a real tape.
      prices[j] = bounce(reflect(x, lo, hi), lo, hi, kind, rng.next() < 0.5);
    }
  }

  // ---- sizes: ≥ 1 lot each, remainder by random weights; odd shares to the last trade ----
  const shares = new Int32Array(n);
  if (lots >= n) {
    const weights = new Float64Array(n);
    let wsum = 0;
    for (let i = 0; i < n; i++) {
      const w = rng.exp() * (i === 0 ? 25 : i === n - 1 ? 40 : 1);
      weights[i] = w;
      wsum += w;
    }
    const lotSizes = new Float64Array(n).fill(1);
    const extra = lots - n;
    let given = 0;
    for (let i = 0; i < n; i++) {
      const add = Math.floor((extra * weights[i]!) / wsum);
      lotSizes[i]! += add;
      given += add;
    }
    for (let r = extra - given; r > 0; r--) lotSizes[rng.int(n)]! += 1;
    for (let i = 0; i < n; i++) shares[i] = lotSizes[i]! * SHARES_PER_LOT;
    shares[n - 1]! += volume - lots * SHARES_PER_LOT;
  } else {
    // Thin day: fewer lots than prints; equal shares, the remainder to the closing print.
    const each = Math.floor(volume / n);
    shares.fill(each);
    shares[n - 1] = volume - each * (n - 1);
  }
  if (shares.some((v) => v <= 0 || v > 0x7fffffff))
    throw new RangeError(`${symbol} ${day.date}: trade size outside the Int32 share array`);
  let tv = 0;
  for (let i = 0; i < n; i++) tv += prices[i]! * shares[i]!;
  if (!Number.isSafeInteger(tv)) throw new RangeError(`${symbol} ${day.date}: turnover exceeds 2^53`);

  return {
    seed,
    symbol,
    kind,
    day,
    count: n,
    offsets,
    prices,
    shares,
    highIndex,
    lowIndex,
    avgLots: Math.max(lots, 1) / n,
    salt: hashSeed(seed, symbol, day.date, 'book')[0],
  };
}

/**
 * Best bid and ask after trade i (minor). The trade printed at one side of a one-tick spread:
 * an uptick hit the ask (ask = last, bid one tick below), a downtick hit the bid (bid = last,
 * ask one tick above), an unchanged price picks a side by a seeded coin. At limit-up the last is
 * the ask (no price above it); at limit-down the last is the bid. So bid < ask, bid ≤ last ≤ ask,
 * and both stay within [limitDown, limitUp].
 */
export function bookAt(s: ReplaySession, i: number): { bidMinor: number; askMinor: number } {
  const last = s.prices[i]!;
  const { limitUpMinor: up, limitDownMinor: down } = s.day;
  const prev = i > 0 ? s.prices[i - 1]! : s.day.prevCloseMinor;
  let lastIsAsk: boolean;
  if (last >= up) lastIsAsk = true;
  else if (last <= down) lastIsAsk = false;
  else if (last !== prev) lastIsAsk = last > prev;
  else lastIsAsk = (mix32(s.salt, i) & 1) === 1;
  return lastIsAsk
    ? { bidMinor: stepTicks(last, -1, s.kind), askMinor: last }
    : { bidMinor: last, askMinor: stepTicks(last, 1, s.kind) };
}

/**
 * Five-level book after trade i: bids best (highest) first, asks best (lowest) first, each level
 * one tick from the previous (stepTicks, crossing tick bands correctly), none beyond
 * limitUp/limitDown (fewer levels there). Volumes in lots, seeded by (seed, symbol, date, i):
 * exponential with a mean of ~4 average trades, growing with depth.
 */
export function depthAt(s: ReplaySession, i: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
  const { bidMinor, askMinor } = bookAt(s, i);
  const rng = createRng(s.salt, i);
  const mean = Math.max(1, s.avgLots * 4);
  const bids: DepthLevel[] = [];
  const asks: DepthLevel[] = [];
  for (let k = 0; k < DEPTH_LEVELS; k++) {
    const p = stepTicks(bidMinor, -k, s.kind);
    if (p < s.day.limitDownMinor || p <= 0) break;
    bids.push({ priceMinor: p, volumeLots: 1 + Math.floor(rng.exp() * mean * (1 + 0.3 * k)) });
  }
  for (let k = 0; k < DEPTH_LEVELS; k++) {
    const p = stepTicks(askMinor, k, s.kind);
    if (p > s.day.limitUpMinor) break;
    asks.push({ priceMinor: p, volumeLots: 1 + Math.floor(rng.exp() * mean * (1 + 0.3 * k)) });
  }
  return { bids, asks };
}

/** Index of the last trade with offset ≤ offsetMs (−1 if none), by binary search. */
export function lastTradeAt(s: ReplaySession, offsetMs: number): number {
  let lo = 0;
  let hi = s.count - 1;
  if (s.offsets[0]! > offsetMs) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (s.offsets[mid]! <= offsetMs) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Running totals after trades [0, end): volume (shares), turnover (minor), high and low (minor). */
export interface SessionStats {
  volumeShares: number;
  turnoverMinor: number;
  highMinor: number;
  lowMinor: number;
}

/** SessionStats of the first `end` trades, recomputed in O(end) (tests and rebuilds). */
export function sessionStats(s: ReplaySession, end: number): SessionStats {
  let v = 0;
  let tv = 0;
  let h = 0;
  let l = 0;
  for (let i = 0; i < end; i++) {
    const p = s.prices[i]!;
    v += s.shares[i]!;
    tv += p * s.shares[i]!;
    if (i === 0 || p > h) h = p;
    if (i === 0 || p < l) l = p;
  }
  return { volumeShares: v, turnoverMinor: tv, highMinor: h, lowMinor: l };
}
