/**
 * Per-connection limits of the realtime gateway (contract/realtime.ts, "Limits"): the outbound
 * budget that every send path goes through, and the inbound message-rate limit.
 *
 * The budget is measured, not estimated: `bufferedAmount` is what the socket holds in the
 * process and has not yet handed to the kernel (for `ws`: the net.Socket's write queue plus the
 * sender's queue), so it rises when the peer stops reading and the kernel buffers are full.
 */
import { WS_MAX_FRAME_CHARS, WS_OUTBOUND_BUDGET_BYTES } from '../../contract/realtime';

/** ws readyState OPEN. */
export const OPEN = 1;

/** What the gateway needs of a socket (`ws` WebSocket fits; tests pass a fake). */
export interface GatewaySocket {
  send(data: string): void;
  /** Bytes queued in the process but not yet written to the network. */
  readonly bufferedAmount: number;
  /** 1 = open (WebSocket readyState). */
  readonly readyState: number;
  /** Starts the closing handshake with a close code and reason. */
  close(code: number, reason: string): void;
  /** Destroys the connection at once (a peer that does not read never answers a close). */
  terminate?(): void;
}

/** True when the socket holds more unsent bytes than its outbound budget. */
export const overBudget = (ws: GatewaySocket): boolean => ws.bufferedAmount > WS_OUTBOUND_BUDGET_BYTES;

/**
 * Sends message texts (each one JSON message) as array frames `[m1,m2,…]` of at most
 * WS_MAX_FRAME_CHARS (a single longer message goes alone), checking the socket before each
 * frame: it stops at the first frame that finds the socket closed or over its budget.
 *
 * @returns how many of `parts` went out; the rest is the caller's to defer or drop
 */
export function sendParts(
  ws: GatewaySocket,
  parts: readonly string[],
  onFrame: (chars: number) => void = () => undefined,
): number {
  let i = 0;
  while (i < parts.length) {
    if (ws.readyState !== OPEN || overBudget(ws)) return i;
    let j = i + 1;
    let chars = parts[i]!.length + 2;
    while (j < parts.length && chars + parts[j]!.length + 1 <= WS_MAX_FRAME_CHARS) {
      chars += parts[j]!.length + 1;
      j++;
    }
    const frame = j === i + 1 ? '[' + parts[i]! + ']' : '[' + parts.slice(i, j).join(',') + ']';
    onFrame(frame.length);
    ws.send(frame);
    i = j;
  }
  return i;
}

/** The inbound message-rate limit (server/modules/common/rate-limiter.ts; the support hub uses it too). */
export { createRateLimiter, type RateLimiter, type RateVerdict } from '../modules/common/rate-limiter';
