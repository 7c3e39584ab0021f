/**
 * The market-data service that runs inside the worker: owns the WebSocket to /ws (protocol v2,
 * contract/realtime.ts), keeps one RxJS Subject per channel (quotes, depth, candles, trades),
 * conflates per subscriber and hands the page one batch per `flushMs`, detects sequence gaps,
 * applies depth deltas to the books it holds, keeps a bounded trades tape and candle series per
 * stream, watches heartbeats, reconnects with backoff + jitter, polls REST snapshots while the
 * socket is down, goes `stale` after silence and `backgrounded` while the page is hidden.
 *
 * Plain TypeScript with injected WebSocket/fetch/transfer/release so it runs under Node with
 * mock-socket (tests/unit/client-worker*.test.ts). workers/comlink-api.ts wires it to Comlink.
 *
 * Parts: the connection machine, a pure reducer (workers/connection-machine.ts), and its
 * interpreter (workers/market-connection.ts); the socket (workers/market-socket.ts); the input
 * of snapshots and deltas (workers/market-streams.ts); the REST fallback (workers/market-poll.ts);
 * delivery to each subscriber (workers/market-delivery.ts); the state they share
 * (workers/market-context.ts). Meanings of the states: workers/protocol.ts.
 */
import { filter, from, merge as mergeStreams, type Subscription } from 'rxjs';
import type { CandlePeriod } from '../contract/market';
import type { Channel } from '../contract/realtime';
import type { SupportEvent } from '../contract/support';
import { CANDLE_PERIODS, CHANNELS } from '../contract/constants';
import { conflate } from './conflate';
import { DEFAULT_FLUSH_MS, resolveConfig } from './market-config';
import { createConnection } from './market-connection';
import {
  createContext,
  isSocketOpen,
  isVisible,
  snapshot,
  emitIfChanged,
  type ServiceContext,
} from './market-context';
import { cachedUpdate, createDelivery, mergeUpdate } from './market-delivery';
import { createPoller, type Poller } from './market-poll';
import { createSocketLink, type SocketLink } from './market-socket';
import { onFrame } from './market-streams';
import type { MarketService, ServiceDeps, StreamState, Update } from './market-types';
import { safeCall } from './market-types';
import { MAX_SUBSCRIBER_FLUSH_MS, TAPE_MAX, streamId } from './protocol';
import type { MarketConfig, StatusSnapshot, StreamCallbacks, StreamHandle, StreamParams } from './protocol';

export { TAPE_MAX };
export * from './market-config';
export type {
  FetchLike,
  MarketService,
  ServiceDeps,
  ServiceStats,
  WebSocketCtor,
  WebSocketLike,
} from './market-types';

const SYMBOL_RE = /^[0-9A-Z]{4,6}$/;

interface Parts {
  ctx: ServiceContext;
  link: SocketLink;
  poller: Poller;
}

/** Creates the market service (socket, streams, conflation, fallbacks); the worker exposes it through Comlink. */
export function createMarketService(deps: ServiceDeps): MarketService {
  const ctx = createContext(deps);
  const link = createSocketLink(ctx, (raw) => onFrame(ctx, raw));
  const poller = createPoller(ctx);
  createConnection(ctx, link, poller);
  const parts: Parts = { ctx, link, poller };
  return {
    start: (config) => start(ctx, config),
    subscribe: (channel, params, callbacks) => subscribe(parts, channel, params, callbacks),
    watchStatus: (callbacks) => watchStatus(ctx, callbacks),
    watchSupport: (token, callbacks) => watchSupport(parts, token, callbacks),
    setVisibility: (visible, force) => setVisibility(ctx, visible, force),
    stop: () => ctx.dispatch({ type: 'stop' }),
    stats: () => ({
      state: ctx.state,
      visible: isVisible(ctx),
      wanted: ctx.streams.size,
      statusWatchers: ctx.statusWatchers.size,
      lastDataAt: ctx.lastDataAt,
      ...ctx.counters,
    }),
  };
}

/** (Re)starts with this config; the same config while running changes nothing. */
function start(ctx: ServiceContext, config: MarketConfig): void {
  const next = resolveConfig(config);
  if (ctx.cfg && ctx.state !== 'stopped' && JSON.stringify(ctx.cfg) === JSON.stringify(next)) return;
  if (ctx.state !== 'stopped') ctx.dispatch({ type: 'stop' });
  ctx.cfg = next;
  ctx.dispatch({ type: 'start', backoffBaseMs: next.backoffBaseMs, backoffMaxMs: next.backoffMaxMs });
}

/** Page visibility; `force` (bfcache return) resyncs even when it already was visible. */
function setVisibility(ctx: ServiceContext, next: boolean, force = false): void {
  const was = isVisible(ctx);
  if (!next) {
    if (was) ctx.dispatch({ type: 'hidden' });
  } else {
    if (!was || force) ctx.dispatch({ type: 'visible', force });
    for (const d of ctx.deliveries) d.resume();
  }
  emitIfChanged(ctx);
}

