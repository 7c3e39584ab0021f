/**
 * The market service's socket: opens and closes the one WebSocket to /ws, sends (dropped unless
 * the machine says the socket is open), groups sub/unsub by channel and period in chunks the
 * protocol accepts, pings, and watches heartbeats. Socket events go to the connection machine
 * (`opened`, `down`) only while the socket is the current one; frames go to `onFrame`.
 */
import type { CandlePeriod } from '../contract/market';
import type { Channel, ClientMessage } from '../contract/realtime';
import { lazyDeadline } from './lazy-deadline';
import { MAX_SYMBOLS_PER_MESSAGE } from './market-config';
import { isSocketOpen, type ServiceContext } from './market-context';
import { safeCall, type StreamState, type WebSocketLike } from './market-types';

const WS_OPEN = 1;

export interface SocketLink {
  /** Opens a socket unless one exists (a constructor that throws reports `down` on the next tick). */
  open(): void;
  /** Detaches and closes the current socket; every stream then needs a fresh snapshot. */
  close(): void;
  send(msg: ClientMessage | { op: 'auth'; token: string }): void;
  /** (Re-)subscribes every wanted stream: each answers with a fresh snapshot. */
  subscribeAll(): void;
  /** Authenticates the socket for support events; `resync` tells the watchers to reload. */
  authSupport(resync: boolean): void;
  /** Pings every pingMs; no message for heartbeatTimeoutMs sends `down`. */
  startHeartbeat(): void;
}

/** The sub/unsub messages for these streams: grouped by channel and period, ≤ 500 symbols each. */
export function groupedMessages(op: 'sub' | 'unsub', items: readonly StreamState[]): ClientMessage[] {
  const groups = new Map<string, { channel: Channel; period?: CandlePeriod; symbols: string[] }>();
  for (const w of items) {
    const k = `${w.channel}|${w.period ?? ''}`;
    let g = groups.get(k);
    if (!g) {
      g = { channel: w.channel, period: w.period, symbols: [] };
      groups.set(k, g);
    }
    g.symbols.push(w.symbol);
  }
  const out: ClientMessage[] = [];
  for (const g of groups.values()) {
    for (let i = 0; i < g.symbols.length; i += MAX_SYMBOLS_PER_MESSAGE) {
      const symbols = g.symbols.slice(i, i + MAX_SYMBOLS_PER_MESSAGE);
      out.push(
        g.period
          ? { op, channel: g.channel, symbols, period: g.period }
          : { op, channel: g.channel, symbols },
      );
    }
  }
  return out;
}

/** The socket part of the service; wires `ctx.sendGrouped`. */
export function createSocketLink(ctx: ServiceContext, onFrame: (raw: unknown) => void): SocketLink {
  let socket: WebSocketLike | null = null;
  let lastSocketMsgAt = 0;
  let pingTimer: ReturnType<typeof setInterval> | null = null;
  const { now } = ctx.deps;
  const watchdog = lazyDeadline(
    now,
    () => (isSocketOpen(ctx) && ctx.cfg ? lastSocketMsgAt + ctx.cfg.heartbeatTimeoutMs : null),
    () => ctx.dispatch({ type: 'down' }), // no heartbeat in time: dead even if the OS has not noticed
  );
  const stopPing = (): void => {
    if (pingTimer !== null) clearInterval(pingTimer);
    pingTimer = null;
  };
  const send = (msg: ClientMessage | { op: 'auth'; token: string }): void => {
    if (!socket || !isSocketOpen(ctx) || socket.readyState !== WS_OPEN) return;
    try {
      socket.send(JSON.stringify(msg));
    } catch {
      // The close handler deals with a broken socket.
    }
  };
  const sendGrouped = (op: 'sub' | 'unsub', items: readonly StreamState[]): void => {
    for (const m of groupedMessages(op, items)) send(m);
  };
  ctx.sendGrouped = sendGrouped;

  return {
    open() {
      if (!ctx.cfg || socket) return;
      ctx.counters.connects++;
      try {
        socket = new ctx.deps.WebSocket(ctx.cfg.wsUrl);
      } catch {
        // Asynchronously, like a socket that fails to connect.
        setTimeout(() => {
          if (!socket) ctx.dispatch({ type: 'down' });
        }, 0);
        return;
      }
      const ws = socket;
      attach(
        ctx,
        ws,
        () => socket === ws,
        (raw) => {
          lastSocketMsgAt = now();
          onFrame(raw);
        },
      );
    },
    close() {
      stopPing();
      watchdog.clear();
      const ws = socket;
      socket = null;
      resetSeqs(ctx, null);
      if (ws) detachAndClose(ws);
    },
    send,
    subscribeAll: () => subscribeAll(ctx),
    authSupport: (resync) => authSupport(ctx, send, resync),
    startHeartbeat() {
      stopPing();
      if (ctx.cfg) pingTimer = setInterval(() => send({ op: 'ping' }), ctx.cfg.pingMs);
      lastSocketMsgAt = now();
      watchdog.arm();
    },
  };
}

/** Socket events to the connection machine (and frames to `onMessage`) while `isCurrent()`. */
function attach(
  ctx: ServiceContext,
  ws: WebSocketLike,
  isCurrent: () => boolean,
  onMessage: (raw: unknown) => void,
): void {
  ws.onopen = () => {
    if (isCurrent()) ctx.dispatch({ type: 'opened' });
  };
  ws.onmessage = (ev) => {
    if (isCurrent()) onMessage(ev.data);
  };
  ws.onclose = () => {
    if (isCurrent()) ctx.dispatch({ type: 'down' });
  };
  ws.onerror = () => {
    // Browsers follow an error with close; some environments do not, so act on a dead socket.
    if (isCurrent() && ws.readyState >= 2) ctx.dispatch({ type: 'down' });
  };
}

function detachAndClose(ws: WebSocketLike): void {
  ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
  try {
    ws.close();
  } catch {
    // already closed
  }
}

/** Every stream needs a fresh snapshot; `resyncAt`: when a `sub` for it was sent (null: none). */
function resetSeqs(ctx: ServiceContext, resyncAt: number | null): void {
  for (const st of ctx.streams.values()) {
    st.seq = null;
    st.resyncAt = resyncAt;
  }
}

function subscribeAll(ctx: ServiceContext): void {
  resetSeqs(ctx, ctx.deps.now());
  ctx.sendGrouped('sub', Array.from(ctx.streams.values()));
}

function authSupport(ctx: ServiceContext, send: SocketLink['send'], resync: boolean): void {
  const token = [...ctx.supportWatchers.values()].pop();
  if (token === undefined) return;
  send({ op: 'auth', token });
  if (resync)
    for (const w of ctx.supportWatchers.keys())
      void safeCall(() => w.next({ type: 'support', event: 'resync' }));
}
