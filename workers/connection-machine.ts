/**
 * The connection machine of a reconnecting WebSocket, as a pure reducer:
 * `reduceConn(state, event) → { state, effects }`. No timers, no sockets, no clock: the effects
 * are data (open a socket, schedule a retry within a cap, start the REST poll, re-subscribe…)
 * that an interpreter performs, and the interpreter turns what happens (socket opened, closed,
 * timer fired, poll answered) back into events. Interpreters: the market worker
 * (workers/market-service.ts) and the console's support socket (src/admin/support-socket.ts),
 * each ignoring the effects it has no use for. Why the machine is shaped so: ADR 0051.
 *
 * Three independent fields instead of one status:
 * - `transport`: `idle` (no socket, nothing scheduled), `connecting` (a socket not open yet),
 *   `open`, `backoff` (no socket, a retry scheduled). At most one socket exists at any time.
 * - `freshness`: `stale` after `silence` (no data for the interpreter's staleAfterMs while
 *   visible), `fresh` again on the first data, on open, and on return to the page.
 * - `visibility`: `hidden` keeps the connection as it is for a grace period (`startGrace`);
 *   `graceOver` then parks it (socket closed, no retry, no poll) until `visible`, which resyncs
 *   at once: re-subscribe on an open socket, else reconnect without backoff and poll now.
 * The worker's `ConnState` (workers/protocol.ts) is derived from them by `connState`.
 *
 * A socket that goes down while running and not parked always leaves a retry scheduled
 * (`backoff`), with the cap of attempt n = min(backoffMaxMs, backoffBaseMs × 2^n); the
 * interpreter draws the delay within [cap/2, cap] (workers/backoff.ts).
 */
import { backoffCapMs } from './backoff';
import type { ConnState } from './protocol';

export type Transport = 'idle' | 'connecting' | 'open' | 'backoff';
export type Freshness = 'fresh' | 'stale';
export type Visibility = 'visible' | 'hidden';
/**
 * What the link has been since the socket was last open: `first` (the first attempt after
 * start), `lost` (reconnecting), `polled` (still no socket, but REST polls answer).
 */
export type Link = 'first' | 'lost' | 'polled';

