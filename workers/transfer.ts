/**
 * Packing of the large batch payloads into typed arrays whose buffers cross the worker boundary
 * as transferables (zero copy), and the decoding the page side applies (worker-bridge). Quotes,
 * depth books and candle snapshots are packed; candle deltas and trades stay plain objects.
 * Quotes are packed because they are the firehose: at 20,000 updates/s a structured-clone batch
 * of quote objects cost the page's main thread more to decode than anything else it ran
 * (`npm run bench:stream` with BENCH_PROFILE); a transferred buffer costs nothing to receive.
 *
 * Every packed value is an integer below 2^53 (minor units, shares, lots, epoch ms), so float64
 * holds it exactly; nothing here does arithmetic on prices. A null turnover is NaN.
 * Invariant (tests/unit/client-worker-transfer.test.ts): decode(encode(x)) deep-equals x.
 */
import type { Candle, Depth, DepthLevel } from '../contract/market';
import type { Quote } from '../contract/market';
import type {
  CandleUpdate,
  PackedCandleUpdate,
  PackedDepths,
  PackedQuotes,
  QuoteDef,
  StreamBatch,
  TradeUpdate,
  WireBatch,
} from './protocol';

/** Number of float64 columns of a packed candle series. */
export const CANDLE_COLUMNS = 7;

/** Bars → 7 columns of n values (ts, open, high, low, close, volume, turnover|NaN). */
export function packCandles(bars: readonly Candle[]): Float64Array {
  const n = bars.length;
  const a = new Float64Array(n * CANDLE_COLUMNS);
  for (let i = 0; i < n; i++) {
    const b = bars[i]!;
    a[i] = b.ts;
    a[n + i] = b.openMinor;
    a[2 * n + i] = b.highMinor;
    a[3 * n + i] = b.lowMinor;
    a[4 * n + i] = b.closeMinor;
    a[5 * n + i] = b.volumeShares;
    a[6 * n + i] = b.turnoverMinor ?? Number.NaN;
  }
  return a;
}

/** Inverse of `packCandles`. */
export function unpackCandles(a: Float64Array): Candle[] {
  if (a.length % CANDLE_COLUMNS !== 0) throw new Error(`packed candles of length ${a.length}`);
  const n = a.length / CANDLE_COLUMNS;
  const out = new Array<Candle>(n);
  for (let i = 0; i < n; i++) {
    const t = a[6 * n + i]!;
    out[i] = {
      ts: a[i]!,
      openMinor: a[n + i]!,
      highMinor: a[2 * n + i]!,
      lowMinor: a[3 * n + i]!,
      closeMinor: a[4 * n + i]!,
      volumeShares: a[5 * n + i]!,
      turnoverMinor: Number.isNaN(t) ? null : t,
    };
  }
  return out;
}

/** Books → one float64 array (per book: ts, bidsLen, asksLen, then price/lots pairs). */
export function packDepths(books: readonly Depth[]): PackedDepths {
  let len = 0;
  for (const b of books) len += 3 + 2 * (b.bids.length + b.asks.length);
  const data = new Float64Array(len);
  let o = 0;
  for (const b of books) {
    data[o++] = b.ts;
    data[o++] = b.bids.length;
    data[o++] = b.asks.length;
    for (const l of b.bids) {
      data[o++] = l.priceMinor;
      data[o++] = l.volumeLots;
    }
    for (const l of b.asks) {
      data[o++] = l.priceMinor;
      data[o++] = l.volumeLots;
    }
  }
  return { symbols: books.map((b) => b.symbol), data };
}

/** Inverse of `packDepths`. */
export function unpackDepths(p: PackedDepths): Depth[] {
  const out: Depth[] = [];
  const d = p.data;
  let o = 0;
  const side = (n: number): DepthLevel[] => {
    const levels: DepthLevel[] = [];
    for (let i = 0; i < n; i++) {
      levels.push({ priceMinor: d[o]!, volumeLots: d[o + 1]! });
      o += 2;
    }
    return levels;
  };
  for (const symbol of p.symbols) {
    if (o + 3 > d.length) throw new Error('packed depth too short');
    const ts = d[o]!;
    const nb = d[o + 1]!;
    const na = d[o + 2]!;
    o += 3;
    const bids = side(nb);
    const asks = side(na);
    out.push({ symbol, bids, asks, ts });
  }
  return out;
}

/** Number of float64 values per packed quote (see `PackedQuotes`). */
export const QUOTE_COLUMNS = 14;

/**
 * The worker's half of a subscription's quote packing: remembers which slot each symbol has and
 * the non-numeric fields last sent for it, so a def travels only for a new symbol or a change
 * (which takes a new slot: there is one per symbol and replay day, in practice).
 */
