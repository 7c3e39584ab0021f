/**
 * The gateway's connection lifecycle (gateway.ts): a socket's admission (the address's
 * connection limit), its client messages (rate limit, queue bound, in-order handling of `sub`,
 * `unsub`, `ping` and the support channel's `auth`/`say`), its closes (for slowness, abuse or an
 * ended session, with a linger before destroying) and forgetting it with every stream only it held.
 *
 * Units: wall ms (the slow grace, the linger). Errors: an unparsable message is answered with
 * `error` `parameterError`; a message handler that throws or rejects is logged
 * (`realtime gateway: message failed`) and the socket's later messages still run.
 */
import { z } from 'zod';
import {
  clientMessageSchema,
  streamId,
  WS_CLOSE_REASONS,
  WS_CLOSE_SESSION_ENDED,
  WS_CLOSE_TOO_FREQUENT,
  WS_CLOSE_TOO_MANY_CONNECTIONS,
  WS_CLOSE_TOO_SLOW,
  WS_SLOW_GRACE_MS,
  type WsCloseCode,
} from '../../contract/realtime';
import { supportClientMessages } from '../../contract/support';
import type { SupportPeer } from '../modules/support/hub';
import { createRateLimiter, OPEN, overBudget, type GatewaySocket } from './budget';
import type { Conn, GatewayState } from './gateway-state';
import { heartbeatText, sendable, sendReply } from './outbound';
import { errorText } from './streams';
import { subscribe, unsubscribe } from './subscriptions';

/**
 * Client messages waiting to be handled, per socket. Messages are handled at once, in order,
 * except behind a candle snapshot being fetched (daily periods read the database): a queue this
 * long means the client asks faster than the server answers, and further messages are refused.
 */
export const MAX_QUEUED_MESSAGES = 32;
/** After a close for slowness or abuse, the socket is destroyed if still open this much later. */
export const WS_CLOSE_LINGER_MS = 2_000;
/** ws readyState CLOSED. */
const CLOSED = 3;

/** Everything the gateway accepts: the market ops plus the support channel's `auth` and `say`. */
const gatewayMessageSchema = z.union([clientMessageSchema, ...supportClientMessages]);

/** Forgets the socket and every stream only it held. */
export function forget(g: GatewayState, c: Conn): void {
  if (c.closed) return;
  c.closed = true;
  for (const s of [...c.streams]) unsubscribe(g, c, s);
  c.missed.clear();
  g.supportMissed.delete(c);
  if (c.peer) g.support?.close(c.peer);
  for (const w of c.waiting.splice(0)) w.done();
  c.out = [];
  c.outStreams = [];
  g.resyncing.delete(c);
  g.slow.delete(c);
  if (g.conns.delete(c)) g.addresses.release(c.address);
}

/**
 * Closes a socket for slowness, abuse or an ended session: forgotten at once (nothing more is
 * sent to it), the close code and reason sent, destroyed WS_CLOSE_LINGER_MS later if the peer
 * has not answered (one that does not read never gets the close frame, queued behind what it
 * did not read).
 */
export function closeFor(g: GatewayState, c: Conn, code: WsCloseCode): void {
  if (c.closed) return;
  if (code === WS_CLOSE_TOO_SLOW) g.counters.closedTooSlow++;
  else if (code === WS_CLOSE_TOO_FREQUENT) g.counters.closedTooFrequent++;
  else if (code === WS_CLOSE_SESSION_ENDED) g.counters.closedSessionEnded++;
  forget(g, c);
  const ws = c.ws;
  try {
    ws.close(code, WS_CLOSE_REASONS[code]);
  } catch {
    // already closing
  }
  if (ws.terminate) {
    const t = setTimeout(() => {
      if (ws.readyState !== CLOSED) ws.terminate!();
    }, WS_CLOSE_LINGER_MS);
    t.unref?.();
  }
}

/** Clears sockets that drained; closes those over their budget for WS_SLOW_GRACE_MS. */
export function checkSlow(g: GatewayState): void {
  if (g.slow.size === 0) return;
  const t = g.now();
  for (const c of g.slow) {
    if (c.closed || !overBudget(c.ws)) {
      c.overSince = null;
      g.slow.delete(c);
    } else if (t - c.overSince! >= WS_SLOW_GRACE_MS) closeFor(g, c, WS_CLOSE_TOO_SLOW);
  }
}

/** Tells a socket beyond its address's connection limit why, and closes it. */
function refuseConnection(ws: GatewaySocket): void {
  try {
    if (ws.readyState === OPEN) ws.send(errorText('tooManyConnections'));
    ws.close(WS_CLOSE_TOO_MANY_CONNECTIONS, WS_CLOSE_REASONS[WS_CLOSE_TOO_MANY_CONNECTIONS]);
  } catch {
    // already closing
  }
}

