/**
 * `npm run bench:trigger` — the limit-order trigger engine's throughput (issue 5, item 9, second
 * figure; acceptance: it keeps up with 50,000 quotes/s against 100,000 resting orders).
 *
 * Setup: BENCH_ORDERS (100,000) resting limit orders over BENCH_SYMBOLS (2,000) symbols, each
 * symbol with a reference price between NT$10 and NT$1,000 (one in ten an ETF), every limit on the
 * tick table a few ticks away from the market (longs below the bid, shorts above the ask, denser
 * near the touch). A seeded stream of BENCH_QUOTES (2,000,000) quotes is generated beforehand: a
 * random symbol each time, its bid a tick random walk kept within ±10 % of the reference (the
 * daily limits), the ask one or two ticks above. Most quotes trigger nothing; a walk to a new
 * level triggers the orders it crosses.
 *
 * Measured, on the same stream: for every quote, `TriggerIndex.take` (what engine.ts's onQuote
 * does before queueing the fills), timed per quote; each triggered order is then replaced by a
 * new one on the same side a few ticks away from the quote, so the book stays at BENCH_ORDERS
 * throughout. Printed: quote-processing rate (quotes / total take time), the whole loop's rate
 * (wall clock, including the replacements and the timers), per-quote p50/p99/p99.9/max in µs,
 * and how many quotes triggered something.
 *
 * Baseline, same run: the naive engine that scans all resting orders on every quote (the
 * alternative issue 5 rules out), over the first BENCH_BASELINE_QUOTES (2,000) quotes of the same
 * stream with the same replacements; its rate and the ratio of ours to it. Both engines must
 * trigger the same orders in the same order over those quotes (checked, the run fails otherwise).
 * The verdict: KEEPS UP when the whole loop's rate is ≥ 50,000 quotes/s (exit code 1 otherwise).
 *
 * Environment: BENCH_ORDERS, BENCH_SYMBOLS, BENCH_QUOTES, BENCH_BASELINE_QUOTES, BENCH_SEED (1),
 * BENCH_SMOKE (1: 5,000 orders, 200 symbols, 50,000 quotes, baseline 500 — a few seconds, for
 * `npm run bench:smoke`; fails only when the engines disagree or nothing triggers).
 */
import { performance } from 'node:perf_hooks';
import { floorToTick, stepTicks, type InstrumentKind } from '../../contract/market-rules';
import { createRng } from '../../server/market/prng';
import { TriggerIndex, type RestingOrder } from '../../server/modules/trading/trigger-index';

const env = process.env;
const num = (v: string | undefined, dflt: number) => (v && Number.isFinite(Number(v)) ? Number(v) : dflt);
/** BENCH_SMOKE=1: tiny sizes, the engines' agreement checked, the throughput target not judged. */
const SMOKE = env.BENCH_SMOKE === '1';
const N_ORDERS = num(env.BENCH_ORDERS, SMOKE ? 5_000 : 100_000);
const N_SYMBOLS = num(env.BENCH_SYMBOLS, SMOKE ? 200 : 2_000);
const N_QUOTES = num(env.BENCH_QUOTES, SMOKE ? 50_000 : 2_000_000);
const N_BASELINE = Math.min(N_QUOTES, num(env.BENCH_BASELINE_QUOTES, SMOKE ? 500 : 2_000));
const SEED = env.BENCH_SEED ?? '1';
const TARGET_QUOTES_PER_S = 50_000;

/** The engine's view of the index: what the benchmark drives (ours, or the full-scan baseline). */
interface TriggerBook {
  add(o: RestingOrder): void;
  take(symbol: string, bidMinor: number, askMinor: number): RestingOrder[];
}