/** Streams wanted by a new subscription: refcounted; `fresh` ones need a `sub`. */
function addWanted(
  ctx: ServiceContext,
  keys: { channel: Channel; symbol: string; period?: CandlePeriod }[],
): { fresh: StreamState[]; existing: StreamState[] } {
  const fresh: StreamState[] = [];
  const existing: StreamState[] = [];
  for (const k of keys) {
    const id = streamId(k.channel, k.symbol, k.period);
    const st = ctx.streams.get(id);
    if (st) {
      st.count++;
      existing.push(st);
    } else {
      const ns: StreamState = { ...k, id, count: 1, seq: null, resyncAt: ctx.deps.now(), receivedAt: null };
      ctx.streams.set(id, ns);
      fresh.push(ns);
    }
  }
  return { fresh, existing };
}

function dropWanted(ctx: ServiceContext, ids: readonly string[]): void {
  const gone: StreamState[] = [];
  for (const id of ids) {
    const st = ctx.streams.get(id);
    if (!st) continue;
    st.count--;
    if (st.count <= 0) {
      ctx.streams.delete(id);
      gone.push(st);
    }
  }
  if (gone.length) ctx.sendGrouped('unsub', gone);
}

/** The valid, distinct stream keys of a subscription and its conflation interval (throws on a bad channel/period). */
function subscriptionKeys(ctx: ServiceContext, channel: Channel, params: StreamParams) {
  if (!(CHANNELS as readonly string[]).includes(channel))
    throw new Error(`unknown channel ${String(channel)}`);
  const period: CandlePeriod | undefined = channel === 'candles' ? (params.period ?? '1m') : undefined;
  if (period && !(CANDLE_PERIODS as readonly string[]).includes(period))
    throw new Error(`unknown period ${String(period)}`);
  const symbols = Array.from(new Set((params.symbols ?? []).filter((s) => SYMBOL_RE.test(s))));
  const keys = symbols.map((symbol) => ({ channel, symbol, period }));
  const serviceFlushMs = ctx.cfg?.flushMs ?? DEFAULT_FLUSH_MS;
  const asked = Number(params.flushMs);
  const flushMs = Number.isFinite(asked)
    ? Math.min(MAX_SUBSCRIBER_FLUSH_MS, Math.max(serviceFlushMs, asked))
    : serviceFlushMs;
  return { keys, ids: keys.map((k) => streamId(k.channel, k.symbol, k.period)), flushMs };
}

function subscribe(
  { ctx, poller }: Parts,
  channel: Channel,
  params: StreamParams,
  callbacks: StreamCallbacks,
): StreamHandle {
  const { keys, ids, flushMs } = subscriptionKeys(ctx, channel, params);
  const idSet = new Set(ids);
  const { fresh, existing } = addWanted(ctx, keys);
  const cached = existing.map(cachedUpdate).filter((u): u is Update => u !== null);
  const delivery = createDelivery(ctx, channel, callbacks);
  ctx.deliveries.add(delivery);
  const rxSub: Subscription = mergeStreams(
    from(cached),
    ctx.subjects[channel].pipe(filter((u) => idSet.has(u.id))),
  )
    .pipe(
      conflate<Update, string>(
        (u) => u.id,
        flushMs,
        (a, b) => mergeUpdate(channel, a, b),
      ),
    )
    .subscribe((ups) => delivery.push(ups));
  ctx.counters.subscribers++;
  // After the pipeline exists, so an answer however fast finds it.
  if (fresh.length) {
    ctx.sendGrouped('sub', fresh);
    poller.pollNowIfRunning(); // polling: do not make the new rows wait pollMs
  }
  let done = false;
  return {
    unsubscribe() {
      if (done) return;
      done = true;
      ctx.counters.subscribers--;
      rxSub.unsubscribe();
      delivery.close();
      ctx.deliveries.delete(delivery);
      dropWanted(ctx, ids);
      void safeCall(() => callbacks.complete?.()).finally(() => ctx.deps.release(callbacks));
    },
  };
}

function watchStatus(ctx: ServiceContext, callbacks: StreamCallbacks<StatusSnapshot>): StreamHandle {
  ctx.statusWatchers.add(callbacks);
  void safeCall(() => callbacks.next(snapshot(ctx)));
  let done = false;
  return {
    unsubscribe() {
      if (done) return;
      done = true;
      ctx.statusWatchers.delete(callbacks);
      ctx.deps.release(callbacks);
    },
  };
}

function watchSupport(
  { ctx, link }: Parts,
  token: string,
  callbacks: StreamCallbacks<SupportEvent>,
): StreamHandle {
  ctx.supportWatchers.set(callbacks, token);
  if (isSocketOpen(ctx)) link.authSupport(false);
  let done = false;
  return {
    unsubscribe() {
      if (done) return;
      done = true;
      ctx.supportWatchers.delete(callbacks);
      ctx.deps.release(callbacks);
    },
  };
}
