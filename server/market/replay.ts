/**
 * Replay source: a simulated continuous session that replays one real historical trading day of
 * one instrument, trade by trade.
 *
 * Inputs are real daily bars (daily_candles: open/high/low/close in TWD minor units, volume in
 * shares). The intraday path is *simulated* (no real tick data exists in the data set,
 * PROVENANCE §4 "Not found"), but pinned so the session's O/H/L/C and volume equal the real day's
 * exactly once it ends:
 *
 * - trade 0 at 09:00:00.000 (offset 0) at the real open; the last trade at 13:30:00.000
 *   (offset SESSION_MS) at the real close; one trade at the real high and one at the real low,
 *   at seeded random times (uniform over the session); every other trade on a piecewise Brownian bridge through those four
 *   anchors, reflected into [low, high] ∩ [limitDown, limitUp]; each trade prints at the valid
 *   price just above the path (a buyer lifting the ask) or just below it (a seller hitting the
 *   bid), seeded 50/50, on the instrument's tick table (contract/market-rules.ts,
 *   TW-MARKET-RULES "Tick size"): the bid-ask bounce of a real tape.
 *   Floats exist only inside this generator, before snapping; prices leave it as integers.
 * - trade times: an inhomogeneous Poisson process (U-shaped intensity, busier near the open and
 *   the close) with an expected count of one trade per lot (real tape: 0.6–2.1 lots a trade in
 *   TWSE STOCK_DAY 2025) clamped to 200…60,000 (and never more trades than lots).
 * - sizes: whole lots (TW-MARKET-RULES "Trading unit": 1 lot = 1,000 shares), at least 1 lot per
 *   trade, the opening and closing prints larger (auction-like); they sum exactly to the real
 *   volume_shares, the last trade taking the odd-share remainder when the volume is not a
 *   multiple of 1,000 (official volumes include odd-lot trades, PROVENANCE §2.1).
 *
 * Everything is a pure function of (seed, symbol, date) and the day's bar: same seed → same
 * trades, prices and book.
 *
 * Units: prices minor (1 NT$ = 100), sizes shares, offsets ms of market time after 09:00.
 */
import {
  ceilToTick,
  floorToTick,
  limitDownMinor,
  limitUpMinor,
  isOnTick,
  stepTicks,
  SHARES_PER_LOT,
  type InstrumentKind,
} from '../../contract/market-rules';
import type { DepthLevel } from '../../contract/market';
import { previousTradingDay, SESSION_MS } from './calendar';
import { createRng, hashSeed, mix32, type Rng } from './prng';

/** How many recent valid days each instrument cycles through. */
export const REPLAY_DAYS = 20;
/** Lower bound of the expected number of trades per session (fewer only when volume has fewer lots). */
export const MIN_TRADES = 200;
/**
 * Upper bound of the expected number of trades per session (Poisson: the actual count varies
 * ~±1 %): bounds memory (~36 bytes a trade) and the session build time.
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

/** A bar chosen for replay, with its reference price (the previous trading day's close) and limits. */
export interface ReplayDay extends DailyBar {
  prevCloseMinor: number;
  limitUpMinor: number;
  limitDownMinor: number;
}

/**
 * Picks the replay days of one instrument: the most recent `maxDays` bars (returned in date
 * order) such that
 * - the previous bar is the previous TWSE trading day (calendar.ts), so its close is the real
 *   reference price (prevCloseMinor);
 * - open/high/low/close lie within limitDown…limitUp computed from that close
 *   (TW-MARKET-RULES "Daily price limit", "Limit price rounding"). Ex-rights/ex-dividend days
 *   whose reference was adjusted (PROVENANCE §9) usually fail this and are skipped;
 * - prices are on the tick table, low ≤ open, close ≤ high, and the volume is at least 4 lots
 *   (room for the four anchor trades).
 *
 * @param bars the instrument's daily bars, ascending by date.
 */
