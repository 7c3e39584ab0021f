/**
 * Seeded fuzz of the limit-order trigger index (server/modules/trading/trigger-index.ts), after
 * tldraw's recordStoreFuzzing: a random sequence of operations is applied both to a TriggerIndex
 * and to a plain array of resting orders, and after every operation the two must agree.
 *
 * Operations, as the trading engine issues them (engine.ts): `add` a new resting order (limit
 * prices on the tick table, clustered near the symbol's price so several orders share a price),
 * `add` an id already resting (ignored), `remove` on cancel (of a resting id, or of one that is
 * not resting: false), re-`add` of an order a quote took (the engine's retry after a failed fill,
 * same object and id), and `take` on a quote. The index removes what `take` returns (the engine
 * never calls `remove` for triggered orders), so the model drops exactly those orders.
 *
 * The model's answer to a quote is a full scan: longs with ask ≤ limit, sorted by limit
 * descending then id ascending, followed by shorts with bid ≥ limit, sorted by limit ascending
 * then id ascending (the price-time priority `take` promises; time = id, as ids are the orders
 * table's serial). Quotes include one-tick spreads, bid = ask, a crossed quote now and then, and a
 * symbol with no orders. Pinned seeds cover edges; a failing seed is named in the message so it
 * can be pinned.
 */
import { describe, expect, it } from 'vitest';
import { floorToTick, stepTicks, tickSizeMinor, type InstrumentKind } from '../../contract/market-rules';
import { createRng, type Rng } from '../../server/market/prng';
import { TriggerIndex, type RestingOrder } from '../../server/modules/trading/trigger-index';

interface Sym {
  name: string;
  kind: InstrumentKind;
  /** current mid price (minor units, on the tick table) */
  midMinor: number;
}

/** What a seed exercised (so pinned seeds can assert their edge is still there). */
interface Stats {
  ops: number;
  quotes: number;
  maxTaken: number;
  /** takes that returned two orders of one side at the same price (time priority decided) */
  priceTies: number;
  /** takes that returned longs and shorts together (a crossed or zero-spread quote) */
  bothSides: number;
  /** re-added (retried) orders later taken again */
  retakes: number;
  removesMissing: number;
  duplicateAdds: number;
  /** adjacent same-price orders taken in id order against their insertion order (a retry) */
  idBeforeInsertion: number;
  /** takes whose orders' limits lie in two tick-size bands */
  bandStraddles: number;
}

/** Full scan of the model in the priority `take` promises. */
function scan(model: RestingOrder[], symbol: string, bidMinor: number, askMinor: number): RestingOrder[] {
  const longs = model
    .filter((o) => o.symbol === symbol && o.side === 'long' && askMinor > 0 && askMinor <= o.limitPriceMinor)
    .sort((a, b) => b.limitPriceMinor - a.limitPriceMinor || a.id - b.id);
  const shorts = model
    .filter((o) => o.symbol === symbol && o.side === 'short' && bidMinor > 0 && bidMinor >= o.limitPriceMinor)
    .sort((a, b) => a.limitPriceMinor - b.limitPriceMinor || a.id - b.id);
  return [...longs, ...shorts];
}

function makeSymbols(rng: Rng): Sym[] {
  // A few symbols near tick-band edges (10, 50, 100, 500, 1000 TWD; ETFs at 50), one anywhere.
  const edges = [1_000, 5_000, 10_000, 50_000, 100_000];
  const syms: Sym[] = [];
  for (let i = 0; i < 4; i++) {
    const kind: InstrumentKind = i === 3 ? 'etf' : 'stock';
    const near = kind === 'etf' ? 5_000 : edges[rng.int(edges.length)]!;
    const raw = i === 0 ? 200 + rng.int(150_000) : near - 40 + rng.int(80);
    syms.push({ name: `${2330 + i}`, kind, midMinor: floorToTick(raw, kind) });
  }
  return syms;
}

const ids = (list: RestingOrder[]) => list.map((o) => `${o.id}:${o.side}@${o.limitPriceMinor}`);

