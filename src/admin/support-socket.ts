/**
 * The console's live customer service: one WebSocket to the gateway's `/ws`, authenticated as
 * the operator (`{op: 'auth', token}`; the support hub sends every conversation's events to
 * operator sockets, server/modules/support/hub.ts). Each `support` event (a message, an
 * assignment, a resolve, a read, or `resync` after the hub dropped events) calls `onEvent`, which
 * reloads over REST; the panel polls only while the socket is not live.
 *
 * Reconnects with the market worker's backoff (workers/backoff.ts: 0.5 s doubling to 15 s, with
 * jitter) and reloads once on every (re)connect, since events of an outage are lost.
 */
import { useEffect, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { selectSession } from '../api/session';
import { WS_CLOSE_SESSION_ENDED } from '../../contract/realtime';
import { backoffDelayMs } from '../../workers/backoff';

const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 15_000;

/** The gateway's URL on this page's host (ws: or wss: as the page). */
const gatewayUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;

/**
 * Keeps the operator's support socket open while mounted; `onEvent` runs on every support event
 * and on every (re)connect. Returns whether the socket is live (authenticated as an operator).
 */
export function useSupportSocket(onEvent: () => void): boolean {
  const { token } = useSelector(selectSession);
  const [live, setLive] = useState(false);
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (!token) return;
    let ws: WebSocket | null = null;
    let attempt = 0;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    const connect = () => {
      ws = new WebSocket(gatewayUrl());
      ws.onopen = () => ws?.send(JSON.stringify({ op: 'auth', token }));
      ws.onmessage = (e) => {
        let m: { type?: string; role?: string } | null = null;
        try {
          m = JSON.parse(String(e.data)) as { type?: string; role?: string };
        } catch {
          return;
        }
        if (m?.type === 'authed' && m.role === 'operator') {
          attempt = 0;
          setLive(true);
          handler.current();
        } else if (m?.type === 'support') handler.current();
      };
      ws.onclose = (e) => {
        setLive(false);
        // The session ended (logout elsewhere, disabled): a new socket would not be let in either.
        if (stopped || e.code === WS_CLOSE_SESSION_ENDED) return;
        retry = setTimeout(connect, backoffDelayMs(attempt++, BACKOFF_BASE_MS, BACKOFF_MAX_MS, Math.random));
      };
    };
    connect();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      ws?.close();
      setLive(false);
    };
  }, [token]);
  return live;
}
