/**
 * The connection machine (workers/connection-machine.ts), a pure reducer: a table of every
 * representative state × every event (next state and effects written out by hand), and a
 * seeded event fuzz against a simulated environment (sockets, retry/grace timers, poll) that
 * checks the invariants after every event. The seed is printed; `FUZZ_SEED=<n>` replays it.
 */
import { describe, expect, it } from 'vitest';
import {
  connState,
  initialConnState,
  reduceConn,
  type ConnEffect,
  type ConnEvent,
  type ConnMachineState,
} from '../../workers/connection-machine';
import type { ConnState } from '../../workers/protocol';
import { seeded } from '../integration/support/random';

const BASE_MS = 100;
const MAX_MS = 1_600;
const running: ConnMachineState = {
  running: true,
  transport: 'open',
  freshness: 'fresh',
  visibility: 'visible',
  parked: false,
  polling: false,
  link: 'lost',
  attempt: 0,
  backoffBaseMs: BASE_MS,
  backoffMaxMs: MAX_MS,
};
const stopped: ConnMachineState = { ...initialConnState, backoffBaseMs: BASE_MS, backoffMaxMs: MAX_MS };

/** The representative states, with the ConnState each reports. */
const STATES: Record<string, [ConnMachineState, ConnState]> = {
  stoppedVisible: [stopped, 'stopped'],
  stoppedHidden: [{ ...stopped, visibility: 'hidden' }, 'stopped'],
  connecting: [{ ...running, transport: 'connecting', link: 'first' }, 'connecting'],
  live: [running, 'live'],
  reconnectingBackoff: [{ ...running, transport: 'backoff', polling: true, attempt: 2 }, 'reconnecting'],
  reconnectingConnecting: [
    { ...running, transport: 'connecting', polling: true, attempt: 2 },
    'reconnecting',
  ],
  pollingBackoff: [
    { ...running, transport: 'backoff', polling: true, link: 'polled', attempt: 3 },
    'polling',
  ],
  staleOpen: [{ ...running, freshness: 'stale' }, 'stale'],
  staleBackoff: [
    { ...running, transport: 'backoff', polling: true, freshness: 'stale', attempt: 1 },
    'stale',
  ],
  hiddenOpen: [{ ...running, visibility: 'hidden' }, 'backgrounded'],
  hiddenBackoff: [
    { ...running, visibility: 'hidden', transport: 'backoff', polling: true, attempt: 1 },
    'backgrounded',
  ],
  parked: [{ ...running, visibility: 'hidden', parked: true, transport: 'idle', attempt: 4 }, 'backgrounded'],
};

const EVENTS: Record<string, ConnEvent> = {
  start: { type: 'start', backoffBaseMs: BASE_MS, backoffMaxMs: MAX_MS },
  stop: { type: 'stop' },
  opened: { type: 'opened' },
  down: { type: 'down' },
  retry: { type: 'retry' },
  pollOk: { type: 'pollOk' },
  data: { type: 'data' },
  silence: { type: 'silence' },
  hidden: { type: 'hidden' },
  visible: { type: 'visible', force: false },
  visibleForce: { type: 'visible', force: true },
  graceOver: { type: 'graceOver' },
};
type EventName = keyof typeof EVENTS;

/** '=': state unchanged, no effects; else the changed fields and the effects in order. */
type Expect = '=' | [Partial<ConnMachineState>, string];

const STOP: Expect = [
  {
    running: false,
    transport: 'idle',
    freshness: 'fresh',
    parked: false,
    polling: false,
    link: 'first',
    attempt: 0,
  },
  'closeSocket cancelRetry stopPolling clearStale cancelGrace',
];
const HIDE: Expect = [{ visibility: 'hidden' }, 'clearStale startGrace'];
const STALE: Expect = [{ freshness: 'stale' }, ''];
const OPENED = 'cancelRetry stopPolling subscribeAll authSupport startHeartbeat markActive armStale';
const RESYNC_NO_SOCKET = 'cancelRetry openSocket stopPolling startPolling';
const BACK_NO_SOCKET = `cancelGrace markActive ${RESYNC_NO_SOCKET} armStale`;
const PARK: Expect = [
  { parked: true, transport: 'idle', polling: false },
  'closeSocket cancelRetry stopPolling',
];
const IGNORED = (names: EventName[]): Partial<Record<EventName, Expect>> =>
  Object.fromEntries(names.map((n) => [n, '=' as const]));