export function createQuotePacker(): (
  items: readonly Quote[],
  receivedAt: readonly number[],
) => PackedQuotes {
  const sent = new Map<string, QuoteDef>();
  let nextSlot = 0;
  return (items, receivedAt) => {
    const n = items.length;
    const rows = new Float64Array(n * QUOTE_COLUMNS);
    const defs: QuoteDef[] = [];
    for (let i = 0; i < n; i++) {
      const q = items[i]!;
      let def = sent.get(q.symbol);
      if (
        !def ||
        def[2] !== q.name ||
        def[3] !== q.kind ||
        def[4] !== q.replayDate ||
        def[5] !== q.phase ||
        def[6] !== q.traded ||
        def[7] !== q.priceLimits ||
        def[8] !== q.referenceEstimated ||
        def[9] !== q.taxKind
      ) {
        // A fresh slot even for a known symbol: rows earlier in this batch keep the old def.
        def = [
          nextSlot++,
          q.symbol,
          q.name,
          q.kind,
          q.replayDate,
          q.phase,
          q.traded,
          q.priceLimits,
          q.referenceEstimated,
          q.taxKind,
        ];
        sent.set(q.symbol, def);
        defs.push(def);
      }
      const o = i * QUOTE_COLUMNS;
      rows[o] = def[0];
      rows[o + 1] = receivedAt[i]!;
      rows[o + 2] = q.lastMinor;
      rows[o + 3] = q.openMinor;
      rows[o + 4] = q.highMinor;
      rows[o + 5] = q.lowMinor;
      rows[o + 6] = q.prevCloseMinor;
      rows[o + 7] = q.limitUpMinor;
      rows[o + 8] = q.limitDownMinor;
      rows[o + 9] = q.bidMinor;
      rows[o + 10] = q.askMinor;
      rows[o + 11] = q.volumeShares;
      rows[o + 12] = q.turnoverMinor;
      rows[o + 13] = q.ts;
    }
    return { rows, defs };
  };
}

/**
 * The page's half: applies the batch's defs, then builds one `Quote` per row. Throws on a row
 * whose slot was never defined (a batch decoded by another subscription's decoder).
 */
export function createQuoteUnpacker(): (p: PackedQuotes) => { items: Quote[]; receivedAt: number[] } {
  const slots: QuoteDef[] = [];
  return ({ rows, defs }) => {
    for (const d of defs) slots[d[0]] = d;
    const n = rows.length / QUOTE_COLUMNS;
    if (!Number.isInteger(n)) throw new Error(`packed quotes of length ${rows.length}`);
    const items = new Array<Quote>(n);
    const receivedAt = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const o = i * QUOTE_COLUMNS;
      const d = slots[rows[o]!];
      if (!d) throw new Error(`packed quote with unknown slot ${rows[o]}`);
      receivedAt[i] = rows[o + 1]!;
      items[i] = {
        symbol: d[1],
        name: d[2],
        kind: d[3],
        lastMinor: rows[o + 2]!,
        openMinor: rows[o + 3]!,
        highMinor: rows[o + 4]!,
        lowMinor: rows[o + 5]!,
        prevCloseMinor: rows[o + 6]!,
        limitUpMinor: rows[o + 7]!,
        limitDownMinor: rows[o + 8]!,
        bidMinor: rows[o + 9]!,
        askMinor: rows[o + 10]!,
        volumeShares: rows[o + 11]!,
        turnoverMinor: rows[o + 12]!,
        ts: rows[o + 13]!,
        replayDate: d[4],
        phase: d[5],
        traded: d[6],
        priceLimits: d[7],
        referenceEstimated: d[8],
        taxKind: d[9],
      };
    }
    return { items, receivedAt };
  };
}

/** Items of one channel as the worker holds them, before encoding. */
export type BatchItems =
  | { channel: 'quotes'; items: Quote[] }
  | { channel: 'depth'; items: Depth[] }
  | { channel: 'candles'; items: CandleUpdate[] }
  | { channel: 'trades'; items: TradeUpdate[] };

/**
 * One subscription's encoder (worker side; its batches must be decoded, in order, by one
 * `createBatchDecoder()`). Returns the wire batch and the buffers to hand to `Comlink.transfer`
 * (each freshly allocated, so transferring detaches nothing still in use).
 */
export function createBatchEncoder(): (
  b: BatchItems,
  receivedAt: number[],
) => { batch: WireBatch; transferables: ArrayBuffer[] } {
  let packQuotes: ReturnType<typeof createQuotePacker> | null = null;
  return (b, receivedAt) => {
    switch (b.channel) {
      case 'quotes': {
        const packed = (packQuotes ??= createQuotePacker())(b.items, receivedAt);
        return { batch: { channel: 'quotes', packed }, transferables: [packed.rows.buffer as ArrayBuffer] };
      }
      case 'trades':
        return { batch: { channel: 'trades', items: b.items, receivedAt }, transferables: [] };
      case 'depth': {
        const packed = packDepths(b.items);
        return {
          batch: { channel: 'depth', packed, receivedAt },
          transferables: [packed.data.buffer as ArrayBuffer],
        };
      }
      case 'candles': {
        const transferables: ArrayBuffer[] = [];
        const items = b.items.map((u): CandleUpdate | PackedCandleUpdate => {
          if (!u.snapshot) return u;
          const columns = packCandles(u.items);
          transferables.push(columns.buffer as ArrayBuffer);
          return { symbol: u.symbol, period: u.period, snapshot: true, columns };
        });
        return { batch: { channel: 'candles', items, receivedAt }, transferables };
      }
    }
  };
}

/** One subscription's decoder (page side): wire batches back to plain objects, in order. */
export function createBatchDecoder(): (w: WireBatch) => StreamBatch {
  let unpackQuotes: ReturnType<typeof createQuoteUnpacker> | null = null;
  return (w) => {
    switch (w.channel) {
      case 'quotes':
        return { channel: 'quotes', ...(unpackQuotes ??= createQuoteUnpacker())(w.packed) };
      case 'trades':
        return w;
      case 'depth':
        return { channel: 'depth', items: unpackDepths(w.packed), receivedAt: w.receivedAt };
      case 'candles':
        return {
          channel: 'candles',
          receivedAt: w.receivedAt,
          items: w.items.map((u) =>
            'columns' in u
              ? { symbol: u.symbol, period: u.period, snapshot: true, items: unpackCandles(u.columns) }
              : u,
          ),
        };
    }
  };
}
