/**
 * Delivery of conflated updates to one subscriber: one batch at a time (encoded with typed
 * arrays, workers/transfer.ts), merging what arrives meanwhile; `mergeUpdate` folds two updates
 * of one stream into one, `cachedUpdate` is what a late subscriber to a live stream gets at once.
 */
import type { Channel } from '../contract/realtime';
import { applyTradeUpdate, upsertBars } from './conflate';
import { MAX_HELD_BARS } from './market-config';
import { isVisible, type ServiceContext } from './market-context';
import { safeCall, type StreamState, type Update } from './market-types';
import {
  TAPE_MAX,
  type CandleUpdate,
  type StreamCallbacks,
  type TradeUpdate,
  type WireBatch,
} from './protocol';
import { createBatchEncoder, type BatchItems } from './transfer';

/** `next` after `prev` of the same stream as one update (quotes, depth: the latest; candles, trades: merged). */
export function mergeUpdate(channel: Channel, prev: Update, next: Update): Update {
  if (channel === 'quotes' || channel === 'depth') return next; // full latest values
  if (channel === 'candles') {
    const p = prev.item as CandleUpdate;
    const n = next.item as CandleUpdate;
    if (n.snapshot) return next;
    return { id: next.id, item: { ...p, items: upsertBars(p.items, n.items, MAX_HELD_BARS) } };
  }
  const p = prev.item as TradeUpdate;
  const n = next.item as TradeUpdate;
  if (n.snapshot) return next;
  return { id: next.id, item: { ...p, items: applyTradeUpdate(p.items, n, TAPE_MAX) } };
}

/** What a late subscriber to an already-live stream gets at once. */
export function cachedUpdate(st: StreamState): Update | null {
  switch (st.channel) {
    case 'quotes':
      return st.quote ? { id: st.id, item: st.quote } : null;
    case 'depth':
      return st.book ? { id: st.id, item: st.book } : null;
    case 'candles':
      return st.bars?.length && !st.backfilling
        ? { id: st.id, item: { symbol: st.symbol, period: st.period!, snapshot: true, items: st.bars } }
        : null;
    case 'trades':
      return st.tape ? { id: st.id, item: { symbol: st.symbol, snapshot: true, items: st.tape } } : null;
  }
}

export interface Delivery {
  push(ups: readonly Update[]): void;
  /** Sends what is held, if the page is visible and the last batch was taken. */
  resume(): void;
  close(): void;
}

/**
 * Hands batches to the page one at a time: while the previous `next` has not resolved (the
 * page is busy) or the page is hidden, newer updates are merged by stream into one held batch
 * instead of queuing (bounded by the streams subscribed).
 */
export function createDelivery(ctx: ServiceContext, channel: Channel, callbacks: StreamCallbacks): Delivery {
  let inFlight = false;
  let held: Map<string, Update> | null = null;
  let closed = false;
  const encode = createBatchEncoder();
  const hold = (ups: readonly Update[]): void => {
    held ??= new Map();
    for (const u of ups) {
      const prev = held.get(u.id);
      held.set(u.id, prev ? mergeUpdate(channel, prev, u) : u);
    }
  };
  const sendNow = (ups: readonly Update[]): void => {
    inFlight = true;
    ctx.counters.batchesDelivered++;
    const t = ctx.deps.now();
    const { batch, transferables } = encode(
      { channel, items: ups.map((u) => u.item) } as BatchItems,
      ups.map((u) => ctx.streams.get(u.id)?.receivedAt ?? t),
    );
    const wire: WireBatch = transferables.length ? ctx.deps.transfer(batch, transferables) : batch;
    void safeCall(() => callbacks.next(wire)).then(() => {
      inFlight = false;
      drain();
    });
  };
  const drain = (): void => {
    if (closed || inFlight || !isVisible(ctx) || !held) return;
    const ups = Array.from(held.values());
    held = null;
    sendNow(ups);
  };
  return {
    push(ups) {
      if (closed || ups.length === 0) return;
      if (inFlight || !isVisible(ctx)) hold(ups);
      else sendNow(ups);
    },
    resume: drain,
    close() {
      closed = true;
      held = null;
    },
  };
}
