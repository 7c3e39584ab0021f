/**
 * Pieces both market feeds share (the replay feed, feed.ts, and the stress feed, stress.ts): the
 * per-instrument ring of prints behind trades(), the aggressor-side rule of a print, and the
 * unref'd interval timer that drives tick(). All re-exported by feed.ts.
 */
import type { Trade } from '../../contract/market';

/** Prints kept per instrument for trades() (the tape snapshot). */
export const TRADES_RING = 200;

/**
 * A bounded ring of prints, oldest first (capacity `cap`): O(1) push, the oldest dropped when
 * full. Shared by the replay and stress feeds.
 */
export class TradeRing {
  private readonly buf: Trade[] = [];
  private head = 0;

  constructor(readonly cap: number = TRADES_RING) {}

  push(t: Trade): void {
    if (this.buf.length < this.cap) this.buf.push(t);
    else {
      this.buf[this.head] = t;
      this.head = (this.head + 1) % this.cap;
    }
  }

  /** The latest min(limit, size) prints, oldest first. */
  latest(limit: number): Trade[] {
    const n = this.buf.length;
    const k = Math.max(0, Math.min(limit, n));
    const out: Trade[] = new Array<Trade>(k);
    for (let j = 0; j < k; j++) out[j] = this.buf[(this.head + n - k + j) % n]!;
    return out;
  }

  clear(): void {
    this.buf.length = 0;
    this.head = 0;
  }
}

/**
 * Aggressor side of a print against the book just before it: at or above the ask → buy, at or
 * below the bid → sell, strictly inside → null.
 */
export function inferSide(priceMinor: number, bidMinor: number, askMinor: number): Trade['side'] {
  if (priceMinor >= askMinor) return 'buy';
  if (priceMinor <= bidMinor) return 'sell';
  return null;
}

/**
 * The feed timer: start() calls `tick` every `intervalMs` wall ms (unref'd, so it does not keep
 * the process alive); stop() clears it.
 */
export function feedTimer(tick: () => void, intervalMs: number): { start(): void; stop(): void } {
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    start() {
      timer = setInterval(tick, intervalMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
