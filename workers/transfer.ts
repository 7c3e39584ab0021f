/**
 * Packing of the large batch payloads into typed arrays whose buffers cross the worker boundary
 * as transferables (zero copy), and the decoding the page side applies (worker-bridge). Depth
 * books and candle snapshots are packed; quotes, candle deltas and trades stay plain objects.
 *
 * Every packed value is an integer below 2^53 (minor units, shares, lots, epoch ms), so float64
 * holds it exactly; nothing here does arithmetic on prices. A null turnover is NaN.
 * Invariant (tests/unit/client-worker-transfer.test.ts): decode(encode(x)) deep-equals x.
 */
import type { Candle, Depth, DepthLevel } from '../contract/market';
import type {
  CandleUpdate,
  PackedCandleUpdate,
  PackedDepths,
  StreamBatch,
  TradeUpdate,
  WireBatch,
} from './protocol';
import type { Quote } from '../contract/market';

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

/** Items of one channel as the worker holds them, before encoding. */
export type BatchItems =
  | { channel: 'quotes'; items: Quote[] }
  | { channel: 'depth'; items: Depth[] }
  | { channel: 'candles'; items: CandleUpdate[] }
  | { channel: 'trades'; items: TradeUpdate[] };

/**
 * Encodes one batch for the boundary; `transferables` are the buffers to hand to
 * `Comlink.transfer` (each freshly allocated, so transferring detaches nothing still in use).
 */
export function encodeBatch(
  b: BatchItems,
  receivedAt: number[],
): { batch: WireBatch; transferables: ArrayBuffer[] } {
  switch (b.channel) {
    case 'quotes':
      return { batch: { channel: 'quotes', items: b.items, receivedAt }, transferables: [] };
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
}

/** Page side: a wire batch back to plain objects (`Depth[]`, `CandleUpdate[]`). */
export function decodeBatch(w: WireBatch): StreamBatch {
  switch (w.channel) {
    case 'quotes':
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
}
