/**
 * WebSocket protocol on `/ws` (JSON text frames), version 2.
 *
 * Client → server: `sub`/`unsub` per channel and symbols (candles also per period), `ping`.
 *
 * Server → client: a text frame holds ONE message object or a JSON ARRAY of messages (the
 * gateway sends one array per socket per flush, GATEWAY_FLUSH_MS). For each (channel, symbol[,
 * period]) stream the client gets a `snapshot` first, then `delta`s. The gateway conflates per
 * flush: every stream that changed since the last flush gets exactly one message, serialised once
 * and shared by every subscriber, and its `seq` is the stream's flush counter, so consecutive
 * messages of one stream carry seq, seq+1, …. A jump means a lost message (a socket over its
 * buffer cap skips flushes) and the client asks for a fresh snapshot by re-sending `sub`.
 *
 * Per channel, `data` of a delta is:
 * - quote: the fields of the latest quote that changed since the previous flush, never `symbol`
 *   (contract/quote-delta.ts; conflated: intermediate quotes within a flush are skipped); a
 *   snapshot carries the whole quote;
 * - depth: the levels changed since the previous flush (contract/depth-delta.ts); a snapshot
 *   carries the whole five-level book;
 * - candles: the bars that changed since the previous flush, oldest first; a snapshot carries the
 *   latest bars (up to 300);
 * - trades: every print since the previous flush, oldest first (at most MAX_TRADES_PER_FLUSH;
 *   beyond that the oldest are dropped and `truncated` is true); a snapshot carries the latest 50.
 *
 * `hb` heartbeats every HEARTBEAT_MS whether or not anything else was sent; `ts` is the server's
 * wall clock (epoch ms).
 *
 * Limits, per connection (server/realtime/gateway.ts and budget.ts enforce them):
 * - outbound: every frame the server sends (flushes, snapshot replies, errors, heartbeats) counts
 *   against one budget of WS_OUTBOUND_BUDGET_BYTES unsent bytes. Over it, stream data waits
 *   (conflated: the latest state comes as a fresh snapshot once drained, never a seq gap),
 *   errors and heartbeats are dropped. A socket that stays over it for WS_SLOW_GRACE_MS is closed
 *   with WS_CLOSE_TOO_SLOW; the client reconnects with its backoff and subscribes again;
 * - inbound: WS_MESSAGES_PER_S messages a second (bursts of WS_MESSAGE_BURST); a message beyond
 *   that is refused with an `error` `tooFrequent`, and a client refused WS_ABUSE_REFUSALS times
 *   within WS_ABUSE_WINDOW_MS is closed with WS_CLOSE_TOO_FREQUENT;
 * - subscriptions: at most WS_MAX_STREAMS[channel] streams per channel per connection; a `sub`
 *   beyond that is refused per symbol with an `error` `tooManySubscriptions`.
 * Per client address (server/realtime/limits.ts, configurable): connections (beyond: `error`
 * `tooManyConnections`, then WS_CLOSE_TOO_MANY_CONNECTIONS), the cost of the streams held per
 * connection and per address (beyond: `tooManySubscriptions`), snapshots asked for a second
 * (beyond: `tooFrequent` for that symbol, which is not subscribed).
 * A socket authenticated by a session (the support channel's `auth`) gets `error` `sessionEnded`
 * and WS_CLOSE_SESSION_ENDED when that session ends.
 */
import { z } from 'zod';
import { CHANNELS, type Channel } from './constants';
import {
  candlePeriodSchema,
  candleSchema,
  clockStateSchema,
  depthSchema,
  quoteSchema,
  symbolSchema,
  tradeSchema,
} from './market';

/** The gateway's flush interval (ms): at most one message per stream per socket per flush. */
export const GATEWAY_FLUSH_MS = 25;
/** Cap on prints in one trades delta. */
export const MAX_TRADES_PER_FLUSH = 200;

/**
 * Unsent bytes a connection may have queued in the server process before its stream data waits.
 * The kernel's socket buffers (megabytes on Linux) absorb a reader's hiccups first; this is what
 * may pile up on top of them: ≈ 40 ms of the heaviest stream measured (2,000 quote streams at
 * 20,000 trades/s, 6.8 MB/s, docs/adr/0012-realtime-gateway-flush-and-budget.md), a few seconds of what a phone's screen watches.
 */
export const WS_OUTBOUND_BUDGET_BYTES = 256 * 1024;
/**
 * A connection over its outbound budget for this long without once draining below it is closed
 * (WS_CLOSE_TOO_SLOW). Long enough for a phone to ride out a tunnel or a cell handover (the
 * client then gets fresh snapshots, not a reconnect), short enough that a socket nobody reads
 * is gone well before its kernel buffers matter.
 */
export const WS_SLOW_GRACE_MS = 10_000;
/**
 * Largest frame the server builds, in UTF-16 code units of the JSON text (a frame of one message
 * may be larger: a 300-bar candle snapshot is ≈ 30 KB). A flush or a snapshot reply longer than
 * this goes out as several frames, so the budget is checked between them and one reply cannot
 * put megabytes into a socket's buffer at once.
 */
export const WS_MAX_FRAME_CHARS = 64 * 1024;
/**
 * Steady client message rate (messages per second) and burst. The worker sends a `sub`/`unsub`
 * pair per visible-range change of the market list (up to one per animation frame while
 * scrolling: 120/s for a moment), a `sub` per channel on reconnect and a `ping` per heartbeat: a
 * burst of 240 absorbs four seconds of the fastest scrolling (120/s against a refill of 60/s).
 */
