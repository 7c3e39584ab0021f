/**
 * The market service's shared state (one per service): config, the connection machine's state
 * and the ConnState derived from it, what the status reports, the wanted streams, the channel
 * subjects, the watchers, and two late-bound hooks (`dispatch` into the connection machine,
 * `sendGrouped` on the socket) so the parts (workers/market-*.ts) need not know each other.
 * Also the status snapshot, `publish` of a stream update, `markData` and the REST call.
 */
import { Subject } from 'rxjs';
import type { ClockState } from '../contract/market';
import type { Channel } from '../contract/realtime';
import type { SupportEvent } from '../contract/support';
import { CHANNELS } from '../contract/constants';
import { connState, initialConnState, type ConnEvent, type ConnMachineState } from './connection-machine';
import type { ConnState, MarketConfig, StatusSnapshot, StreamCallbacks } from './protocol';
import {
  safeCall,
  type Item,
  type ServiceCounters,
  type ServiceDeps,
  type StreamState,
  type Update,
} from './market-types';

export interface ServiceContext {
  readonly deps: Required<ServiceDeps>;
  cfg: Required<MarketConfig> | null;
  /** The connection machine's state (workers/connection-machine.ts); `state` is derived from it. */
  machine: ConnMachineState;
  state: ConnState;
  clock: ClockState | null;
  lastError: string | null;
  nextRetryAt: number | null;
  lastDataAt: number | null;
  /** Start of the current visible, running period: silence before it does not count. */
  activeSince: number;
  /** statusKey() at the last emission: emitIfChanged emits when it changed. */
  emittedKey: string;
  readonly streams: Map<string, StreamState>;
  readonly counters: ServiceCounters;
  readonly subjects: Record<Channel, Subject<Update>>;
  readonly statusWatchers: Set<StreamCallbacks<StatusSnapshot>>;
  /** `watchSupport` callbacks and the token each authenticates with (the latest one is used). */
  readonly supportWatchers: Map<StreamCallbacks<SupportEvent>, string>;
  readonly deliveries: Set<{ resume(): void }>;
  /** Feeds an event to the connection machine (set by workers/market-connection.ts). */
  dispatch: (ev: ConnEvent) => void;
  /** Sends sub/unsub for these streams on the open socket (set by workers/market-socket.ts). */
  sendGrouped: (op: 'sub' | 'unsub', items: readonly StreamState[]) => void;
}

/** A fresh context: stopped, visible, nothing wanted; the hooks are no-ops until wired. */
export function createContext(deps: ServiceDeps): ServiceContext {
  return {
    deps: {
      WebSocket: deps.WebSocket,
      fetch: deps.fetch,
      random: deps.random ?? Math.random,
      now: deps.now ?? (() => Date.now()),
      release: deps.release ?? (() => undefined),
      transfer: deps.transfer ?? (<T>(v: T) => v),
    },
    cfg: null,
    machine: initialConnState,
    state: connState(initialConnState),
    clock: null,
    lastError: null,
    nextRetryAt: null,
    lastDataAt: null,
    activeSince: 0,
    emittedKey: '',
    streams: new Map(),
    counters: {
      resyncs: 0,
      gaps: 0,
      depthMisfits: 0,
      connects: 0,
      polls: 0,
      pollFailures: 0,
      backfills: 0,
      backfillFailures: 0,
      batchesDelivered: 0,
      subscribers: 0,
    },
    subjects: Object.fromEntries(CHANNELS.map((c) => [c, new Subject<Update>()])) as Record<
      Channel,
      Subject<Update>
    >,
    statusWatchers: new Set(),
    supportWatchers: new Map(),
    deliveries: new Set(),
    dispatch: () => undefined,
    sendGrouped: () => undefined,
  };
}

export const isVisible = (ctx: ServiceContext): boolean => ctx.machine.visibility === 'visible';
export const isSocketOpen = (ctx: ServiceContext): boolean => ctx.machine.transport === 'open';

export function snapshot(ctx: ServiceContext): StatusSnapshot {
  const { state, clock, nextRetryAt, lastDataAt, lastError } = ctx;
  return {
    state,
    clock,
    attempt: ctx.machine.attempt,
    nextRetryAt,
    lastDataAt,
    visible: isVisible(ctx),
    lastError,
  };
}

const statusKey = (ctx: ServiceContext): string =>
  `${ctx.state}|${ctx.machine.attempt}|${ctx.nextRetryAt}|${isVisible(ctx)}`;

/** Sends the status to every watcher. */
export function emitStatus(ctx: ServiceContext): void {
  ctx.emittedKey = statusKey(ctx);
  const s = snapshot(ctx);
  for (const w of ctx.statusWatchers) void safeCall(() => w.next(s));
}

/** Sends the status if state, attempt, nextRetryAt or visibility changed since the last one. */
export function emitIfChanged(ctx: ServiceContext): void {
  if (statusKey(ctx) !== ctx.emittedKey) emitStatus(ctx);
}

/** Market data arrived (socket frame or poll answer): leaves `stale`. */
export function markData(ctx: ServiceContext): void {
  ctx.lastDataAt = ctx.deps.now();
  if (ctx.state === 'stale') ctx.dispatch({ type: 'data' });
}

/** One stream's new value to its channel's subscribers. */
export function publish(ctx: ServiceContext, st: StreamState, item: Item): void {
  st.receivedAt = ctx.deps.now();
  ctx.subjects[st.channel].next({ id: st.id, item });
}

/** POSTs to the REST API (`restBase` + name); the envelope's `data`, or throws (HTTP error, refusal). */
export async function postJson(ctx: ServiceContext, name: string, body: unknown): Promise<unknown> {
  if (!ctx.cfg) return null;
  const res = await ctx.deps.fetch(`${ctx.cfg.restBase}${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`HTTP error on ${name}`);
  const env = (await res.json()) as { status?: number; data?: unknown };
  if (env.status !== 1) throw new Error(`refused ${name}`);
  return env.data;
}
