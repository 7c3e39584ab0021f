/**
 * The market service's limits and defaults (all times in ms), and `resolveConfig`, which fills a
 * page's MarketConfig (workers/protocol.ts) with them.
 */
import type { MarketConfig } from './protocol';
import { HEARTBEAT_MS } from './protocol';

export const DEFAULT_FLUSH_MS = 16;
export const POLL_INTERVAL_MS = 2_000;
export const HEARTBEAT_TIMEOUT_MS = HEARTBEAT_MS * 3;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 10_000;
export const BACKGROUND_GRACE_MS = 30_000;
/** Default `staleAfterMs` for a poll interval (see MarketConfig.staleAfterMs for why). */
export const staleAfterDefaultMs = (pollMs: number): number => Math.max(2 * HEARTBEAT_MS, 2 * pollMs);
/** Bars kept per candle stream (the REST `limit` cap, so one backfill request can fill them). */
export const MAX_HELD_BARS = 2_000;
/** The protocol's cap on symbols per sub/unsub message (contract/realtime.ts). */
export const MAX_SYMBOLS_PER_MESSAGE = 500;
/** Per-symbol REST calls while the socket is down: only the first few wanted streams. */
export const MAX_POLLED_DEPTH_SYMBOLS = 5;
export const MAX_POLLED_TAPES = 3;
export const MAX_POLLED_CANDLE_STREAMS = 3;
/** Prints asked of `market/trades` per poll. */
export const POLLED_TRADES = 50;
/** Bars asked of `market/candles` when the worker holds none. */
export const CANDLE_SNAPSHOT_LIMIT = 300;
/** A re-`sub` for a fresh snapshot is not repeated sooner than this (one per gap, not per delta). */
export const RESYNC_RETRY_MS = 3_000;
/** Bound on messages handled from one frame (the gateway sends one per changed stream). */
export const MAX_MESSAGES_PER_FRAME = 10_000;

/** The page's config with every default filled in (undefined fields count as absent). */
export function resolveConfig(config: MarketConfig): Required<MarketConfig> {
  const pollMs = config.pollMs ?? POLL_INTERVAL_MS;
  return {
    flushMs: DEFAULT_FLUSH_MS,
    pollMs,
    heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
    pingMs: HEARTBEAT_MS,
    backoffBaseMs: BACKOFF_BASE_MS,
    backoffMaxMs: BACKOFF_MAX_MS,
    staleAfterMs: staleAfterDefaultMs(pollMs),
    backgroundGraceMs: BACKGROUND_GRACE_MS,
    ...stripUndefined(config),
  };
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
