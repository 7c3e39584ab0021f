/**
 * The market service's input: frames from the socket (one message or an array of them),
 * heartbeats, errors, support events, and per stream the snapshots and deltas (protocol v2,
 * contract/realtime.ts) with sequence checks: a gap, a delta without a snapshot on this
 * connection or a delta that does not fit asks for a fresh snapshot (`requestResync`). Holds the
 * latest quote, book, tape and bars of each wanted stream and publishes each change; a candle
 * snapshot that starts after the bars held is first backfilled over REST.
 */
import { applyDepthDelta, type DepthDelta } from '../contract/depth-delta';
import { applyQuoteDelta } from '../contract/quote-delta';
import type { Candle, CandlePeriod, ClockState, Depth, Quote, Trade } from '../contract/market';
import type { Channel } from '../contract/realtime';
import type { SupportEvent } from '../contract/support';
import { applyTradeUpdate, upsertBars } from './conflate';
import { MAX_HELD_BARS, MAX_MESSAGES_PER_FRAME, RESYNC_RETRY_MS } from './market-config';
import { emitStatus, markData, postJson, publish, type ServiceContext } from './market-context';
import { isObj, safeCall, type StreamState } from './market-types';
import { TAPE_MAX, streamId } from './protocol';

/** One socket frame: parsed, counted as data, each message handled (at most MAX_MESSAGES_PER_FRAME). */
export function onFrame(ctx: ServiceContext, raw: unknown): void {
  if (typeof raw !== 'string') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return;
  }
  markData(ctx);
  if (Array.isArray(parsed)) {
    const n = Math.min(parsed.length, MAX_MESSAGES_PER_FRAME);
    for (let i = 0; i < n; i++) onServerMessage(ctx, parsed[i]);
  } else onServerMessage(ctx, parsed);
}

function onServerMessage(ctx: ServiceContext, m: unknown): void {
  if (!isObj(m)) return;
  switch (m.type) {
    case 'hb':
      if (isObj(m.clock)) ctx.clock = m.clock as unknown as ClockState;
      emitStatus(ctx);
      return;
    case 'error':
      ctx.lastError = String(m.msg ?? 'generic');
      emitStatus(ctx);
      return;
    case 'quote':
    case 'depth':
    case 'candles':
    case 'trades':
      onStreamMessage(ctx, m);
      return;
    case 'support':
      for (const w of ctx.supportWatchers.keys()) void safeCall(() => w.next(m as unknown as SupportEvent));
      return;
    default:
      return;
  }
}

/** Asks for a fresh snapshot of one stream (not again within RESYNC_RETRY_MS). */
function requestResync(ctx: ServiceContext, st: StreamState): void {
  st.seq = null;
  const t = ctx.deps.now();
  if (st.resyncAt !== null && t - st.resyncAt < RESYNC_RETRY_MS) return;
  st.resyncAt = t;
  ctx.counters.resyncs++;
  ctx.sendGrouped('sub', [st]);
}

function onStreamMessage(ctx: ServiceContext, m: Record<string, unknown>): void {
  const channel: Channel = m.type === 'quote' ? 'quotes' : (m.type as Channel);
  const { symbol, seq, kind } = m;
  if (typeof symbol !== 'string' || typeof seq !== 'number') return;
  const period = channel === 'candles' ? (m.period as CandlePeriod) : undefined;
  const st = ctx.streams.get(streamId(channel, symbol, period));
  if (!st) return; // not (or no longer) wanted
  if (kind === 'snapshot') {
    st.seq = seq;
    st.resyncAt = null;
    applySnapshot(ctx, st, m.data);
    return;
  }
  if (kind !== 'delta') return;
  if (st.seq === null) {
    // A delta with no snapshot on this connection: we cannot apply it safely.
    requestResync(ctx, st);
    return;
  }
  if (seq <= st.seq) return; // duplicate or stale
  if (seq !== st.seq + 1) {
    ctx.counters.gaps++;
    requestResync(ctx, st);
    return;
  }
  st.seq = seq;
  applyDelta(ctx, st, m.data);
}

/** Publishes a candle change unless a backfill is in flight (it publishes everything when it lands). */
export function publishBars(ctx: ServiceContext, st: StreamState, snapshot: boolean, items: Candle[]): void {
  if (st.backfilling) return;
  publish(ctx, st, { symbol: st.symbol, period: st.period!, snapshot, items });
}

/** A snapshot of one stream (socket or REST poll): held (the base of the next delta) and published. */
export function applySnapshot(ctx: ServiceContext, st: StreamState, data: unknown): void {
  switch (st.channel) {
    case 'quotes':
      if (!isObj(data)) return;
      st.quote = data as unknown as Quote;
      publish(ctx, st, st.quote);
      return;
    case 'depth':
      if (!isObj(data)) return;
      st.book = data as unknown as Depth;
      publish(ctx, st, st.book);
      return;
    case 'trades': {
      if (!Array.isArray(data)) return;
      const prints = data as Trade[];
      const first = prints[0];
      const older = first ? (st.tape ?? []).filter((t) => t.ts < first.ts) : (st.tape ?? []);
      st.tape = applyTradeUpdate(older, { snapshot: false, items: prints }, TAPE_MAX);
      publish(ctx, st, { symbol: st.symbol, snapshot: true, items: st.tape });
      return;
    }
    case 'candles':
      if (Array.isArray(data)) onCandleSnapshot(ctx, st, data as Candle[]);
      return;
  }
}

