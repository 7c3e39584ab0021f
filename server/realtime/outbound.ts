/**
 * The gateway's outbound path (gateway.ts "One outbound budget"): every send goes through here.
 * A socket may be sent to only while within its budget (budget.ts overBudget); stream messages
 * that do not fit are deferred (a fresh snapshot once drained, via the flush's resync), replies
 * (errors, heartbeats, pongs) are dropped. Also notes sockets over budget for the slow check.
 *
 * Units: bytes (the budget), wall ms (overSince). Errors: none thrown (a closed socket is skipped).
 */
import { OPEN, overBudget, sendParts } from './budget';
import type { Conn, GatewayState, Stream } from './gateway-state';

/**
 * True when c may be sent to now. Notes a socket over its budget for the slow check, and one
 * seen drained as no longer slow (a flush may fill it again right after: it still reads).
 */
export function sendable(g: GatewayState, c: Conn): boolean {
  if (c.closed || c.ws.readyState !== OPEN) return false;
  if (!overBudget(c.ws)) {
    if (c.overSince !== null) {
      c.overSince = null;
      g.slow.delete(c);
    }
    return true;
  }
  if (c.overSince === null) {
    c.overSince = g.now();
    g.slow.add(c);
  }
  return false;
}

/** The stream's next snapshot for c comes from the resync at a flush once c has drained. */
export function defer(g: GatewayState, c: Conn, s: Stream): void {
  if (!c.missed.has(s)) c.missed.set(s, false);
  g.resyncing.add(c);
}

/**
 * Sends stream messages (and errors, stream null) within the budget; those that do not fit
 * are deferred (a stream's message: a fresh snapshot later) or dropped (an error).
 */
export function sendStreamParts(g: GatewayState, c: Conn, parts: string[], of: Array<Stream | null>): void {
  if (parts.length === 0) return;
  const sent = sendable(g, c) ? sendParts(c.ws, parts, g.onFrame) : 0;
  if (sent === parts.length) return;
  sendable(g, c); // notes the socket as over budget if that is what stopped the frames
  for (let i = sent; i < parts.length; i++) {
    const s = of[i];
    if (!s) g.counters.droppedReplies++;
    else if (c.streams.has(s)) defer(g, c, s);
  }
}

/** Sends one single-message frame (hb, pong, error) within the budget, else drops it. */
export function sendReply(g: GatewayState, c: Conn, text: string): void {
  if (sendable(g, c)) c.ws.send(text);
  else if (!c.closed) g.counters.droppedReplies++;
}

/** The heartbeat text: `{type:'hb', ts: Date.now(), clock: feed.clock()}`. */
export const heartbeatText = (g: GatewayState): string =>
  JSON.stringify({ type: 'hb', ts: Date.now(), clock: g.feed.clock() });