const TABLE: Record<keyof typeof STATES, Record<EventName, Expect>> = {
  stoppedVisible: {
    ...(IGNORED([
      'opened',
      'down',
      'retry',
      'pollOk',
      'data',
      'silence',
      'visible',
      'visibleForce',
      'graceOver',
    ]) as Record<EventName, Expect>),
    start: [{ running: true, transport: 'connecting' }, 'markActive openSocket armStale'],
    stop: STOP,
    hidden: [{ visibility: 'hidden' }, ''],
  },
  stoppedHidden: {
    ...(IGNORED(['opened', 'down', 'retry', 'pollOk', 'data', 'silence', 'hidden', 'graceOver']) as Record<
      EventName,
      Expect
    >),
    start: [{ running: true, transport: 'connecting' }, 'markActive openSocket clearStale startGrace'],
    stop: STOP,
    visible: [{ visibility: 'visible' }, ''],
    visibleForce: [{ visibility: 'visible' }, ''],
  },
  connecting: {
    ...(IGNORED(['start', 'retry', 'data', 'visible', 'graceOver']) as Record<EventName, Expect>),
    stop: STOP,
    opened: [{ transport: 'open', link: 'lost' }, OPENED],
    down: [
      { transport: 'backoff', polling: true, link: 'lost', attempt: 1 },
      'closeSocket startPolling scheduleRetry:0:100',
    ],
    pollOk: [{ link: 'polled' }, ''],
    silence: STALE,
    hidden: HIDE,
    visibleForce: [{ polling: true }, 'cancelRetry stopPolling startPolling'],
  },
  live: {
    ...(IGNORED(['start', 'opened', 'retry', 'pollOk', 'data', 'visible', 'graceOver']) as Record<
      EventName,
      Expect
    >),
    stop: STOP,
    down: [
      { transport: 'backoff', polling: true, attempt: 1 },
      'closeSocket startPolling scheduleRetry:0:100',
    ],
    silence: STALE,
    hidden: HIDE,
    visibleForce: [{}, 'subscribeAll'],
  },
  reconnectingBackoff: {
    ...(IGNORED(['start', 'opened', 'data', 'visible', 'graceOver']) as Record<EventName, Expect>),
    stop: STOP,
    down: [{}, 'closeSocket'],
    retry: [{ transport: 'connecting' }, 'openSocket'],
    pollOk: [{ link: 'polled' }, ''],
    silence: STALE,
    hidden: HIDE,
    visibleForce: [{ transport: 'connecting', attempt: 0 }, RESYNC_NO_SOCKET],
  },
  reconnectingConnecting: {
    ...(IGNORED(['start', 'retry', 'data', 'visible', 'graceOver']) as Record<EventName, Expect>),
    stop: STOP,
    opened: [{ transport: 'open', polling: false, attempt: 0 }, OPENED],
    down: [{ transport: 'backoff', attempt: 3 }, 'closeSocket scheduleRetry:2:400'],
    pollOk: [{ link: 'polled' }, ''],
    silence: STALE,
    hidden: HIDE,
    visibleForce: [{ attempt: 0 }, 'cancelRetry stopPolling startPolling'],
  },
  pollingBackoff: {
    ...(IGNORED(['start', 'opened', 'pollOk', 'data', 'visible', 'graceOver']) as Record<EventName, Expect>),
    stop: STOP,
    down: [{}, 'closeSocket'],
    retry: [{ transport: 'connecting' }, 'openSocket'],
    silence: STALE,
    hidden: HIDE,
    visibleForce: [{ transport: 'connecting', attempt: 0 }, RESYNC_NO_SOCKET],
  },
  staleOpen: {
    ...(IGNORED(['start', 'opened', 'retry', 'silence', 'visible', 'graceOver']) as Record<
      EventName,
      Expect
    >),
    stop: STOP,
    down: [
      { transport: 'backoff', polling: true, attempt: 1 },
      'closeSocket startPolling scheduleRetry:0:100',
    ],
    pollOk: [{ freshness: 'fresh' }, 'armStale'],
    data: [{ freshness: 'fresh' }, 'armStale'],
    hidden: HIDE,
    visibleForce: [{}, 'subscribeAll'],
  },
  staleBackoff: {
    ...(IGNORED(['start', 'opened', 'silence', 'visible', 'graceOver']) as Record<EventName, Expect>),
    stop: STOP,
    down: [{}, 'closeSocket'],
    retry: [{ transport: 'connecting' }, 'openSocket'],
    pollOk: [{ freshness: 'fresh', link: 'polled' }, 'armStale'],
    data: [{ freshness: 'fresh', link: 'polled' }, 'armStale'],
    hidden: HIDE,
    visibleForce: [{ transport: 'connecting', attempt: 0 }, RESYNC_NO_SOCKET],
  },
  hiddenOpen: {
    ...(IGNORED(['start', 'opened', 'retry', 'pollOk', 'data', 'silence', 'hidden']) as Record<
      EventName,
      Expect
    >),
    stop: STOP,
    down: [
      { transport: 'backoff', polling: true, attempt: 1 },
      'closeSocket startPolling scheduleRetry:0:100',
    ],
    visible: [{ visibility: 'visible' }, 'cancelGrace markActive subscribeAll armStale'],
    visibleForce: [{ visibility: 'visible' }, 'cancelGrace markActive subscribeAll armStale'],
    graceOver: PARK,
  },
  hiddenBackoff: {
    ...(IGNORED(['start', 'opened', 'pollOk', 'data', 'silence', 'hidden']) as Record<EventName, Expect>),
    stop: STOP,
    down: [{}, 'closeSocket'],
    retry: [{ transport: 'connecting' }, 'openSocket'],
    visible: [{ visibility: 'visible', transport: 'connecting', attempt: 0 }, BACK_NO_SOCKET],
    visibleForce: [{ visibility: 'visible', transport: 'connecting', attempt: 0 }, BACK_NO_SOCKET],
    graceOver: PARK,
  },
  parked: {
    ...(IGNORED(['start', 'opened', 'retry', 'pollOk', 'data', 'silence', 'hidden', 'graceOver']) as Record<
      EventName,
      Expect
    >),
    stop: STOP,
    down: [{}, 'closeSocket'],
    visible: [
      { visibility: 'visible', parked: false, transport: 'connecting', polling: true, attempt: 0 },
      BACK_NO_SOCKET,
    ],
    visibleForce: [
      { visibility: 'visible', parked: false, transport: 'connecting', polling: true, attempt: 0 },
      BACK_NO_SOCKET,
    ],
  },
};

