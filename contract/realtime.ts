/**
 * WebSocket protocol on `/ws` (JSON text frames).
 *
 * Client → server: `sub`/`unsub` per channel and symbols (candles also per period), `ping`.
 * Server → client: for each (channel, symbol[, period]) stream a `snapshot` first, then `delta`s,
 * each with `seq` increasing by exactly 1 per stream on this connection: a jump means a lost
 * message and the client asks for a fresh snapshot (re-`sub`). `hb` heartbeats every
 * HEARTBEAT_MS whether or not anything else was sent.
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
} from './market';

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
  z.object({
    type: z.literal('quote'),
    kind: z.enum(['snapshot', 'delta']),
    ...streamKey,
    data: quoteSchema,
  }),
  z.object({
    type: z.literal('depth'),
    kind: z.enum(['snapshot', 'delta']),
    ...streamKey,
    data: depthSchema,
  }),
  z.object({
    type: z.literal('candles'),
    kind: z.enum(['snapshot', 'delta']),
    ...streamKey,
    period: candlePeriodSchema,
    /** snapshot: the session's candles so far; delta: the changed last candle(s). */
    data: z.array(candleSchema),
  }),
  z.object({ type: z.literal('hb'), ts: z.number().int(), clock: clockStateSchema }),
  z.object({ type: z.literal('error'), msg: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

export { CHANNELS, HEARTBEAT_MS, streamId } from './constants';