/** Runs `nOps` random operations for one seed, checking the index against the model throughout. */
function checkSeed(seed: number, nOps = 1_000): Stats {
  const rng = createRng('trigger-fuzz', seed);
  const syms = makeSymbols(rng);
  const index = new TriggerIndex();
  let model: RestingOrder[] = [];
  const taken: RestingOrder[] = []; // orders a quote took (candidates for a retry re-add)
  const retried = new Set<number>();
  let nextId = 1 + rng.int(1_000);
  const stats: Stats = {
    ops: 0,
    quotes: 0,
    maxTaken: 0,
    priceTies: 0,
    bothSides: 0,
    retakes: 0,
    removesMissing: 0,
    duplicateAdds: 0,
    idBeforeInsertion: 0,
    bandStraddles: 0,
  };
  const addedAt = new Map<number, number>(); // id → op of its latest insertion
  // Phases: sometimes the book grows (more adds), sometimes quotes dominate.
  let addWeight = 0.5;
  for (let op = 0; op < nOps; op++) {
    const where = `seed ${seed}, op ${op}`;
    if (op % 100 === 0) addWeight = 0.2 + 0.5 * rng.next();
    const r = rng.next();
    const sym = syms[rng.int(syms.length)]!;
    if (r < addWeight) {
      // a new resting order, a few ticks either side of the mid (often the same price as others)
      const side = rng.next() < 0.5 ? 'long' : 'short';
      const off = rng.int(9) - 4 + (side === 'long' ? -1 : 1);
      const o: RestingOrder = {
        id: nextId,
        symbol: sym.name,
        side,
        limitPriceMinor: Math.max(1, stepTicks(sym.midMinor, off, sym.kind)),
      };
      nextId += 1 + (rng.next() < 0.1 ? rng.int(5) : 0); // serial ids, with gaps (rolled back)
      index.add(o);
      model.push(o);
      addedAt.set(o.id, op);
    } else if (r < addWeight + 0.03 && model.length > 0) {
      // an id already resting, with other fields: ignored
      const old = model[rng.int(model.length)]!;
      index.add({ ...old, limitPriceMinor: old.limitPriceMinor + 1, side: 'long' });
      stats.duplicateAdds++;
    } else if (r < addWeight + 0.15) {
      // cancel: mostly a resting order, sometimes one that is gone or never existed
      let id: number;
      if (model.length > 0 && rng.next() < 0.8) id = model[rng.int(model.length)]!.id;
      else if (taken.length > 0 && rng.next() < 0.5) id = taken[rng.int(taken.length)]!.id;
      else id = nextId + 1 + rng.int(10);
      const present = model.some((o) => o.id === id);
      if (!present) stats.removesMissing++;
      expect(index.remove(id), `${where}: remove(${id})`).toBe(present);
      model = model.filter((o) => o.id !== id);
    } else if (r < addWeight + 0.2 && taken.length > 0) {
      // the engine's retry: a taken order goes back into the index (same object and id)
      const o = taken.splice(rng.int(taken.length), 1)[0]!;
      index.add(o);
      if (!model.some((m) => m.id === o.id)) model.push(o);
      retried.add(o.id);
      addedAt.set(o.id, op);
    } else {
      // a quote: usually the mid moves a tick or two, the spread is one tick (sometimes zero or
      // crossed); now and then a symbol with no orders at all
      stats.quotes++;
      sym.midMinor = Math.max(10, stepTicks(sym.midMinor, rng.int(5) - 2, sym.kind));
      let bid = sym.midMinor;
      let ask = stepTicks(bid, 1, sym.kind);
      const s = rng.next();
      if (s < 0.08) ask = bid;
      else if (s < 0.12) [bid, ask] = [ask, bid];
      else if (s < 0.3) ask = stepTicks(bid, 1 + rng.int(4), sym.kind);
      const symbol = rng.next() < 0.03 ? '9999' : sym.name;
      const expected = scan(model, symbol, bid, ask);
      const got = index.take(symbol, bid, ask);
      expect(ids(got), `${where}: take(${symbol}, bid ${bid}, ask ${ask})`).toEqual(ids(expected));
      got.forEach((o, i) => expect(o, `${where}: same object`).toBe(expected[i]));
      const gone = new Set(got.map((o) => o.id));
      model = model.filter((o) => !gone.has(o.id));
      taken.push(...got);
      if (taken.length > 50) taken.splice(0, taken.length - 50);
      stats.maxTaken = Math.max(stats.maxTaken, got.length);
      if (
        got.some(
          (o, i) => i > 0 && o.side === got[i - 1]!.side && o.limitPriceMinor === got[i - 1]!.limitPriceMinor,
        )
      )
        stats.priceTies++;
      if (got.some((o) => o.side === 'long') && got.some((o) => o.side === 'short')) stats.bothSides++;
      for (const o of got) if (retried.has(o.id)) stats.retakes++;
      got.forEach((o, i) => {
        const p = got[i - 1];
        if (p && p.side === o.side && p.limitPriceMinor === o.limitPriceMinor)
          if (addedAt.get(p.id)! > addedAt.get(o.id)!) stats.idBeforeInsertion++;
      });
      const bands = new Set(got.map((o) => tickSizeMinor(o.limitPriceMinor, sym.kind)));
      if (bands.size > 1) stats.bandStraddles++;
    }
    stats.ops++;
    expect(index.size, `${where}: size`).toBe(model.length);
  }
  // Drain: a quote far through every order of each symbol takes exactly what the model holds.
  for (const sym of syms) {
    const expected = scan(model, sym.name, Number.MAX_SAFE_INTEGER, 1);
    expect(ids(index.take(sym.name, Number.MAX_SAFE_INTEGER, 1)), `seed ${seed}: drain ${sym.name}`).toEqual(
      ids(expected),
    );
    model = model.filter((o) => o.symbol !== sym.name);
  }
  expect(index.size).toBe(0);
  return stats;
}

