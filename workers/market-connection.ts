/**
 * The interpreter of the connection machine (workers/connection-machine.ts) in the market
 * service: `dispatch(event)` reduces, stores the machine state and the ConnState derived from it,
 * performs the effects with the socket (workers/market-socket.ts), the REST poll
 * (workers/market-poll.ts) and its own timers (retry, hidden grace, staleness), and sends the
 * status when it changed. Timers and sockets turn back into events (`retry`, `graceOver`,
 * `silence`; `opened`, `down` from the socket).
 */
import { jitteredDelayMs } from './backoff';
import { connState, reduceConn, type ConnEffect, type ConnEvent } from './connection-machine';
import { lazyDeadline } from './lazy-deadline';
import { BACKGROUND_GRACE_MS } from './market-config';
import { emitIfChanged, type ServiceContext } from './market-context';
import type { Poller } from './market-poll';
import type { SocketLink } from './market-socket';

/** Wires `ctx.dispatch` to the machine; effects go to `link`, `poller` and the timers here. */
export function createConnection(ctx: ServiceContext, link: SocketLink, poller: Poller): void {
  const { now } = ctx.deps;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let graceTimer: ReturnType<typeof setTimeout> | null = null;
  const staleWatch = lazyDeadline(
    now,
    () => (ctx.cfg ? Math.max(ctx.lastDataAt ?? 0, ctx.activeSince) + ctx.cfg.staleAfterMs : null),
    () => dispatch({ type: 'silence' }),
  );

  const scheduleRetry = (capMs: number): void => {
    if (!ctx.cfg || retryTimer !== null) return;
    const delay = jitteredDelayMs(capMs, ctx.deps.random);
    ctx.nextRetryAt = now() + delay;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      ctx.nextRetryAt = null;
      dispatch({ type: 'retry' });
    }, delay);
  };
  const cancelRetry = (): void => {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
    ctx.nextRetryAt = null;
  };
  const cancelGrace = (): void => {
    if (graceTimer !== null) clearTimeout(graceTimer);
    graceTimer = null;
  };
  const startGrace = (): void => {
    cancelGrace();
    graceTimer = setTimeout(() => {
      graceTimer = null;
      dispatch({ type: 'graceOver' });
    }, ctx.cfg?.backgroundGraceMs ?? BACKGROUND_GRACE_MS);
  };

  const timers = { scheduleRetry, cancelRetry, startGrace, cancelGrace, staleWatch };
  function dispatch(ev: ConnEvent): void {
    const step = reduceConn(ctx.machine, ev);
    ctx.machine = step.state;
    ctx.state = connState(step.state);
    for (const e of step.effects) perform(ctx, e, link, poller, timers);
    emitIfChanged(ctx);
  }
  ctx.dispatch = dispatch;
}

interface Timers {
  scheduleRetry(capMs: number): void;
  cancelRetry(): void;
  startGrace(): void;
  cancelGrace(): void;
  staleWatch: { arm(): void; clear(): void };
}

/** Performs one effect of the machine. */
function perform(ctx: ServiceContext, e: ConnEffect, link: SocketLink, poller: Poller, timers: Timers): void {
  switch (e.type) {
    case 'openSocket':
      return link.open();
    case 'closeSocket':
      return link.close();
    case 'scheduleRetry':
      return timers.scheduleRetry(e.capMs);
    case 'cancelRetry':
      return timers.cancelRetry();
    case 'startPolling':
      return poller.start();
    case 'stopPolling':
      return poller.stop();
    case 'subscribeAll':
      return link.subscribeAll();
    case 'authSupport':
      return link.authSupport(true);
    case 'startHeartbeat':
      return link.startHeartbeat();
    case 'markActive':
      ctx.activeSince = ctx.deps.now();
      return;
    case 'armStale':
      return timers.staleWatch.arm();
    case 'clearStale':
      return timers.staleWatch.clear();
    case 'startGrace':
      return timers.startGrace();
    case 'cancelGrace':
      return timers.cancelGrace();
  }
}