export function selectReplayDays(
  bars: readonly DailyBar[],
  kind: InstrumentKind,
  maxDays = REPLAY_DAYS,
): ReplayDay[] {
  const out: ReplayDay[] = [];
  for (let i = bars.length - 1; i >= 1 && out.length < maxDays; i--) {
    const b = bars[i]!;
    const prev = bars[i - 1]!;
    if (prev.date !== previousTradingDay(b.date)) continue;
    const up = limitUpMinor(prev.closeMinor, kind);
    const down = limitDownMinor(prev.closeMinor, kind);
    const prices = [b.openMinor, b.highMinor, b.lowMinor, b.closeMinor];
    if (!prices.every((p) => p >= down && p <= up && isOnTick(p, kind))) continue;
    if (b.lowMinor > Math.min(b.openMinor, b.closeMinor) || b.highMinor < Math.max(b.openMinor, b.closeMinor))
      continue;
    if (!Number.isSafeInteger(b.volumeShares) || b.volumeShares < 4 * SHARES_PER_LOT) continue;
    out.push({ ...b, prevCloseMinor: prev.closeMinor, limitUpMinor: up, limitDownMinor: down });
  }
  return out.reverse();
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
  /** Trade size, shares (whole lots except the last trade's odd remainder). */
  shares: Float64Array;
  /** Cumulative volume (shares) after trade i. */
  cumVolume: Float64Array;
  /** Cumulative turnover Σ price × shares (minor) after trade i; exact (integers < 2^53). */
  cumTurnover: Float64Array;
  /** Running session high / low (minor) after trade i. */
  runHigh: Int32Array;
  runLow: Int32Array;
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

/** Interior trade times (ms in (0, SESSION_MS)), ascending, by thinning a Poisson process. */
function arrivalTimes(rng: Rng, expected: number): number[] {
  // intensity λ(t) = base · (1 + 2u²), u = 2t/T − 1: 3× busier at the edges than at midday.
  const T = SESSION_MS;
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
 * Throws if the day violates selectReplayDays' conditions.
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
  if (lots < 4) throw new RangeError(`${symbol} ${day.date}: volume below 4 lots`);

  const rng = createRng(seed, symbol, day.date, 'trades');

  // ---- times ----
  const expected = expectedTradeCount(day);
  const interior = arrivalTimes(rng, Math.max(2, expected - 2));
  while (interior.length > lots - 2) interior.splice(rng.int(interior.length), 1);
  while (interior.length < 2) interior.push(1 + rng.int(SESSION_MS - 1));
  interior.sort((a, b) => a - b);
  const n = interior.length + 2;
  const offsets = new Int32Array(n);
  offsets[0] = 0;
  for (let i = 0; i < interior.length; i++) offsets[i + 1] = interior[i]!;
  offsets[n - 1] = SESSION_MS;

  // ---- anchors: open at 0, high and low at the first trades after two uniform random times
  // (30 s … 269.5 min, so a spike does not land in the opening seconds by construction), close at n-1 ----
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
  const pickTime = () => 30_000 + rng.next() * (SESSION_MS - 60_000);
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
  const shares = new Float64Array(n);
  for (let i = 0; i < n; i++) shares[i] = lotSizes[i]! * SHARES_PER_LOT;
  shares[n - 1]! += volume - lots * SHARES_PER_LOT;

  // ---- cumulative statistics ----
  const cumVolume = new Float64Array(n);
  const cumTurnover = new Float64Array(n);
  const runHigh = new Int32Array(n);
  const runLow = new Int32Array(n);
  let v = 0;
  let tv = 0;
  let h = -Infinity;
  let l = Infinity;
  for (let i = 0; i < n; i++) {
    const p = prices[i]!;
    v += shares[i]!;
    tv += p * shares[i]!;
    if (p > h) h = p;
    if (p < l) l = p;
    cumVolume[i] = v;
    cumTurnover[i] = tv;
    runHigh[i] = h;
    runLow[i] = l;
  }
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
    cumVolume,
    cumTurnover,
    runHigh,
    runLow,
    highIndex,
    lowIndex,
    avgLots: lots / n,
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