const fmt = (effects: readonly ConnEffect[]): string =>
  effects
    .map((e) => (e.type === 'scheduleRetry' ? `scheduleRetry:${e.attempt}:${e.capMs}` : e.type))
    .join(' ');

describe('connection machine: every state × event', () => {
  for (const [stateName, [state, status]] of Object.entries(STATES)) {
    it(`${stateName} reports ${status}`, () => {
      expect(connState(state)).toBe(status);
    });
    for (const eventName of Object.keys(EVENTS) as EventName[]) {
      it(`${stateName} × ${eventName}`, () => {
        const expected = TABLE[stateName]?.[eventName];
        if (expected === undefined) throw new Error(`no table entry for ${stateName} × ${eventName}`);
        const frozen = Object.freeze({ ...state });
        const step = reduceConn(frozen, EVENTS[eventName]!);
        if (expected === '=') {
          expect(step.state).toEqual(state);
          expect(fmt(step.effects)).toBe('');
        } else {
          expect(step.state).toEqual({ ...state, ...expected[0] });
          expect(fmt(step.effects)).toBe(expected[1]);
        }
      });
    }
  }
});

/** The world around the machine as the interpreter keeps it, built from the effects alone. */
interface World {
  socket: boolean;
  retryPending: boolean;
  gracePending: boolean;
  polling: boolean;
}