/** The baseline: every quote scans every resting order; hits sorted in price-time priority. */
class FullScan implements TriggerBook {
  private orders: RestingOrder[] = [];
  get size(): number {
    return this.orders.length;
  }
  add(o: RestingOrder): void {
    this.orders.push(o);
  }
  take(symbol: string, bidMinor: number, askMinor: number): RestingOrder[] {
    const list = this.orders;
    const hits: RestingOrder[] = [];
    for (let i = list.length - 1; i >= 0; i--) {
      const o = list[i]!;
      if (o.symbol !== symbol) continue;
      if (o.side === 'long' ? askMinor <= o.limitPriceMinor : bidMinor >= o.limitPriceMinor) {
        hits.push(o);
        list[i] = list[list.length - 1]!; // already visited: swap-remove is safe going down
        list.pop();
      }
    }
    return hits.sort((a, b) =>
      a.side !== b.side
        ? a.side === 'long'
          ? -1
          : 1
        : a.side === 'long'
          ? b.limitPriceMinor - a.limitPriceMinor || a.id - b.id
          : a.limitPriceMinor - b.limitPriceMinor || a.id - b.id,
    );
  }
}

// ---------- the market: symbols, resting orders, the quote stream (all seeded) ----------

interface Sym {
  name: string;
  kind: InstrumentKind;
  refMinor: number;
}

const rng = createRng('trigger-bench', SEED);
/** Ticks between the market and a resting limit: 1 + exponential (mean 20), so denser near it. */
const awayTicks = (r: { exp(): number }) => 1 + Math.floor(r.exp() * 20);

const symbols: Sym[] = Array.from({ length: N_SYMBOLS }, (_, i) => {
  const kind: InstrumentKind = rng.next() < 0.1 ? 'etf' : 'stock';
  const refMinor = floorToTick(Math.floor(1_000 * Math.pow(100, rng.next())), kind); // NT$10–1,000
  return { name: String(1101 + i), kind, refMinor };
});

const initialOrders: RestingOrder[] = Array.from({ length: N_ORDERS }, (_, i) => {
  const s = symbols[rng.int(N_SYMBOLS)]!;
  const side = rng.next() < 0.5 ? 'long' : 'short';
  const bid = s.refMinor;
  const ask = stepTicks(bid, 1, s.kind);
  const limitPriceMinor =
    side === 'long' ? stepTicks(bid, -awayTicks(rng), s.kind) : stepTicks(ask, awayTicks(rng), s.kind);
  return { id: i + 1, symbol: s.name, side, limitPriceMinor };
});

const qSym = new Int32Array(N_QUOTES);
const qBid = new Int32Array(N_QUOTES);
const qAsk = new Int32Array(N_QUOTES);
{
  const bid = symbols.map((s) => s.refMinor);
  for (let i = 0; i < N_QUOTES; i++) {
    const k = rng.int(N_SYMBOLS);
    const s = symbols[k]!;
    const r = rng.next();
    let step = r < 0.2 ? 1 : r < 0.4 ? -1 : 0; // most quotes change size, not price
    const b = bid[k]!;
    if (b >= s.refMinor * 1.1)
      step = -1; // stay within the daily limits
    else if (b <= s.refMinor * 0.9) step = 1;
    bid[k] = stepTicks(b, step, s.kind);
    qSym[i] = k;
    qBid[i] = bid[k]!;
    qAsk[i] = stepTicks(bid[k]!, rng.next() < 0.8 ? 1 : 2, s.kind);
  }
}
const symbolNames = symbols.map((s) => s.name);

// ---------- the driver ----------

interface Run {
  quotes: number;
  /** per-quote take time, ms */
  lat: Float64Array;
  wallMs: number;
  triggered: number;
  quotesWithHits: number;
  maxHits: number;
  /** hash of the triggered ids, in order, over the first N_BASELINE quotes */
  checksum: number;
  triggeredInBaseline: number;
  restingAtEnd: number;
}

function drive(book: TriggerBook, quotes: number, size: () => number): Run {
  for (const o of initialOrders) book.add(o);
  const refill = createRng('trigger-bench-refill', SEED); // same replacements for both engines
  let nextId = N_ORDERS + 1;
  const lat = new Float64Array(quotes);
  let triggered = 0;
  let quotesWithHits = 0;
  let maxHits = 0;
  let checksum = 0;
  let triggeredInBaseline = 0;
  const t0 = performance.now();
  for (let i = 0; i < quotes; i++) {
    const k = qSym[i]!;
    const bid = qBid[i]!;
    const ask = qAsk[i]!;
    const a = performance.now();
    const hits = book.take(symbolNames[k]!, bid, ask);
    lat[i] = performance.now() - a;
    if (hits.length === 0) continue;
    quotesWithHits++;
    triggered += hits.length;
    if (hits.length > maxHits) maxHits = hits.length;
    const kind = symbols[k]!.kind;
    for (const h of hits) {
      if (i < N_BASELINE) {
        checksum = (Math.imul(checksum, 31) + h.id) | 0;
        triggeredInBaseline++;
      }
      const limitPriceMinor =
        h.side === 'long'
          ? stepTicks(bid, -awayTicks(refill), kind)
          : stepTicks(ask, awayTicks(refill), kind);
      book.add({ id: nextId++, symbol: h.symbol, side: h.side, limitPriceMinor });
    }
  }
  const wallMs = performance.now() - t0;
  return {
    quotes,
    lat,
    wallMs,
    triggered,
    quotesWithHits,
    maxHits,
    checksum,
    triggeredInBaseline,
    restingAtEnd: size(),
  };
}

