/**
 * The `/ws` realtime gateway (protocol: contract/realtime.ts).
 *
 * Each (channel, symbol[, period]) stream has one sequence counter for the whole server: every
 * feed event increments it and is serialised **once**; the same string goes to every subscriber.
 * A subscriber first gets a snapshot carrying the current seq, then deltas seq+1, seq+2, ….
 * When a socket's send buffer is above MAX_BUFFERED_BYTES the delta is dropped for that socket:
 * its next delta shows a seq gap, and the client asks for a fresh snapshot, so a slow phone gets
 * the newest state and never a growing queue. Heartbeats every HEARTBEAT_MS carry the clock.
 */
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { clientMessageSchema, HEARTBEAT_MS, streamId, type Channel } from '../../contract/realtime';
import type { CandlePeriod } from '../../contract/market';
import type { MarketFeed } from '../market/feed';

/** Above this many unsent bytes a socket skips deltas until it drains. */
export const MAX_BUFFERED_BYTES = 256 * 1024;
/** Cap on streams one socket may hold (a sanity limit). */
export const MAX_STREAMS_PER_SOCKET = 2_000;

interface Stream {
  seq: number;
  subscribers: Set<WebSocket>;
}

/** Handle to stop the gateway (on app close) and count its sockets. */
export interface Gateway {
  stop(): void;
  /** Number of open sockets (tests, metrics). */
  connections(): number;
}

/** Registers `/ws` on the app and wires it to the feed's events; see the module docstring. */
export function registerGateway(app: FastifyInstance, feed: MarketFeed): Gateway {
  const streams = new Map<string, Stream>();
  const socketStreams = new Map<WebSocket, Set<string>>();

  const stream = (id: string): Stream => {
    let s = streams.get(id);
    if (!s) streams.set(id, (s = { seq: 0, subscribers: new Set() }));
    return s;
  };

  function publish(id: string, build: (seq: number) => object) {
    const s = streams.get(id);
    if (!s) return;
    s.seq += 1;
    if (s.subscribers.size === 0) return;
    const text = JSON.stringify(build(s.seq));
    for (const ws of s.subscribers) {
      if (ws.readyState === ws.OPEN && ws.bufferedAmount <= MAX_BUFFERED_BYTES) ws.send(text);
    }
  }

  const offQuote = feed.onQuote((q) =>
    publish(streamId('quotes', q.symbol), (seq) => ({
      type: 'quote',
      kind: 'delta',
      symbol: q.symbol,
      seq,
      data: q,
    })),
  );
  const offDepth = feed.onDepth((d) =>
    publish(streamId('depth', d.symbol), (seq) => ({
      type: 'depth',
      kind: 'delta',
      symbol: d.symbol,
      seq,
      data: d,
    })),
  );
  const offCandle = feed.onCandle((symbol, period, c) =>
    publish(streamId('candles', symbol, period), (seq) => ({
      type: 'candles',
      kind: 'delta',
      symbol,
      period,
      seq,
      data: [c],
    })),
  );

  async function snapshot(ws: WebSocket, channel: Channel, symbol: string, period: CandlePeriod | undefined) {
    const id = streamId(channel, symbol, channel === 'candles' ? period : undefined);
    const s = stream(id);
    let msg: object | null = null;
    if (channel === 'quotes') {
      const q = feed.quote(symbol);
      if (q) msg = { type: 'quote', kind: 'snapshot', symbol, seq: s.seq, data: q };
    } else if (channel === 'depth') {
      const d = feed.depth(symbol);
      if (d) msg = { type: 'depth', kind: 'snapshot', symbol, seq: s.seq, data: d };
    } else {
      const items = await feed.candles(symbol, period ?? '1m', 300);
      msg = { type: 'candles', kind: 'snapshot', symbol, period: period ?? '1m', seq: s.seq, data: items };
    }
    // Subscribe in the same turn as reading seq so no delta falls between snapshot and stream.
    s.subscribers.add(ws);
    socketStreams.get(ws)?.add(id);
    if (msg && ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
  }

  app.get('/ws', { websocket: true }, (socket: WebSocket) => {
    socketStreams.set(socket, new Set());
    socket.on('message', async (raw: Buffer) => {
      let parsed;
      try {
        parsed = clientMessageSchema.safeParse(JSON.parse(raw.toString()));
      } catch {
        parsed = null;
      }
      if (!parsed?.success) {
        socket.send(JSON.stringify({ type: 'error', msg: 'parameterError' }));
        return;
      }
      const m = parsed.data;
      if (m.op === 'ping') {
        socket.send(JSON.stringify({ type: 'hb', ts: Date.now(), clock: feed.clock() }));
        return;
      }
      const mine = socketStreams.get(socket)!;
      for (const symbol of m.symbols) {
        const period = m.channel === 'candles' ? (m.period ?? '1m') : undefined;
        const id = streamId(m.channel, symbol, period);
        if (m.op === 'unsub') {
          streams.get(id)?.subscribers.delete(socket);
          mine.delete(id);
        } else if (feed.isTradable(symbol) && mine.size < MAX_STREAMS_PER_SOCKET) {
          await snapshot(socket, m.channel, symbol, period);
        } else {
          socket.send(JSON.stringify({ type: 'error', msg: 'productNotFound' }));
        }
      }
    });
    socket.on('close', () => {
      for (const id of socketStreams.get(socket) ?? []) streams.get(id)?.subscribers.delete(socket);
      socketStreams.delete(socket);
    });
    socket.send(JSON.stringify({ type: 'hb', ts: Date.now(), clock: feed.clock() }));
  });

  const hb = setInterval(() => {
    const text = JSON.stringify({ type: 'hb', ts: Date.now(), clock: feed.clock() });
    for (const ws of socketStreams.keys()) if (ws.readyState === ws.OPEN) ws.send(text);
  }, HEARTBEAT_MS);
  hb.unref();

  return {
    stop() {
      clearInterval(hb);
      offQuote();
      offDepth();
      offCandle();
      for (const ws of socketStreams.keys()) ws.terminate();
    },
    connections: () => socketStreams.size,
  };
}