/**
 * A fresh candle snapshot (the latest ≤ 300 bars). Bars held before its first bar stay; if it
 * starts after the last bar held, bars in between may be missing: backfill them first.
 */
function onCandleSnapshot(ctx: ServiceContext, st: StreamState, data: Candle[]): void {
  const snap = upsertBars([], data);
  const held = st.bars ?? [];
  const first = snap[0];
  const lastHeld = held[held.length - 1];
  if (first) {
    st.bars = upsertBars(
      held.filter((b) => b.ts < first.ts),
      snap,
      MAX_HELD_BARS,
    );
    st.socketFrom = first.ts;
  } else st.bars = held;
  if (first && lastHeld && first.ts > lastHeld.ts && !st.backfilling) {
    void backfill(ctx, st, lastHeld.ts);
    return;
  }
  publishBars(ctx, st, true, st.bars);
}

async function backfill(ctx: ServiceContext, st: StreamState, since: number): Promise<void> {
  st.backfilling = true;
  ctx.counters.backfills++;
  let fill: Candle[] = [];
  try {
    const res = (await postJson(ctx, 'market/candles', {
      symbol: st.symbol,
      period: st.period,
      since,
      limit: MAX_HELD_BARS,
    })) as { items?: Candle[] } | null;
    fill = Array.isArray(res?.items) ? res.items : [];
  } catch {
    // Deliver what we have; the gap stays visible in the chart rather than blocking it.
    ctx.counters.backfillFailures++;
  }
  if (ctx.streams.get(st.id) !== st) return; // unsubscribed meanwhile
  st.backfilling = false;
  // Precedence: socket bars (the snapshot and deltas since) > the REST answer > bars held from
  // before the outage (the last of which was still forming when it began).
  const from = st.socketFrom ?? Number.POSITIVE_INFINITY;
  const bars = st.bars ?? [];
  const old = bars.filter((b) => b.ts < from);
  const sock = bars.filter((b) => b.ts >= from);
  const rest = upsertBars([], fill).filter((b) => b.ts < from);
  st.bars = upsertBars(upsertBars(old, rest), sock, MAX_HELD_BARS);
  publishBars(ctx, st, true, st.bars);
}

function applyDelta(ctx: ServiceContext, st: StreamState, data: unknown): void {
  switch (st.channel) {
    case 'quotes':
      applyQuoteChange(ctx, st, data);
      return;
    case 'depth':
      applyDepthChange(ctx, st, data);
      return;
    case 'trades': {
      if (!Array.isArray(data) || data.length === 0) return;
      const prints = data as Trade[];
      st.tape = applyTradeUpdate(st.tape ?? [], { snapshot: false, items: prints }, TAPE_MAX);
      publish(ctx, st, { symbol: st.symbol, snapshot: false, items: prints });
      return;
    }
    case 'candles': {
      if (!Array.isArray(data) || data.length === 0) return;
      const bars = upsertBars([], data as Candle[]);
      st.bars = upsertBars(st.bars ?? [], bars, MAX_HELD_BARS);
      publishBars(ctx, st, false, bars);
      return;
    }
  }
}

function applyQuoteChange(ctx: ServiceContext, st: StreamState, data: unknown): void {
  if (!st.quote) {
    requestResync(ctx, st);
    return;
  }
  let quote: Quote;
  try {
    quote = applyQuoteDelta(st.quote, data);
  } catch {
    // Not a delta of this protocol: ask for the whole quote.
    requestResync(ctx, st);
    return;
  }
  st.quote = quote;
  publish(ctx, st, quote);
}

function applyDepthChange(ctx: ServiceContext, st: StreamState, data: unknown): void {
  if (!st.book) {
    requestResync(ctx, st);
    return;
  }
  let book: Depth;
  try {
    book = applyDepthDelta(st.book, data as DepthDelta);
  } catch {
    book = st.book; // not applicable: fails the check below
  }
  if (book === st.book || !wholeBook(book)) {
    // The delta does not fit the book we hold: ask for the whole book.
    ctx.counters.depthMisfits++;
    requestResync(ctx, st);
    return;
  }
  st.book = book;
  publish(ctx, st, book);
}

/**
 * Every level present and numeric. Checked after applyDepthDelta as well: a change beyond the
 * held book's length leaves a sparse hole that `Array.prototype.some` does not visit.
 */
function wholeBook(b: Depth): boolean {
  for (const side of [b.bids, b.asks]) {
    for (let i = 0; i < side.length; i++) {
      const l = side[i];
      if (!l || !Number.isFinite(l.priceMinor) || !Number.isFinite(l.volumeLots)) return false;
    }
  }
  return true;
}