/** Performs effects on the simulated world, asserting each is possible there; returns violations. */
function perform(world: World, s: ConnMachineState, effects: readonly ConnEffect[]): string[] {
  const bad: string[] = [];
  for (const e of effects) {
    switch (e.type) {
      case 'openSocket':
        if (world.socket) bad.push('a second socket opened');
        world.socket = true;
        break;
      case 'closeSocket':
        world.socket = false;
        break;
      case 'scheduleRetry': {
        if (world.retryPending) bad.push('two retries scheduled');
        const floor = Math.min(s.backoffBaseMs, s.backoffMaxMs);
        if (e.capMs > s.backoffMaxMs || e.capMs < floor) bad.push(`backoff cap ${e.capMs} out of bounds`);
        if (e.attempt !== s.attempt - 1) bad.push('retry attempt not counted');
        world.retryPending = true;
        break;
      }
      case 'cancelRetry':
        world.retryPending = false;
        break;
      case 'startPolling':
        world.polling = true;
        break;
      case 'stopPolling':
        world.polling = false;
        break;
      case 'startGrace':
        world.gracePending = true;
        break;
      case 'cancelGrace':
        world.gracePending = false;
        break;
      default:
        break;
    }
  }
  return bad;
}

/** What must hold after every event (beyond `perform`'s checks). */
function invariants(
  s: ConnMachineState,
  w: World,
  prev: ConnMachineState,
  ev: ConnEvent,
  fx: ConnEffect[],
): string[] {
  const bad: string[] = [];
  const hasSocket = s.transport === 'connecting' || s.transport === 'open';
  if (w.socket !== hasSocket) bad.push(`socket ${w.socket} but transport ${s.transport}`);
  if (w.retryPending !== (s.transport === 'backoff'))
    bad.push(`retry ${w.retryPending} but transport ${s.transport}`);
  if (w.polling !== s.polling) bad.push('polling out of step');
  if (s.running && !s.parked && s.transport === 'idle') bad.push('running with neither socket nor retry');
  if (!s.running && (w.socket || w.retryPending || w.polling || w.gracePending))
    bad.push('stopped but still busy');
  if (s.parked && (s.visibility !== 'hidden' || w.socket || w.retryPending || w.polling))
    bad.push('parked but busy');
  if (w.gracePending && !(s.running && s.visibility === 'hidden' && !s.parked))
    bad.push('grace timer out of place');
  const st = connState(s);
  if (s.running && s.visibility === 'visible' && (st === 'stopped' || st === 'backgrounded'))
    bad.push(`visible ${st}`);
  if (ev.type === 'down' && prev.running && !prev.parked && !(s.transport === 'backoff' && w.retryPending))
    bad.push('down without a retry scheduled');
  if (prev.transport !== 'open' && s.transport === 'open' && !fx.some((e) => e.type === 'subscribeAll'))
    bad.push('reopened without re-subscribing');
  if (s.attempt < 0 || (s.transport === 'open' && s.attempt !== 0)) bad.push(`attempt ${s.attempt}`);
  return bad;
}

function randomEvent(r: ReturnType<typeof seeded>): ConnEvent {
  const names = Object.keys(EVENTS) as EventName[];
  const name = r.pick(names);
  if (name === 'start') {
    const base = r.pick([1, 100, 500, 10_000]);
    return { type: 'start', backoffBaseMs: base, backoffMaxMs: r.pick([base, 1_000, 15_000]) };
  }
  return EVENTS[name]!;
}

describe('connection machine: seeded event fuzz', () => {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
  it(`keeps its invariants over random event sequences (FUZZ_SEED=${seed})`, () => {
    console.log(`connection-machine fuzz: FUZZ_SEED=${seed}`);
    const r = seeded(seed);
    for (let run = 0; run < 300; run++) {
      let s = initialConnState;
      const w: World = { socket: false, retryPending: false, gracePending: false, polling: false };
      const trail: string[] = [];
      for (let i = 0; i < 200; i++) {
        const ev = randomEvent(r);
        // Timers fire only when pending: a spurious one must change nothing the world can see.
        if (ev.type === 'retry') w.retryPending = false;
        if (ev.type === 'graceOver') w.gracePending = false;
        const step = reduceConn(s, ev);
        trail.push(ev.type);
        const bad = [
          ...perform(w, step.state, step.effects),
          ...invariants(step.state, w, s, ev, step.effects),
        ];
        if (bad.length)
          throw new Error(`seed ${seed} run ${run}: ${bad.join('; ')} after ${trail.join(' → ')}`);
        s = step.state;
      }
    }
  });
});
