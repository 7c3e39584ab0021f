/**
 * The REST fallback while the socket is down: every pollMs one round of snapshots for what the
 * page wants — quotes of every wanted symbol (≤ 500 per call), depth, trades and candles
 * (`since` = the last bar held) of the first few wanted streams. Each call applies its own
 * answer; answers of a round started before `stop` (the socket came back) are dropped. A round
 * with any answer counts as data and sends `pollOk` to the connection machine.
 */
import type { Candle, Depth, Quote, Trade } from '../contract/market';
import { upsertBars } from './conflate';
import {
  CANDLE_SNAPSHOT_LIMIT,
  MAX_HELD_BARS,
  MAX_POLLED_CANDLE_STREAMS,
  MAX_POLLED_DEPTH_SYMBOLS,
  MAX_POLLED_TAPES,
  MAX_SYMBOLS_PER_MESSAGE,
  POLLED_TRADES,
} from './market-config';
import { markData, postJson, publish, type ServiceContext } from './market-context';
import { applySnapshot, publishBars } from './market-streams';
import { isObj, type StreamState } from './market-types';
import { streamId } from './protocol';

export interface Poller {
  /** Polls now and every pollMs (no-op while running). */
  start(): void;
  /** Stops, and drops the answers still in flight. */
  stop(): void;
  /** One round now, if running (new rows need not wait pollMs). */
  pollNowIfRunning(): void;
}

type Task = () => Promise<void>;
/** Is this stream's answer still wanted (same round generation, stream still subscribed)? */
type Current = (st: StreamState) => boolean;

export function createPoller(ctx: ServiceContext): Poller {
  let pollTimer: ReturnType<typeof setInterval> | null = null;
  /** Bumped by stop: answers of an older generation are dropped. */
  let pollGen = 0;
  let pollInFlightGen = -1;

  const pollOnce = async (): Promise<void> => {
    const gen = pollGen;
    if (pollInFlightGen === gen || !ctx.cfg) return;
    const tasks = roundTasks(
      ctx,
      (st) => gen === pollGen && ctx.streams.get(st.id) === st,
      () => gen === pollGen,
    );
    if (tasks.length === 0) return;
    pollInFlightGen = gen;
    let results: PromiseSettledResult<void>[];
    try {
      results = await Promise.allSettled(tasks.map((t) => t()));
    } finally {
      if (pollInFlightGen === gen) pollInFlightGen = -1;
    }
    if (gen !== pollGen) return; // the socket came back (or we stopped) meanwhile
    if (results.some((r) => r.status === 'fulfilled')) {
      ctx.counters.polls++;
      markData(ctx);
      ctx.dispatch({ type: 'pollOk' });
    } else ctx.counters.pollFailures++;
  };

  return {
    start() {
      if (pollTimer !== null || !ctx.cfg) return;
      void pollOnce();
      pollTimer = setInterval(() => void pollOnce(), ctx.cfg.pollMs);
    },
    stop() {
      if (pollTimer !== null) clearInterval(pollTimer);
      pollTimer = null;
      pollGen++;
    },
    pollNowIfRunning() {
      if (pollTimer !== null) void pollOnce();
    },
  };
}

/** The calls of one round, in the order the streams were first wanted (quotes last, batched). */
function roundTasks(ctx: ServiceContext, current: Current, sameRound: () => boolean): Task[] {
  const quoteSymbols: string[] = [];
  const tasks: Task[] = [];
  let depthN = 0;
  let tapeN = 0;
  let candleN = 0;
  for (const st of ctx.streams.values()) {
    if (st.channel === 'quotes') quoteSymbols.push(st.symbol);
    else if (st.channel === 'depth' && depthN < MAX_POLLED_DEPTH_SYMBOLS) {
      depthN++;
      tasks.push(() => pollDepth(ctx, st, current));
    } else if (st.channel === 'trades' && tapeN < MAX_POLLED_TAPES) {
      tapeN++;
      tasks.push(() => pollTape(ctx, st, current));
    } else if (st.channel === 'candles' && candleN < MAX_POLLED_CANDLE_STREAMS && !st.backfilling) {
      candleN++;
      tasks.push(() => pollCandles(ctx, st, current));
    }
  }
  for (let i = 0; i < quoteSymbols.length; i += MAX_SYMBOLS_PER_MESSAGE) {
    const symbols = quoteSymbols.slice(i, i + MAX_SYMBOLS_PER_MESSAGE);
    tasks.push(() => pollQuotes(ctx, symbols, sameRound));
  }
  return tasks;
}

async function pollDepth(ctx: ServiceContext, st: StreamState, current: Current): Promise<void> {
  const d = (await postJson(ctx, 'market/depth', { symbol: st.symbol })) as Depth | null;
  if (!current(st) || !isObj(d)) return;
  st.book = d;
  publish(ctx, st, d);
}

async function pollTape(ctx: ServiceContext, st: StreamState, current: Current): Promise<void> {
  const r = (await postJson(ctx, 'market/trades', { symbol: st.symbol, limit: POLLED_TRADES })) as {
    items?: Trade[];
  } | null;
  if (!current(st) || !Array.isArray(r?.items)) return;
  applySnapshot(ctx, st, r.items);
}

async function pollCandles(ctx: ServiceContext, st: StreamState, current: Current): Promise<void> {
  const last = st.bars?.[st.bars.length - 1];
  const body = last
    ? { symbol: st.symbol, period: st.period, since: last.ts, limit: MAX_HELD_BARS }
    : { symbol: st.symbol, period: st.period, limit: CANDLE_SNAPSHOT_LIMIT };
  const r = (await postJson(ctx, 'market/candles', body)) as { items?: Candle[] } | null;
  if (!current(st) || !Array.isArray(r?.items) || st.backfilling) return;
  const bars = upsertBars([], r.items);
  // `since` = the last bar held, so the answer joins the held bars without a gap.
  if (last) {
    st.bars = upsertBars(st.bars ?? [], bars, MAX_HELD_BARS);
    if (bars.length) publishBars(ctx, st, false, bars);
  } else {
    st.bars = bars.slice(-MAX_HELD_BARS);
    publishBars(ctx, st, true, st.bars);
  }
}

async function pollQuotes(ctx: ServiceContext, symbols: string[], sameRound: () => boolean): Promise<void> {
  const r = (await postJson(ctx, 'market/quotes', { symbols })) as { items?: Quote[] } | null;
  if (!sameRound()) return;
  for (const q of r?.items ?? []) {
    const st = ctx.streams.get(streamId('quotes', q.symbol));
    if (!st) continue;
    st.quote = q;
    publish(ctx, st, q);
  }
}