export const WS_MESSAGES_PER_S = 60;
export const WS_MESSAGE_BURST = 240;
/** Refusals (`tooFrequent`) within WS_ABUSE_WINDOW_MS after which the connection is closed. */
export const WS_ABUSE_REFUSALS = 200;
export const WS_ABUSE_WINDOW_MS = 10_000;
/**
 * Streams one connection may hold, per channel. Quotes: the whole instrument universe (~2,200
 * listed TWSE/TPEx symbols; the stream bench watches all of them), each a conflated message per
 * flush. Depth and trades: 500 (one `sub` message's worth; the app watches one symbol's detail at
 * a time, tools and tests watch a few hundred). Candles: 100 per connection over all periods,
 * since each `sub` of one costs a 300-bar fetch (from the database for daily periods).
 */
export const WS_MAX_STREAMS: Readonly<Record<Channel, number>> = {
  quotes: 2_500,
  depth: 500,
  trades: 500,
  candles: 100,
};
/**
 * Largest client message (bytes; the WebSocket server's maxPayload): a `sub` of 500 six-character
 * symbols is ≈ 5 KB, so 16 KiB leaves room while keeping what one message can make the server
 * buffer small.
 */
export const WS_MAX_MESSAGE_BYTES = 16 * 1024;
/** Close code: the connection stayed over its outbound budget (a client that does not read). */
export const WS_CLOSE_TOO_SLOW = 4008;
/** Close code: the client kept sending faster than WS_MESSAGES_PER_S after being refused. */
export const WS_CLOSE_TOO_FREQUENT = 4029;
/**
 * Close code: the session that authenticated the socket ended (logout, a password change, the
 * account disabled or barred, expiry). The client reconnects as a guest and authenticates again.
 */
export const WS_CLOSE_SESSION_ENDED = 4401;
/** Close code: the client's address holds WS_LIMITS.connectionsPerAddress sockets already. */
export const WS_CLOSE_TOO_MANY_CONNECTIONS = 4429;
/** Close reasons sent with those codes (for logs and tools; the client only reconnects). */
export const WS_CLOSE_REASONS = {
  [WS_CLOSE_TOO_SLOW]: 'tooSlow',
  [WS_CLOSE_TOO_FREQUENT]: 'tooFrequent',
  [WS_CLOSE_SESSION_ENDED]: 'sessionEnded',
  [WS_CLOSE_TOO_MANY_CONNECTIONS]: 'tooManyConnections',
} as const;
/** A close code the gateway sends. */
export type WsCloseCode = keyof typeof WS_CLOSE_REASONS;

const levelChangeSchema = z.tuple([z.number().int(), z.number().int(), z.number().int()]);
export const depthDeltaSchema = z.object({
  ts: z.number().int(),
  bids: z.array(levelChangeSchema),
  asks: z.array(levelChangeSchema),
  bidsLen: z.number().int().min(0).max(5),
  asksLen: z.number().int().min(0).max(5),
});

export const channelSchema = z.enum(CHANNELS);
export type { Channel } from './constants';

export const clientMessageSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('sub'),
    channel: channelSchema,
    symbols: z.array(symbolSchema).min(1).max(500),
    period: candlePeriodSchema.optional(),
  }),
  z.object({
    op: z.literal('unsub'),
    channel: channelSchema,
    symbols: z.array(symbolSchema).min(1).max(500),
    period: candlePeriodSchema.optional(),
  }),
  z.object({ op: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

const streamKey = { symbol: z.string(), seq: z.number().int() };

export const serverMessageSchema = z.discriminatedUnion('type', [
  // A quote delta carries the fields that changed since the previous flush (contract/quote-delta.ts).
  z.discriminatedUnion('kind', [
    z.object({ type: z.literal('quote'), kind: z.literal('snapshot'), ...streamKey, data: quoteSchema }),
    z.object({
      type: z.literal('quote'),
      kind: z.literal('delta'),
      ...streamKey,
      data: quoteSchema.omit({ symbol: true }).partial().strict(),
    }),
  ]),
  // zod 4 refuses two options with the same `type`: the two depth kinds form a nested union.
  z.discriminatedUnion('kind', [
    z.object({ type: z.literal('depth'), kind: z.literal('snapshot'), ...streamKey, data: depthSchema }),
    z.object({ type: z.literal('depth'), kind: z.literal('delta'), ...streamKey, data: depthDeltaSchema }),
  ]),
  z.object({
    type: z.literal('candles'),
    kind: z.enum(['snapshot', 'delta']),
    ...streamKey,
    period: candlePeriodSchema,
    /** snapshot: the session's candles so far; delta: the changed last candle(s). */
    data: z.array(candleSchema),
  }),
  z.object({
    type: z.literal('trades'),
    kind: z.enum(['snapshot', 'delta']),
    ...streamKey,
    /** Oldest first. */
    data: z.array(tradeSchema),
    truncated: z.boolean().optional(),
  }),
  z.object({ type: z.literal('hb'), ts: z.number().int(), clock: clockStateSchema }),
  z.object({ type: z.literal('error'), msg: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
/** What one text frame carries. */
export const serverFrameSchema = z.union([serverMessageSchema, z.array(serverMessageSchema)]);

export { CHANNELS, HEARTBEAT_MS, streamId } from './constants';
