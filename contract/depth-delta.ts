/**
 * Five-level depth sent incrementally: the gateway diffs the book at each flush against the book
 * it sent at the previous flush and sends only the levels that changed; the worker applies the
 * delta to the book it holds. Zod-free so the worker bundle can import it.
 *
 * Shapes: a level change is `[index, priceMinor, volumeLots]` (index 0 = best); `bidsLen` and
 * `asksLen` are the book's new number of levels (a shorter book drops the tail).
 * Invariant (fuzz-tested in tests/unit/market-depth-delta.test.ts):
 *   applyDepthDelta(a, diffDepth(a, b)) deep-equals b, for any books a and b of one symbol.
 */
import type { Depth, DepthLevel } from './market';

/** `[index, priceMinor, volumeLots]`. */
export type LevelChange = [number, number, number];

export interface DepthDelta {
  /** Epoch ms of the new book (market time). */
  ts: number;
  bids: LevelChange[];
  asks: LevelChange[];
  bidsLen: number;
  asksLen: number;
}

function diffSide(prev: readonly DepthLevel[], next: readonly DepthLevel[]): LevelChange[] {
  const out: LevelChange[] = [];
  for (let i = 0; i < next.length; i++) {
    const p = prev[i];
    const n = next[i]!;
    if (!p || p.priceMinor !== n.priceMinor || p.volumeLots !== n.volumeLots)
      out.push([i, n.priceMinor, n.volumeLots]);
  }
  return out;
}

function applySide(prev: readonly DepthLevel[], changes: readonly LevelChange[], len: number): DepthLevel[] {
  const out = prev.slice(0, len);
  for (const [i, priceMinor, volumeLots] of changes) {
    if (i < 0 || i >= len) throw new Error(`depth delta level ${i} outside a book of ${len}`);
    out[i] = { priceMinor, volumeLots };
  }
  // A plain loop: `some` skips the holes of a sparse array.
  for (let i = 0; i < len; i++)
    if (out[i] === undefined) throw new Error('depth delta leaves a hole in the book');
  if (out.length !== len) throw new Error('depth delta leaves a hole in the book');
  return out;
}

/** The changes that turn book `prev` into book `next` (same symbol). */
export function diffDepth(prev: Depth, next: Depth): DepthDelta {
  return {
    ts: next.ts,
    bids: diffSide(prev.bids, next.bids),
    asks: diffSide(prev.asks, next.asks),
    bidsLen: next.bids.length,
    asksLen: next.asks.length,
  };
}

/**
 * Applies a delta to the book it was diffed against; returns a new book (the input is not
 * changed). Throws if the delta does not fit the book (the caller then asks for a snapshot).
 */
export function applyDepthDelta(book: Depth, delta: DepthDelta): Depth {
  return {
    symbol: book.symbol,
    ts: delta.ts,
    bids: applySide(book.bids, delta.bids, delta.bidsLen),
    asks: applySide(book.asks, delta.asks, delta.asksLen),
  };
}
