/**
 * Pure parts of the worker boundary: typed-array packing of depth books and candle snapshots
 * (decode(encode(x)) deep-equals x, integers exact, null turnover as NaN), and the bar/tape
 * merge rules the worker and the page share (upsertBars agrees with the map-and-sort mergeBars;
 * applyCandleUpdate's snapshot rule keeps older history).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candle, Depth, Quote } from '../../contract/market';
import { applyCandleUpdate, applyTradeUpdate, mergeBars, upsertBars } from '../../workers/conflate';
import {
  createBatchDecoder,
  createBatchEncoder,
  packCandles,
  packDepths,
  unpackCandles,
  unpackDepths,
} from '../../workers/transfer';
import { quoteArb } from './support/arbitraries';

const int = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const candle = fc.record({
  ts: int,
  openMinor: int,
  highMinor: int,
  lowMinor: int,
  closeMinor: int,
  volumeShares: int,
  turnoverMinor: fc.option(int, { nil: null }),
});
const level = fc.record({ priceMinor: int, volumeLots: fc.integer({ min: 0, max: 1_000_000 }) });
const depth = fc.record({
  symbol: fc.stringMatching(/^[0-9A-Z]{4,6}$/),
  ts: int,
  bids: fc.array(level, { maxLength: 5 }),
  asks: fc.array(level, { maxLength: 5 }),
});

describe('packing for transfer', () => {
  it('candles round-trip exactly (integers up to 2^53, null turnover)', () => {
    fc.assert(
      fc.property(fc.array(candle, { maxLength: 50 }), (bars: Candle[]) => {
        expect(unpackCandles(packCandles(bars))).toEqual(bars);
      }),
    );
  });

  it('depth books round-trip exactly, several books in one buffer', () => {
    fc.assert(
      fc.property(fc.array(depth, { maxLength: 8 }), (books: Depth[]) => {
        expect(unpackDepths(packDepths(books))).toEqual(books);
      }),
    );
  });

  it('the batch encoder packs quotes, depth and candle snapshots, each in a fresh buffer; the decoder inverts it', () => {
    const encodeBatch = createBatchEncoder();
    const decodeBatch = createBatchDecoder();
    const bars: Candle[] = [
      {
        ts: 1,
        openMinor: 2,
        highMinor: 3,
        lowMinor: 1,
        closeMinor: 2,
        volumeShares: 1000,
        turnoverMinor: null,
      },
      {
        ts: 2,
        openMinor: 2,
        highMinor: 4,
        lowMinor: 2,
        closeMinor: 4,
        volumeShares: 2000,
        turnoverMinor: 8000,
      },
    ];
    const snap = { symbol: '2330', period: '1m' as const, snapshot: true, items: bars };
    const delta = { symbol: '2317', period: '1m' as const, snapshot: false, items: bars.slice(1) };
    const c = encodeBatch({ channel: 'candles', items: [snap, delta] }, [5, 6]);
    expect(c.transferables).toHaveLength(1);
    expect(decodeBatch(c.batch)).toEqual({ channel: 'candles', items: [snap, delta], receivedAt: [5, 6] });

    const book: Depth = { symbol: '2330', ts: 9, bids: [{ priceMinor: 1, volumeLots: 2 }], asks: [] };
    const d = encodeBatch({ channel: 'depth', items: [book] }, [7]);
    expect(d.transferables).toHaveLength(1);
    expect(decodeBatch(d.batch)).toEqual({ channel: 'depth', items: [book], receivedAt: [7] });

    const t = encodeBatch({ channel: 'trades', items: [] }, []);
    expect(t.transferables).toEqual([]);
  });

  const quote = quoteArb(['2330', '2317', '0050', '6505']);
  const quoteBatches = fc.array(
    fc.array(fc.tuple(quote, fc.integer({ min: 0, max: 2 ** 45 })), { maxLength: 6 }),
    { maxLength: 8 },
  );

  it("a subscription's quote batches round-trip exactly, names and days sent only when new or changed", () => {
    fc.assert(
      fc.property(quoteBatches, (batches) => {
        const encode = createBatchEncoder();
        const decode = createBatchDecoder();
        const lastSent = new Map<string, string>();
        for (const batch of batches) {
          const items: Quote[] = batch.map(([q]) => q);
          const receivedAt = batch.map(([, t]) => t);
          const wire = encode({ channel: 'quotes', items }, receivedAt);
          if (wire.batch.channel !== 'quotes') throw new Error('not a quote batch');
          expect(wire.transferables).toEqual([wire.batch.packed.rows.buffer]);
          // A def travels exactly when the symbol's non-numeric fields are new to this subscription.
          const expectedDefs: string[] = [];
          for (const q of items) {
            const key = JSON.stringify([q.name, q.kind, q.replayDate, q.phase, q.traded]);
            if (lastSent.get(q.symbol) !== key) expectedDefs.push(q.symbol);
            lastSent.set(q.symbol, key);
          }
          expect(wire.batch.packed.defs.map((d) => d[1])).toEqual(expectedDefs);
          expect(decode(wire.batch)).toEqual({ channel: 'quotes', items, receivedAt });
        }
      }),
    );
  });

  it('a quote batch decoded by a decoder that missed the defs is refused, not guessed', () => {
    const q: Quote = {
      symbol: '2330',
      name: '台積電',
      kind: 'stock',
      lastMinor: 1,
      openMinor: 1,
      highMinor: 1,
      lowMinor: 1,
      prevCloseMinor: 1,
      limitUpMinor: 1,
      limitDownMinor: 1,
      bidMinor: 1,
      askMinor: 1,
      volumeShares: 1,
      turnoverMinor: 1,
      ts: 1,
      replayDate: null,
      phase: 'open',
      traded: true,
    };
    const encode = createBatchEncoder();
    encode({ channel: 'quotes', items: [q] }, [1]);
    const second = encode({ channel: 'quotes', items: [{ ...q, lastMinor: 2 }] }, [2]);
    expect(() => createBatchDecoder()(second.batch)).toThrow(/unknown slot/);
  });
});

describe('bar and tape merging', () => {
  const bar = (ts: number, closeMinor: number): Candle => ({
    ts,
    openMinor: 1,
    highMinor: 1,
    lowMinor: 1,
    closeMinor,
    volumeShares: 1,
    turnoverMinor: null,
  });
  const bars = fc.array(
    fc
      .record({ ts: fc.integer({ min: 0, max: 40 }), c: fc.integer({ min: 0, max: 9 }) })
      .map(({ ts, c }) => bar(ts, c)),
    { maxLength: 20 },
  );
  const sortedUnique = (b: Candle[]) => mergeBars([], b);

  it('upsertBars equals mergeBars (fast path or not), and keeps the newest `max`', () => {
    fc.assert(
      fc.property(bars, bars, fc.integer({ min: 1, max: 30 }), (a, b, max) => {
        const prev = sortedUnique(a);
        const want = mergeBars(prev, b);
        expect(upsertBars(prev, b)).toEqual(want);
        expect(upsertBars(prev, b, max)).toEqual(want.slice(-max));
      }),
    );
  });

  it('a candle snapshot replaces bars from its first bar on and keeps older history', () => {
    const held = [bar(1, 1), bar(2, 1), bar(3, 1), bar(4, 1), bar(9, 1)];
    expect(applyCandleUpdate(held, { snapshot: true, items: [bar(3, 2), bar(5, 2)] })).toEqual([
      bar(1, 1),
      bar(2, 1),
      bar(3, 2),
      bar(5, 2),
    ]);
    expect(applyCandleUpdate(held, { snapshot: false, items: [bar(9, 3), bar(10, 3)] })).toEqual([
      ...held.slice(0, 4),
      bar(9, 3),
      bar(10, 3),
    ]);
    expect(applyCandleUpdate(held, { snapshot: true, items: [] })).toEqual(held);
  });

  it('a tape keeps the newest prints', () => {
    expect(applyTradeUpdate([1, 2, 3], { snapshot: false, items: [4, 5] }, 4)).toEqual([2, 3, 4, 5]);
    expect(applyTradeUpdate([1, 2, 3], { snapshot: true, items: [7] }, 4)).toEqual([7]);
  });
});