/** The machine's whole state; plain data, never mutated by the reducer. */
export interface ConnMachineState {
  /** Between `start` and `stop`. */
  running: boolean;
  transport: Transport;
  freshness: Freshness;
  visibility: Visibility;
  /** Hidden past the grace period: socket closed, no retry, no polling. */
  parked: boolean;
  /** The REST fallback poll runs. */
  polling: boolean;
  link: Link;
  /** Reconnect attempts scheduled since the socket was last open (or a resync). */
  attempt: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export type ConnEvent =
  | { type: 'start'; backoffBaseMs: number; backoffMaxMs: number }
  | { type: 'stop' }
  /** The current socket opened (for the support socket: authenticated). */
  | { type: 'opened' }
  /** The current socket closed, errored, missed heartbeats, or could not be created. */
  | { type: 'down' }
  /** The retry timer fired. */
  | { type: 'retry' }
  /** A REST poll answered. */
  | { type: 'pollOk' }
  /** Data arrived (socket frame or poll answer). */
  | { type: 'data' }
  /** No data for staleAfterMs. */
  | { type: 'silence' }
  | { type: 'hidden' }
  /** The page is visible; `force` (bfcache return) resyncs even if it already was. */
  | { type: 'visible'; force: boolean }
  /** Hidden for the grace period. */
  | { type: 'graceOver' };

export type ConnEffect =
  | { type: 'openSocket' }
  /** Detach and close the current socket (if any); what it carried needs a fresh snapshot. */
  | { type: 'closeSocket' }
  /** Fire `retry` after a delay drawn from [capMs/2, capMs]; `attempt` is 0-based. */
  | { type: 'scheduleRetry'; attempt: number; capMs: number }
  | { type: 'cancelRetry' }
  | { type: 'startPolling' }
  /** Stop the poll and drop answers still in flight. */
  | { type: 'stopPolling' }
  /** Re-subscribe everything wanted (each answers with a fresh snapshot). */
  | { type: 'subscribeAll' }
  /** Authenticate the open socket for support events and tell their watchers to reload. */
  | { type: 'authSupport' }
  /** Ping and watch heartbeats on the open socket. */
  | { type: 'startHeartbeat' }
  /** A visible, running period starts now: silence before it does not count. */
  | { type: 'markActive' }
  | { type: 'armStale' }
  | { type: 'clearStale' }
  /** (Re)start the hidden grace timer, which fires `graceOver`. */
  | { type: 'startGrace' }
  | { type: 'cancelGrace' };

export interface ConnStep {
  state: ConnMachineState;
  effects: ConnEffect[];
}

/** The state before `start` (visible, backoff unset until `start` brings it). */
export const initialConnState: ConnMachineState = {
  running: false,
  transport: 'idle',
  freshness: 'fresh',
  visibility: 'visible',
  parked: false,
  polling: false,
  link: 'first',
  attempt: 0,
  backoffBaseMs: 0,
  backoffMaxMs: 0,
};

const fx = (...types: Exclude<ConnEffect['type'], 'scheduleRetry'>[]): ConnEffect[] =>
  types.map((type) => ({ type }) as ConnEffect);

const same = (state: ConnMachineState): ConnStep => ({ state, effects: [] });

/** The status the worker reports (workers/protocol.ts `ConnState`) for a machine state. */
export function connState(s: ConnMachineState): ConnState {
  if (!s.running) return 'stopped';
  if (s.visibility === 'hidden') return 'backgrounded';
  if (s.freshness === 'stale') return 'stale';
  if (s.transport === 'open') return 'live';
  return s.link === 'first' ? 'connecting' : s.link === 'lost' ? 'reconnecting' : 'polling';
}

/** The next state and the effects to perform, for one event. Total: every pair is defined. */
export function reduceConn(s: ConnMachineState, ev: ConnEvent): ConnStep {
  switch (ev.type) {
    case 'start':
      return onStart(s, ev);
    case 'stop':
      return onStop(s);
    case 'hidden':
      return onHidden(s);
    case 'visible':
      return onVisible(s, ev.force);
  }
  if (!s.running) return same(s);
  switch (ev.type) {
    case 'opened':
      return onOpened(s);
    case 'down':
      return onDown(s);
    case 'retry':
      return s.transport === 'backoff' && !s.parked
        ? { state: { ...s, transport: 'connecting' }, effects: fx('openSocket') }
        : same(s);
    case 'pollOk':
      return onData(s, true);
    case 'data':
      return onData(s, false);
    case 'silence':
      return s.visibility === 'visible' && s.freshness === 'fresh'
        ? { state: { ...s, freshness: 'stale' }, effects: [] }
        : same(s);
    case 'graceOver':
      return s.visibility === 'hidden' && !s.parked
        ? {
            state: { ...s, parked: true, transport: 'idle', polling: false },
            effects: fx('closeSocket', 'cancelRetry', 'stopPolling'),
          }
        : same(s);
  }
}

function onStart(s: ConnMachineState, ev: { backoffBaseMs: number; backoffMaxMs: number }): ConnStep {
  if (s.running) return same(s);
  const state: ConnMachineState = {
    ...initialConnState,
    visibility: s.visibility,
    running: true,
    transport: 'connecting',
    backoffBaseMs: ev.backoffBaseMs,
    backoffMaxMs: ev.backoffMaxMs,
  };
  const effects = fx('markActive', 'openSocket');
  effects.push(...(s.visibility === 'visible' ? fx('armStale') : fx('clearStale', 'startGrace')));
  return { state, effects };
}

/** Stop from any state: everything torn down, the visibility and backoff settings kept. */
function onStop(s: ConnMachineState): ConnStep {
  return {
    state: {
      ...initialConnState,
      visibility: s.visibility,
      backoffBaseMs: s.backoffBaseMs,
      backoffMaxMs: s.backoffMaxMs,
    },
    effects: fx('closeSocket', 'cancelRetry', 'stopPolling', 'clearStale', 'cancelGrace'),
  };
}

function onHidden(s: ConnMachineState): ConnStep {
  if (s.visibility === 'hidden') return same(s);
  const state: ConnMachineState = { ...s, visibility: 'hidden', parked: false };
  return { state, effects: s.running ? fx('clearStale', 'startGrace') : [] };
}

function onVisible(s: ConnMachineState, force: boolean): ConnStep {
  if (!s.running) return s.visibility === 'visible' ? same(s) : same({ ...s, visibility: 'visible' });
  if (s.visibility === 'visible') return force ? resync(s) : same(s);
  const back: ConnMachineState = {
    ...s,
    visibility: 'visible',
    parked: false,
    freshness: 'fresh',
    link: 'lost',
  };
  const r = resync(back);
  return { state: r.state, effects: [...fx('cancelGrace', 'markActive'), ...r.effects, ...fx('armStale')] };
}

/**
 * Fresh data for everything wanted now: re-subscribe on an open socket; otherwise reset the
 * backoff, open a socket unless one is connecting, and restart the poll (one poll at once).
 */
function resync(s: ConnMachineState): ConnStep {
  if (s.transport === 'open') return { state: s, effects: fx('subscribeAll') };
  const effects = fx('cancelRetry');
  if (s.transport !== 'connecting') effects.push(...fx('openSocket'));
  effects.push(...fx('stopPolling', 'startPolling'));
  return { state: { ...s, attempt: 0, transport: 'connecting', polling: true }, effects };
}

function onOpened(s: ConnMachineState): ConnStep {
  if (s.transport !== 'connecting') return same(s);
  const state: ConnMachineState = { ...s, transport: 'open', attempt: 0, polling: false, link: 'lost' };
  const effects = fx('cancelRetry', 'stopPolling', 'subscribeAll', 'authSupport', 'startHeartbeat');
  if (s.visibility === 'hidden') return { state, effects };
  return { state: { ...state, freshness: 'fresh' }, effects: [...effects, ...fx('markActive', 'armStale')] };
}

/** The socket is gone: poll meanwhile and schedule the next attempt (one at a time). */
function onDown(s: ConnMachineState): ConnStep {
  if (s.parked) return { state: s, effects: fx('closeSocket') };
  const effects = fx('closeSocket');
  if (!s.polling) effects.push(...fx('startPolling'));
  const link: Link = s.link === 'first' ? 'lost' : s.link;
  if (s.transport === 'backoff') return { state: { ...s, polling: true, link }, effects };
  const capMs = backoffCapMs(s.attempt, s.backoffBaseMs, s.backoffMaxMs);
  effects.push({ type: 'scheduleRetry', attempt: s.attempt, capMs });
  return { state: { ...s, transport: 'backoff', polling: true, link, attempt: s.attempt + 1 }, effects };
}

/**
 * Data arrived (`pollOk`: a REST poll answered). Leaves `stale`; without a socket the link
 * counts as polled. Ignored while hidden (time hidden does not count) and, for data, unless stale.
 */
function onData(s: ConnMachineState, polled: boolean): ConnStep {
  if (s.visibility === 'hidden') return same(s);
  const wasStale = s.freshness === 'stale';
  if (!wasStale && !polled) return same(s);
  const link: Link = s.transport === 'open' ? s.link : 'polled';
  if (!wasStale && link === s.link) return same(s);
  return { state: { ...s, freshness: 'fresh', link }, effects: wasStale ? fx('armStale') : [] };
}