describe('TriggerIndex vs a full scan (seeded fuzz)', () => {
  // Pinned regression seeds, each asserting the edge it was chosen for (so a generator change that
  // loses the edge fails here rather than silently testing less).
  it('a side with no price (0) triggers nothing', () => {
    const index = new TriggerIndex();
    index.add({ id: 1, symbol: '2330', side: 'long', limitPriceMinor: 100_000 });
    index.add({ id: 2, symbol: '2330', side: 'short', limitPriceMinor: 90_000 });
    expect(index.take('2330', 0, 0)).toEqual([]);
    expect(ids(index.take('2330', 95_000, 0))).toEqual(['2:short@90000']);
    expect(ids(index.take('2330', 0, 99_500))).toEqual(['1:long@100000']);
  });

  it('pinned seed 7: big takes across tick-band edges, price ties, crossed quotes', () => {
    const s = checkSeed(7);
    expect(s.maxTaken).toBeGreaterThanOrEqual(12);
    expect(s.bandStraddles).toBeGreaterThanOrEqual(15);
    expect(s.priceTies).toBeGreaterThanOrEqual(50);
    expect(s.bothSides).toBeGreaterThanOrEqual(40);
  });
  it('pinned seed 22: retried orders keep their id priority over newer orders at their price', () => {
    const s = checkSeed(22);
    expect(s.idBeforeInsertion).toBeGreaterThanOrEqual(8);
    expect(s.retakes).toBeGreaterThanOrEqual(30);
    expect(s.removesMissing).toBeGreaterThanOrEqual(20);
    expect(s.duplicateAdds).toBeGreaterThanOrEqual(25);
  });

  it('30 random seeds × 1,000 operations', () => {
    const base = createRng('trigger-fuzz-run', 1).int(1_000_000);
    let ops = 0;
    for (let k = 0; k < 30; k++) ops += checkSeed(base + k).ops;
    expect(ops).toBe(30_000);
  });
});
