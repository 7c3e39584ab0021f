/**
 * The console's support socket (src/admin/support-socket.ts `openSupportSocket`) on fake timers
 * against mock-socket: authenticates as operator, goes live and reloads once per
 * authentication, reloads on support events, reconnects through the connection machine's backoff
 * (reset once authenticated), gives up on WS_CLOSE_SESSION_ENDED, and stop closes everything.
 */
import { Server, WebSocket as MockWebSocket, type Client } from 'mock-socket';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WS_CLOSE_SESSION_ENDED } from '../../contract/realtime';
import {
  openSupportSocket,
  SUPPORT_BACKOFF_BASE_MS,
  type SupportSocketLike,
} from '../../src/admin/support-socket';

let port = 46_000 + Math.floor(Math.random() * 1000) * 3;

interface Rig {
  server: Server;
  sockets: Client[];
  auths: string[];
  live: boolean[];
  events: number;
  stop: () => void;
  /** Answers `authed` on every auth (as operator unless `role` says otherwise). */
  role: string;
  /** Closes every new connection at once (before authentication). */
  refuse: boolean;
  /** Date.now() of each connection. */
  connectedAt: number[];
}

function rig(random = () => 0): Rig {
  const url = `ws://localhost:${port++}/ws`;
  const r: Rig = {
    server: new Server(url),
    sockets: [],
    auths: [],
    live: [],
    events: 0,
    stop: () => {},
    role: 'operator',
    refuse: false,
    connectedAt: [],
  };
  r.server.on('connection', (s) => {
    r.sockets.push(s);
    r.connectedAt.push(Date.now());
    if (r.refuse) {
      s.close();
      return;
    }
    s.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { op: string; token: string };
      if (m.op !== 'auth') return;
      r.auths.push(m.token);
      s.send(JSON.stringify({ type: 'authed', role: r.role }));
    });
  });
  r.stop = openSupportSocket({
    url,
    token: 'tok',
    onLive: (l) => r.live.push(l),
    onEvent: () => r.events++,
    WebSocket: MockWebSocket as unknown as new (u: string) => SupportSocketLike,
    random,
  });
  return r;
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
let rigs: Rig[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  rigs = [];
});
afterEach(() => {
  for (const r of rigs) {
    r.stop();
    r.server.stop();
  }
  vi.useRealTimers();
});

const make = (random?: () => number): Rig => {
  const r = rig(random);
  rigs.push(r);
  return r;
};

describe('support socket', () => {
  it('authenticates, goes live and reloads once; each support event reloads', async () => {
    const r = make();
    await advance(20);
    expect(r.auths).toEqual(['tok']);
    expect(r.live).toEqual([true]);
    expect(r.events).toBe(1);
    r.sockets[0]!.send(JSON.stringify({ type: 'support', event: 'message' }));
    r.sockets[0]!.send(JSON.stringify({ type: 'other' }));
    r.sockets[0]!.send('not json');
    await advance(5);
    expect(r.events).toBe(2);
  });

  it('is not live as a non-operator', async () => {
    const r = make();
    r.role = 'member';
    await advance(20);
    expect(r.auths).toEqual(['tok']);
    expect(r.live).toEqual([]);
    expect(r.events).toBe(0);
  });

  it('reconnects with backoff after a close, reloading on the new authentication', async () => {
    const r = make(); // random 0: every delay is cap/2
    await advance(20);
    r.sockets[0]!.close();
    await advance(20);
    expect(r.live).toEqual([true, false]);
    await advance(SUPPORT_BACKOFF_BASE_MS / 2 - 40);
    expect(r.sockets).toHaveLength(1); // not early
    await advance(60);
    expect(r.sockets).toHaveLength(2);
    expect(r.live).toEqual([true, false, true]);
    expect(r.events).toBe(2);
  });

  it('backs off further while the server refuses, and from the start again once authenticated', async () => {
    const r = make(); // random 0: every delay is cap/2 = 250, 500, 1000, 2000 ms
    await advance(20);
    r.refuse = true;
    r.sockets[0]!.close();
    await advance(4_000);
    const at = r.connectedAt.slice(1);
    // Each gap: the delay (cap/2) plus mock-socket's few ms to close and to connect.
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps).toHaveLength(3);
    [500, 1_000, 2_000].forEach((d, i) => expect(gaps[i]! - d).toSatisfy((x: number) => x >= 0 && x < 50));
    expect(r.live.filter(Boolean)).toHaveLength(1); // never live meanwhile
    expect(r.live.at(-1)).toBe(false);
    r.refuse = false;
    await advance(4_000);
    expect(r.live.filter(Boolean)).toHaveLength(2);
    expect(r.live.at(-1)).toBe(true);
    const n = r.sockets.length;
    const t = Date.now();
    r.sockets[n - 1]!.close();
    await advance(260);
    expect(r.sockets).toHaveLength(n + 1);
    expect(r.connectedAt[n]! - t).toBeLessThan(300); // 250 ms again, not the next step (4 s)
  });

  it('stops for good when the session ended', async () => {
    const r = make();
    await advance(20);
    r.sockets[0]!.close({ code: WS_CLOSE_SESSION_ENDED, reason: 'session ended', wasClean: true });
    await advance(60_000);
    expect(r.sockets).toHaveLength(1);
    expect(r.live).toEqual([true, false]);
  });

  it('stop closes the socket and cancels a scheduled retry', async () => {
    const r = make();
    await advance(20);
    r.sockets[0]!.close();
    await advance(20);
    r.stop();
    await advance(60_000);
    expect(r.sockets).toHaveLength(1);
    const s = make();
    await advance(20);
    s.stop();
    await advance(5);
    expect(s.sockets[0]!.readyState).toBe(MockWebSocket.CLOSED);
  });
});