/**
 * GatewayCore.open: registers a socket of `address` and sends it a heartbeat; one beyond the
 * address's connection limit gets `error` `tooManyConnections` and is closed (the Conn returned
 * is closed already).
 */
export function openConn(g: GatewayState, ws: GatewaySocket, address: string): Conn {
  const share = g.addresses.admit(address);
  const c: Conn = {
    ws,
    streams: new Set(),
    held: { quotes: 0, depth: 0, trades: 0, candles: 0 },
    address,
    share: share ?? { connections: 0, cost: 0, takeSnapshot: () => false, full: () => true },
    cost: 0,
    out: [],
    outStreams: [],
    mark: -1,
    blocked: false,
    missed: new Map(),
    busy: null,
    waiting: [],
    limiter: createRateLimiter(),
    peer: null,
    overSince: null,
    closed: share === null,
  };
  if (!share) {
    g.counters.refusedConnections++;
    refuseConnection(ws);
    return c;
  }
  g.conns.add(c);
  sendReply(g, c, heartbeatText(g));
  return c;
}

/** The socket as the support hub sees it: events and replies within the budget. */
function peerOf(g: GatewayState, c: Conn): SupportPeer {
  c.peer ??= {
    deliver(text) {
      if (sendable(g, c)) c.ws.send(text);
      else if (!c.closed) g.supportMissed.add(c);
    },
    reply: (text) => sendReply(g, c, text),
    end() {
      sendReply(g, c, errorText('sessionEnded'));
      closeFor(g, c, WS_CLOSE_SESSION_ENDED);
    },
  };
  return c.peer;
}

/** Handles one client message; a promise only while it waits (a candle snapshot). */
function handle(g: GatewayState, c: Conn, raw: string): Promise<void> | undefined {
  if (c.closed) return undefined;
  let parsed;
  try {
    parsed = gatewayMessageSchema.safeParse(JSON.parse(raw));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) {
    sendReply(g, c, errorText('parameterError'));
    return undefined;
  }
  const m = parsed.data;
  if (m.op === 'ping') {
    sendReply(g, c, heartbeatText(g));
    return undefined;
  }
  if (m.op === 'auth' || m.op === 'say') {
    if (!g.support) {
      sendReply(g, c, errorText('parameterError'));
      return undefined;
    }
    return g.support.handle(peerOf(g, c), m);
  }
  const period = m.channel === 'candles' ? (m.period ?? '1m') : undefined;
  if (m.op === 'sub') return subscribe(g, c, m.channel, m.symbols, period);
  for (const symbol of m.symbols) {
    const s = g.streams.get(streamId(m.channel, symbol, period));
    if (s && c.streams.has(s)) unsubscribe(g, c, s);
  }
  return undefined;
}

/**
 * Handles a message now; one that waits (a candle snapshot) makes the socket busy, and its
 * later messages wait in `waiting` until it is done, so each socket's messages are answered
 * in order. Resolves when the message is handled.
 */
function run(g: GatewayState, c: Conn, raw: string): Promise<void> {
  let p: Promise<void> | undefined;
  try {
    p = handle(g, c, raw);
  } catch (err) {
    console.error('realtime gateway: message failed', err);
  }
  if (!p) return Promise.resolve();
  const busy = p
    .catch((err) => console.error('realtime gateway: message failed', err))
    .then(() => {
      c.busy = null;
      while (c.busy === null && c.waiting.length > 0) {
        const next = c.waiting.shift()!;
        void run(g, c, next.raw).then(next.done);
      }
    });
  c.busy = busy;
  return busy;
}

/**
 * GatewayCore.message: refused at once past the rate limit or the queue bound (`error`
 * `tooFrequent`; persistent abuse closes the socket with WS_CLOSE_TOO_FREQUENT), else handled
 * now or queued behind a waiting message; resolves when handled.
 */
export function takeMessage(g: GatewayState, c: Conn, raw: string): Promise<void> {
  if (c.closed) return Promise.resolve();
  const verdict = c.limiter.take(g.now());
  if (verdict === 'abusive') {
    g.counters.refusedMessages++;
    closeFor(g, c, WS_CLOSE_TOO_FREQUENT);
    return Promise.resolve();
  }
  if (verdict === 'refused' || c.waiting.length >= MAX_QUEUED_MESSAGES) {
    g.counters.refusedMessages++;
    sendReply(g, c, errorText('tooFrequent'));
    return Promise.resolve();
  }
  if (c.busy === null) return run(g, c, raw);
  return new Promise<void>((done) => c.waiting.push({ raw, done }));
}
