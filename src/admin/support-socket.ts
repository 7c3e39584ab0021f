/**
 * The console's live customer service: one WebSocket to the gateway's `/ws`, authenticated as
 * the operator (`{op: 'auth', token}`; the support hub sends every conversation's events to
 * operator sockets, server/modules/support/hub.ts). Each `support` event (a message, an
 * assignment, a resolve, a read, or `resync` after the hub dropped events) calls `onEvent`, which
 * reloads over REST; the panel polls only while the socket is not live.
 *
 * Reconnects through the market worker's connection machine (workers/connection-machine.ts,
 * ADR 0051): backoff 0.5 s doubling to 15 s with jitter, reset once authenticated; a reload on
 * every (re)authentication, since events of an outage are lost. The link counts as open (the
 * machine's `opened`) when the gateway answers `authed` as operator, not when the socket opens.
 */
import { useEffect, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { selectSession } from '../api/session';
import { WS_CLOSE_SESSION_ENDED } from '../../contract/realtime';
import { jitteredDelayMs } from '../../workers/backoff';
import {
  initialConnState,
  reduceConn,
  type ConnEffect,
  type ConnEvent,
} from '../../workers/connection-machine';

export const SUPPORT_BACKOFF_BASE_MS = 500;
export const SUPPORT_BACKOFF_MAX_MS = 15_000;

/** The subset of the browser WebSocket the support socket uses (mock-socket fits too). */
export interface SupportSocketLike {
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
}

export interface SupportSocketOptions {
  url: string;
  /** The operator's session token. */
  token: string;
  /** Authenticated as operator (true), or the socket went (false). */
  onLive: (live: boolean) => void;
  /** A support event, or a (re)authentication: reload. */
  onEvent: () => void;
  WebSocket?: new (url: string) => SupportSocketLike;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
}

/** The gateway's URL on this page's host (ws: or wss: as the page). */
const gatewayUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;

/**
 * Opens the operator's support socket and keeps it open (reconnecting) until the returned stop
 * is called or the gateway closes it with WS_CLOSE_SESSION_ENDED (a new socket would not be let
 * in either). The machine's effects about polling, heartbeats, staleness and visibility are not
 * this socket's concern (the panel polls on its own while not live).
 */
export function openSupportSocket(o: SupportSocketOptions): () => void {
  const Ctor = o.WebSocket ?? (WebSocket as unknown as new (url: string) => SupportSocketLike);
  let machine = initialConnState;
  let ws: SupportSocketLike | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const open = (): void => {
    const sock = new Ctor(o.url);
    ws = sock;
    sock.onopen = () => sock.send(JSON.stringify({ op: 'auth', token: o.token }));
    sock.onmessage = (e) => {
      const m = parse(e.data);
      if (m?.type === 'authed' && m.role === 'operator') dispatch({ type: 'opened' });
      else if (m?.type === 'support') o.onEvent();
    };
    sock.onclose = (e) => {
      if (ws === sock) dispatch(e.code === WS_CLOSE_SESSION_ENDED ? { type: 'stop' } : { type: 'down' });
    };
  };
  const close = (): void => {
    const sock = ws;
    ws = null;
    o.onLive(false);
    if (!sock) return;
    sock.onopen = sock.onmessage = sock.onclose = null;
    sock.close();
  };
  const perform = (e: ConnEffect): void => {
    if (e.type === 'openSocket') open();
    else if (e.type === 'closeSocket') close();
    else if (e.type === 'scheduleRetry') {
      retry = setTimeout(
        () => {
          retry = null;
          dispatch({ type: 'retry' });
        },
        jitteredDelayMs(e.capMs, o.random ?? Math.random),
      );
    } else if (e.type === 'cancelRetry') {
      if (retry) clearTimeout(retry);
      retry = null;
    } else if (e.type === 'subscribeAll') {
      o.onLive(true);
      o.onEvent();
    }
  };
  function dispatch(ev: ConnEvent): void {
    const step = reduceConn(machine, ev);
    machine = step.state;
    for (const e of step.effects) perform(e);
  }

  dispatch({ type: 'start', backoffBaseMs: SUPPORT_BACKOFF_BASE_MS, backoffMaxMs: SUPPORT_BACKOFF_MAX_MS });
  return () => dispatch({ type: 'stop' });
}

function parse(data: unknown): { type?: string; role?: string } | null {
  try {
    return JSON.parse(String(data)) as { type?: string; role?: string } | null;
  } catch {
    return null;
  }
}

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
    return openSupportSocket({
      url: gatewayUrl(),
      token,
      onLive: setLive,
      onEvent: () => handler.current(),
    });
  }, [token]);
  return live;
}
