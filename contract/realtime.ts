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
 */
import { z } from 'zod';
import { CHANNELS } from './constants';
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