function summary(r: Run) {
  const sorted = Float64Array.from(r.lat).sort();
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 1_000;
  const takeMs = r.lat.reduce((a, b) => a + b, 0);
  return {
    perSecond: r.quotes / (takeMs / 1_000),
    loopPerSecond: r.quotes / (r.wallMs / 1_000),
    p50us: q(0.5),
    p99us: q(0.99),
    p999us: q(0.999),
    maxUs: sorted[sorted.length - 1]! * 1_000,
  };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

console.log(
  `trigger bench: ${fmt(N_ORDERS)} resting limit orders, ${fmt(N_SYMBOLS)} symbols, ` +
    `${fmt(N_QUOTES)} quotes (baseline: first ${fmt(N_BASELINE)}), seed ${SEED}, node ${process.version}`,
);

const index = new TriggerIndex();
const ours = drive(index, N_QUOTES, () => index.size);
const o = summary(ours);
const scan = new FullScan();
const base = drive(scan, N_BASELINE, () => scan.size);
const b = summary(base);

console.log(
  `\nTriggerIndex (ours): ${fmt(o.perSecond)} quotes/s processed (take), ` +
    `${fmt(o.loopPerSecond)} quotes/s whole loop (incl. replacing triggered orders)`,
);
console.log(
  `  per quote: p50 ${fmt(o.p50us, 2)} µs · p99 ${fmt(o.p99us, 2)} µs · p99.9 ${fmt(o.p999us, 2)} µs · ` +
    `max ${fmt(o.maxUs, 1)} µs`,
);
console.log(
  `  ${fmt((100 * ours.quotesWithHits) / ours.quotes, 2)} % of quotes triggered orders ` +
    `(${fmt(ours.triggered)} orders in all, at most ${ours.maxHits} by one quote); ` +
    `${fmt(ours.restingAtEnd)} resting at the end`,
);
console.log(
  `Full scan (baseline): ${fmt(b.perSecond)} quotes/s processed · p99 ${fmt(b.p99us, 1)} µs ` +
    `(${fmt(base.triggeredInBaseline)} orders triggered over ${fmt(N_BASELINE)} quotes)`,
);
console.log(`Ratio ours / full scan: ${fmt(o.perSecond / b.perSecond, 1)}×`);

const same = ours.checksum === base.checksum && ours.triggeredInBaseline === base.triggeredInBaseline;
if (!same) console.log('MISMATCH: the index and the full scan triggered different orders');
const keepsUp = o.loopPerSecond >= TARGET_QUOTES_PER_S;
console.log(
  `\n${keepsUp ? 'KEEPS UP' : 'DOES NOT KEEP UP'} with ${fmt(TARGET_QUOTES_PER_S)} quotes/s against ` +
    `${fmt(N_ORDERS)} resting orders (whole loop ${fmt(o.loopPerSecond)} quotes/s = ` +
    `${fmt(o.loopPerSecond / TARGET_QUOTES_PER_S, 1)}× the target; p99 ${fmt(o.p99us, 2)} µs of the ` +
    `${fmt(1e6 / TARGET_QUOTES_PER_S)} µs budget per quote)`,
);
if (SMOKE) console.log('smoke run (BENCH_SMOKE=1): the target is not judged, only the engines agreeing');
if ((!keepsUp && !SMOKE) || !same || ours.restingAtEnd !== N_ORDERS || ours.triggered === 0)
  process.exitCode = 1;
